"""Replay: folding the effective history, seeking, after-action review."""
