"""A seat's sheet over its transport (scorer/table/transport.py): what it sends, what it takes from the feed,
and the same seat over a `tourpad host`'s JSON API and event stream (scorer/table/http_seat.py)."""

from __future__ import annotations

import queue

import pytest
from live_api import serve_table_api
from test_table_sheet_session import seated

from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.pad.errors import EntryError
from scorer.table.errors import NotFound, TableError
from scorer.table.http_seat import HttpSeatTransport, server_sent_events
from scorer.table.service import TableService
from scorer.table.sheet import SeatSheetSession
from scorer.table.transport import SeatSave


@pytest.fixture
def service(tmp_path):
    s = TableService(tmp_path / "tables.sqlite3")
    yield s
    s.close()


class HandTransport:
    """A table held by the test: it answers `view` with what it is given, keeps every save, and delivers the
    events the test hands it. What a data channel's transport will be to the seat."""

    def __init__(self, view: dict, token: str) -> None:
        self.table = view
        self.code = view["code"]
        self.token = token
        self.saves: list[SeatSave] = []
        self.deliver = None

    def view(self) -> dict:
        return self.table

    def version(self) -> int:
        return self.table["version"]

    def follow(self, deliver) -> dict:
        self.deliver = deliver
        return self.table

    def stop(self) -> None:
        self.deliver = None

    def save(self, save: SeatSave) -> dict:
        self.saves.append(save)
        if save.game != self.table["game"]:
            raise TableError(f"this submission is for game {save.game}")
        return {}


def test_a_seat_needs_nothing_of_a_table_but_its_transport(service):
    """The seat's save names the game, the round, the seat and the revision it replaces; a seat removed before
    it moves down by the feed's event alone (no host to ask over a data channel); a refusal is the host's."""
    code, tokens = seated(service, 3)
    rounds, _ = scripted_rounds(load_edition("australia"), 3, seed=5)
    transport = HandTransport(service.view(code), tokens[2])
    sheet = SeatSheetSession(transport, 2)
    told = []
    sheet.listeners.append(told.append)
    sheet.watch(lambda update: update())
    sheet.enter_letters(2, *rounds[0][2])
    assert transport.saves == [SeatSave(1, 1, 3, rounds[0][2][0], rounds[0][2][1], 0)]

    host = service.host_credential
    service.remove_seat(code, 1, host)
    transport.deliver({"kind": "seat_removed", "seat": 1, "version": 99, "table": service.view(code)})
    assert sheet.seat == 1 and sheet.gone is None and len(told) == 1
    assert sheet.state.players == ("P2", "P3")

    transport.table = {**service.view(code), "game": 2}
    with pytest.raises(EntryError, match="for game 1"):
        sheet.enter_letters(1, *rounds[0][1])  # the sheet still shows game 1: the host refuses it
    transport.deliver({"kind": "seat_removed", "seat": 2, "version": 100, "table": service.view(code)})
    assert sheet.gone == "The host removed your seat" and transport.deliver is None


def test_a_seat_whose_removal_event_was_lost_finds_its_seat_by_its_mark(service):
    """Two seats before this one are removed while the phone hears nothing (a dropped channel); the catch-up's
    view alone puts it in its seat, and a seat the host gives to another phone is gone from this one."""
    code, host = service.create_table("australia", 4, credential=service.host_credential)
    tokens = [service.claim_seat(code, seat, f"P{seat}") for seat in range(1, 5)]
    transport = HandTransport(service.view(code), tokens[3])
    sheet = SeatSheetSession(transport, 3)
    sheet.watch(lambda update: update())
    service.remove_seat(code, 1, host)
    service.remove_seat(code, 1, host)  # no event reaches the phone for either
    transport.table = service.view(code)
    assert sheet.catch_up()
    assert sheet.seat == 1 and sheet.gone is None
    assert sheet.state.players[sheet.seat] == "P4" and sheet.place.params[-1] == ("seat", 2)

    service.claim_seat(code, 2, "Zed", host)  # the host seats another phone there: a new token
    transport.table = service.view(code)
    assert sheet.catch_up()
    assert sheet.gone == "The host gave your seat to another phone" and transport.deliver is None


@pytest.fixture
def live_host(service):
    """The table API on a free loopback port, served by uvicorn on a thread (real HTTP, real event stream)."""
    yield from serve_table_api(service)


class Phone:
    """A seat's sheet over HTTP; its updates wait in `updates` until `until` runs them (the screens' loop)."""

    def __init__(self, url: str, code: str, token: str, seat: int) -> None:
        self.sheet = SeatSheetSession(HttpSeatTransport(url, code, token), seat)
        self.updates: queue.Queue = queue.Queue()
        self.sheet.watch(self.updates.put)

    def until(self, done) -> None:
        """Run the updates as they come until `done(sheet)` holds (or 10 s without one: a failure)."""
        while not done(self.sheet):
            self.updates.get(timeout=10)()


def test_a_seat_plays_over_the_hosts_api_and_follows_its_event_stream(service, live_host):
    code, tokens = seated(service, 2)
    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=5)
    with pytest.raises(NotFound, match="no table"):
        HttpSeatTransport(live_host, "NOPE-NOPE", tokens[0])
    ann, bob = (Phone(live_host, code, tokens[s], s) for s in range(2))
    try:
        ann.sheet.enter_letters(0, *rounds[0][0])
        assert service.view(code)["rounds"][0]["entries"][0]["revision"] == 1
        bob.until(lambda sheet: 0 in sheet.state.entries[0])  # seen on the other phone through the stream
        bob.sheet.enter_letters(1, *rounds[0][1])  # the last seat: the round closes
        ann.until(lambda sheet: sheet.state.rounds_done == 1)
        assert ann.sheet.rounds_done_before == 0  # the change Ann is told of is the one that closed the round
        assert ann.sheet.view["sheet"] == bob.sheet.view["sheet"] == service.view(code)["sheet"]

        version = service.view(code)["version"]
        with pytest.raises(EntryError, match="only the host can correct"):  # the host's refusal, word for word
            ann.sheet.enter_letters(0, rounds[0][0][0], rounds[0][0][1], 0)
        assert service.view(code)["version"] == version

        # "play again" while Ann's phone has not yet drawn it: her save for game 1 is refused, not put in game 2
        service.end_game(code, service.host_credential)
        service.play_again(code, service.host_credential)
        with pytest.raises(EntryError, match=r"for game 1.*playing game 2"):
            ann.sheet.enter_letters(0, *rounds[1][0])
        assert service.view(code)["rounds"][0]["entries"] == [None, None]
        ann.until(lambda sheet: sheet.view["game"] == 2)
        ann.sheet.enter_letters(0, *rounds[0][0])
        assert service.view(code)["rounds"][0]["entries"][0]["revision"] == 1
    finally:
        ann.sheet.stop()
        bob.sheet.stop()


def test_the_event_stream_is_read_line_by_line_whatever_its_line_ends():
    stream = [b": keep-alive\r\n", b"\r\n", b"id: 3\r\n", b"event: entry\r\n", b'data: {"kind": "entry",\r\n',
              b'data: "version": 3}\r\n', b"\r\n", b"event: ended\n", b'data:{"kind": "ended", "version": 4}\n', b"\n"]
    assert list(server_sent_events(stream)) == [{"kind": "entry", "version": 3}, {"kind": "ended", "version": 4}]


def test_a_dropped_event_stream_is_opened_again_and_a_gone_table_ends_it(monkeypatch):
    """The host cut the stream (a reader that fell behind) or the Wi-Fi dropped: the next stream's snapshot
    brings the seat up to date; a table gone meanwhile is told as the feed tells it, and the reader ends."""
    from scorer.table import http_seat

    monkeypatch.setattr(http_seat, "RECONNECT_DELAY", 0)
    feed = http_seat._Feed("http://127.0.0.1:9/api/tables/ABCD-EFGH/events")

    def dropping():
        yield {"kind": "entry", "version": 3, "table": {}}
        raise OSError("connection reset by peer")

    streams = iter([iter([{"kind": "snapshot", "version": 7, "table": {}}]), NotFound("no table ABCD-EFGH")])

    def reopen():
        stream = next(streams)
        if isinstance(stream, Exception):
            raise stream
        return stream

    monkeypatch.setattr(feed, "open", reopen)
    heard: list[dict] = []
    feed.read(dropping(), heard.append)
    assert [(event["kind"], event["version"]) for event in heard] == [("entry", 3), ("snapshot", 7), ("expired", 0)]
