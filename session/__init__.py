"""Session: the write side of a game on the server, what decides and folds a live game: the session
records, the fold of the effective history, deciding each seat's action (undo, pause, draw, chat, the
end), the dice, the clock, the ids, the secret write-down, the cache of rules contexts, and what a
spectator may see."""
