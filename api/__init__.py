"""The HTTP and websocket API, and the `bluegray` command line."""
