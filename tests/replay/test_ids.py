"""Game ids a shell can pass: never "-" first (`bluegray verify -Xy...` would read an option)."""

import re

from session import ids


def test_an_id_beginning_with_a_dash_is_drawn_again(monkeypatch):
    draws = iter(["-Xy4kQ9a_b2c", "--Z0Z0Z0Z0Z0", "Xy4kQ9a_b2c-"])
    monkeypatch.setattr(ids.secrets, "token_urlsafe", lambda n: next(draws))
    assert ids.new_game_id() == "Xy4kQ9a_b2c-"


def test_ids_are_twelve_url_safe_characters_never_dash_first():
    drawn = [ids.new_game_id() for _ in range(6400)]  # about 100 would begin with "-" without the check
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]{11}", g) for g in drawn)
    assert len(set(drawn)) == len(drawn)
