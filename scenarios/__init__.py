"""Scenario data (one folder per battle) and its loader and validator."""
