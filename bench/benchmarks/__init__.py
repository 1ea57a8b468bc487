"""Benchmarks behind `bluegray bench NAME`.

Each module here defines NAME, HELP, add_arguments(parser) and run(args) -> int, like a subcommand.
A benchmark prints its figures beside a baseline measured in the same run (for example a bare Redis
XADD), and the ratio; no figure here is a pass/fail threshold.
"""
