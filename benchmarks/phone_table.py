"""`tourpad bench phone-table`: a phone-hosted table (issue 41), a save on one phone → drawn on the others.

What runs: one headless Chromium page per phone (a host phone and `guests` guests), each with the app's own
`peer.js` and no ICE servers, so every message between phones crosses a real WebRTC data channel on loopback,
set up by the two connection codes the phones swap (`PageChannels`, `peer_code`). Each phone's Python runs in
this process, as the app's worker runs it: the host phone's `TableService` on its thread-free store
(`InlineTableStore`, committed before an answer or event goes out) with a `ChannelHostLink` per guest; each
guest's `ChannelSeatTransport` and `SeatSheetSession` (the state its sheet screens draw), the host phone's own
player's session over `ServiceTransport`. Every seat in turn saves its row of an engine-played game; a save is
timed from the seat's `enter_letters` until each other phone's session has folded the table the save made.

Not included, and why: Pyodide (each phone's Python here is CPython: the worker's would be slower), the page ⇄
worker `postMessage` hop (the bench's relay, Playwright's `evaluate`, stands in for it and costs a round trip to
the browser process per call: about a millisecond, so the figures are upper bounds on the channel's part), the
Flet redraw of each sheet, a browser's IndexedDB flush (the host's store is a file here), and real Wi-Fi. The
page-stamped figure (`arrived`) is when the save's event reached each other phone's page, by that page's clock
(the same machine's clock): the channel's and the host phone's share, without the receiving relay's polling.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.chromium import CHROME_ARGS, CHROMIUM
from benchmarks.table import percentile, scripted_rounds
from rules.editions import load_edition
from rules.engine import ROUNDS
from scorer.table.channel import ChannelHostLink, ChannelSeatTransport
from scorer.table.page_channel import ChannelEvents, PageChannels
from scorer.table.phone_store import FILE_NAME, InlineTableStore
from scorer.table.service import TableService
from scorer.table.sheet import SeatSheetSession
from scorer.table.transport import ServiceTransport

PEER_JS = Path(__file__).resolve().parents[1] / "scorer" / "web" / "client" / "peer.js"
#: The pages' origin, answered by the bench itself (port 9: nothing listens there); nothing else is fetched.
ORIGIN = "http://127.0.0.1:9/"
#: A phone's page: the transport, and a stand-in for the worker that keeps what the page sends it, each channel
#: event stamped with the page's clock as it arrives.
LOAD_JS = """async () => {
  window.peer = await import('./peer.js');
  window.toWorker = [];
  window.worker = {postMessage: (message) => {
    if (message.tourpadPeerEvent) message.tourpadPeerEvent.at = performance.timeOrigin + performance.now();
    window.toWorker.push(message);
  }};
}"""
EDITION = "europe"


class Relay:
    """python-worker.js's `tourpadPeer` for one page, played by the bench: `call` asks the page (`peer.serve`)
    and returns its answer at once; the channel events the page sent are handed on by `pump`, in order, never
    from inside a call (a host phone's answer is sent while it handles a message)."""

    def __init__(self, page) -> None:
        self.page = page
        self.asks = 0
        self.listener = None
        self.backlog: list[dict] = []
        self.pumping = False
        #: the page's clock (ms since the epoch) when the event being handed on arrived there
        self.arrived_at = 0.0

    def listen(self, listener) -> None:
        self.listener = listener

    def call(self, name: str, *args: Any):
        self.asks += 1
        self.page.evaluate("([ask, call, args]) => peer.serve(worker, {ask, call, args})", [self.asks, name, args])
        value = None
        for message in self.page.evaluate("() => toWorker.splice(0)"):
            reply = message.get("tourpadPeerReply")
            if reply is not None and reply["ask"] == self.asks:
                if "error" in reply:
                    raise RuntimeError(f"the page refused {name}: {reply['error']}")
                value = reply["value"]
            elif "tourpadPeerEvent" in message:
                self.backlog.append(message["tourpadPeerEvent"])
        return _Answered(value)

    def pump(self) -> None:
        if self.pumping:
            return
        self.pumping = True
        try:
            self.backlog += [m["tourpadPeerEvent"] for m in self.page.evaluate("() => toWorker.splice(0)")
                             if "tourpadPeerEvent" in m]
            while self.backlog:
                event = self.backlog.pop(0)
                self.arrived_at = event["at"]
                self.listener(event["kind"], event["id"], event["detail"])
        finally:
            self.pumping = False


class _Answered:
    """An awaitable that is already answered (`PageChannels` awaits each call)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __await__(self):
        return self.value
        yield  # pragma: no cover - makes this a generator: awaiting it returns at once


def settled(coroutine):
    """What a coroutine of `PageChannels` returns: the relay answers each call at once, so it never waits."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("PageChannels waited for something the relay did not answer")


def phone_page(context, refused: list[str]):
    """A phone's page in `context` (a browser context of its own: nothing shared) on the bench's origin; any
    other request is refused and noted in `refused`."""
    source = PEER_JS.read_text(encoding="utf-8")

    def answer(route) -> None:
        url = route.request.url
        if url == ORIGIN:
            route.fulfill(body="<!doctype html><title>tourpad</title>", content_type="text/html")
        elif url == ORIGIN + "peer.js":
            route.fulfill(body=source, content_type="text/javascript")
        else:
            refused.append(url)
            route.abort()

    context.route(re.compile(".*"), answer)
    page = context.new_page()
    page.goto(ORIGIN)
    page.evaluate(LOAD_JS)
    return page


class Phone:
    """One phone at the table: its page, relay and channels; its seat's session once seated."""

    def __init__(self, browser, refused: list[str]) -> None:
        self.page = phone_page(browser.new_context(viewport={"width": 390, "height": 844}), refused)
        self.relay = Relay(self.page)
        self.channels = PageChannels(self.relay)
        self.session: SeatSheetSession | None = None
        #: the table version this phone's session last folded, with the time (perf_counter) it did
        self.folded: dict[int, float] = {}
        #: the page's clock when each version's event reached the page
        self.arrived: dict[int, float] = {}


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered), 1), "p95_ms": round(percentile(ordered, 0.95), 1),
            "max_ms": round(ordered[-1], 1), "n": len(ordered)}


def run(guests: int = 3, games: int = 3) -> dict:
    from playwright.sync_api import sync_playwright

    refused: list[str] = []
    with tempfile.TemporaryDirectory(prefix="tourpad-bench-phones-") as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        path = Path(folder) / FILE_NAME
        service = TableService(path, store=InlineTableStore(path))
        try:
            return _play(browser, service, guests, games, refused)
        finally:
            service.close()
            browser.close()


def _play(browser, service: TableService, guests: int, games: int, refused: list[str]) -> dict:
    host = Phone(browser, refused)
    phones = [host] + [Phone(browser, refused) for _ in range(guests)]
    code, host_token = service.create_table(EDITION, guests + 1, credential=service.host_credential)

    def pump_all() -> None:
        for phone in phones:
            phone.relay.pump()

    def wait(done: threading.Event, seconds: float) -> bool:
        """A guest waits for the host phone's answer (in the browser: suspended on its promise)."""
        until = time.monotonic() + seconds
        while not done.is_set() and time.monotonic() < until:
            pump_all()
        return done.is_set()

    # each guest joins by the two codes (the host's offer, the guest's answer); the host phone's own player
    # sits at seat 1
    links: dict[str, ChannelHostLink] = {}
    opened_ms: list[float] = []
    for seat_no, guest in enumerate(phones[1:], start=2):
        is_open: list[str] = []
        ends: dict[str, Any] = {}
        started = time.perf_counter()
        host_channel, offer = settled(host.channels.offer(ChannelEvents(
            lambda text, ends=ends: links[ends["host"]].receive(text), lambda is_open=is_open: is_open.append("h"))))
        ends["host"] = host_channel
        links[host_channel] = ChannelHostLink(service, code,
                                              lambda text, channel=host_channel: host.channels.send(channel, text))
        guest_channel, answer = settled(guest.channels.answer(offer, ChannelEvents(
            lambda text, ends=ends: ends["seat"].receive(text), lambda is_open=is_open: is_open.append("g"))))
        transport = ChannelSeatTransport(lambda text, channel=guest_channel, g=guest: g.channels.send(channel, text),
                                         code, wait=wait)
        ends["seat"] = transport
        settled(host.channels.accept(host_channel, answer))
        deadline = time.monotonic() + 15
        while len(is_open) < 2 and time.monotonic() < deadline:
            pump_all()
        if len(is_open) < 2:
            raise RuntimeError("the phones' data channel did not open within 15 s")
        opened_ms.append((time.perf_counter() - started) * 1000)
        transport.claim(seat_no, f"Guest {seat_no - 1}")
        guest.session = SeatSheetSession(transport, seat_no - 1)
    host.session = SeatSheetSession(ServiceTransport(service, code, service.claim_seat(code, 1, "Host")), 0)
    for phone in phones:
        _follow(phone)

    drawn_ms: list[float] = []
    drawn_on_guests_ms: list[float] = []
    arrived_ms: list[float] = []
    acknowledged_ms: list[float] = []
    for game in range(games):
        rounds, totals = scripted_rounds(load_edition(EDITION), guests + 1, seed=41 + game)
        for r in range(ROUNDS):
            for seat, phone in enumerate(phones):
                cards, choice = rounds[r][seat]
                started, wall = time.perf_counter(), time.time() * 1000
                phone.session.enter_letters(seat, cards, choice)
                acknowledged_ms.append((time.perf_counter() - started) * 1000)
                version = service.view(code)["version"]
                others = [other for other in phones if other is not phone]
                deadline = time.monotonic() + 10
                while any(version not in other.folded for other in others) and time.monotonic() < deadline:
                    pump_all()
                for other in others:
                    if version not in other.folded:
                        raise RuntimeError(f"a save never reached phone {phones.index(other) + 1}")
                    drawn_ms.append((other.folded[version] - started) * 1000)
                    if other is not host:  # the host phone's own seat hears of it in the same Python
                        drawn_on_guests_ms.append(drawn_ms[-1])
                        arrived_ms.append(other.arrived[version] - wall)
        if host.session.state.totals() != totals:
            raise RuntimeError("the table's totals are not the engine's")
        if game + 1 < games:
            service.play_again(code, host_token)
            version = service.view(code)["version"]
            deadline = time.monotonic() + 10
            while any(version not in phone.folded for phone in phones) and time.monotonic() < deadline:
                pump_all()
    for phone in phones:
        phone.session.stop()
    relay_ms = []
    for _ in range(20):  # what one of the relay's calls into a page costs (the app's worker hop is not this)
        started = time.perf_counter()
        host.page.evaluate("() => toWorker.length")
        relay_ms.append((time.perf_counter() - started) * 1000)
    if refused:
        raise RuntimeError(f"a page asked for something off the bench's origin: {refused[0]}")
    return {
        "edition": EDITION, "phones": guests + 1, "games": games, "saves": len(acknowledged_ms),
        "save_to_drawn_on_others": percentiles(drawn_ms),
        "save_to_drawn_on_other_guests": percentiles(drawn_on_guests_ms),
        "save_to_event_in_other_guests_pages": percentiles(arrived_ms),
        "save_acknowledged": percentiles(acknowledged_ms),
        "channel_open": percentiles(opened_ms),
        "relay_call": percentiles(relay_ms),
    }


def _follow(phone: Phone) -> None:
    """The phone's session follows the table; each change it folds is noted with the time it was folded and,
    for a guest, when its event reached the page."""
    session = phone.session

    def folded(state) -> None:
        version = session.view["version"]
        phone.folded[version] = time.perf_counter()
        phone.arrived.setdefault(version, phone.relay.arrived_at)

    session.listeners.append(folded)
    session.watch(lambda update: update())
