"""`tourpad print …`: score pads and print-and-play card sheets as PDF.

Every refusal (unknown edition or language, unwritable path, fewer than one sheet, bleed that does not fit
the paper) happens before anything is written, exits non-zero and names the problem. `--lang` picks the
language printed on the sheets (scorer.cli reads it before the commands are built); each command draws
inside `use_language` of it.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rules.i18n import current_language, use_language
from scorer.commands.common import LangOpt, console, fail
from scorer.commands.engine_commands import edition_or_fail
from scorer.commands.race_commands import board_or_fail
from scorer.locale import N_, _, ngettext

app = typer.Typer(help=N_("Print score pads, card sheets and Race Around Europe's tiles and map as PDF."),
                  no_args_is_help=True)


@app.callback()
def choose_language(lang: LangOpt = None) -> None:
    # read before the commands are built (scorer.cli); declared so that `tourpad print --lang fr --help` parses
    del lang


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


#: `--deck` reads better for an owner's deck (the id Your decks shows); both name an edition or an installed deck.
EditionOpt = Annotated[str, typer.Option("--edition", "--deck", "-e", help=N_(
    "australia, europe, usa, or your own deck's id (as Your decks shows it, or an imported pack's)"))]
OutputOpt = Annotated[Path, typer.Option("-o", "--output", help=N_("the PDF to write"))]
PaperOpt = Annotated[Paper, typer.Option("--paper", help=N_("paper size"))]


def page_count(pages: int, paper: Paper) -> str:
    return ngettext("{n} {paper} page", "{n} {paper} pages", pages).format(n=pages, paper=paper.value)


def _check_output(output: Path) -> None:
    from printables.output import OutputError, check_writable

    try:
        check_writable(output)
    except OutputError as err:
        fail(str(err))


@app.command("scorepad", help=N_("A score pad: one sheet per player, like the paper pads."))
def scorepad(
    edition: EditionOpt = "australia",
    output: OutputOpt = Path("scorepad.pdf"),
    sheets: Annotated[int | None, typer.Option("--sheets", "-n", help=N_("number of sheets (default: one per "
                                                                         "name given, else 4)"))] = None,
    paper: PaperOpt = Paper.a4,
    players_name: Annotated[str | None, typer.Option("--players-name", help=N_(
        'pre-printed names, e.g. "Ann,Bob" (repeated in turn over the sheets)'))] = None,
    compact: Annotated[bool, typer.Option("--compact", help=N_("two sheets side by side per landscape "
                                                               "page"))] = False,
    lang: LangOpt = None,
) -> None:
    from printables.scorepad import PadOptions, parse_names, render_scorepad

    names = parse_names(players_name)
    count = sheets if sheets is not None else (len(names) or 4)
    if count < 1:
        fail(_("--sheets must be at least 1 (got {count})").format(count=count))
    ed = edition_or_fail(edition)
    _check_output(output)
    with use_language(lang or current_language()):
        try:
            pages = render_scorepad(ed, output, PadOptions(sheets=count, paper=paper.value, compact=compact,
                                                           names=names))
        except ValueError as err:  # e.g. a deck pack whose map does not fit one sheet; nothing was written
            fail(str(err))
        sheets_text = ngettext("{n} sheet", "{n} sheets", count).format(n=count)
        console.print(_("wrote {output}: {sheets} of {edition} on {pages}").format(
            output=output, sheets=sheets_text, edition=ed.label, pages=page_count(pages, paper)), highlight=False)


@app.command("cards", help=N_("Print-and-play cards: 28 cards at 63 × 88 mm, nine per page, with crop marks and "
                              "QR codes."))
def cards(
    edition: EditionOpt = "australia",
    output: OutputOpt = Path("cards.pdf"),
    paper: PaperOpt = Paper.a4,
    bleed: Annotated[bool, typer.Option("--bleed", help=N_("3 mm bleed around every card (fits A4)"))] = False,
    backs: Annotated[bool, typer.Option("--backs", help=N_("a page of card backs after each page of fronts, "
                                                           "for long-edge duplex printing"))] = False,
    lang: LangOpt = None,
) -> None:
    from printables.cards import render_cards
    from printables.layout import card_grid

    ed = edition_or_fail(edition)
    with use_language(lang or current_language()):
        try:
            card_grid(paper.value, bleed)
        except ValueError as err:
            fail(str(err))
        _check_output(output)
        pages = render_cards(ed, output, paper=paper.value, bleed=bleed, backs=backs)
        cards_text = ngettext("{n} card", "{n} cards", len(ed.cards)).format(n=len(ed.cards))
        wrote = (_("wrote {output}: {cards} of {edition} on {pages} with backs") if backs
                 else _("wrote {output}: {cards} of {edition} on {pages}"))
        console.print(wrote.format(output=output, cards=cards_text, edition=ed.label, pages=page_count(pages, paper)),
                      highlight=False)


BoardOpt = Annotated[str, typer.Option("--board", help=N_("tourpad or a board pack's id (its colours)"))]


@app.command("race-tiles", help=N_("Race Around Europe print-and-play tiles: 52 countries, 10 aeroplanes, 9 ships "
                                   "(30 × 40 mm)."))
def race_tiles(
    output: OutputOpt = Path("race-tiles.pdf"),
    paper: PaperOpt = Paper.a4,
    board: BoardOpt = "tourpad",
    backs: Annotated[bool, typer.Option("--backs/--no-backs", help=N_("a page of tile backs after each "
                                                                      "page"))] = True,
    lang: LangOpt = None,
) -> None:
    from printables.race import render_tiles

    chosen = board_or_fail(board)
    _check_output(output)
    with use_language(lang or current_language()):
        pages = render_tiles(chosen, output, paper.value, backs)
        tiles_text = ngettext("{n} tile", "{n} tiles", len(chosen.tiles)).format(n=len(chosen.tiles))
        console.print(_("wrote {output}: {tiles} on {pages}").format(output=output, tiles=tiles_text,
                                                                     pages=page_count(pages, paper)), highlight=False)


@app.command("race-map", help=N_("Race Around Europe one-page reference map: countries, colours, seas, ferries and "
                                 "the bridge."))
def race_map(
    output: OutputOpt = Path("race-map.pdf"),
    paper: PaperOpt = Paper.a4,
    board: BoardOpt = "tourpad",
    lang: LangOpt = None,
) -> None:
    from printables.race import render_map

    chosen = board_or_fail(board)
    _check_output(output)
    with use_language(lang or current_language()):
        render_map(chosen, output, paper.value)
        console.print(_("wrote {output}: reference map of {board}").format(output=output, board=chosen.name),
                      highlight=False)
