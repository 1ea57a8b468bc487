"""Computer players: they play through the rules' public reducer and legal choices, from outside
``rules``."""
