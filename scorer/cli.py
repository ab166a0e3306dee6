"""The `tourpad` console command. Each package owns its commands; this file only wires them together.

Heavy libraries (flet, reportlab, zxing) are imported inside the commands that need them, so
`tourpad score` starts fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
import typer.core

from scorer.commands import app_commands, bench, engine_commands, print_commands, publish_command, race_commands


class OneLineUsageErrors(typer.core.TyperGroup):
    """A usage error (unknown option, bad value) ends as click's plain "Error: …" line instead of rich's
    panel, which hard-wraps the message, and any path in it, at the terminal's width. Help stays rich."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        return typer.core._main(self, args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=standalone_mode, windows_expand_args=windows_expand_args,
                                rich_markup_mode=None, **extra)


app = typer.Typer(help="tourpad: score pad, printables, rules engine and solo play for Boomerang "
                       "(Australia, Europe, USA) and Race Around Europe.",
                  cls=OneLineUsageErrors, no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False)

engine_commands.register(app)
race_commands.register(app)
app.add_typer(bench.app, name="bench")
app_commands.register(app)
app.add_typer(print_commands.app, name="print")
publish_command.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
