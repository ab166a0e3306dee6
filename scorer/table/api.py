"""The table's JSON API (`/api/…`), mounted beside the app in the same FastAPI server.

Every refusal is a 4xx with `{"detail": "<what is wrong, for which seat and round>"}` and changes
nothing. Request bodies are bounded (`BodyLimit`), wrong join codes are rate-limited per client
(`FailedCodes`), and bodies are validated strictly (no "4" for 4, no unknown fields). Only the holder of
the host credential opens tables. Every response carries the security headers (`SecurityHeaders`).
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import inspect
import json
import logging
import re
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse, ServerSentEvent

from rules.engine import ROUNDS
from rules.sheet import SheetData
from rules.text import clean_name
from scorer.table import trace
from scorer.table.service import MAX_SEATS, MIN_SEATS, TableError, TableService, TooMany, normalize_code
from scorer.table.store import PendingWrite
from scorer.table.table import format_code

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 16 * 1024
#: A wrong join code costs an attacker one of these per minute per address; players mistype a few times.
FAILED_CODES_PER_MINUTE = 20
#: An event stream whose reader falls this far behind is closed (it reconnects and gets a fresh snapshot).
STREAM_BACKLOG = 256
#: How often an event stream sends a keep-alive comment (sse-starlette's ping).
KEEPALIVE_SECONDS = 15.0


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateTable(Strict):
    edition: str = Field("australia", max_length=64, description="edition or deck pack id")
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS, description="number of players")
    direction_variant: bool = Field(False, description="pass direction alternates (3 or 4 players)")


class JoinRequest(Strict):
    code: str = Field(min_length=1, max_length=16, description="the join code, e.g. ABCD-EFGH (any case)")


class ClaimSeat(Strict):
    name: str = Field(min_length=1, max_length=256,
                      description="the player's name on the sheet: 1 to 24 visible characters, no control or "
                                  "invisible formatting characters (checked by rules.text.clean_name)")


class Submission(Strict):
    game: int = Field(ge=1, le=1_000_000,
                      description="the game the entry belongs to (the table's `game`): revisions start again "
                                  "with each game, so a request from an earlier game is refused by its number")
    cards: str = Field(max_length=32, description="the 7 letters in draft order: Throw first, Catch last")
    choice: str | None = Field(None, max_length=40,
                               description="the activity / treasure scored this round, or null")
    replaces_revision: int = Field(ge=0, le=1_000_000,
                                   description="the entry's current revision (0 for a first entry); "
                                               "a replayed or overtaken submission is refused")


class EditionInfo(BaseModel):
    id: str
    name: str
    letters: str
    version: str | None = Field(None, description="the version of the host's own deck the table plays "
                                                  "(as a record's deck.version); null for tourpad's decks")
    choice_field: str
    choice_family: str
    choice_options: list[str]


class SeatInfo(BaseModel):
    seat: int
    name: str
    claimed: bool
    mark: str | None = Field(None, description="a claimed seat's public mark (from its token's hash): how a phone "
                                                "finds its own seat in a view, whatever seats were removed before it")


class EntryInfo(BaseModel):
    cards: str
    choice: str | None
    revision: int
    by_host: bool


class RoundInfo(BaseModel):
    round: int
    closed: bool
    entries: list[EntryInfo | None] = Field(description="one per seat, null until that seat submits")


class TableView(BaseModel):
    code: str
    edition: EditionInfo
    direction_variant: bool
    seats: list[SeatInfo]
    round: int | None = Field(description="the round being entered; null once the game is over")
    finished: bool
    waiting_for: list[int] = Field(description="seats that have not submitted the open round")
    rounds: list[RoundInfo]
    scores: dict[str, Any] = Field(description="closed rounds scored by the engine (as `tourpad score`)")
    bonuses: dict[str, Any] = Field(description="the shared first-come bonuses: each region and route tier, "
                                                "who took it in which round, and what is still open")
    sheet: SheetData = Field(description="the host's fold of the closed rounds (`rules.sheet`): each round's "
                                         "scores, shared bonuses and explanations (in every language), and what "
                                         "the sheets carried into each round; seats and the board read it as sent")
    version: int = Field(description="increases with every change; the event stream's ids")
    game: int = Field(description="the game being played at this table: 1, then one more per 'play again'")
    past_games: list[int] = Field(description="earlier games at this table, their records at /record?game=")
    locked: bool = Field(description="the host closed the table to new players")
    ended: bool = Field(description="the host ended this game: no more entries")


class TableCreated(BaseModel):
    code: str
    host_token: str = Field(description="edits every seat and closed rounds; shown once, keep it private")
    table: TableView


class HostTable(BaseModel):
    code: str
    edition: str
    seats: int
    version: int


class HostToken(BaseModel):
    code: str
    host_token: str = Field(description="edits every seat and closed rounds of this table; keep it private")


class SeatClaimed(BaseModel):
    seat: int
    name: str
    seat_token: str = Field(description="edits this seat only; keep it on the device")


class SubmissionAck(BaseModel):
    game: int
    round: int
    seat: int
    cards: str
    choice: str | None
    revision: int
    round_closed: bool
    version: int


class Joining(Strict):
    open: bool = Field(description="false: a seat can no longer be claimed with the join code alone")


class JoiningSet(BaseModel):
    code: str
    locked: bool
    version: int


class TableVersion(BaseModel):
    code: str
    version: int = Field(description="the version of the table's latest change (its events carry theirs)")


class SeatRemoved(BaseModel):
    code: str
    removed: int
    seats: int = Field(description="the table's seats now (the later seats moved down one)")
    version: int


class GameChanged(BaseModel):
    code: str
    game: int
    version: int


class RecordRound(BaseModel):
    cards: str
    activity: str | None = None
    treasure: str | None = None


class GameRecordOut(BaseModel):
    edition: str
    players: list[str]
    direction_variant: bool
    rounds: list[dict[str, RecordRound]]


class Problem(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)}

bearer = HTTPBearer(auto_error=False, description="a seat token, the table's host token, or (to open tables) "
                                                  "the host credential")
Code = Annotated[str, Path(min_length=1, max_length=16, description="the join code")]
RoundNo = Annotated[int, Path(ge=1, le=ROUNDS)]
SeatNo = Annotated[int, Path(ge=1, le=MAX_SEATS)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


class FailedCodes:
    """Per client address, the wrong join codes of the last minute (a moving window, `limits`); over the
    limit → 429. Only a wrong code counts: checking one costs nothing."""

    def __init__(self, per_minute: int = FAILED_CODES_PER_MINUTE) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self.per_minute = per_minute

    @property
    def per_minute(self) -> int:
        return self._limit.amount

    @per_minute.setter
    def per_minute(self, value: int) -> None:
        self._limit = RateLimitItemPerMinute(value)

    def check(self, client: str) -> None:
        if not self._limiter.test(self._limit, client):
            raise TooMany("too many wrong join codes from this device; wait a minute and check the code")

    def failed(self, client: str) -> None:
        self._limiter.hit(self._limit, client)


async def service_of(request: Request) -> TableService:
    """Async on purpose: FastAPI runs a plain function dependency in its thread pool, a hop per request."""
    return request.app.state.table_service


Service = Annotated[TableService, Depends(service_of)]


def guarded(request: Request, action, *args, **kwargs):
    """Run a service call, counting unknown join codes against the caller's address."""
    failed: FailedCodes = request.app.state.table_failed_codes
    client = request.client.host if request.client else "?"
    failed.check(client)
    try:
        return action(*args, **kwargs)
    except TableError as err:
        if err.status == 404 and "join code" in err.message:
            failed.failed(client)
        raise


def token_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials else None


router = APIRouter(prefix="/api", tags=["table"], responses=ERRORS)


@router.post("/tables", status_code=201, response_model=TableCreated, summary="Create a table (host only)")
def create_table(body: CreateTable, service: Service, credentials: Credentials) -> dict:
    """Needs the host credential (`Authorization: Bearer …`, from the host link `tourpad host` prints);
    limited to a few tables a minute even so."""
    code, host_token = service.create_table(body.edition, body.seats, body.direction_variant,
                                            credential=token_of(credentials))
    return {"code": code, "host_token": host_token, "table": service.view(code)}


@router.get("/host/tables", response_model=list[HostTable], summary="The host's own tables (host only)")
def host_tables(service: Service, credentials: Credentials) -> list[dict]:
    """The live tables opened with the host credential, most recently active first."""
    service.check_host(token_of(credentials), "list the host's tables")
    tables = []
    for code in service.host_codes():
        view = service.view(code)
        tables.append({"code": code, "edition": view["edition"]["id"], "seats": len(view["seats"]),
                       "version": view["version"]})
    return tables


@router.post("/tables/{code}/host-token", response_model=HostToken, summary="A host token (host only)")
def host_token(code: Code, service: Service, credentials: Credentials) -> dict:
    """Another host token for one of the host's own tables (a second host device)."""
    token = service.issue_host_token(code, token_of(credentials))  # the credential first: no code probing
    return {"code": service.view(code)["code"], "host_token": token}


@router.post("/join", response_model=TableView, summary="Join with the code (read the table)")
def join(body: JoinRequest, request: Request, service: Service) -> dict:
    return guarded(request, service.view, body.code)


@router.get("/tables/{code}", response_model=TableView, summary="Read the table: all sheets and scores")
def read_table(code: Code, request: Request, service: Service) -> dict:
    return guarded(request, service.view, code)


@router.get("/tables/{code}/version", response_model=TableVersion, summary="The table's version, alone")
def table_version(code: Code, request: Request, service: Service) -> dict:
    """What a seat following the table asks now and then, to catch a change whose event never reached it:
    a few bytes, where reading the table sends every sheet."""
    version = guarded(request, service.version, code)
    return {"code": format_code(normalize_code(code)), "version": version}


@router.post("/tables/{code}/seats/{seat}/claim", response_model=SeatClaimed, summary="Claim a seat")
def claim_seat(code: Code, seat: SeatNo, body: ClaimSeat, request: Request, service: Service,
               credentials: Credentials) -> dict:
    """Without a token: take a free seat. With your seat token: rename yourself. With the host token:
    seat someone (a taken seat gets a new token; the old one stops working)."""
    token = guarded(request, service.claim_seat, code, seat, body.name, token_of(credentials))
    return {"seat": seat, "name": clean_name(body.name), "seat_token": token}


@router.put("/tables/{code}/rounds/{round_no}/seats/{seat}", response_model=SubmissionAck,
            summary="Submit or edit a seat's round")
async def submit(code: Code, round_no: RoundNo, seat: SeatNo, body: Submission, request: Request,
           service: Service, credentials: Credentials) -> dict:
    """A seat token edits its own seat in the open round; the host token edits any seat, closed rounds
    included (the scores are recomputed). The round closes when every seat has submitted."""
    # On the event loop, not in the thread pool: checking and queueing take well under a millisecond, and
    # the commit is awaited (acknowledged only once on disk) without a thread blocked on it.
    if trace.TRACER is not None:
        trace.TRACER.mark_request("endpoint")
    ack, pending = guarded(request, service.begin_submit, code, round_no, seat, body.cards, body.choice,
                           body.replaces_revision, token_of(credentials), game=body.game)
    await feeds_of(request).committed(pending)
    service.saved(pending)  # 503 if the store could not save it
    return JSONResponse(ack)  # the service's own SubmissionAck: no second validation on the hot path


@router.put("/tables/{code}/joining", response_model=JoiningSet,
            summary="Close or open the table to new players (host only)")
def set_joining(code: Code, body: Joining, request: Request, service: Service, credentials: Credentials) -> dict:
    """With the table's host token (or the host credential). Closed: claiming a seat with the join code is
    refused; seated players and the host carry on."""
    return guarded(request, service.set_joining, code, body.open, token_of(credentials))


@router.delete("/tables/{code}/seats/{seat}", response_model=SeatRemoved,
               summary="Remove a seat that never played (host only)")
def remove_seat(code: Code, seat: SeatNo, request: Request, service: Service, credentials: Credentials) -> dict:
    """Only before round 1 closes, only a seat with no entry, never below 2 seats; the later seats move
    down one and the removed seat's token stops working."""
    return guarded(request, service.remove_seat, code, seat, token_of(credentials))


@router.post("/tables/{code}/end", response_model=GameChanged, summary="End the game (host only)")
def end_game(code: Code, request: Request, service: Service, credentials: Credentials) -> dict:
    """No more entries; the sheets and the standings stay readable. The event stream sends `ended`."""
    return guarded(request, service.end_game, code, token_of(credentials))


@router.post("/tables/{code}/play-again", response_model=GameChanged,
             summary="A new game with the same seats (host only)")
def play_again(code: Code, request: Request, service: Service, credentials: Credentials) -> dict:
    """Once the game is finished or ended: the same code and seat tokens, the next game number, empty
    sheets. The finished game's record stays at `/record?game=`. The event stream sends `new_game`."""
    return guarded(request, service.play_again, code, token_of(credentials))


@router.get("/tables/{code}/record", response_model=GameRecordOut,
            summary="The game as the JSON record `tourpad score` reads")
def game_record(code: Code, request: Request, service: Service,
                game: Annotated[int | None, Query(ge=1, le=1_000_000, description="an earlier game")] = None
                ) -> dict:
    """The closed rounds of the current game, or of an earlier game at this table."""
    return guarded(request, service.record, code, game)


#: Each line of the stream ends in a bare newline (sse-starlette's default is CRLF; the spec allows either).
SSE_LINE_END = "\n"


def sse(event: dict) -> bytes:
    """One table event as the stream sends it: its version as the id, its kind as the event's name."""
    return ServerSentEvent(json.dumps(event), id=str(event["version"]), event=event["kind"],
                           sep=SSE_LINE_END).encode()


def keepalive() -> ServerSentEvent:
    """The comment line sent while a table is quiet: it keeps the phone's connection (and any proxy's) open."""
    return ServerSentEvent(comment="keep-alive", sep=SSE_LINE_END)


class LoopHandoff:
    """Calls from other threads (the store's writer) onto the event loop, as many as are waiting per wake-up:
    a group commit's events and acknowledgements cost the loop one wake-up, not one per event and stream."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._calls: list[tuple[Callable[[Any], None], Any]] = []
        self._lock = threading.Lock()

    def call(self, function: Callable[[Any], None], argument: Any) -> None:
        """Run `function(argument)` on the loop soon (from any thread), after the calls already waiting."""
        with self._lock:
            self._calls.append((function, argument))
            if len(self._calls) > 1:  # the wake-up that runs them is already on its way
                return
        self.loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        with self._lock:
            calls, self._calls = self._calls, []
        for function, argument in calls:
            try:
                function(argument)
            except Exception:
                log.exception("a call handed to the event loop failed")


class EventQueue:
    """One event stream's encoded events waiting to be written (filled on the loop by its table's feed)."""

    def __init__(self, port: int) -> None:
        self.port = port  # the client's, naming the stream in the trace
        self.waiting: list[tuple[int, str, bytes]] = []  # (version, kind, encoded)
        self.overflowed = False
        self._waiter: asyncio.Future | None = None

    def put(self, version: int, kind: str, encoded: bytes) -> None:
        if len(self.waiting) >= STREAM_BACKLOG:  # a reader this far behind resyncs from a fresh snapshot
            self.overflowed = True
        else:
            self.waiting.append((version, kind, encoded))
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def take(self) -> list[tuple[int, str, bytes]]:
        """Every event waiting, once there is one (or the queue overflowed)."""
        if not self.waiting and not self.overflowed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        taken, self.waiting = self.waiting, []
        return taken


class TableFeed:
    """One table's events for all of its event streams on one loop: one listener in the service, each event
    encoded once, handed to every stream's queue."""

    def __init__(self, code: str, feeds: Feeds) -> None:
        self.code = code
        self.feeds = feeds
        self.streams: list[EventQueue] = []
        self.unsubscribe: Callable[[], None] = lambda: None

    def listener(self, event: dict) -> None:
        """The service's listener (on the store's writer thread): hand the event to the loop."""
        self.feeds.handoff.call(self.deliver, event)

    def deliver(self, event: dict) -> None:
        tracer = trace.TRACER
        if tracer is not None:
            for stream in self.streams:
                tracer.mark(self.code, event["version"], "loop", stream.port)
        encoded = sse(event)
        for stream in self.streams:
            if tracer is not None:
                tracer.mark(self.code, event["version"], "encoded", stream.port)
            stream.put(event["version"], event["kind"], encoded)
        if event["kind"] == "expired":  # the service dropped this table and its listeners
            self.feeds.forget(self)


class Feeds:
    """The event loop's table feeds, and its hand-off from the store's writer thread."""

    def __init__(self, service: TableService, loop: asyncio.AbstractEventLoop) -> None:
        self.service = service
        self.handoff = LoopHandoff(loop)
        self._by_code: dict[str, TableFeed] = {}

    def open_stream(self, code: str, port: int) -> tuple[dict, TableFeed, EventQueue]:
        """A new stream of table `code` (on the loop): the table as it is now, and every change after it.

        The first stream of a table subscribes its feed to the service (the snapshot comes with the
        subscription); a later one reads the table's view. Either way every change after the snapshot comes
        to the loop after this call, as the service publishes in version order, and the stream skips the
        changes its snapshot already holds."""
        key = normalize_code(code)
        feed = self._by_code.get(key)
        if feed is None:
            feed = TableFeed(key, self)
            snapshot, feed.unsubscribe = self.service.subscribe(code, feed.listener)
            self._by_code[key] = feed
        else:
            snapshot = self.service.view(code)
        stream = EventQueue(port)
        feed.streams.append(stream)
        return snapshot, feed, stream

    def close_stream(self, feed: TableFeed, stream: EventQueue) -> None:
        if stream in feed.streams:
            feed.streams.remove(stream)
        if not feed.streams:
            self.forget(feed)

    def forget(self, feed: TableFeed) -> None:
        feed.unsubscribe()
        if self._by_code.get(feed.code) is feed:
            del self._by_code[feed.code]

    async def committed(self, pending: PendingWrite) -> None:
        """Return once the store has committed `pending` (or failed to), without blocking the loop."""
        done = self.handoff.loop.create_future()
        pending.on_done(lambda: self.handoff.call(_resolve, done))
        await done


def _resolve(future: asyncio.Future) -> None:
    if not future.done():  # not cancelled meanwhile (the client went away)
        future.set_result(None)


def feeds_of(request: Request) -> Feeds:
    """The running event loop's feeds (one loop in a server; a test client may run requests on their own)."""
    loop = asyncio.get_running_loop()
    by_loop = request.app.state.table_feeds
    feeds = by_loop.get(loop)
    if feeds is None:
        feeds = by_loop[loop] = Feeds(request.app.state.table_service, loop)
    return feeds


@router.get("/tables/{code}/events", summary="Live event stream (server-sent events)",
            response_class=EventSourceResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`snapshot` first, then `seat` / `entry` / `locked` / "
                                            "`unlocked` / `seat_removed` / `ended` / `new_game` events, each "
                                            "with the whole table view; `expired` ends the stream"}})
async def events(code: Code, request: Request) -> EventSourceResponse:
    """sse-starlette frames the stream, sends its keep-alive comments, answers HEAD without opening a
    stream, and ends it when the phone goes away or the server shuts down; the events are encoded once per
    table (`TableFeed.deliver`) and written as they come, a burst in one write."""
    feeds = feeds_of(request)
    port = request.client.port if request.client else 0
    snapshot, feed, queue = guarded(request, feeds.open_stream, code, port)
    tracer = trace.TRACER

    async def stream() -> AsyncIterator[bytes]:
        try:
            yield sse({"kind": "snapshot", "version": snapshot["version"], "table": snapshot})
            while True:
                taken = await queue.take()
                if queue.overflowed:
                    return
                # saved before the snapshot: already in it
                fresh = [(version, kind, encoded) for version, kind, encoded in taken
                         if version > snapshot["version"]]
                if not fresh:
                    continue
                if tracer is not None:
                    for version, _, _ in fresh:
                        tracer.mark(feed.code, version, "dequeued", queue.port)
                yield b"".join(encoded for _, _, encoded in fresh)  # a burst of events in one write
                if tracer is not None:
                    for version, _, _ in fresh:
                        tracer.mark(feed.code, version, "written", queue.port)
                if any(kind == "expired" for _, kind, _ in fresh):
                    return
        finally:
            feeds.close_stream(feed, queue)

    return EventSourceResponse(stream(), ping=KEEPALIVE_SECONDS, sep=SSE_LINE_END, ping_message_factory=keepalive)


SUBMISSION_PATH = re.compile(r"^/api/tables/[^/]+/rounds/[0-9]+/seats/[0-9]+$")


class TraceSubmissions:
    """ASGI middleware, only while tracing (`scorer.table.trace`): a submission's marks start when its request
    reaches the app and end when its answer starts out; the trace is written when the server shuts down."""

    def __init__(self, app, tracer: trace.Tracer) -> None:
        self.app = app
        self.tracer = tracer

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":  # uvicorn ends by its signal again, past atexit: write the trace now
            async def shutting_down():
                message = await receive()
                if message["type"] == "lifespan.shutdown":
                    self.tracer.dump()
                return message

            await self.app(scope, shutting_down, send)
            return
        if scope["type"] != "http" or scope["method"] != "PUT" or not SUBMISSION_PATH.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        self.tracer.begin_request()

        async def answer(message) -> None:
            if message["type"] == "http.response.start":
                self.tracer.mark_request("answered")
            await send(message)

        await self.app(scope, receive, answer)


class BodyLimit:
    """ASGI middleware: API request bodies over `max_bytes` get 413 before the app reads them."""

    def __init__(self, app, max_bytes: int = MAX_BODY_BYTES, prefix: str = "/api") -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.prefix = prefix

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(send)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._too_large(send)
                return
            if not message.get("more_body"):
                break
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send) -> None:
        response = JSONResponse({"detail": f"request body over {self.max_bytes} bytes"}, status_code=413)
        await response({"type": "http"}, None, send)


#: The Rive animation runtime Flet's web client (1.0.5) always asks for, from this CDN address compiled
#: into it: allowed at exactly this pinned package version so the client loads as it does without a policy
#: (offline the request fails, as it always did); no other third-party script may run.
FLET_RIVE_RUNTIME = " https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
#: What the Flet web client needs and nothing more: its own scripts, wasm compiled from its own files
#: ('wasm-unsafe-eval' allows WebAssembly only, not JavaScript eval), workers (skwasm's from blob: URLs),
#: images as data:/blob: URLs (QR codes, pictures), inline styles Flutter injects, and its websocket to
#: this host. The inline scripts of the page are allowed by their hashes (`SecurityHeaders`).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{inline}" + FLET_RIVE_RUNTIME + "{docs}; "
    "worker-src 'self' blob:; img-src 'self' data: blob:{docs}; style-src 'self' 'unsafe-inline'{docs}; "
    "font-src 'self' data:; connect-src 'self'{websocket}" + FLET_RIVE_RUNTIME + "; media-src 'self' blob:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin")]
OURS = {name for name, _ in SECURITY_HEADERS} | {b"content-security-policy"}  # an app's own are replaced
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)
#: FastAPI's /docs page loads Swagger UI from this CDN (when the host is online); only that page may.
DOCS_PAGES, DOCS_CDN = ("/docs", "/redoc"), " https://cdn.jsdelivr.net https://fastapi.tiangolo.com"
HOST_HEADER = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


def content_security_policy(html: bytes = b"", host: str = "", path: str = "") -> bytes:
    """The policy for one response: an HTML page's own inline scripts by hash, the websocket to `host`."""
    hashes = "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
                     for script in INLINE_SCRIPT.findall(html))
    # 'self' covers same-origin websockets in current browsers; older Safari needs the address spelled out
    websocket = f" ws://{host} wss://{host}" if host and HOST_HEADER.match(host) else ""
    docs = DOCS_CDN if path in DOCS_PAGES else ""
    return CONTENT_SECURITY_POLICY.format(inline=hashes, websocket=websocket, docs=docs).encode()


@functools.lru_cache(maxsize=64)
def policy_without_page(host: str, docs: bool) -> bytes:
    """`content_security_policy` of a response that is not an HTML page (most of them), kept: every API
    answer and event stream needs one."""
    return content_security_policy(b"", host, DOCS_PAGES[0] if docs else "")


def relative_location(name: bytes, value: bytes, host: str) -> tuple[bytes, bytes]:
    """A redirect's `Location` as a path when it points at the request's own `Host`: the frameworks build
    it from that header (a slash added to a folder's address), which the client chose ("Host:
    evil.example" would send the browser there); a relative one stays on the host the browser asked."""
    if name.lower() != b"location" or not host:
        return name, value
    target = urlsplit(value.decode("latin-1"))
    if target.netloc and target.netloc.lower() == host.lower():
        path = "/" + target.path.lstrip("/")  # never "//elsewhere": a browser reads that as another host
        return name, (path + (f"?{target.query}" if target.query else "")).encode("latin-1")
    return name, value


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets the security headers and a content security policy, and
    a redirect to the request's own host says only the path.

    An HTML response is held back until complete (the app's page is a few kilobytes) so that its inline
    scripts can be allowed by hash instead of allowing every inline script."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        # A HEAD answer has no body to hash: it keeps the app's own Content-Length (the GET's), not 0.
        head = scope["method"] == "HEAD"
        start: dict | None = None
        html = bytearray()

        async def secured(message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = [relative_location(k, v, host) for k, v in message.get("headers", [])
                           if k.lower() not in OURS]
                message = {**message, "headers": headers + SECURITY_HEADERS}
                names = {k.lower(): v for k, v in headers}
                if (message["status"] == 200 and names.get(b"content-type", b"").startswith(b"text/html")
                        and b"content-encoding" not in names and not head):
                    start = message  # sent with the finished page
                    return
                policy = policy_without_page(host, scope["path"] in DOCS_PAGES)
                message["headers"].append((b"content-security-policy", policy))
            elif message["type"] == "http.response.body" and start is not None:
                html.extend(message.get("body", b""))
                if message.get("more_body"):
                    return
                headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
                headers += [(b"content-length", str(len(html)).encode()),
                            (b"content-security-policy", content_security_policy(bytes(html), host, scope["path"]))]
                await send({**start, "headers": headers})
                message = {"type": "http.response.body", "body": bytes(html), "more_body": False}
                start = None
            await send(message)

        await self.app(scope, receive, secured)


def _validation_message(err: RequestValidationError) -> tuple[int, str]:
    problems = []
    status = 422
    for error in err.errors():
        if error.get("type") == "json_invalid":
            status = 400
            reason = error.get("ctx", {}).get("error", "parse error")
            problems.append(f"the body is not valid JSON ({reason})")
            continue
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body") or "body"
        problems.append(f"{where}: {error.get('msg')}")
    return status, "; ".join(problems)


def install(app: FastAPI, service: TableService, max_body_bytes: int = MAX_BODY_BYTES) -> None:
    """Mount the table API into an existing FastAPI app (Flet's, or `create_app`'s)."""
    app.state.table_service = service
    app.state.table_failed_codes = FailedCodes()
    app.state.table_feeds = weakref.WeakKeyDictionary()  # each running event loop's Feeds
    app.include_router(router)

    @app.exception_handler(TableError)
    async def table_error(request: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"detail": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, err: RequestValidationError) -> JSONResponse:
        status, message = _validation_message(err)
        return JSONResponse({"detail": message}, status_code=status)

    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    if trace.TRACER is not None:
        app.add_middleware(TraceSubmissions, tracer=trace.TRACER)
    app.add_middleware(SecurityHeaders)  # added last: the outermost, so even a 413 carries the headers


#: FastAPI (0.16x) checks for OpenTelemetry providers on every request, reading environment variables; the
#: host exports no telemetry, and the check cost a few percent of the event loop under a burst of submissions.
NO_TELEMETRY = ({"telemetry": {"tracing": False, "metrics": False, "logs": False}}
                if "telemetry" in inspect.signature(FastAPI.__init__).parameters else {})


def create_app(service: TableService) -> FastAPI:
    """The API on its own (tests, the benchmark, and `tourpad host` before the app's screens exist)."""
    app = FastAPI(title="tourpad table API", version="1",
                  description="One shared Boomerang score table on the host; every player edits their own "
                              "sheet. Read with the join code; write with a seat token or the host token.",
                  **NO_TELEMETRY)
    install(app, service)
    return app
