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
from scorer.commands.common import console, fail, resolve_or_fail, show_document, warn
from scorer.locale import N_, _, ngettext
from scorer.packs import export_text, import_pack, read_pack, resolve_edition
from scorer.userfile import UserFileError, read_user_document, shown


def register(app: typer.Typer) -> None:
    app.command("deck", help=N_("Show an edition's deck and map; `deck import FILE` installs an owner's deck pack "
                                "(`deck check FILE` only validates it); `deck export ID` writes an edition in the "
                                "pack format."))(deck)
    app.command("score", help=N_("Score a recorded game: every player, round and category, the bonuses and the "
                                 "final ranking."))(score)
    app.command("sim", help=N_("Run bot games: win rates (95% confidence), head-to-head and bot-vs-field tables, "
                               "points, games/s."))(sim)
    app.command("schema", help=N_("Print the JSON Schema of the game record (`tourpad score`'s input, the app's "
                                  "export)."))(schema)


def edition_or_fail(edition_id: str) -> Edition:
    return resolve_or_fail(edition_id, resolve_edition, EditionDataError, _("edition {ident!r} is damaged: {error}"))


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
        fail(_("deck {verb} needs the pack file: tourpad deck {verb} my-europe.toml").format(verb=verb))
    try:
        return load(file)
    except UserFileError as err:
        fail(str(err))
    except EditionDataError as err:
        fail(f"{shown(file)}: {err}")


def deck(
    target: Annotated[str, typer.Argument(help=N_("an edition id (australia, europe, usa, or a pack), "
                                                 "or 'import' / 'check' / 'export'"))],
    file: Annotated[Path | None,
                    typer.Argument(help=N_("import, check: the pack file; export: the edition id"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help=N_("export: write here"))] = None,
) -> None:
    if target == "check":
        edition = pack_from_file("check", file, read_pack)
        n = len(edition.cards)
        console.print(ngettext("{file}: valid {name!r} (id {id!r}, rules of {base!r}, {n} card); not installed",
                               "{file}: valid {name!r} (id {id!r}, rules of {base!r}, {n} cards); not installed",
                               n).format(file=shown(file), name=edition.name, id=edition.id, base=edition.base, n=n),
                      highlight=False)
        return
    if target == "import":
        edition = pack_from_file("import", file, import_pack)
        n = len(edition.cards)
        console.print(ngettext("imported {name!r} as edition {id!r} ({n} card)",
                               "imported {name!r} as edition {id!r} ({n} cards)", n).format(
            name=edition.name, id=edition.id, n=n))
        return
    if target == "export":
        if file is None:
            fail(_("deck export needs an edition id: tourpad deck export europe -o europe.toml"))
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
    # the document keeps the data's (English) names; the table shows what a person reads
    sites = {card.letter: card.site_label for card in edition.cards}
    regions = {region.name: region.label for region in edition.regions}
    icons = {icon.name: icon.label for family in (edition.collection, edition.pairs, edition.choice)
             for icon in family.icons}
    show_document(doc, as_json, _("{edition} — {provenance} deck").format(edition=edition.label,
                                                                         provenance=edition.provenance),
                  (_("Letter"), _("Site"), _("Region"), _("No."), _("Icons")),
                  ((card["letter"], sites[card["letter"]], regions.get(card["region"], card["region"]),
                    str(card["number"]), ", ".join(icons.get(icon, icon) for icon in card["icons"]))
                   for card in doc["cards"]))
    if as_json:
        return
    for region in edition.regions:
        console.print("  " + _("{region}: {letters} (+{bonus})").format(
            region=region.label, letters=edition.letters_of(region.mask), bonus=region.bonus))
    if "map" in doc:
        console.print("  " + _("pathways: {pathways}").format(
            pathways=" ".join(a + b for a, b in doc["map"]["edges"])))
        console.print("  " + _("west coast: {west}  east coast: {east}").format(
            west="".join(doc["map"]["west_coast"]), east="".join(doc["map"]["east_coast"])))


def load_record(path: Path) -> GameRecord:
    try:
        data = read_user_document(path, _("a game record (JSON)"), "json")
    except UserFileError as err:
        fail(str(err))
    try:
        return GameRecord.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        fail(f"{shown(path)}: {where}: {first['msg']}")


def score(
    file: Annotated[Path, typer.Argument(help=N_("a game record (JSON)"))],
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
) -> None:
    record = load_record(file)
    try:
        edition = resolve_edition(record.edition)
    except KeyError as err:  # the record names an edition this device does not have: say which file does
        fail(f"{shown(file)}: {err.args[0]}")
    except EditionDataError as err:
        fail(_("edition {ident!r} is damaged: {error}").format(ident=record.edition, error=err))
    try:
        report = score_record(record, edition)
    except RecordError as err:
        fail(f"{shown(file)}: {err}")
    if as_json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    names = edition.category_names()
    ids = edition.category_ids()
    for p, player in enumerate(report.players):
        total = report.totals[p]
        table = Table(title=ngettext("{player} — {total} point, rank {rank}", "{player} — {total} points, rank {rank}",
                                     total).format(player=player, total=total, rank=report.ranks[p]))
        table.add_column(_("Category"))
        for r in range(len(report.rounds[p])):
            table.add_column(_("R{n}").format(n=r + 1), justify="right")
        table.add_column(_("Total"), justify="right", style="bold")
        by_category = [category_points(edition, s) for s in report.rounds[p]]
        for cid in ids:
            values = [points[cid] for points in by_category]
            table.add_row(names[cid], *map(str, values), str(sum(values)))
        table.add_row(_("Round total"), *(str(s.total) for s in report.rounds[p]), str(report.totals[p]))
        console.print(table)
        for r, lines in enumerate(report.notes[p], start=1):
            console.print("  [dim]" + _("round {n}:").format(n=r) + "[/] " + "; ".join(lines), highlight=False)
    console.print(_("Ranking: {players}").format(players=", ".join(
        f"{report.ranks[p]}. {name} ({report.totals[p]})"
        for p, name in sorted(enumerate(report.players), key=lambda x: report.ranks[x[0]]))))
    for warning in report.warnings:
        warn(warning, to=console)


def sim(
    edition: Annotated[str, typer.Option(help=N_("edition id"))] = "australia",
    players: Annotated[int, typer.Option(min=2, max=4, help=N_("players at the table"))] = 4,
    bots: Annotated[str, typer.Option(help=N_("comma-separated bot per seat, e.g. hard,normal,normal,normal. "
                                              "Boomerang: random (= easy), greedy (= normal), hard, expert. "
                                              "Race Around Europe: easy, normal, search"))] = "normal,easy,easy,easy",
    games: Annotated[int, typer.Option(min=1, help=N_("games to play"))] = 1000,
    seed: Annotated[int, typer.Option(help=N_("seed of the deals (the same seed plays the same games)"))] = 1,
    direction_variant: Annotated[bool, typer.Option("--direction-variant", help=N_(
        "the direction variant (3 or 4 players)"))] = False,
    rotate: Annotated[bool, typer.Option("--rotate", help=N_("seat each bot of the line-up in every seat in "
                                                              "turn; rows are then line-up entries"))] = False,
    workers: Annotated[int, typer.Option(min=1, max=16, help=N_("processes to play games in"))] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
    game: Annotated[str, typer.Option(help=N_("boomerang or race-around-europe"))] = "boomerang",
    expert_simulations: Annotated[int | None, typer.Option(min=1, help=N_(
        "the expert bot's rollouts per decision (default: its own, about a tenth of a second per decision)"))] = None,
) -> None:
    from scorer.commands.sim_tables import games_progress, print_race_simulation, print_simulation
    from scorer.sim.boomerang import SimError, run_simulation

    if game in ("race-around-europe", "race"):
        from scorer.sim.race import run_race_simulation

        try:
            title = ngettext("Race Around Europe: {n} game", "Race Around Europe: {n} games", games).format(n=games)
            with games_progress(title, games, shown=not as_json) as advance:
                race = run_race_simulation(players, bots.split(","), games, seed, on_games_done=advance)
        except SimError as err:
            fail(str(err))
        if as_json:
            print(json.dumps(race, indent=2))
        else:
            print_race_simulation(race)
        return
    if game != "boomerang":
        fail(_("unknown game {game!r}; choose boomerang or race-around-europe").format(game=game))
    ed = edition_or_fail(edition)
    started = time.perf_counter()
    try:
        title = ngettext("{edition}: {n} game", "{edition}: {n} games", games).format(edition=ed.label, n=games)
        with games_progress(title, games, shown=not as_json) as advance:
            result = run_simulation(ed, players, bots.split(","), games, seed, direction_variant,
                                    rotate=rotate, workers=workers, on_games_done=advance,
                                    expert_simulations=expert_simulations)
    except SimError as err:
        fail(str(err))
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["games_per_second"] = round(games / result["seconds"], 1)
    if as_json:
        print(json.dumps(result, indent=2))
        return
    print_simulation(result, ed.category_names())


def schema() -> None:
    print(json.dumps(GameRecord.model_json_schema(), indent=2))
