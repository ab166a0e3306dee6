"""`tourpad print …`: score pads and print-and-play card sheets as PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="Print score pads and card sheets as PDF.", no_args_is_help=True)


def _race_board(board_id: str):
    from scorer.commands.race_commands import board_or_fail

    return board_or_fail(board_id)


@app.command("race-tiles")
def race_tiles(
    output: Annotated[Path, typer.Option("-o", "--output", help="the PDF to write")] = Path("race-tiles.pdf"),
    paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
    board: Annotated[str, typer.Option(help="tourpad or a board pack's id (its colours)")] = "tourpad",
    backs: Annotated[bool, typer.Option("--backs/--no-backs", help="a page of tile backs after each page")] = True,
) -> None:
    """Race Around Europe print-and-play tiles: 52 countries, 10 aeroplanes, 9 ships (30 × 40 mm)."""
    from printables.race import render_tiles
    from scorer.commands.common import console, fail

    if paper not in ("a4", "letter"):
        fail(f"unknown paper {paper!r}; choose a4 or letter")
    chosen = _race_board(board)
    try:
        pages = render_tiles(chosen, output, paper, backs)
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    console.print(f"wrote {output} ({pages} pages)")


@app.command("race-map")
def race_map(
    output: Annotated[Path, typer.Option("-o", "--output", help="the PDF to write")] = Path("race-map.pdf"),
    paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
    board: Annotated[str, typer.Option(help="tourpad or a board pack's id (its colours)")] = "tourpad",
) -> None:
    """Race Around Europe one-page reference map: countries, colours, seas, ferries and the bridge."""
    from printables.race import render_map
    from scorer.commands.common import console, fail

    if paper not in ("a4", "letter"):
        fail(f"unknown paper {paper!r}; choose a4 or letter")
    chosen = _race_board(board)
    try:
        render_map(chosen, output, paper)
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    console.print(f"wrote {output}")
