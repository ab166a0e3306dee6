"""The `tourpad` subcommands, one module per area."""
