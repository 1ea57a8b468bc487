"""Players' accounts: names (names.py), password hashes (passwords.py), the accounts and their
sessions in the store (store.py), and the limit on failed log-ins (limits.py)."""
