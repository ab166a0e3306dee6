"""`tourpad board …` and `tourpad journey`: Race Around Europe's board, board packs and journey checker."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import tomli_w
import typer

from rules import wording
from rules.race.board import COLOURS, SEAS, Board, BoardDataError, colour_label, crossing_label, sea_label
from rules.race.journey import JOURNEY_LENGTH, best_fixes, check_journey
from scorer.commands.common import console, fail, resolve_or_fail, show_document
from scorer.locale import N_, _, ngettext
from scorer.packs import board_ids, import_board_pack, resolve_board
from scorer.userfile import UserFileError, shown

board_app = typer.Typer(help=N_("Race Around Europe's board: countries, colours, borders, seas; board packs."),
                        no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(board_app, name="board")
    app.command("journey", help=N_("Check a Race Around Europe journey: valid, or which links break and why, and "
                                   "the best single fix."))(journey)


def board_or_fail(board_id: str) -> Board:
    return resolve_or_fail(board_id, resolve_board, BoardDataError, _("board {ident!r} is damaged: {error}"))


def board_document(board: Board) -> dict:
    return {
        "board": board.id, "name": board.name, "provenance": board.provenance,
        "countries": [{
            "name": name, "colour": COLOURS[board.colour[i]], "tiles": board.copies[i],
            "seas": [s for j, s in enumerate(SEAS) if board.seas[i] >> j & 1],
            "borders": [board.countries[j] for j in range(board.n_countries) if board.neighbours[i] >> j & 1],
        } for i, name in enumerate(board.countries)],
        "crossings": [{"kind": kind, "between": [board.countries[a], board.countries[b]]}
                      for kind, a, b in board.crossings],
    }


@board_app.command("show", help=N_("Every country with its colour, seas and neighbours (ferries and the bridge "
                                    "included)."))
def show(
    board_id: Annotated[str, typer.Argument(help=N_("tourpad or an imported board pack's id"))] = "tourpad",
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
) -> None:
    board = board_or_fail(board_id)
    doc = board_document(board)
    show_document(doc, as_json, _("{board} — {provenance} colours").format(board=board.name,
                                                                           provenance=board.provenance),
                  (_("Country"), _("Colour"), _("Tiles"), _("Seas"), _("Borders (incl. ferries, bridge)")),
                  ((c["name"], colour_label(c["colour"]), str(c["tiles"]), ", ".join(map(sea_label, c["seas"])) or "-",
                    ", ".join(c["borders"]) or wording.race_no_border_cell()) for c in doc["countries"]))
    if as_json:
        return
    crossings = "; ".join(f"{crossing_label(c['kind'])} {' – '.join(c['between'])}" for c in doc["crossings"])
    console.print(_("Crossings: {crossings}").format(crossings=crossings))


@board_app.command("list", help=N_("The boards on this device: tourpad's and the imported board packs."))
def list_boards() -> None:
    for board_id in board_ids():
        console.print(board_id)


@board_app.command("import", help=N_("Install an owner's board pack: `colours` maps countries to the colours "
                                     "printed on their board."))
def import_(file: Annotated[Path, typer.Argument(help=N_("a board pack (TOML or JSON)"))]) -> None:
    try:
        board = import_board_pack(file)
    except UserFileError as err:
        fail(str(err))
    except BoardDataError as err:
        fail(f"{shown(file)}: {err}")
    base = board_or_fail("tourpad")
    changed = [n for i, n in enumerate(board.countries) if board.colour[i] != base.colour[i]]
    console.print(ngettext("imported board {name!r} as {id!r} ({n} country recoloured: {countries})",
                           "imported board {name!r} as {id!r} ({n} countries recoloured: {countries})",
                           len(changed)).format(name=board.name, id=board.id, n=len(changed),
                                                countries=", ".join(changed) or _("none")))


@board_app.command("export", help=N_("A board pack template listing every country's colour: edit the colours, then "
                                     "`tourpad board import`."))
def export(
    board_id: Annotated[str, typer.Argument(help=N_("the board to start the pack from"))] = "tourpad",
    pack_id: Annotated[str, typer.Option("--id", help=N_("the new pack's id"))] = "my-board",
    output: Annotated[Path | None, typer.Option("-o", "--output", help=N_("write here"))] = None,
) -> None:
    board = board_or_fail(board_id)
    pack = {"id": pack_id, "name": _("{board} (my colours)").format(board=board.name), "base": "tourpad",
            "colours": {n: COLOURS[board.colour[i]] for i, n in enumerate(board.countries)}}
    text = tomli_w.dumps(pack)
    if output is None:
        console.print(text, end="", markup=False, highlight=False)
    else:
        output.write_text(text, encoding="utf-8")


class JourneyInputError(ValueError):
    """Tiles `tourpad journey` cannot read; the message says which and why."""


def parse_tiles(board: Board, words: list[str]) -> list[int]:
    """Tile names from the command line: one per argument, or one argument separated by commas."""
    names = [n.strip() for w in words for n in w.split(",") if n.strip()]
    if len(names) != JOURNEY_LENGTH:
        raise JourneyInputError(ngettext("a journey has {length} tiles (trips 1–10); got {n}: {tiles}",
                                         "a journey has {length} tiles (trips 1–10); got {n}: {tiles}",
                                         len(names)).format(length=JOURNEY_LENGTH, n=len(names),
                                                            tiles=", ".join(names)))
    kinds = []
    for trip, name in enumerate(names, start=1):
        try:
            kinds.append(board.kind_of(name))
        except KeyError as err:
            raise JourneyInputError(_("trip {trip}: {problem}").format(trip=trip, problem=err.args[0])) from None
    return kinds


def journey(
    tiles: Annotated[list[str], typer.Argument(help=N_("the 10 tiles in trip order, e.g. "
                                                       "'Spain, France, Atlantic ship, Norway, …'"))],
    board_id: Annotated[str, typer.Option("--board", help=N_("tourpad or a board pack's id"))] = "tourpad",
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
) -> None:
    """Exit 0 for a complete journey, 1 for one that does not connect, 2 for tiles or a board it cannot read;
    with --json every outcome, errors included, is one JSON document on stdout."""
    try:
        board = resolve_board(board_id)
        kinds = parse_tiles(board, tiles)
    except (KeyError, BoardDataError, JourneyInputError) as err:
        message = str(err.args[0]) if isinstance(err, KeyError) else str(err)
        if isinstance(err, BoardDataError):
            message = _("board {ident!r} is damaged: {error}").format(ident=board_id, error=err)
        if as_json:
            print(json.dumps({"board": board_id, "valid": False, "error": message}, indent=2, ensure_ascii=False))
            raise typer.Exit(2) from None
        fail(message)
    check = check_journey(board, kinds)
    fixes = best_fixes(board, kinds)
    if as_json:
        print(json.dumps({
            "board": board.id, "tiles": [board.kind_name(k) for k in kinds], "valid": check.valid,
            "connected_links": check.connected,
            "breaks": [{"trips": [b.link + 1, b.link + 2], "reason": b.reason} for b in check.breaks],
            "problems": [{"trips": list(p.trips), "reason": p.reason} for p in check.problems],
            "best_fixes": [{"trip": f.slot + 1, "tile": board.kind_name(f.kind), "faults_left": f.remaining}
                           for f in fixes],
        }, indent=2, ensure_ascii=False))
        raise typer.Exit(0 if check.valid else 1)
    if check.valid:
        console.print(_("[green]complete journey[/]: {tiles}").format(
            tiles=" → ".join(board.kind_name(k) for k in kinds)))
        return
    if not check.breaks and check.problems:  # "9 of 9 links connect" would hide what is wrong
        console.print(_("[red]not complete[/]: every link connects, but {problem}").format(
            problem=check.problems[0]), highlight=False)
    else:
        console.print(_("[red]not complete[/]: {connected} of {links} links connect").format(
            connected=check.connected, links=JOURNEY_LENGTH - 1))
    for item in (*check.breaks, *check.problems):
        console.print(f"  {item}", highlight=False)
    if fixes:
        left = fixes[0].remaining
        outcome = (_("completes the journey") if left == 0
                   else ngettext("leaves {n} fault", "leaves {n} faults", left).format(n=left))
        options = ", ".join(_("trip {trip} → {tile}").format(trip=f.slot + 1, tile=board.kind_name(f.kind))
                            for f in fixes[:8])
        if len(fixes) > 8:
            more = len(fixes) - 8
            line = ngettext("Best single replacement ({outcome}): {options} (and {more} more)",
                            "Best single replacement ({outcome}): {options} (and {more} more)", more)
        else:
            more, line = 0, _("Best single replacement ({outcome}): {options}")
        console.print(line.format(outcome=outcome, options=options, more=more), highlight=False)
    else:
        console.print(_("No single replacement improves this journey."))
    raise typer.Exit(1)
