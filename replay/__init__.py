"""Replay: the read side of a game's log: seeking, the timeline, reports and the text record, export
and import, forks, verifying a log, after-action review."""
