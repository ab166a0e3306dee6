"""The `tourpad` console command. Each package owns its commands; this file only wires them together.

Heavy libraries (flet, reportlab, zxing) are imported inside the commands that need them, so
`tourpad score` starts fast.
"""

from __future__ import annotations

import typer

from scorer.commands import bench, engine_commands, race_commands

app = typer.Typer(help="tourpad: score pad, printables, rules engine and solo play for Boomerang "
                       "(Australia, Europe, USA) and Race Around Europe.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

engine_commands.register(app)
race_commands.register(app)
app.add_typer(bench.app, name="bench")


def _register_optional() -> None:
    """Commands of the app, printing, table and scanning packages."""
    from scorer.commands import app_commands

    app_commands.register(app)
    from scorer.commands import publish_command

    publish_command.register(app)
    from printables import cli as print_cli

    app.add_typer(print_cli.app, name="print")


_register_optional()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
