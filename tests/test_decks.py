"""Which deck a game is scored with: the deck line, the deck a record names, and an owner's deck over time.

A game played with an owner's deck keeps that deck as it was (the `started` event), its record names the
deck and its version, and `tourpad score` scores the record with that version; editing, renaming or
deleting the deck afterwards never changes a saved game's scores. Every test has its own data folder.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from deck_helpers import parsed_rounds
from typer.testing import CliRunner

from rules.bots import make_bot, play
from rules.editions import deck_version, load_edition
from rules.engine import Game
from rules.record import GameRecord, record_from_rounds, score_record
from scorer.cli import app
from scorer.packs import (
    deck_line,
    delete_deck,
    duplicate_deck,
    import_pack,
    own_decks,
    pack_from_data,
    rename_deck,
    resolve_deck,
    resolve_edition,
    save_deck,
)
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

USA_TEMPLATE = Path(__file__).resolve().parent.parent / "docs" / "deck-pack-template-usa.toml"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def usa_pack(shift: int = 0) -> dict:
    """The USA template (id usa-mine), every card's number moved on by `shift` (1–7 round): still a valid
    deck (each number on four cards), whose Throw & Catch scores differ."""
    doc = tomllib.loads(USA_TEMPLATE.read_text(encoding="utf-8"))
    for card in doc["cards"]:
        card["number"] = (card["number"] - 1 + shift) % 7 + 1
    return doc


def install(doc: dict):
    return save_deck(pack_from_data(tomli_w.dumps(doc).encode("utf-8"), "usa-mine.toml"))


def bot_game(edition, seed: int = 5):
    state = play(Game(edition, 2, seed=seed), [make_bot("greedy", 1), make_bot("random", 2)])
    return record_from_rounds(edition, ["Ann", "Bob"], parsed_rounds(state))


def play_in_app(store: EventStore, record: GameRecord) -> GameSession:
    return GameSession.from_record(store, record)


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


# --- the deck line ----------------------------------------------------------------------------------------

def test_the_deck_line_names_tourpads_cards_or_the_owners_deck():
    assert "print-and-play" in deck_line(load_edition("usa"))
    assert "print-and-play" in deck_line(load_edition("europe"))
    assert deck_line(load_edition("australia")) is None  # the publisher's own card list: nothing to warn of
    mine = install(usa_pack())
    assert deck_line(mine) == "Your deck: My Boomerang: USA"
    assert [d.id for d in own_decks("usa")] == ["usa-mine"] and own_decks("europe") == ()


# --- the record names its deck ----------------------------------------------------------------------------

def test_a_record_names_the_owners_deck_and_its_version_and_tourpads_none():
    mine = install(usa_pack())
    record = bot_game(mine)
    assert record.deck is not None
    assert (record.deck.id, record.deck.name, record.deck.version) == ("usa-mine", "My Boomerang: USA",
                                                                      deck_version(mine))
    assert bot_game(load_edition("usa")).deck is None
    # a different deck is a different version
    assert deck_version(install(usa_pack(1))) != record.deck.version


def test_tourpad_score_names_a_deck_that_is_not_installed(tmp_path):
    mine = pack_from_data(tomli_w.dumps(usa_pack()).encode("utf-8"), "usa-mine.toml")  # checked, not installed
    path = tmp_path / "game.json"
    path.write_text(bot_game(mine).model_dump_json(), encoding="utf-8")
    result = run("score", str(path))
    assert result.exit_code == 2
    assert "My Boomerang: USA" in result.output and "'usa-mine'" in result.output
    assert "tourpad deck import" in result.output and "Traceback" not in result.output


def test_tourpad_score_uses_the_version_the_game_was_played_with(tmp_path):
    played = install(usa_pack())
    record = bot_game(played)
    expected = score_record(record, played).totals
    edited = install(usa_pack(1))  # the owner edits the deck afterwards
    assert score_record(record, edited).totals != expected  # the edit does change these scores
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json(), encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert [p["total"] for p in json.loads(result.stdout)["players"]] == expected
    assert "warning" not in result.stderr


def test_tourpad_score_warns_when_only_another_version_is_installed(tmp_path):
    other_device = pack_from_data(tomli_w.dumps(usa_pack()).encode("utf-8"), "usa-mine.toml")
    record = bot_game(other_device)
    installed = install(usa_pack(2))
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json(), encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0
    assert record.deck.version in result.stderr and deck_version(installed) in result.stderr
    assert [p["total"] for p in json.loads(result.stdout)["players"]] == score_record(record, installed).totals


# --- a saved game keeps its deck --------------------------------------------------------------------------

def test_editing_a_deck_leaves_a_saved_games_scores_unchanged(store, tmp_path):
    played = install(usa_pack())
    record = bot_game(played)
    session = play_in_app(store, record)
    before = session.state.totals()
    assert before == score_record(record, played).totals
    install(usa_pack(3))          # edited afterwards …
    rename_deck("usa-mine", "Grandma's box")  # … renamed …
    reopened = GameSession(store, session.game_id)
    assert reopened.state.totals() == before
    assert reopened.state.edition.name == "My Boomerang: USA"
    exported = reopened.state.record()
    assert exported.deck.version == deck_version(played)
    delete_deck("usa-mine")       # … and deleted: the game still scores as it was played
    assert GameSession(store, session.game_id).state.totals() == before
    path = tmp_path / "game.json"
    path.write_text(exported.model_dump_json(), encoding="utf-8")
    assert resolve_deck("usa-mine", exported.deck.version)[1]  # the version it was played with is kept


def test_tourpads_own_decks_are_not_copied_into_a_game(store):
    session = play_in_app(store, bot_game(load_edition("usa")))
    assert "deck" not in store.events(session.game_id)[0].payload


# --- rename, duplicate, delete ----------------------------------------------------------------------------

def test_a_deck_can_be_renamed_duplicated_and_deleted():
    install(usa_pack())
    renamed = rename_deck("usa-mine", "  Our   USA box ")
    assert (renamed.id, renamed.name) == ("usa-mine", "Our USA box")
    copy = duplicate_deck("usa-mine")
    assert copy.id == "usa-mine-2" and copy.name == "Our USA box (copy)"
    assert copy.spec.cards == renamed.spec.cards and copy.spec.map == renamed.spec.map
    from_tourpad = duplicate_deck("usa")
    assert (from_tourpad.id, from_tourpad.base, from_tourpad.provenance) == ("usa-mine-3", "usa", "owner")
    delete_deck("usa-mine")
    with pytest.raises(KeyError):
        resolve_edition("usa-mine")
    assert resolve_edition("usa-mine-2").name == "Our USA box (copy)"
    with pytest.raises(KeyError):
        delete_deck("usa")  # tourpad's own decks are not installed packs


def test_reimporting_a_pack_keeps_the_version_it_replaces(tmp_path):
    first = install(usa_pack())
    path = tmp_path / "usa-mine.toml"
    path.write_text(tomli_w.dumps(usa_pack(4)), encoding="utf-8")
    import_pack(path)
    kept, exact = resolve_deck("usa-mine", deck_version(first))
    assert exact and kept.spec == first.spec


# --- solo -------------------------------------------------------------------------------------------------

def test_a_solo_game_is_played_with_an_installed_deck_and_keeps_it(store):
    from scorer.solo.view import load, new_game

    played = install(usa_pack())
    game_id, game = new_game(store, "usa-mine", ["normal"], False, seed=11)
    assert game.edition.spec == played.spec
    install(usa_pack(2))  # edited afterwards
    resumed = load(store, game_id)
    assert resumed.edition.spec == played.spec and resumed.setup.deck is not None
    tourpads_id, tourpads = new_game(store, "usa", ["normal"], False, seed=11)
    assert "deck" not in store.events(tourpads_id)[0].payload and tourpads.edition.provenance == "tourpad"


# --- sharing by link / QR code ----------------------------------------------------------------------------

def test_a_shared_deck_code_gives_the_same_deck_and_the_same_scores_on_another_device(tmp_path, monkeypatch):
    from scorer.packs import deck_from_share_code, deck_share_code, install_shared_deck

    mine = install(usa_pack(3))
    record = bot_game(mine)
    code = deck_share_code(mine)
    assert len(code) < 3000 and code.isascii()
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "other-phone"))  # another device: nothing installed
    received = deck_from_share_code(f"https://example.org/deck/{code}")  # a whole link pasted works too
    assert deck_version(received) == deck_version(mine)
    installed, already = install_shared_deck(received)
    assert (installed.id, already) == ("usa-mine", False)
    assert score_record(record, resolve_edition("usa-mine")).totals == score_record(record, mine).totals
    assert install_shared_deck(received)[1]  # the same deck again: already here, nothing installed twice


def test_a_shared_deck_never_replaces_a_different_deck_of_the_same_id():
    from scorer.packs import deck_from_share_code, deck_share_code, install_shared_deck

    theirs = pack_from_data(tomli_w.dumps(usa_pack(5)).encode("utf-8"), "usa-mine.toml")
    ours = install(usa_pack())
    installed, already = install_shared_deck(deck_from_share_code(deck_share_code(theirs)))
    assert not already and installed.id == "usa-mine-2"
    assert deck_version(resolve_edition("usa-mine")) == deck_version(ours)


@pytest.mark.parametrize("code", ["", "not a code", "eJzLSM3JyQcABiwCFQ", "A" * 3001, "../../etc/passwd"])
def test_a_broken_deck_code_is_refused_in_one_line(code):
    from rules.model import EditionDataError
    from scorer.packs import deck_from_share_code

    with pytest.raises(EditionDataError, match="not a tourpad deck link or code"):
        deck_from_share_code(code)


def test_a_deck_code_cut_short_is_refused():
    from rules.model import EditionDataError
    from scorer.packs import deck_from_share_code, deck_share_code

    code = deck_share_code(install(usa_pack()))
    for cut in (1, 5, 40):
        with pytest.raises(EditionDataError):
            deck_from_share_code(code[:-cut])


# --- Export all games carries the owner's decks -----------------------------------------------------------

def test_export_all_games_carries_the_decks_and_a_new_device_gets_them(store, tmp_path, monkeypatch):
    from scorer.pad.archive import export_games, import_games

    mine = install(usa_pack(2))
    session = play_in_app(store, bot_game(mine))
    text = export_games(store)
    assert json.loads(text)["version"] == 2
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "new-phone"))
    other = EventStore(tmp_path / "new-phone.sqlite3")
    try:
        assert import_games(other, text) == (1, 0)
        assert deck_version(resolve_edition("usa-mine")) == deck_version(mine)
        (game,) = other.games()
        assert GameSession(other, game.id).state.totals() == session.state.totals()
    finally:
        other.close()


def test_a_games_file_without_decks_stays_readable_by_an_older_tourpad(store):
    from scorer.pad.archive import export_games

    play_in_app(store, bot_game(load_edition("usa")))
    doc = json.loads(export_games(store))
    assert doc["version"] == 1 and "decks" not in doc


def test_an_app_game_equals_tourpad_score_of_its_export_with_the_exported_pack_installed(store, tmp_path,
                                                                                       monkeypatch):
    from scorer.packs import export_text

    mine = install(usa_pack(6))
    session = play_in_app(store, bot_game(mine, seed=9))
    record_path = tmp_path / "game.json"
    record_path.write_text(session.state.record().model_dump_json(indent=2), encoding="utf-8")
    pack_path = tmp_path / "usa-mine.toml"
    pack_path.write_text(export_text(resolve_edition("usa-mine")), encoding="utf-8")
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "laptop"))  # another computer
    assert run("deck", "import", str(pack_path)).exit_code == 0
    result = run("score", str(record_path), "--json")
    assert result.exit_code == 0, result.output
    assert [p["total"] for p in json.loads(result.stdout)["players"]] == session.state.totals()
    assert result.stderr == ""  # the very version the game was played with: nothing to warn of


# --- a table keeps the host's deck as it was when the table opened ----------------------------------------

def test_a_table_keeps_the_hosts_deck_version_for_every_seat_the_board_and_the_record(tmp_path):
    """The host opens a table with their own deck, then edits the deck (numbers and a region's name) while
    the table runs, and even restarts: every seat, the board and the record still use the version the
    table was opened with, and score what that deck scores."""
    from benchmarks.table import scripted_rounds
    from scorer.table.board import board_from_view
    from scorer.table.service import TableService
    from scorer.table.sheet import TableSheetSession

    played = install(usa_pack())
    rounds, _ = scripted_rounds(played, 2, seed=4)
    service = TableService(tmp_path / "tables.sqlite3")
    code, _host = service.create_table("usa-mine", 2, credential=service.host_credential)
    tokens = [service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
    edited = usa_pack(2)  # the host edits the deck meanwhile: other numbers, the green region renamed
    edited["regions"][0]["name"] = "Far West"
    for card in edited["cards"]:
        card["region"] = "Far West" if card["region"] == "Green region" else card["region"]
    install(edited)
    for r, row in enumerate(rounds[:3], start=1):
        for seat, (cards, choice) in enumerate(row, start=1):
            service.submit(code, r, seat, cards, choice, 0, tokens[seat - 1])
    record = GameRecord.model_validate(service.record(code))
    expected = score_record(record, played).totals
    assert score_record(record, resolve_edition("usa-mine")).totals != expected  # the edit changes them
    service.close()

    service = TableService(tmp_path / "tables.sqlite3")  # the host restarts after the edit
    try:
        view = service.view(code)
        assert view["edition"]["version"] == deck_version(played)
        seat = TableSheetSession(service, code, tokens[1], 1)
        assert deck_version(seat.state.edition) == deck_version(played)
        assert seat.state.totals() == expected
        board = board_from_view(view)
        assert [column.total for column in board.sheets] == expected
        assert "Green region" in {r.name for r in board.open_regions + board.taken_regions}
        again = GameRecord.model_validate(service.record(code))
        assert again.deck.version == deck_version(played)
        assert score_record(again, played).totals == expected
    finally:
        service.close()
