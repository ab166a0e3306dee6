"""Players as people (`scorer.pad.people`): one player under several spellings, renamed, merged; their
games follow them into the figures (`scorer.stats`) and to a new phone through the games file, and the
saved games are never rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.editions import load_edition
from rules.record import GameRecord
from scorer import stats
from scorer.pad.archive import ArchiveError, export_games, import_games
from scorer.pad.errors import EntryError
from scorer.pad.game import GameSession
from scorer.pad.people import People
from scorer.pad.store import EventStore

EDITIONS = {e: load_edition(e) for e in ("australia", "europe", "usa")}
USA = json.loads((Path(__file__).parent / "data" / "table_usa_acceptance.json").read_text())


def play(store: EventStore, *names: str) -> None:
    """The recorded USA game (Ann, Bob, Cy) finished again under other names, seat for seat."""
    rename = dict(zip(USA["players"], names, strict=True))
    record = GameRecord(edition="usa", players=list(names),
                        rounds=[{rename[k]: v for k, v in row.items()} for row in USA["rounds"]])
    GameSession.from_record(store, record)


def games_of(store: EventStore, people: People | None = None) -> dict[str, int]:
    who = people.person if people is not None else stats.tidy
    figures = stats.figures(stats.played_games(store, EDITIONS.__getitem__), who)
    return {f.name: f.games for f in figures.players}


@pytest.fixture
def store(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    yield store
    store.close()


def test_spellings_of_one_name_are_one_player(store):
    play(store, "Ann", "Bob", "Cy")
    play(store, "ann", "BOB", "Cy")
    assert games_of(store) == {"ann": 2, "BOB": 2, "Cy": 2}
    assert People(store).known() == ["ann", "BOB", "Cy"]


def test_a_renamed_player_keeps_their_games_and_the_games_keep_their_names(store):
    play(store, "Ann", "Bob", "Cy")
    play(store, "ann", "Bob", "Dee")
    people = People(store)
    assert people.rename("ANN ", "Annie") == "Annie"
    assert games_of(store, people)["Annie"] == 2
    assert "Ann" not in games_of(store, people)
    assert [g.players for g in store.games()] == [("ann", "Bob", "Dee"), ("Ann", "Bob", "Cy")]
    assert people.known()[0] == "Annie"
    # renamed again, from a name they played under: still one person
    people.rename("ann", "Anna")
    assert games_of(store, people) == {"Anna": 2, "Bob": 2, "Cy": 1, "Dee": 1}


def test_two_names_merged_are_one_person(store):
    play(store, "Ann", "Bob", "Cy")
    play(store, "Annie", "Bob", "Dee")
    people = People(store)
    people.merge("Annie", "ann")
    assert games_of(store, people) == {"Ann": 2, "Bob": 2, "Cy": 1, "Dee": 1}
    head = stats.head_to_head(stats.played_games(store, EDITIONS.__getitem__), "Annie", "Bob", people.person)
    assert head.games == 2
    with pytest.raises(EntryError, match="already one player"):
        people.merge("ANNIE", "Ann")


def test_a_bad_new_name_is_refused_and_changes_nothing(store):
    play(store, "Ann", "Bob", "Cy")
    people = People(store)
    with pytest.raises(EntryError, match="visible character"):
        people.rename("Ann", "   ")
    assert store.aliases() == {}


def test_the_register_travels_with_the_games_file(store, tmp_path):
    play(store, "Ann", "Bob", "Cy")
    play(store, "Annie", "Bob", "Dee")
    People(store).merge("Annie", "Ann")
    People(store).rename("Bob", "Robert")
    text = export_games(store)
    phone = EventStore(tmp_path / "phone.sqlite3")
    try:
        assert import_games(phone, text) == (2, 0)
        assert games_of(phone, People(phone)) == games_of(store, People(store)) == {
            "Ann": 2, "Robert": 2, "Cy": 1, "Dee": 1}
        # the phone's own register wins over a file's for a name it already knows
        People(phone).rename("Ann", "Nan")
        import_games(phone, text)
        assert People(phone).person("Annie") == "Nan"
    finally:
        phone.close()


def test_a_games_file_of_version_1_has_no_register(store, tmp_path):
    play(store, "Ann", "Bob", "Cy")
    old = json.loads(export_games(store))
    old.pop("people", None)  # a file with games only carries no register
    old["version"] = 1
    phone = EventStore(tmp_path / "phone.sqlite3")
    try:
        assert import_games(phone, json.dumps(old)) == (1, 0)
        assert phone.aliases() == {}
    finally:
        phone.close()


def test_a_bad_register_in_a_games_file_is_refused_whole(store, tmp_path):
    play(store, "Ann", "Bob", "Cy")
    bad = json.loads(export_games(store))
    bad["people"] = {"ann": "\u0007"}
    phone = EventStore(tmp_path / "phone.sqlite3")
    try:
        with pytest.raises(ArchiveError, match="people"):
            import_games(phone, json.dumps(bad))
        assert phone.games() == [] and phone.aliases() == {}
    finally:
        phone.close()


def test_the_players_met_before_are_people_not_bots(store):
    from scorer.solo import view as solo_view
    from scorer.solo.game import SoloGame

    play(store, "Ann", "Bob", "Cy")
    solo_view.start(store, SoloGame.new("australia", ["easy"], seed=1, bot_seed=2, player_name="Dee"))
    assert People(store).known() == ["Ann", "Bob", "Cy"]
