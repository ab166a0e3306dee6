"""`tourpad bench table --phones flet`: every seat's phone a real Flet session of the app, in one process.

What `tourpad host` runs for phones, without the network: one `TableService` (temporary data folder) that
the app is configured with (`scorer.ui.table.configure`), and per seat a Flet `Session` of the app
(`scorer.ui.main.make_main`) opened at its seat's sheet, `/table/<code>/seat/<n>`, its seat token in its
client storage the way the app keeps it (`scorer.ui.table.PREFS_PREFIX`). All sessions share one event
loop, as they share the host's. Each session's connection is a `HeadlessPhone`: it answers what the app
asks the browser (client storage, route pushes) and serialises every message exactly as the web server's
connection does; nothing is drawn.

A submission is the keypad's Save on the seat's phone session, `scorer.ui.entry.submit_round`:
`TableSheetSession.enter_letters` with the seat's token (the service validates, commits, publishes), then the
Save's own navigation (`after_save`), on the loop, as Flet runs the button's handler. The letters come from a
game the engine played (`benchmarks.table.scripted_rounds`), so every entry is legal and the totals are
known. Every seat of a table submits as soon as all its phones show the round's sheet (a burst, as in the
event-stream bench, `benchmarks/table.py`), or with `turns` one at a time, each once the previous save is
shown on every phone (one save's latency with nothing queued ahead of it).

Measured, for each submission and each OTHER seat: the time from just before the Save's work to the moment
that seat's session hands its connection the patch that shows it (the sheet's "<name>: entered", or "Round
N closed" when it closed the round), taken in the connection's send path after the message is packed for
the wire, never by polling.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    RegisterClientResponseBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from benchmarks.table import scripted_rounds
from rules.edition import Edition
from scorer.pad.store import EventStore
from scorer.routes import format_route
from scorer.table.service import TableService
from scorer.ui import table as table_ui
from scorer.ui.entry import submit_round
from scorer.ui.main import make_main

HOST_URL = "http://127.0.0.1:8550"  # what the phones' pages report; nothing listens there
PHONE_PAGE = {"width": 390, "height": 844, "platform": "android", "web": True}
OPEN_TIMEOUT_S = 30  # a seat's sheet must open within this (reading storage, subscribing, first draw)
STEP_TIMEOUT_S = 180  # no step of a game takes this long unless a phone missed a change


@dataclass
class Awaited:
    """A change some phone must show: the first patch holding any of `markers` (UTF-8, as packed) shows it."""

    markers: tuple[bytes, ...]
    shown: Callable[[float], None]


class HeadlessPhone(Connection):
    """A phone's browser as the host's Flet session sees it: answers the method calls the app makes (client
    storage from `storage`, route pushes confirmed the way a browser reports a route change, anything else
    done), packs every message as the web server's connection does, and tells `Awaited` changes as soon as
    a patch showing them is handed over."""

    def __init__(self, storage: dict) -> None:
        super().__init__()
        self.storage = storage
        self.awaited: list[Awaited] = []
        self.session: Session | None = None
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def send_message(self, message: Message) -> None:
        # packing is what the web server does per message (and records what the next diff is taken against)
        packed = msgpack.packb([message.action, message.body], default=self._encode)
        now = time.perf_counter()
        if message.action == MessageAction.PATCH_CONTROL and self.awaited:
            for awaited in list(self.awaited):
                if any(marker in packed for marker in awaited.markers):
                    self.awaited.remove(awaited)
                    awaited.shown(now)
        elif message.action == MessageAction.INVOKE_METHOD:
            self.loop.call_soon(self._answer, message.body)

    def expect(self, *texts: str, shown: Callable[[float], None]) -> None:
        self.awaited.append(Awaited(tuple(text.encode() for text in texts), shown))

    def shows(self, *texts: str, then: Callable[[float], None] = lambda at: None) -> asyncio.Future:
        """A future that is done once a patch holding one of `texts` has been sent (from now on); `then` is
        called with that moment as it is sent."""
        done = self.loop.create_future()

        def shown(at: float) -> None:
            then(at)
            done.set_result(at)

        self.expect(*texts, shown=shown)
        return done

    def _answer(self, body) -> None:
        session = self.session
        result = None
        if isinstance(session.index.get(body.control_id), ft.SharedPreferences):
            key = (body.args or {}).get("key")
            if body.name == "get":
                result = self.storage.get(key)
            elif body.name == "set":
                self.storage[key] = body.args["value"]
                result = True
        with contextlib.suppress(RuntimeError):  # a control that left the page meanwhile: nobody waits
            session.handle_invoke_method_results(body.control_id, body.call_id, result, None)
        if body.name == "push_route":
            self.loop.create_task(self._route_changed(body.args["route"]))

    async def _route_changed(self, route: str) -> None:
        page = self.session.page
        self.session.apply_patch(page._i, {"route": route})
        await self.session.dispatch_event(page._i, "route_change", {"route": route})


@dataclass
class Phone:
    seat: int  # 1-based
    connection: HeadlessPhone
    page: ft.Page

    @property
    def app(self):
        return self.page.data

    @property
    def sheet(self):
        return self.app.table_screens.sheet


async def open_phone(main: Callable[[ft.Page], None], route: str, storage: dict, hub: PubSubHub,
                     executor: concurrent.futures.Executor) -> tuple[HeadlessPhone, ft.Page]:
    """A new Flet session of the app opened at `route`, as a phone's browser registers one."""
    connection = HeadlessPhone(storage)
    connection.loop = asyncio.get_running_loop()
    connection.executor = executor
    connection.pubsubhub = hub
    connection.page_url = HOST_URL
    _session, page = await register_session(connection, main, route, PHONE_PAGE)
    return connection, page


async def register_session(connection: Connection, main: Callable[[ft.Page], None], route: str,
                           page_patch: dict) -> tuple[Session, ft.Page]:
    """A Flet session on `connection` at `route`, registered as a browser registers one (its page's
    size and platform in `page_patch`), with the app's `main` run on it."""
    session = Session(connection)
    connection.session = session
    session.apply_page_patch({"route": route, **page_patch})
    connection.send_message(Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody(
        session_id=session.id, page_patch=session.get_page_patch(), error="")))
    page = session.page
    _context_page.set(page)
    session.start_updates_scheduler()
    context.reset_auto_update()
    main(page)
    await session.after_event(page)
    return session, page


async def seat_phone(main, service: TableService, code: str, seat: int, token: str, hub: PubSubHub,
                     executor) -> Phone:
    """Seat `seat`'s phone, opened at its sheet with its token in its storage, once the sheet is live."""
    storage = {table_ui.PREFS_PREFIX + code: json.dumps({"token": token, "seat": seat - 1}),
               table_ui.LAST_TABLE_KEY: code}
    connection, page = await open_phone(main, format_route("table_seat", code=code, seat=seat), storage, hub,
                                        executor)
    phone = Phone(seat, connection, page)
    deadline = time.monotonic() + OPEN_TIMEOUT_S
    while phone.app.table_screens is None or phone.sheet is None:  # reading its storage, then subscribing
        if time.monotonic() > deadline:
            raise RuntimeError(f"seat {seat}'s phone did not open its sheet at table {code}")
        await asyncio.sleep(0.005)
    return phone


def controls(control):
    yield control
    for attr in ("controls", "content", "actions", "appbar", "_b"):  # _b: a component's rendered body
        value = getattr(control, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, BaseControl):
                yield from controls(child)


def hooked(page: ft.Page, identifier: str) -> ft.Control:
    """The control under `sem(identifier, …)` on the screen on show."""
    for c in controls(page.views[-1]):
        if isinstance(c, ft.Semantics) and c.identifier == identifier:
            return c.content
    raise LookupError(f"no {identifier!r} on {page.route}")


def button(page: ft.Page, label: str) -> ft.Control:
    for c in controls(page.views[-1]):
        if isinstance(c, ft.Button) and (c.content.value if isinstance(c.content, ft.Text) else c.content) == label:
            return c
    raise LookupError(f"no button {label!r} on {page.route}")


async def tap(phone: Phone, control: ft.Control) -> None:
    await phone.connection.session.dispatch_event(control._i, "click", None)


def shown_totals(phone: Phone, seats: int) -> list[int]:
    """The totals the phone's round summary shows ("= 57" per player)."""
    return [int(hooked(phone.page, f"summary-total-{p}").value.removeprefix("= ")) for p in range(1, seats + 1)]


@dataclass
class SeatedTable:
    code: str
    rounds: list
    engine_totals: list[int]
    phones: list[Phone]


async def seat_table(main, service: TableService, edition: Edition, seats: int, seed: int, hub,
                     executor) -> SeatedTable:
    """A new table of a scripted game, every seat claimed ("P1", "P2", …) and its phone on its sheet."""
    rounds, engine_totals = scripted_rounds(edition, seats, seed)
    code, _host_token = service.create_table(edition.id, seats, credential=service.host_credential)
    tokens = [service.claim_seat(code, s, f"P{s}") for s in range(1, seats + 1)]
    phones = [await seat_phone(main, service, code, s, tokens[s - 1], hub, executor) for s in range(1, seats + 1)]
    return SeatedTable(code, rounds, engine_totals, phones)


async def play_table(table: SeatedTable, timings: dict[str, list[float]], turns: bool = False) -> dict:
    """Every seat plays its rounds on its phone; returns the counts and the totals the phones showed, and
    adds to `timings` each update's latency ("update") and each Save handler's own time ("save").
    All seats save at once (a burst), or with `turns` one at a time: each once the last is shown everywhere."""
    phones = table.phones
    seats = len(phones)
    on_sheet = asyncio.Barrier(seats)
    turn = asyncio.Lock()
    expected = 0

    async def save(phone: Phone, r: int, cards: str, choice: str | None) -> list[asyncio.Future]:
        """The keypad's Save on `phone`, timed until each other phone shows it (the futures)."""
        nonlocal expected
        s = phone.seat
        sheet = phone.sheet
        started = time.perf_counter()
        shown = []
        for other in phones:
            if other is not phone:
                shown.append(other.connection.shows(f"P{s}: entered", f"Round {r + 1} closed",
                                                    then=lambda at: timings["update"].append(at - started)))
                expected += 1
        # what the Save button runs, with the seat's token
        await submit_round(phone.app, sheet, lambda: sheet.enter_letters(s - 1, cards, choice, r), r, s - 1)
        timings["save"].append(time.perf_counter() - started)
        return shown

    async def seat_plays(phone: Phone) -> list[int]:
        _context_page.set(phone.page)  # what Flet sets for an event's handler
        for r, entries in enumerate(table.rounds):
            closed = phone.connection.shows(f"Round {r + 1} closed")
            await on_time(on_sheet.wait(), phone, f"every phone to show round {r + 1}")
            if turns:
                async with turn:
                    shown = await save(phone, r, *entries[phone.seat - 1])
                    await on_time(asyncio.gather(*shown), phone, f"the others to show its round {r + 1}")
            else:
                await save(phone, r, *entries[phone.seat - 1])
            await on_time(closed, phone, f"round {r + 1} to close")
            if r + 1 == len(table.rounds):
                return shown_totals(phone, seats)
            await tap(phone, button(phone.page, f"Start round {r + 2}"))
        raise AssertionError("a game has rounds")

    shown = await asyncio.gather(*(seat_plays(phone) for phone in phones))
    return {"submissions": seats * len(table.rounds), "expected": expected, "shown_totals": shown}


async def on_time(step, phone: Phone, what: str) -> None:
    """Await `step`, or fail saying which phone waited for what (a change a phone never showed)."""
    try:
        await asyncio.wait_for(step, STEP_TIMEOUT_S)
    except TimeoutError:
        waiting = [b" or ".join(a.markers).decode() for a in phone.connection.awaited]
        raise RuntimeError(f"seat {phone.seat}'s phone waited {STEP_TIMEOUT_S} s for {what}; it shows "
                           f"{phone.app.path}, still to show: {waiting}") from None


def close_phones(phones: list[Phone]) -> None:
    """The phones' sessions end (their tabs closed): the table lets go of them."""
    for phone in phones:
        phone.app.table_screens.close()
        phone.connection.session.close()


async def _run(folder: Path, edition: Edition, tables: int, seats: int, games: int, turns: bool) -> dict:
    service = TableService(folder / "tables.sqlite3", tables_per_minute=tables * games + 1)
    store = EventStore(folder / "games.sqlite3")
    table_ui.configure(service, HOST_URL)
    main = make_main(lambda: store)
    timings: dict[str, list[float]] = {"update": [], "save": []}
    submissions = expected = unlike = compared = 0
    elapsed = 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
        try:
            for game in range(games):
                seated = [await seat_table(main, service, edition, seats, game * 1000 + t, hub, executor)
                          for t in range(tables)]
                started = time.perf_counter()  # every phone shows its sheet: the game starts
                played = await asyncio.gather(*(play_table(table, timings, turns) for table in seated))
                elapsed += time.perf_counter() - started
                for table, one in zip(seated, played, strict=True):
                    close_phones(table.phones)
                    submissions += one["submissions"]
                    expected += one["expected"]
                    served = [p["total"] for p in service.view(table.code)["scores"]["players"]]
                    for totals in [*one["shown_totals"], served]:
                        compared += 1
                        unlike += totals != table.engine_totals
        finally:
            await asyncio.sleep(0.05)  # the sessions' close events
            store.close()
            service.close()
    ms = sorted(x * 1000 for x in timings["update"])
    save_ms = sorted(x * 1000 for x in timings["save"])
    return {
        "phones": "flet sessions", "saves": "one at a time" if turns else "all at once",
        "tables": tables, "seats": seats, "games_per_table": games,
        "submissions": submissions, "seconds": round(elapsed, 2),
        "submissions_per_s": round(submissions / elapsed, 1),
        "updates_expected": expected, "updates_measured": len(ms),
        "update_latency_p50_ms": round(statistics.median(ms), 1),
        "update_latency_p95_ms": round(percentile_95(ms), 1),
        "update_latency_max_ms": round(ms[-1], 1),
        # the submitter's Save handler itself (submission and its own redraw): the others' updates wait behind it
        "save_handler_p50_ms": round(statistics.median(save_ms), 1),
        "save_handler_p95_ms": round(percentile_95(save_ms), 1),
        # each phone's final round summary, and the service's view, against the engine's totals
        "totals_compared": compared,
        "totals_unlike_engine": unlike,
    }


def percentile_95(ordered: list[float]) -> float:
    """As the event-stream bench takes it (benchmarks/table.py)."""
    return ordered[int(0.95 * (len(ordered) - 1))]


def run(edition: Edition, tables: int = 1, seats: int = 4, games: int = 3, turns: bool = False) -> dict:
    """One run in a fresh data folder, on a thread of its own (its own event loop: the caller may run one).
    The clock leaves out opening the phones: each game's starts once every phone shows its sheet."""
    previous = table_ui.HOSTING
    with tempfile.TemporaryDirectory(prefix="tourpad-bench-flet-") as folder, \
            concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        try:
            return pool.submit(asyncio.run, _run(Path(folder), edition, tables, seats, games, turns)).result()
        finally:
            table_ui.HOSTING = previous
