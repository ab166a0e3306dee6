"""A seat over `tourpad host`'s JSON API the way the web app's worker reaches it (scorer/table/fetch_seat.py): its
requests through a `fetch`, its feed through an `EventSource`. Here both are stand-ins over a live API (real
HTTP, real event stream): urllib for the page's `fetch`, the standard-library stream reader for `EventSource`."""

from __future__ import annotations

import json
import queue
import threading
import urllib.error
import urllib.request

import pytest
from live_api import serve_table_api

from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.pad.errors import EntryError
from scorer.table import http_seat
from scorer.table.errors import NotFound
from scorer.table.fetch_seat import FetchSeatTransport
from scorer.table.service import TableService
from scorer.table.sheet import SeatSheetSession


def fetch(method: str, url: str, body: str | None, headers: dict) -> tuple[int, str]:
    """What the page's `fetch` answers: the status and the text, whatever the status."""
    request = urllib.request.Request(url, data=None if body is None else body.encode(), method=method,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def event_source(url: str, on_message, on_closed):
    """What the browser's `EventSource` does for the worker: every event's data, as text, on one reader."""
    feed = http_seat._Feed(url)
    events = feed.open()
    threading.Thread(target=feed.read, args=(events, lambda event: on_message(json.dumps(event))),
                     daemon=True).start()
    return feed.stop


@pytest.fixture
def live_host(tmp_path):
    service = TableService(tmp_path / "tables.sqlite3")
    for url in serve_table_api(service):
        yield service, url
    service.close()


def test_a_seat_plays_over_the_hosts_api_through_fetch_and_follows_its_event_source(live_host):
    service, url = live_host
    code, _host = service.create_table("australia", 2, credential=service.host_credential)
    ann_token, bob_token = (service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob")))
    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=5)
    with pytest.raises(NotFound, match="no table"):
        FetchSeatTransport("NOPE-NOPE", ann_token, fetch, event_source, lambda seconds, fn: None, url)

    updates: queue.Queue = queue.Queue()
    ann = SeatSheetSession(FetchSeatTransport(code.lower(), ann_token, fetch, event_source,
                                              lambda seconds, fn: None, url), 0)
    ann.watch(updates.put)
    try:
        assert ann.code == code
        ann.enter_letters(0, *rounds[0][0])  # acknowledged once the host committed it
        assert service.view(code)["rounds"][0]["entries"][0]["cards"] == rounds[0][0][0]
        with pytest.raises(EntryError, match="seat"):  # not Ann's seat: the host's refusal, nothing changed
            ann.enter_letters(1, *rounds[0][1])
        service.submit(code, 1, 2, *rounds[0][1], 0, bob_token)  # Bob's phone closes the round
        while ann.state.rounds_done < 1:
            updates.get(timeout=10)()  # the host's event, from the stream
        assert ann.view["sheet"] == service.view(code)["sheet"]
    finally:
        ann.stop()


def test_a_stream_the_browser_gave_up_is_opened_again_and_a_stopped_ones_events_are_dropped():
    """`EventSource` retries a dropped stream itself, but gives up on one the host answered with an error: the
    seat opens it again a little later. Once the seat stops following, nothing more reaches it."""
    view = {"code": "ABCD-EFGH", "version": 3}
    streams: list[dict] = []
    waiting: list = []

    def open_stream(url, on_message, on_closed):
        stream = {"url": url, "message": on_message, "closed": on_closed, "open": True}
        streams.append(stream)
        return lambda: stream.update(open=False)

    transport = FetchSeatTransport("abcd-efgh", "t", lambda *request: (200, json.dumps(view)), open_stream,
                                   lambda seconds, fn: waiting.append(fn))
    heard: list[dict] = []
    assert transport.follow(heard.append) == view
    assert streams[0]["url"] == "/api/tables/ABCD-EFGH/events"
    streams[0]["message"](json.dumps({"kind": "snapshot", "version": 3}))
    streams[0]["closed"]()  # the browser gave up: opened again later, not at once
    assert len(streams) == 1 and len(waiting) == 1
    waiting.pop()()
    assert len(streams) == 2
    streams[1]["message"](json.dumps({"kind": "entry", "version": 4}))
    transport.stop()
    assert not streams[1]["open"]
    streams[1]["message"](json.dumps({"kind": "entry", "version": 5}))  # already on its way: dropped
    assert [event["version"] for event in heard] == [3, 4]


def test_every_kind_of_event_the_host_sends_has_a_listener_in_the_browser(tmp_path):
    """`EventSource` hands a named event only to a listener of its name: every kind of change a table makes (the
    stream names each event by its kind) is one the browser's stream listens for."""
    from scorer.table.fetch_seat import EVENT_NAMES

    clock = [0.0]
    service = TableService(tmp_path / "tables.sqlite3", clock=lambda: clock[0], idle_seconds=60)
    try:
        host = service.host_credential
        code, _host = service.create_table("australia", 3, credential=host)
        kinds = ["snapshot"]  # the stream's first event (scorer.table.api.events)
        _view, _stop = service.subscribe(code, lambda event: kinds.append(event["kind"]))
        tokens = [service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
        service.submit(code, 1, 1, *scripted_rounds(load_edition("australia"), 3, seed=5)[0][0][0], 0, tokens[0])
        service.set_joining(code, False, host)
        service.set_joining(code, True, host)
        service.remove_seat(code, 3, host)
        service.end_game(code, host)
        service.play_again(code, host)
        clock[0] = 3600.0
        service.expire_idle()
        assert set(kinds) >= {"snapshot", "seat", "entry", "seat_removed", "ended", "new_game", "expired"}
        assert set(kinds) <= set(EVENT_NAMES), set(kinds) - set(EVENT_NAMES)
    finally:
        service.close()
