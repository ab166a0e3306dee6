"""Deck packs: an owner's real deck typed in once — import, check, export, and errors that name the card.

Every test gets its own TOURPAD_DATA_DIR (tests/conftest.py), so imports never touch the user's packs.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path

import pytest
import tomli_w
from deck_helpers import parsed_rounds
from typer.testing import CliRunner

from rules.bots import make_bot, play
from rules.editions import edition_from_text, load_edition
from rules.engine import Game
from rules.record import record_from_rounds
from scorer.cli import app
from scorer.packs import export_text, pack_from_document, pack_ids, packs_dir, resolve_edition

DOCS = Path(__file__).resolve().parent.parent / "docs"
EUROPE_TEMPLATE = DOCS / "deck-pack-template.toml"
USA_TEMPLATE = DOCS / "deck-pack-template-usa.toml"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def template(path: Path = EUROPE_TEMPLATE) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def write(tmp_path: Path, doc: dict, name: str = "pack.toml") -> Path:
    path = tmp_path / name
    if name.endswith(".json"):
        path.write_text(json.dumps(doc), encoding="utf-8")
    else:
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return path


def card(doc: dict, letter: str) -> dict:
    return next(c for c in doc["cards"] if c["letter"] == letter)


# --- the templates ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "base"), [(EUROPE_TEMPLATE, "europe"), (USA_TEMPLATE, "usa")])
def test_templates_import_as_they_stand_and_follow_their_base_rules(path, base):
    result = run("deck", "import", str(path))
    assert result.exit_code == 0, result.output
    edition = resolve_edition(f"{base}-mine")
    bundled = load_edition(base)
    assert edition.provenance == "owner" and edition.base == base
    assert edition.throw_catch_rule == bundled.throw_catch_rule
    assert edition.tie_breakers == bundled.tie_breakers
    assert edition.route == bundled.route or edition.route.tiers == bundled.route.tiers
    for role in ("collection", "pairs", "choice"):
        mine, theirs = getattr(edition, role), getattr(bundled, role)
        assert (mine.rule, mine.table, mine.per_icon_by_players) == (theirs.rule, theirs.table,
                                                                     theirs.per_icon_by_players)
        assert [(i.name, i.value) for i in mine.icons] == [(i.name, i.value) for i in theirs.icons]
        # tourpad's own icon counts describe tourpad's deck, not the owner's: not inherited
        assert all(i.count is None for i in getattr(edition.spec, role).icons)


def test_template_fields_are_all_explained():
    text = EUROPE_TEMPLATE.read_text(encoding="utf-8")
    comments = " ".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    for field in ("id:", "name:", "base:", "provenance:", "bonus =", "color =", "letters", "site:",
                  "region:", "number:", "icons:"):
        assert field in comments, field
    for word in ("tourpad deck import", "tourpad deck check", "tourpad deck export"):
        assert word in text
    assert "edges" in USA_TEMPLATE.read_text(encoding="utf-8")


def test_deck_check_validates_without_installing():
    result = run("deck", "check", str(EUROPE_TEMPLATE))
    assert result.exit_code == 0, result.output
    assert "not installed" in result.output
    assert pack_ids() == ()


# --- round trips ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("edition_id", ["europe", "usa"])
def test_export_then_import_round_trips(tmp_path, edition_id, suffix):
    exported = tmp_path / f"export{suffix}"
    result = run("deck", "export", edition_id, "-o", str(exported))
    assert result.exit_code == 0, result.output
    text = exported.read_text(encoding="utf-8")
    doc = json.loads(text) if suffix == ".json" else tomllib.loads(text)
    doc.update(id=f"{edition_id}-copy", base=edition_id, provenance="owner")
    pack = write(tmp_path, doc, f"pack{suffix}")
    result = run("deck", "import", str(pack))
    assert result.exit_code == 0, result.output
    imported = resolve_edition(f"{edition_id}-copy")
    original = load_edition(edition_id)
    assert imported.spec.cards == original.spec.cards
    assert imported.spec.regions == original.spec.regions
    assert imported.spec.map == original.spec.map
    assert imported.spec.collection == original.spec.collection
    # and exporting the pack gives back the same pack
    again = edition_from_text(export_text(imported, "toml"))
    assert again.spec == imported.spec


def test_an_imported_pack_scores_records_by_its_id(tmp_path):
    assert run("deck", "import", str(EUROPE_TEMPLATE)).exit_code == 0
    edition = resolve_edition("europe-mine")
    state = play(Game(edition, 2, seed=3), [make_bot("greedy", 1), make_bot("random", 2)])
    record = record_from_rounds(edition, ["Ann", "Bob"], parsed_rounds(state))
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json(exclude_none=True), encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert [p["total"] for p in json.loads(result.output)["players"]] == state.totals()


# --- errors name the card and the rule, and change nothing ------------------------------------------------

def broken(mutate) -> dict:
    doc = copy.deepcopy(template())
    mutate(doc)
    return doc


def _set(doc, which, **fields):
    card(doc, which).update(fields)


BROKEN_PACKS = {
    "number out of range": (lambda d: _set(d, "C", number=9), r"card 'C' \(#3\) field 'number'.*7"),
    "numbers not four each": (lambda d: _set(d, "A", number=1 if card(d, "A")["number"] != 1 else 2),
                              r"number \d: must be on exactly 4 cards; found on"),
    "letter twice": (lambda d: _set(d, "B", letter="A"),
                     r"card 'A' \(#\d+\): letter already used by card #1"),
    "card missing": (lambda d: d["cards"].remove(card(d, "Q")), r"this one has 27; missing Q"),
    "unknown letter": (lambda d: _set(d, "Q", letter="Ä"),
                       r"card 'Ä' .*letter must be one of A–Z, @ or #"),
    "unknown icon": (lambda d: _set(d, "D", icons=["Beers", "Art"]),
                     r"card 'D' .*icon 'Beers' is not an icon"),
    "two icons of a family": (lambda d: _set(d, "E", icons=["Car", "Train"]),
                              r"card 'E' .*has two Transport icons"),
    "unknown region": (lambda d: _set(d, "F", region="Atlantis"), r"card 'F' .*region 'Atlantis' is not one"),
    "region without cards": (lambda d: d["regions"].append({"name": "Empty", "bonus": 2, "color": "#123456"}),
                             r"region 'Empty': has no card"),
    "bad colour": (lambda d: d["regions"][0].update(color="green"), r"regions\.0\.color"),
    "unknown base": (lambda d: d.update(base="atlantis"),
                     r"base: 'atlantis' is not an edition tourpad knows"),
    "rule differs from base": (lambda d: d.update(throw_catch="throw_if_caught"),
                               r"throw_catch: 'throw_if_caught' differs from europe's rule 'difference'"),
    "family rule differs from base": (
        lambda d: d.update(collection={"id": "cuisine", "name": "Cuisine", "rule": "double_if_at_most_7",
                                       "icons": [{"name": "Beer", "value": 1}]}),
        r"collection\.rule: 'double_if_at_most_7' differs from europe's rule 'halve_above_7'"),
    "declared icon count wrong": (lambda d: _with_counts_and_one_icon_changed(d),
                                  r"cuisine icon 'Beer': the rulebook has it on 6 cards; this deck has 5"),
}


def _with_counts_and_one_icon_changed(doc: dict) -> None:
    """A pack that states its icon counts (as tourpad's own decks do) and then mistypes a card."""
    doc["collection"] = load_edition("europe").spec.collection.model_dump(mode="json", exclude_none=True)
    beer_card = next(c for c in doc["cards"] if "Beer" in c["icons"])
    beer_card["icons"] = ["Cheese" if i == "Beer" else i for i in beer_card["icons"]]


@pytest.mark.parametrize("case", sorted(BROKEN_PACKS))
def test_broken_packs_are_refused_with_the_card_and_rule(tmp_path, case):
    mutate, message = BROKEN_PACKS[case]
    path = write(tmp_path, broken(mutate))
    result = run("deck", "import", str(path))
    assert result.exit_code != 0
    assert result.output.count("error:") == 1
    flat = " ".join(result.output.split())
    assert re.search(message, flat), flat
    assert pack_ids() == ()   # nothing was installed


def test_bundled_ids_cannot_be_replaced(tmp_path):
    path = write(tmp_path, broken(lambda d: d.update(id="europe")))
    result = run("deck", "import", str(path))
    assert result.exit_code != 0
    assert "is a bundled edition" in " ".join(result.output.split())
    assert pack_ids() == ()


def test_usa_pack_needs_its_map_and_valid_pathways(tmp_path):
    doc = template(USA_TEMPLATE)
    no_map = {k: v for k, v in doc.items() if k != "map"}
    result = run("deck", "import", str(write(tmp_path, no_map)))
    assert "a coast-to-coast bonus needs the town map" in " ".join(result.output.split())
    bad_edge = copy.deepcopy(doc)
    bad_edge["map"]["edges"].append(["A", "Ä"])
    result = run("deck", "import", str(write(tmp_path, bad_edge)))
    assert "map edge A–Ä: 'Ä' is not a card letter" in " ".join(result.output.split())
    assert pack_ids() == ()


def test_a_usa_map_not_connected_coast_to_coast_is_refused_naming_the_rule(tmp_path):
    doc = template(USA_TEMPLATE)
    assert doc["map"]["west_coast"] == ["A", "B", "E", "F"]
    cut = copy.deepcopy(doc)  # every pathway out of the west coast rubbed out: its towns reach only each other
    cut["map"]["edges"] = [e for e in doc["map"]["edges"] if not {"A", "B", "E", "F"} & set(e)]
    for verb in ("check", "import"):
        result = run("deck", verb, str(write(tmp_path, cut)))
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert ("map: not connected coast to coast: from the west coast (A, B, E, F) the pathways reach only "
                "A, B, E, F, none of the east coast (X, Y, Z, @, #)") in " ".join(result.output.split())
    assert pack_ids() == ()
    # a deck installed (or backed up) before the rule was checked still loads: its games still score
    (packs_dir(create=True) / "usa-mine.toml").write_text(tomli_w.dumps(cut), encoding="utf-8")
    assert resolve_edition("usa-mine").spec.map.edges == [tuple(e) for e in cut["map"]["edges"]]
    assert pack_from_document(cut, "games.json").spec.map.edges == [tuple(e) for e in cut["map"]["edges"]]


def test_files_that_are_not_packs(tmp_path):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text('id = "x\n', encoding="utf-8")
    assert "not valid TOML" in run("deck", "import", str(bad_toml)).output
    a_list = tmp_path / "list.json"
    a_list.write_text("[1, 2]", encoding="utf-8")
    assert "not a list" in " ".join(run("deck", "import", str(a_list)).output.split())
    missing = tmp_path / "nope.toml"
    assert "cannot read" in run("deck", "import", str(missing)).output
    assert pack_ids() == () and not packs_dir().exists()  # a refused pack creates nothing, not even the folder
