"""The `bluegray` subcommands that measure: `bench`, `loadtest` and `soak`, each a module as in
api/commands/ (NAME, HELP, add_arguments, run), found by api/cli.py by the package's name."""
