"""Subcommands of `bluegray`: each module defines NAME, HELP, add_arguments(parser) and run(args)."""
