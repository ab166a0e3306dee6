"""Table mode through its JSON API: the rules, who may write what, hostile input, durability, expiry."""

from __future__ import annotations

import io
import json
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from live_api import serve_table_api

from benchmarks.table import scripted_rounds
from rules.record import GameRecord, PlayerRound, score_record
from scorer.table import api
from scorer.table.host import join_link, join_url, qr_png, seat_link
from scorer.table.service import TableService, new_token


@pytest.fixture
def service(tmp_path):
    svc = TableService(tmp_path / "tables.sqlite3")
    yield svc
    svc.close()


@pytest.fixture
def client(service):
    return TestClient(api.create_app(service))


class Seated:
    """A table with every seat claimed: its code, host token and seat tokens."""

    def __init__(self, client: TestClient | httpx.Client, seats: int = 4, edition: str = "australia",
                 auth: dict[str, str] | None = None) -> None:
        created = client.post("/api/tables", json={"edition": edition, "seats": seats},
                              headers=auth or as_host(client))
        assert created.status_code == 201, created.text
        self.client = client
        self.code = created.json()["code"]
        self.host = created.json()["host_token"]
        self.names = ["Ann", "Bob", "Cat", "Dan"][:seats]
        self.tokens = []
        for s, name in enumerate(self.names, start=1):
            claimed = client.post(f"/api/tables/{self.code}/seats/{s}/claim", json={"name": name})
            assert claimed.status_code == 200, claimed.text
            self.tokens.append(claimed.json()["seat_token"])

    def put(self, round_no: int, seat: int, cards: str, choice: str | None = None, revision: int = 0,
            token: str | None = "own", game: int | None = None) -> httpx.Response:
        """A submission for `game` (by default the game the table is playing)."""
        token = self.tokens[seat - 1] if token == "own" else token
        game = self.view()["game"] if game is None else game
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.client.put(f"/api/tables/{self.code}/rounds/{round_no}/seats/{seat}",
                               json={"game": game, "cards": cards, "choice": choice,
                                     "replaces_revision": revision},
                               headers=headers)

    def view(self) -> dict:
        response = self.client.get(f"/api/tables/{self.code}")
        assert response.status_code == 200, response.text
        return response.json()


def as_host(client: TestClient) -> dict[str, str]:
    """The header of the host credential of the client's service (what opening a table needs)."""
    return {"Authorization": f"Bearer {client.app.state.table_service.host_credential}"}


@pytest.fixture
def table(client):
    return Seated(client)


def refused(response: httpx.Response, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, detail
    return detail


# --- a whole game -------------------------------------------------------------------------------------------

def test_a_full_game_scores_like_the_engine_and_the_record_scorer(client, australia):
    rounds, engine_totals = scripted_rounds(australia, 4, seed=7)
    table = Seated(client)
    for r, entries in enumerate(rounds, start=1):
        for seat in (3, 1, 4, 2):
            view = table.view()
            assert view["round"] == r and seat in view["waiting_for"]
            ack = table.put(r, seat, *entries[seat - 1])
            assert ack.status_code == 200, ack.text
            assert ack.json()["round_closed"] == (seat == 2)
    view = table.view()
    assert view["finished"] and view["round"] is None and view["waiting_for"] == []
    totals = [p["total"] for p in view["scores"]["players"]]
    assert totals == engine_totals
    record = GameRecord(edition="australia", players=table.names, rounds=[
        {table.names[s]: PlayerRound(cards=c, activity=ch) for s, (c, ch) in enumerate(entries)}
        for entries in rounds])
    assert view["scores"] == score_record(record, australia).to_dict()


def test_round_closes_only_when_every_seat_submitted_and_seats_edit_until_then(table, australia):
    rounds, _ = scripted_rounds(australia, 4, seed=3)
    first = rounds[0]
    for seat in (1, 2, 3):
        assert table.put(1, seat, *first[seat - 1]).status_code == 200
    view = table.view()
    assert view["waiting_for"] == [4] and not view["rounds"][0]["closed"]
    assert view["scores"]["players"][0]["rounds"] == []
    # Ann edits her open-round entry (same cards, Catch and Throw kept) → revision 2
    edited = table.put(1, 1, *first[0], revision=1)
    assert edited.json()["revision"] == 2 and not edited.json()["round_closed"]
    assert table.put(1, 4, *first[3]).json()["round_closed"]
    view = table.view()
    assert view["rounds"][0]["closed"] and view["round"] == 2
    assert len(view["scores"]["players"][0]["rounds"]) == 1


# --- the engine's rules, per submission -----------------------------------------------------------------------

def test_bad_rows_are_refused_with_the_rule_they_break(table):
    refused(table.put(1, 1, "ABCDEF*"), 422, "'*'", "not a card")
    refused(table.put(1, 1, "ABCDEF"), 422, "6 cards", "exactly 7")
    refused(table.put(1, 1, "ABCDEFA"), 422, "'A'", "twice")
    refused(table.put(1, 1, "ABCDEFG", choice="Skydiving"), 422, "Skydiving", "not one of the Activities")
    assert table.put(1, 2, "ABCDEFG").status_code == 200
    refused(table.put(1, 1, "GHIJKLM"), 409, "round 1, Ann", "G already in Bob's round 1 cards")
    assert table.view()["rounds"][0]["entries"][0] is None


def test_a_choice_needs_its_icon_and_scores_once_per_game(table, australia):
    family = australia.choice
    letters = australia.letters
    row = letters[:7]
    mask = sum(1 << australia.card_index(x) for x in row)
    missing = next(i.name for i in family.icons if not i.mask & mask)
    refused(table.put(1, 1, row, choice=missing), 422, missing, "needs at least one")
    held = next(i for i in family.icons if i.mask & mask)
    assert table.put(1, 1, row, choice=held.name.upper()).json()["choice"] == held.name
    for seat in (2, 3, 4):
        assert table.put(1, seat, letters[7 * (seat - 1):7 * seat]).status_code == 200
    assert table.view()["round"] == 2
    with_icon = next(c.letter for c in australia.cards if held.mask >> c.index & 1)
    second_row = with_icon + "".join(x for x in letters if x != with_icon)[:6]
    refused(table.put(2, 1, second_row, choice=held.name), 422, held.name, "already scored in round 1")


# --- rounds in order --------------------------------------------------------------------------------------------

def test_out_of_order_rounds_and_replays_are_refused_and_change_nothing(table):
    refused(table.put(2, 1, "ABCDEFG"), 409, "round 2 is not open", "Ann, Bob, Cat, Dan")
    assert table.put(1, 1, "ABCDEFG").status_code == 200
    before = table.view()
    refused(table.put(1, 1, "ABCDEFG"), 409, "replaces revision 0", "at revision 1")
    refused(table.put(1, 1, "ABCDEFH", revision=5), 409, "at revision 1")
    assert table.view() == before


def test_a_request_from_one_game_is_never_applied_in_the_next(client):
    """Revisions start again with each game and "play again" keeps the seat tokens: a request kept from game
    1 would match game 2's revisions. The game number it carries tells them apart."""
    table = Seated(client, seats=2)
    assert table.put(1, 1, "ABCDEFG").status_code == 200
    kept_as_sent_before = b'{"cards":"GFEDCBA","choice":null,"replaces_revision":1}'  # no game number
    kept = b'{"game":1,"cards":"GFEDCBA","choice":null,"replaces_revision":1}'
    url = f"/api/tables/{table.code}/rounds/1/seats/1"
    seat_one = {"Authorization": f"Bearer {table.tokens[0]}", "Content-Type": "application/json"}
    assert client.put(url, content=kept, headers=seat_one).status_code == 200
    assert table.put(1, 1, "ABCDEFG", revision=2).status_code == 200
    assert table.put(1, 2, "HIJKLMN").status_code == 200  # round 1 closes
    host = {"Authorization": f"Bearer {table.host}"}
    for action in ("end", "play-again"):
        assert client.post(f"/api/tables/{table.code}/{action}", headers=host).status_code == 200
    assert table.put(1, 1, "OPQRSTU").status_code == 200
    game_two = table.view()
    assert game_two["game"] == 2 and game_two["rounds"][0]["entries"][0]["revision"] == 1

    refused(client.put(url, content=kept, headers=seat_one), 409, "for game 1", "playing game 2")
    refused(client.put(url, content=kept_as_sent_before, headers=seat_one), 422, "game")
    assert table.view() == game_two
    assert game_two["rounds"][0]["entries"][0]["cards"] == "OPQRSTU"


def test_closed_rounds_belong_to_the_host_who_corrects_and_rescoring_follows(table, australia):
    rounds, _ = scripted_rounds(australia, 4, seed=11)
    for seat in range(1, 5):
        table.put(1, seat, *rounds[0][seat - 1])
    refused(table.put(1, 2, *rounds[0][1], revision=1), 403, "round 1 is closed", "only the host")
    # host swaps Ann's Throw and Catch: a real correction, scored again
    cards, choice = rounds[0][0]
    swapped = cards[-1] + cards[1:-1] + cards[0]
    ack = table.put(1, 1, swapped, choice, revision=1, token=table.host)
    assert ack.status_code == 200 and ack.json()["revision"] == 2
    view = table.view()
    entry = view["rounds"][0]["entries"][0]
    assert entry == {"cards": swapped, "choice": choice, "revision": 2, "by_host": True}
    record = GameRecord(edition="australia", players=table.names, rounds=[
        {table.names[s]: PlayerRound(cards=swapped if s == 0 else c, activity=ch)
         for s, (c, ch) in enumerate(rounds[0])}])
    assert view["scores"] == score_record(record, australia).to_dict()
    # the host cannot jump ahead either
    refused(table.put(3, 1, *rounds[2][0], token=table.host), 409, "round 3 is not open")


# --- who may write what -------------------------------------------------------------------------------------

def test_tokens_edit_only_their_own_seat(client, table):
    before = table.view()
    refused(table.put(1, 2, "ABCDEFG", token=None), 401, "seat token")
    refused(table.put(1, 2, "ABCDEFG", token="not-a-token"), 401, "not a seat or host token")
    refused(table.put(1, 2, "ABCDEFG", token=table.tokens[0]), 403, "seat 1 (Ann)", "seat 2 (Bob)")
    other = Seated(client, seats=2)
    refused(table.put(1, 1, "ABCDEFG", token=other.host), 401)
    refused(table.put(1, 1, "ABCDEFG", token=other.tokens[0]), 401)
    refused(table.put(1, 5, "ABCDEFG", token=table.host), 422)
    assert table.view() == before
    assert table.put(1, 2, "ABCDEFG", token=table.host).json()["seat"] == 2


def test_seats_are_claimed_once_and_the_host_can_reseat(client, table):
    assert all(len(t) == 22 for t in table.tokens)  # token_urlsafe(16): 128 random bits
    refused(client.post(f"/api/tables/{table.code}/seats/2/claim", json={"name": "Eve"}), 409, "taken by Bob")
    fresh = Seated.__new__(Seated)
    created = client.post("/api/tables", json={"seats": 3}, headers=as_host(client)).json()
    fresh.code = created["code"]
    claim = client.post(f"/api/tables/{fresh.code}/seats/1/claim", json={"name": "Ann"})
    refused(client.post(f"/api/tables/{fresh.code}/seats/2/claim", json={"name": "ann"}), 409, "Ann already")
    refused(client.post(f"/api/tables/{fresh.code}/seats/4/claim", json={"name": "Zed"}), 404, "seats 1 to 3")
    # renaming with your own token keeps it
    own = claim.json()["seat_token"]
    renamed = client.post(f"/api/tables/{fresh.code}/seats/1/claim", json={"name": "Anna"},
                          headers={"Authorization": f"Bearer {own}"})
    assert renamed.json()["seat_token"] == own
    refused(client.post(f"/api/tables/{fresh.code}/seats/2/claim", json={"name": "X"},
                        headers={"Authorization": f"Bearer {own}"}), 403, "seat 1")
    # the host reseats Bob's seat: a new token, the old one stops working
    reseat = client.post(f"/api/tables/{table.code}/seats/2/claim", json={"name": "Rob"},
                         headers={"Authorization": f"Bearer {table.host}"})
    view = table.view()
    assert view["seats"][1]["name"] == view["scores"]["players"][1]["name"] == "Rob"
    new_token = reseat.json()["seat_token"]
    assert new_token != table.tokens[1]
    refused(table.put(1, 2, "ABCDEFG", token=table.tokens[1]), 401)
    assert table.put(1, 2, "ABCDEFG", token=new_token).status_code == 200


def test_without_the_join_code_nothing_is_readable_and_guessing_is_limited(client, table):
    assert client.post("/api/join", json={"code": table.code.lower().replace("-", " ")}).json()["code"] \
        == table.code
    refused(client.get("/api/tables/ZZZZ-ZZZZ"), 404, "no table with join code")
    refused(client.post("/api/join", json={"code": "WRONG"}), 404, "no table")
    for _ in range(api.FAILED_CODES_PER_MINUTE):
        client.get("/api/tables/AAAA-AAAA")
    refused(client.get(f"/api/tables/{table.code}"), 429, "too many wrong join codes")


# --- hostile input ------------------------------------------------------------------------------------------

def test_hostile_bodies_get_4xx_with_a_clear_message(client, table):
    url = f"/api/tables/{table.code}/rounds/1/seats/1"
    auth = {"Authorization": f"Bearer {table.tokens[0]}", "Content-Type": "application/json"}
    refused(client.put(url, content=b'{"cards": "ABC', headers=auth), 400, "not valid JSON")
    refused(client.put(url, content=b"[1, 2]", headers=auth), 422)
    refused(client.put(url, json={"game": 1, "cards": 1234567, "replaces_revision": 0}, headers=auth), 422, "cards")
    refused(client.put(url, json={"game": 1, "cards": "ABCDEFG", "replaces_revision": "0"}, headers=auth), 422,
            "replaces_revision")
    refused(client.put(url, json={"game": 1, "cards": "ABCDEFG", "replaces_revision": 0, "seat": 2}, headers=auth),
            422, "seat", "Extra inputs")
    refused(client.put(url, json={"game": 1, "cards": "A" * 33, "replaces_revision": 0}, headers=auth), 422, "cards")
    refused(client.put(url, json={"cards": "ABCDEFG", "replaces_revision": 0}, headers=auth), 422, "game")
    refused(client.put(url, json={"game": "1", "cards": "ABCDEFG", "replaces_revision": 0}, headers=auth), 422,
            "game")
    refused(client.put(url, content=b"x" * (api.MAX_BODY_BYTES + 1), headers=auth), 413, "bytes")

    def chunks():  # no Content-Length: the limit still holds while streaming
        for _ in range(40):
            yield b" " * 1024

    refused(client.put(url, content=chunks(), headers=auth), 413)
    host = as_host(client)
    refused(client.post("/api/tables", json={"seats": "4"}, headers=host), 422, "seats")
    refused(client.post("/api/tables", json={"seats": 9}, headers=host), 422, "seats")
    refused(client.post("/api/tables", json={"seats": 4, "edition": "atlantis"}, headers=host), 422, "unknown edition")
    refused(client.post("/api/tables", json={"seats": 2, "direction_variant": True}, headers=host), 422, "3 or 4")
    assert all(entry is None for entry in table.view()["rounds"][0]["entries"])


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=40),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10),
                                                                                       inner, max_size=4),
                           max_leaves=8)
submission_like = st.fixed_dictionaries(
    {"game": st.integers(-1, 3) | json_values, "cards": st.text(max_size=12) | json_values,
     "replaces_revision": st.integers(-3, 3) | json_values},
    optional={"choice": st.none() | st.text(max_size=20) | json_values, "extra": json_values})


@settings(max_examples=40, deadline=None)
@given(body=json_values | submission_like, seat=st.integers(-1, 6), round_no=st.integers(-1, 6),
       as_host=st.booleans())
@pytest.mark.slow
def test_no_payload_breaks_the_api_or_changes_a_refused_table(tmp_path_factory, body, seat, round_no,
                                                               as_host):
    svc = TableService(tmp_path_factory.mktemp("h") / "t.sqlite3")
    try:
        client = TestClient(api.create_app(svc))
        table = Seated(client, seats=2)
        before = table.view()
        token = table.host if as_host else table.tokens[0]
        response = client.put(f"/api/tables/{table.code}/rounds/{round_no}/seats/{seat}",
                              content=json.dumps(body), headers={"Authorization": f"Bearer {token}"})
        assert response.status_code < 500
        if response.status_code == 200:
            assert table.view()["version"] == before["version"] + 1
        else:
            assert 400 <= response.status_code < 500 and response.json()["detail"]
            assert table.view() == before
    finally:
        svc.close()


# --- durability and expiry ----------------------------------------------------------------------------------

def test_a_reopened_service_has_every_acknowledged_change(tmp_path, australia):
    path = tmp_path / "t.sqlite3"
    first = TableService(path)
    client = TestClient(api.create_app(first))
    table = Seated(client)
    rounds, _ = scripted_rounds(australia, 4, seed=5)
    for seat in range(1, 5):
        table.put(1, seat, *rounds[0][seat - 1])
    table.put(2, 3, *rounds[1][2])
    before = table.view()
    first.close()
    again = TableService(path)
    try:
        assert again.view(table.code) == before
        assert again.role(table.code, table.tokens[2]) == 2 and again.role(table.code, table.host) is None
        assert again.store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        again.close()


def test_idle_tables_expire_and_reads_keep_a_table_alive(tmp_path):
    now = [1000.0]
    svc = TableService(tmp_path / "t.sqlite3", idle_seconds=60, clock=lambda: now[0])
    try:
        idle, _ = svc.create_table("australia", 2, credential=svc.host_credential)
        watched, _ = svc.create_table("australia", 2, credential=svc.host_credential)
        heard = []
        svc.subscribe(idle, heard.append)
        now[0] += 45
        svc.view(watched)
        now[0] += 30
        assert svc.expire_idle() == [idle]
        assert [e["kind"] for e in heard] == ["expired"]  # open event streams end
        client = TestClient(api.create_app(svc))
        refused(client.get(f"/api/tables/{idle}"), 404, "expired")
        assert client.get(f"/api/tables/{watched}").status_code == 200
        assert idle not in {t.code for t in svc.store.load_all()}
    finally:
        svc.close()


# --- the live event stream ------------------------------------------------------------------------------------

@pytest.fixture
def live_server(service):
    yield from serve_table_api(service)


def read_events(response: httpx.Response, count: int) -> list[dict]:
    events, data = [], []
    for line in response.iter_lines():
        if line.startswith("data: "):
            data.append(line[6:])
        elif not line and data:
            events.append(json.loads("".join(data)))
            data = []
            if len(events) == count:
                return events
    return events


def test_every_device_sees_a_submission_live(live_server, service):
    with httpx.Client(base_url=live_server, timeout=10) as http:
        table = Seated(http, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
        refused(http.get("/api/tables/NOPE-NOPE/events"), 404)
        with http.stream("GET", f"/api/tables/{table.code}/events") as stream:
            table.put(1, 1, "ABCDEFG")
            table.put(1, 2, "HIJKLMN")
            snapshot, first, second = read_events(stream, 3)
    assert snapshot["kind"] == "snapshot" and snapshot["table"]["waiting_for"] == [1, 2]
    assert (first["kind"], first["round"], first["seat"], first["round_closed"]) == ("entry", 1, 1, False)
    assert first["table"]["waiting_for"] == [2]
    assert second["round_closed"] and second["table"]["round"] == 2
    assert [snapshot["version"], first["version"], second["version"]] == \
        [snapshot["version"], snapshot["version"] + 1, snapshot["version"] + 2]


def test_a_seat_asks_the_tables_version_alone_over_http(live_server, service):
    """What a following seat asks every few seconds, in case an event never reached it: the version, in a few
    bytes where the table itself sends every sheet; counted against wrong codes as every read by code is."""
    from scorer.table.http_seat import HttpSeatTransport

    with httpx.Client(base_url=live_server, timeout=10) as http:
        table = Seated(http, seats=2, auth={"Authorization": f"Bearer {service.host_credential}"})
        answer = http.get(f"/api/tables/{table.code.lower()}/version")
        assert answer.json() == {"code": table.code, "version": table.view()["version"]}
        assert len(answer.content) < 60 < len(http.get(f"/api/tables/{table.code}").content)
        seat = HttpSeatTransport(live_server, table.code, table.tokens[0])
        before = seat.version()
        table.put(1, 1, "ABCDEFG")
        assert seat.version() == before + 1 == table.view()["version"]
        refused(http.get("/api/tables/NOPE-NOPE/version"), 404, "no table with join code")


def test_a_failing_viewer_does_not_fail_a_saved_submission(service):
    code, host = service.create_table("australia", 2, credential=service.host_credential)
    seen = []

    def broken(event):
        raise RuntimeError("the phone's session is gone")

    service.subscribe(code, broken)
    service.subscribe(code, seen.append)
    ack = service.submit(code, 1, 1, "ABCDEFG", None, 0, host)
    assert ack["revision"] == 1 and [e["seat"] for e in seen] == [1]
    service.submit(code, 1, 2, "HIJKLMN", None, 0, host)
    assert len(seen) == 2 and service.view(code)["round"] == 2


# --- schema and QR ------------------------------------------------------------------------------------------

def test_the_openapi_schema_documents_every_endpoint_and_the_bearer_tokens(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert {"/api/tables", "/api/join", "/api/tables/{code}", "/api/tables/{code}/seats/{seat}/claim",
            "/api/tables/{code}/rounds/{round_no}/seats/{seat}", "/api/tables/{code}/events"} <= set(paths)
    put = paths["/api/tables/{code}/rounds/{round_no}/seats/{seat}"]["put"]
    assert {"401", "403", "409", "413", "422"} <= set(put["responses"])
    assert put["security"] == [{"HTTPBearer": []}]
    assert "text/event-stream" in paths["/api/tables/{code}/events"]["get"]["responses"]["200"]["content"]


def test_the_join_qr_code_reads_back_as_the_join_url():
    import zxingcpp
    from PIL import Image

    url = join_url("127.0.0.1", 8550)
    assert url == "http://127.0.0.1:8550/"
    # the bare URL, and the links the host's screen shows (a table's seat picker, a seat given by the host)
    for link in (url, join_link(url, "ABCD-EFGH"), seat_link(url, "ABCD-EFGH", new_token())):
        image = Image.open(io.BytesIO(qr_png(link, scale=5)))
        assert [r.text for r in zxingcpp.read_barcodes(image)] == [link]


def test_tourpad_host_resumes_the_last_table_or_opens_a_new_one(service):
    from scorer.table.host import open_table

    first = open_table(service, "127.0.0.1", 8550, "australia", 3, new_table=False, new_host_token=False)
    assert first.url == "http://127.0.0.1:8550/" and first.host_token and first.resumed == []
    again = open_table(service, "127.0.0.1", 8550, "australia", 3, new_table=False, new_host_token=True)
    assert again.code == first.code and again.host_token != first.host_token
    assert service.role(again.code, again.host_token) is None  # both host tokens work
    assert service.role(first.code, first.host_token) is None
    quiet = open_table(service, "127.0.0.1", 8550, "australia", 3, new_table=False, new_host_token=False)
    assert quiet.code == first.code and quiet.host_token is None
    other = open_table(service, "127.0.0.1", 8550, "usa", 2, new_table=True, new_host_token=False)
    assert other.code != first.code and service.view(other.code)["edition"]["id"] == "usa"


def test_tourpad_host_starts_a_new_table_when_asked_for_another_edition_or_seats(service):
    from scorer.table.host import open_table

    def opened(edition, seats):
        return open_table(service, "127.0.0.1", 8550, edition, seats, new_table=False, new_host_token=False)

    first = opened("europe", 3)
    assert service.view(first.code)["edition"]["id"] == "europe" and len(service.view(first.code)["seats"]) == 3
    # the same table asked for again, or nothing asked: resumed
    assert opened("europe", 3).code == first.code and opened(None, None).code == first.code
    assert opened("europe", None).not_resumed is None and opened(None, 3).code == first.code
    # another edition, or another number of seats: a new table, saying why the live one was not resumed
    usa = opened("usa", None)
    assert usa.code != first.code and usa.host_token and usa.not_resumed == "it plays Boomerang: Europe"
    view = service.view(usa.code)  # what was not asked for stays as it was: the same three players
    assert view["edition"]["id"] == "usa" and len(view["seats"]) == 3
    two = opened(None, 2)
    assert two.code != usa.code and two.not_resumed == "it has 3 seats"
    assert len(service.view(two.code)["seats"]) == 2 and service.view(two.code)["edition"]["id"] == "usa"
    both = opened("australia", 4)
    assert both.not_resumed == "it plays Boomerang: USA; it has 2 seats"
    assert opened("australia", 4).code == both.code and opened(None, None).code == both.code


def test_a_change_the_disk_refuses_is_not_acknowledged_and_the_host_stops(service):
    code, host = service.create_table("australia", 2, credential=service.host_credential)
    service.store._db.execute("PRAGMA query_only=ON")  # every write now fails, as on a full disk
    with pytest.raises(Exception) as refused_write:
        service.submit(code, 1, 1, "ABCDEFG", None, 0, host)
    assert refused_write.value.status == 503 and "restart tourpad host" in refused_write.value.message
    with pytest.raises(Exception) as after:
        service.view(code)
    assert after.value.status == 503
    service.store._db.execute("PRAGMA query_only=OFF")


def test_concurrent_submissions_share_commits_and_all_arrive_in_order(tmp_path, australia):
    svc = TableService(tmp_path / "t.sqlite3")
    try:
        tables = []
        for seed in range(6):
            code, _ = svc.create_table("australia", 4, credential=svc.host_credential)
            tokens = [svc.claim_seat(code, s, f"P{s}") for s in range(1, 5)]
            heard: list[int] = []
            svc.subscribe(code, lambda e, heard=heard: heard.append(e["version"]))
            tables.append((code, tokens, scripted_rounds(australia, 4, seed)[0], heard))

        def seat_plays(code, token, seat, rounds):
            for r, entries in enumerate(rounds, start=1):
                svc.submit(code, r, seat, *entries[seat - 1], 0, token)
                while svc.view(code)["round"] == r:
                    time.sleep(0.001)

        threads = [threading.Thread(target=seat_plays, args=(code, tokens[s - 1], s, rounds))
                   for code, tokens, rounds, _ in tables for s in range(1, 5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        for code, _, _, heard in tables:
            assert svc.view(code)["finished"]
            assert heard == list(range(5, 5 + 16))  # 4 claims before, then every entry once, in order
    finally:
        svc.close()
    again = TableService(tmp_path / "t.sqlite3")
    try:
        for code, _, rounds, _ in tables:
            view = again.view(code)
            assert [[e["cards"] for e in rnd["entries"]] for rnd in view["rounds"]] == \
                [[cards for cards, _ in entries] for entries in rounds]
    finally:
        again.close()


def test_the_seat_picker_and_host_screen_name_the_edition_in_the_reader_s_language(service):
    from rules.i18n import use_language
    from scorer.ui.table import table_game

    code, _ = service.create_table("europe", 3, credential=service.host_credential)
    view = service.view(code)
    assert table_game(view) == "Boomerang: Europe · 3 players"
    with use_language("fr"):
        assert table_game(view) == "Boomerang\u00a0: Europe · 3 joueurs"
