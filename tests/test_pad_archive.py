"""Every game as one file (History's Export all / Import): a round trip replays to the same games, a second
import adds nothing, a bad file is refused by name and changes nothing; the store's commit hook."""

from __future__ import annotations

import json

import pytest

from scorer.pad.archive import ArchiveError, export_games, import_games
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.userfile import UserFileError

ROUNDS = [("ABCDEFG", "Indigenous Culture", "HIJKLMN", "Bushwalking"),
          ("OPQRSTU", "Sightseeing", "VWXYZ@#", None),
          ("ABCDIJK", "Bushwalking", "EFGHLMN", "Swimming"),
          ("UVWXYZ@", "Swimming", "OPQRST#", "Sightseeing")]


def played(store: EventStore, rounds) -> GameSession:
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    for a, ca, b, cb in rounds:
        session.enter_letters(0, a, ca)
        session.enter_letters(1, b, cb)
    return session


def test_export_then_import_on_another_device_gives_the_same_games(tmp_path):
    phone = EventStore(tmp_path / "old.sqlite3")
    finished, unfinished = played(phone, ROUNDS), played(phone, ROUNDS[:2])
    text = export_games(phone)
    new_phone = EventStore(tmp_path / "new.sqlite3")
    assert import_games(new_phone, text) == (2, 0)
    by_status = {g.status: g for g in new_phone.games()}
    assert set(by_status) == {"finished", "playing"}
    again = GameSession(new_phone, by_status["finished"].id).state
    assert again.finished and again.totals() == finished.state.totals() and again.ranks() == finished.state.ranks()
    resumed = GameSession(new_phone, by_status["playing"].id)
    assert resumed.state.totals() == unfinished.state.totals()
    resumed.enter_letters(0, *ROUNDS[2][:2])  # and it goes on from there
    assert import_games(new_phone, text) == (0, 2)  # importing the same file twice adds nothing
    assert len(new_phone.games()) == 2


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "games.json is not valid JSON: "),  # the bounded loader of every file names it (UserFileError)
    (json.dumps({"format": "something-else", "version": 1, "games": []}), "format is 'something-else'"),
    (json.dumps({"format": "tourpad-games", "version": 9, "games": []}), "version 9, newer than"),
    (json.dumps({"format": "tourpad-games", "version": 1, "games": [{"edition": "australia"}]}),
     "games → 0 → created_at: Field required"),
])
def test_a_bad_file_is_refused_by_name_and_changes_nothing(tmp_path, text, message):
    store = EventStore(tmp_path / "g.sqlite3")
    played(store, ROUNDS[:1])
    before = [(g.id, len(store.events(g.id))) for g in store.games()]
    with pytest.raises((ArchiveError, UserFileError), match=message.replace("(", r"\(")):
        import_games(store, text)
    assert [(g.id, len(store.events(g.id))) for g in store.games()] == before


def test_every_commit_runs_the_storage_hook_before_returning(tmp_path):
    """The browser's save (IndexedDB) hangs on this hook: each acknowledged write must have run it."""
    calls: list[int] = []
    store = EventStore(tmp_path / "g.sqlite3", journal_mode="DELETE", after_commit=lambda: calls.append(1))
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    assert len(calls) == 1
    session.enter_letters(0, "ABCDEFG", None)
    assert len(calls) == 2
    import_games(store, export_games(store).replace('"created_at": ', '"created_at": 1'))
    assert len(calls) == 3
    store.delete_game(session.game_id)
    assert len(calls) == 4
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
