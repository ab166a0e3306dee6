"""The host runs the table (issue 13): close joining, remove a seat that never played, end the game, play
again with the same seats, export the game's record. Each is the host's alone, saved before it is
acknowledged, announced to listeners, and still there after a restart."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from test_table_api import Seated, refused

from benchmarks.table import scripted_rounds
from rules.record import GameRecord, score_record
from scorer.table import api
from scorer.table.service import Conflict, Forbidden, TableService, Unauthorized


@pytest.fixture
def restartable(tmp_path):
    """A client on a service, and a way to restart that service on the same file (its credential kept)."""
    services = [TableService(tmp_path / "tables.sqlite3")]

    class Host:
        client = TestClient(api.create_app(services[0]))

        def restart(self) -> TestClient:
            services[-1].close()
            services.append(TableService(tmp_path / "tables.sqlite3", host_credential=services[0].host_credential))
            self.client = TestClient(api.create_app(services[-1]))
            return self.client

        @property
        def service(self) -> TableService:
            return services[-1]

    yield Host()
    services[-1].close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_round_one(table: Seated, australia, seats: int = 4) -> None:
    rounds, _ = scripted_rounds(australia, seats, seed=5)
    for seat in range(1, seats + 1):
        assert table.put(1, seat, *rounds[0][seat - 1]).status_code == 200


# --- close joining -----------------------------------------------------------------------------------------

def test_a_closed_table_refuses_new_players_but_seated_ones_and_the_host_carry_on(restartable, australia):
    client = restartable.client
    other = Seated(client, seats=2)  # a seat token of another table is no host token here
    created = client.post("/api/tables", json={"seats": 3}, headers=bearer(restartable.service.host_credential))
    code, host = created.json()["code"], created.json()["host_token"]
    assert client.post(f"/api/tables/{code}/seats/1/claim", json={"name": "Ann"}).status_code == 200

    refused(client.put(f"/api/tables/{code}/joining", json={"open": False}), 401, "token")
    refused(client.put(f"/api/tables/{code}/joining", json={"open": False}, headers=bearer(other.tokens[0])),
            401, "not a seat or host token")
    closed = client.put(f"/api/tables/{code}/joining", json={"open": False}, headers=bearer(host))
    assert closed.status_code == 200 and closed.json()["locked"] is True
    refused(client.post(f"/api/tables/{code}/seats/2/claim", json={"name": "Bob"}), 403,
            "the host has closed this table to new players")
    refused(client.put(f"/api/tables/{code}/joining", json={"open": False}, headers=bearer(host)), 409,
            "already closed")
    # the host can still seat someone, and the view says the table is closed
    seated = client.post(f"/api/tables/{code}/seats/2/claim", json={"name": "Bob"}, headers=bearer(host))
    assert seated.status_code == 200
    client = restartable.restart()
    assert client.get(f"/api/tables/{code}").json()["locked"] is True
    refused(client.post(f"/api/tables/{code}/seats/3/claim", json={"name": "Cat"}), 403, "closed this table")
    # the host credential works as well as the table's host token
    opened = client.put(f"/api/tables/{code}/joining", json={"open": True},
                        headers=bearer(restartable.service.host_credential))
    assert opened.json()["locked"] is False
    assert client.post(f"/api/tables/{code}/seats/3/claim", json={"name": "Cat"}).status_code == 200


def test_a_seat_token_cannot_close_joining(restartable):
    table = Seated(restartable.client, seats=2)
    with pytest.raises(Forbidden, match="only the host"):
        restartable.service.set_joining(table.code, False, table.tokens[0])
    with pytest.raises(Unauthorized):
        restartable.service.set_joining(table.code, False, None)
    assert table.view()["locked"] is False


# --- remove a seat ------------------------------------------------------------------------------------------

def test_a_seat_that_never_played_is_removed_before_round_one_closes(restartable, australia):
    client = restartable.client
    table = Seated(client, seats=4)
    rounds, _ = scripted_rounds(australia, 4, seed=5)
    assert table.put(1, 1, *rounds[0][0]).status_code == 200
    events = []
    restartable.service.subscribe(table.code, events.append)
    refused(client.delete(f"/api/tables/{table.code}/seats/2", headers=bearer(table.tokens[0])), 403,
            "only the host")
    refused(client.delete(f"/api/tables/{table.code}/seats/1", headers=bearer(table.host)), 409,
            "has an entry", "Ann")
    removed = client.delete(f"/api/tables/{table.code}/seats/2", headers=bearer(table.host))
    assert removed.status_code == 200, removed.text
    assert removed.json()["seats"] == 3
    assert [e["kind"] for e in events] == ["seat_removed"]
    client = restartable.restart()
    table.client = client
    view = table.view()
    assert [s["name"] for s in view["seats"]] == ["Ann", "Cat", "Dan"]
    assert view["rounds"][0]["entries"][0]["cards"] == rounds[0][0][0]
    # Bob's token stops working; Cat (now seat 2) and Dan (seat 3) play on with their own tokens
    refused(table.put(1, 2, *rounds[0][1], token=table.tokens[1]), 401, "not a seat or host token")
    assert table.put(1, 2, *rounds[0][2], token=table.tokens[2]).status_code == 200
    closed = table.put(1, 3, *rounds[0][3], token=table.tokens[3])
    assert closed.json()["round_closed"]
    refused(client.delete(f"/api/tables/{table.code}/seats/3", headers=bearer(table.host)), 409,
            "round 1 is closed")


def test_a_table_never_shrinks_below_two_seats(restartable):
    table = Seated(restartable.client, seats=2)
    with pytest.raises(Conflict, match="the fewest"):
        restartable.service.remove_seat(table.code, 2, table.host)
    assert len(table.view()["seats"]) == 2


# --- end, play again, the record ------------------------------------------------------------------------------

def test_an_ended_game_takes_no_entries_and_stays_readable(restartable, australia):
    client = restartable.client
    table = Seated(client, seats=4)
    play_round_one(table, australia)
    scores = table.view()["scores"]
    events = []
    restartable.service.subscribe(table.code, events.append)
    refused(client.post(f"/api/tables/{table.code}/end", headers=bearer(table.tokens[0])), 403, "only the host")
    ended = client.post(f"/api/tables/{table.code}/end", headers=bearer(table.host))
    assert ended.status_code == 200 and ended.json()["game"] == 1
    assert [e["kind"] for e in events] == ["ended"] and events[0]["table"]["ended"]
    client = restartable.restart()
    table.client = client
    view = table.view()
    assert view["ended"] and view["scores"] == scores
    rounds, _ = scripted_rounds(australia, 4, seed=5)
    refused(table.put(2, 1, *rounds[1][0]), 409, "ended", "no more entries")
    refused(table.put(2, 1, *rounds[1][0], token=table.host), 409, "ended")
    refused(client.post(f"/api/tables/{table.code}/end", headers=bearer(table.host)), 409, "already ended")


def test_play_again_keeps_the_seats_and_the_old_game_record(restartable, australia):
    client = restartable.client
    table = Seated(client, seats=4)
    play_round_one(table, australia)
    refused(client.post(f"/api/tables/{table.code}/play-again", headers=bearer(table.host)), 409,
            "still being played", "end it first")
    first_game = client.get(f"/api/tables/{table.code}/record").json()
    assert client.post(f"/api/tables/{table.code}/end", headers=bearer(table.host)).status_code == 200
    events = []
    restartable.service.subscribe(table.code, events.append)
    refused(client.post(f"/api/tables/{table.code}/play-again", headers=bearer(table.tokens[1])), 403,
            "only the host")
    again = client.post(f"/api/tables/{table.code}/play-again", headers=bearer(table.host))
    assert again.status_code == 200 and again.json()["game"] == 2
    assert events[-1]["kind"] == "new_game" and events[-1]["table"]["round"] == 1
    client = restartable.restart()
    table.client = client
    view = table.view()
    assert (view["game"], view["past_games"], view["round"], view["ended"]) == (2, [1], 1, False)
    assert [s["name"] for s in view["seats"]] == table.names
    # the same seat tokens play game 2
    play_round_one(table, australia)
    assert table.view()["round"] == 2
    kept = client.get(f"/api/tables/{table.code}/record", params={"game": 1})
    assert kept.json() == first_game
    refused(client.get(f"/api/tables/{table.code}/record", params={"game": 7}), 404, "games 1, 2")


def test_the_record_scores_as_the_table_does(restartable, australia):
    table = Seated(restartable.client, seats=4)
    play_round_one(table, australia)
    record = restartable.client.get(f"/api/tables/{table.code}/record").json()
    assert record["players"] == table.names and len(record["rounds"]) == 1
    assert score_record(GameRecord(**record), australia).to_dict() == table.view()["scores"]


def test_a_finished_table_game_goes_to_history_with_the_same_scores(restartable, australia, tmp_path):
    from scorer.pad.game import GameSession
    from scorer.pad.store import EventStore

    rounds, engine_totals = scripted_rounds(australia, 3, seed=11)
    table = Seated(restartable.client, seats=3)
    for r, entries in enumerate(rounds, start=1):
        for seat, entry in enumerate(entries, start=1):
            assert table.put(r, seat, *entry).status_code == 200
    record = GameRecord(**restartable.client.get(f"/api/tables/{table.code}/record").json())
    store = EventStore(tmp_path / "games.sqlite3")
    try:
        session = GameSession.from_record(store, record)
        assert session.state.finished and session.state.totals() == engine_totals
        assert store.game(session.game_id).status == "finished"
        assert session.state.record() == record  # the pad exports the same record
    finally:
        store.close()


def test_a_record_needs_distinct_names_and_says_so(restartable):
    client = restartable.client
    created = client.post("/api/tables", json={"seats": 3}, headers=bearer(restartable.service.host_credential))
    code, host = created.json()["code"], created.json()["host_token"]
    assert client.post(f"/api/tables/{code}/seats/2/claim", json={"name": "Seat 3"}).status_code == 200
    refused(client.get(f"/api/tables/{code}/record"), 409, "must differ", "seat 1, Seat 3, seat 3")
    assert client.post(f"/api/tables/{code}/end", headers=bearer(host)).status_code == 200
    refused(client.post(f"/api/tables/{code}/play-again", headers=bearer(host)), 409, "must differ")
    assert client.get(f"/api/tables/{code}").json()["game"] == 1  # nothing changed
