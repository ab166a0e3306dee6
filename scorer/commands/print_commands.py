"""`tourpad print …`: score pads and print-and-play card sheets as PDF.

Every refusal (unknown edition, unwritable path, fewer than one sheet, bleed that does not fit the paper)
happens before anything is written, exits non-zero and names the problem.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from scorer.commands.common import console, fail
from scorer.commands.engine_commands import edition_or_fail
from scorer.commands.race_commands import board_or_fail

app = typer.Typer(help="Print score pads and card sheets as PDF.", no_args_is_help=True)


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


EditionOpt = Annotated[str, typer.Option("--edition", "-e", help="australia, europe, usa, or an imported pack id")]
OutputOpt = Annotated[Path, typer.Option("-o", "--output", help="the PDF to write")]
PaperOpt = Annotated[Paper, typer.Option("--paper", help="paper size")]


def _check_output(output: Path) -> None:
    from printables.output import OutputError, check_writable

    try:
        check_writable(output)
    except OutputError as err:
        fail(str(err))


@app.command("scorepad")
def scorepad(
    edition: EditionOpt = "australia",
    output: OutputOpt = Path("scorepad.pdf"),
    sheets: Annotated[int | None, typer.Option("--sheets", "-n", help="number of sheets (default: one per "
                                                                      "name given, else 4)")] = None,
    paper: PaperOpt = Paper.a4,
    players_name: Annotated[str | None, typer.Option("--players-name", help='pre-printed names, e.g. '
                                                     '"Ann,Bob" (repeated in turn over the sheets)')] = None,
    compact: Annotated[bool, typer.Option("--compact", help="two sheets side by side per landscape page")] = False,
) -> None:
    """A score pad: one sheet per player, like the paper pads."""
    from printables.scorepad import PadOptions, parse_names, render_scorepad

    names = parse_names(players_name)
    count = sheets if sheets is not None else (len(names) or 4)
    if count < 1:
        fail(f"--sheets must be at least 1 (got {count})")
    ed = edition_or_fail(edition)
    _check_output(output)
    try:
        pages = render_scorepad(ed, output, PadOptions(sheets=count, paper=paper.value, compact=compact,
                                                       names=names))
    except ValueError as err:  # e.g. a deck pack whose map does not fit one sheet; nothing was written
        fail(str(err))
    console.print(f"wrote {output}: {count} sheet{'s' * (count != 1)} of {ed.name} on {pages} "
                  f"{paper.value} page{'s' * (pages != 1)}", highlight=False)


@app.command("cards")
def cards(
    edition: EditionOpt = "australia",
    output: OutputOpt = Path("cards.pdf"),
    paper: PaperOpt = Paper.a4,
    bleed: Annotated[bool, typer.Option("--bleed", help="3 mm bleed around every card (fits A4)")] = False,
    backs: Annotated[bool, typer.Option("--backs", help="a page of card backs after each page of fronts, "
                                                        "for long-edge duplex printing")] = False,
) -> None:
    """Print-and-play cards: 28 cards at 63 × 88 mm, nine per page, with crop marks and QR codes."""
    from printables.cards import render_cards
    from printables.layout import card_grid

    ed = edition_or_fail(edition)
    try:
        card_grid(paper.value, bleed)
    except ValueError as err:
        fail(str(err))
    _check_output(output)
    pages = render_cards(ed, output, paper=paper.value, bleed=bleed, backs=backs)
    console.print(f"wrote {output}: {len(ed.cards)} cards of {ed.name} on {pages} {paper.value} "
                  f"page{'s' * (pages != 1)}{' with backs' if backs else ''}", highlight=False)


BoardOpt = Annotated[str, typer.Option("--board", help="tourpad or a board pack's id (its colours)")]


@app.command("race-tiles")
def race_tiles(
    output: OutputOpt = Path("race-tiles.pdf"),
    paper: PaperOpt = Paper.a4,
    board: BoardOpt = "tourpad",
    backs: Annotated[bool, typer.Option("--backs/--no-backs", help="a page of tile backs after each page")] = True,
) -> None:
    """Race Around Europe print-and-play tiles: 52 countries, 10 aeroplanes, 9 ships (30 × 40 mm)."""
    from printables.race import render_tiles

    chosen = board_or_fail(board)
    _check_output(output)
    pages = render_tiles(chosen, output, paper.value, backs)
    console.print(f"wrote {output}: {len(chosen.tiles)} tiles on {pages} {paper.value} pages", highlight=False)


@app.command("race-map")
def race_map(
    output: OutputOpt = Path("race-map.pdf"),
    paper: PaperOpt = Paper.a4,
    board: BoardOpt = "tourpad",
) -> None:
    """Race Around Europe one-page reference map: countries, colours, seas, ferries and the bridge."""
    from printables.race import render_map

    chosen = board_or_fail(board)
    _check_output(output)
    render_map(chosen, output, paper.value)
    console.print(f"wrote {output}: reference map of {chosen.name}", highlight=False)
