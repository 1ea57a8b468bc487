"""replay/steps.py: a game's effective commands with the state before and after each; a command an
accepted undo took back is not among them."""

from replaylog import GAMES
from test_seek_report import played_with_undos

from replay.steps import steps
from rules.core import state as rules_state
from session.history import decode_entry


def test_the_effective_commands_with_their_states():
    book = played_with_undos()
    reverted = book.history.session.reverted
    assert reverted  # the game has an accepted undo
    found = steps(book.game_id, book.envelopes, GAMES)
    commands = [e.version for e in book.envelopes if e.type == "command"]
    undone = {v for v in commands if any(b < v <= a for b, a in reverted)}
    assert undone and [s.version for s in found] == [v for v in commands if v not in undone]
    for before, after in zip(found, found[1:], strict=False):
        assert rules_state.encode(before.after) == rules_state.encode(after.before)  # nothing between
    by_version = {e.version: e for e in book.envelopes}
    for step in found:
        record = decode_entry(by_version[step.version])
        assert step.side == record.seat
    assert rules_state.encode(found[-1].after) == rules_state.encode(book.history.state)
