"""`tourpad print …`: score pads and print-and-play card sheets as PDF."""

from __future__ import annotations

import typer

app = typer.Typer(help="Print score pads and card sheets as PDF.", no_args_is_help=True)
