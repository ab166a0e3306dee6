"""`tourpad deck`, `tourpad score` and `tourpad sim`: the rules engine from the command line."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.table import Table

from rules.edition import Edition
from rules.model import EditionDataError
from rules.record import GameRecord, RecordError, score_record
from rules.scoring import category_points
from scorer.commands.common import console, fail, resolve_or_fail, show_document
from scorer.packs import export_text, import_pack, read_pack, resolve_edition
from scorer.userfile import UserFileError, read_user_text


def register(app: typer.Typer) -> None:
    app.command("deck")(deck)
    app.command("score")(score)
    app.command("sim")(sim)
    app.command("schema")(schema)


def edition_or_fail(edition_id: str) -> Edition:
    return resolve_or_fail("edition", edition_id, resolve_edition, EditionDataError)


def deck_document(edition: Edition) -> dict:
    spec = edition.spec
    doc = {
        "edition": edition.id, "name": edition.name, "provenance": edition.provenance,
        "families": {role: getattr(spec, role).model_dump(exclude_none=True)
                     for role in ("collection", "pairs", "choice")},
        "regions": [{"name": r.name, "bonus": r.bonus, "color": r.color, "letters": edition.letters_of(r.mask)}
                    for r in edition.regions],
        "cards": [c.model_dump() for c in sorted(spec.cards, key=lambda c: edition.card_index(c.letter))],
    }
    if spec.route is not None:
        doc["route"] = spec.route.model_dump()
    if spec.map is not None:
        doc["map"] = spec.map.model_dump()
    return doc


def pack_from_file(verb: str, file: Path | None, load: Callable[[Path], Edition]) -> Edition:
    """`deck import` / `deck check`: load (and validate) the pack file, or fail naming what is wrong."""
    if file is None:
        fail(f"deck {verb} needs the pack file: tourpad deck {verb} my-europe.toml")
    try:
        return load(file)
    except UserFileError as err:
        fail(str(err))
    except EditionDataError as err:
        fail(f"{file}: {err}")


def deck(
    target: Annotated[str, typer.Argument(help="an edition id (australia, europe, usa, or a pack), "
                                              "or 'import' / 'check' / 'export'")],
    file: Annotated[Path | None,
                    typer.Argument(help="import, check: the pack file; export: the edition id")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="export: write here")] = None,
) -> None:
    """Show an edition's deck and map; `deck import FILE` installs an owner's deck pack (`deck check FILE`
    only validates it); `deck export ID` writes an edition in the pack format."""
    if target == "check":
        edition = pack_from_file("check", file, read_pack)
        console.print(f"{file}: valid {edition.name!r} (id {edition.id!r}, rules of {edition.base!r}, "
                      f"{len(edition.cards)} cards); not installed", highlight=False)
        return
    if target == "import":
        edition = pack_from_file("import", file, import_pack)
        console.print(f"imported {edition.name!r} as edition {edition.id!r} ({len(edition.cards)} cards)")
        return
    if target == "export":
        if file is None:
            fail("deck export needs an edition id: tourpad deck export europe -o europe.toml")
        edition = edition_or_fail(str(file))
        fmt = "json" if (output and output.suffix == ".json") or as_json else "toml"
        text = export_text(edition, fmt)
        if output is None:
            console.print(text, end="", markup=False, highlight=False)
        else:
            output.write_text(text, encoding="utf-8")
        return
    edition = edition_or_fail(target)
    doc = deck_document(edition)
    show_document(doc, as_json, f"{edition.name} — {edition.provenance} deck",
                  ("Letter", "Site", "Region", "No.", "Icons"),
                  ((card["letter"], card["site"], card["region"], str(card["number"]), ", ".join(card["icons"]))
                   for card in doc["cards"]))
    if as_json:
        return
    for region in doc["regions"]:
        console.print(f"  {region['name']}: {region['letters']} (+{region['bonus']})")
    if "map" in doc:
        console.print(f"  pathways: {' '.join(a + b for a, b in doc['map']['edges'])}")
        console.print(f"  west coast: {''.join(doc['map']['west_coast'])}  "
                      f"east coast: {''.join(doc['map']['east_coast'])}")


def load_record(path: Path) -> GameRecord:
    try:
        data = json.loads(read_user_text(path, "a game record (JSON)"))
    except UserFileError as err:
        fail(str(err))
    except json.JSONDecodeError as err:
        fail(f"{path} is not valid JSON: {err}")
    except RecursionError:
        fail(f"{path} is not a game record: its JSON is nested too deeply")
    try:
        return GameRecord.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        fail(f"{path}: {where}: {first['msg']}")


def score(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Score a recorded game: every player, round and category, the bonuses and the final ranking."""
    record = load_record(file)
    edition = edition_or_fail(record.edition)
    try:
        report = score_record(record, edition)
    except RecordError as err:
        fail(str(err))
    if as_json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    names = edition.category_names()
    ids = edition.category_ids()
    for p, player in enumerate(report.players):
        table = Table(title=f"{player} — {report.totals[p]} points, rank {report.ranks[p]}")
        table.add_column("Category")
        for r in range(len(report.rounds[p])):
            table.add_column(f"R{r + 1}", justify="right")
        table.add_column("Total", justify="right", style="bold")
        by_category = [category_points(edition, s) for s in report.rounds[p]]
        for cid in ids:
            values = [points[cid] for points in by_category]
            table.add_row(names[cid], *map(str, values), str(sum(values)))
        table.add_row("Round total", *(str(s.total) for s in report.rounds[p]), str(report.totals[p]))
        console.print(table)
        for r, lines in enumerate(report.notes[p], start=1):
            console.print(f"  [dim]round {r}:[/] " + "; ".join(lines), highlight=False)
    console.print("Ranking: " + ", ".join(
        f"{report.ranks[p]}. {name} ({report.totals[p]})"
        for p, name in sorted(enumerate(report.players), key=lambda x: report.ranks[x[0]])))
    for warning in report.warnings:
        console.print(f"[yellow]warning:[/] {warning}", highlight=False)


def sim(
    edition: Annotated[str, typer.Option(help="edition id")] = "australia",
    players: Annotated[int, typer.Option(min=2, max=4)] = 4,
    bots: Annotated[str, typer.Option(help="comma-separated bot per seat, e.g. hard,normal,normal,normal "
                                           "(easy = random, normal = greedy)")] = "normal,easy,easy,easy",
    games: Annotated[int, typer.Option(min=1)] = 1000,
    seed: Annotated[int, typer.Option()] = 1,
    direction_variant: Annotated[bool, typer.Option("--direction-variant")] = False,
    rotate: Annotated[bool, typer.Option("--rotate", help="seat each bot of the line-up in every seat in "
                                                           "turn; rows are then line-up entries")] = False,
    workers: Annotated[int, typer.Option(min=1, max=16, help="processes to play games in")] = 1,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    game: Annotated[str, typer.Option(help="boomerang or race-around-europe")] = "boomerang",
) -> None:
    """Run bot games: win rates (95% confidence), head-to-head and bot-vs-field tables, points, games/s."""
    from scorer.commands.sim_tables import games_progress, print_race_simulation, print_simulation
    from scorer.simulate import SimError, run_simulation

    if game in ("race-around-europe", "race"):
        from scorer.race_simulate import run_race_simulation

        try:
            with games_progress(f"Race Around Europe: {games} games", games, shown=not as_json) as advance:
                race = run_race_simulation(players, bots.split(","), games, seed, on_games_done=advance)
        except SimError as err:
            fail(str(err))
        if as_json:
            print(json.dumps(race, indent=2))
        else:
            print_race_simulation(race)
        return
    if game != "boomerang":
        fail(f"unknown game {game!r}; choose boomerang or race-around-europe")
    ed = edition_or_fail(edition)
    started = time.perf_counter()
    try:
        with games_progress(f"{ed.name}: {games} games", games, shown=not as_json) as advance:
            result = run_simulation(ed, players, bots.split(","), games, seed, direction_variant,
                                    rotate=rotate, workers=workers, on_games_done=advance)
    except SimError as err:
        fail(str(err))
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["games_per_second"] = round(games / result["seconds"], 1)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    print_simulation(result, ed.category_names())


def schema() -> None:
    """Print the JSON Schema of the game record (`tourpad score`'s input, the app's export)."""
    print(json.dumps(GameRecord.model_json_schema(), indent=2))
