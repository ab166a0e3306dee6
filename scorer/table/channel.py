"""A seat over a data channel to a host phone (issue 41): the messages both ends send, the host's end
(`ChannelHostLink`, one per guest, over the phone's `TableService`) and the seat's (`ChannelSeatTransport`, a
`scorer.table.transport.SeatTransport`).

The channel carries text; each message is one JSON object, checked with pydantic where it comes in (a guest's
message is what a stranger's phone sent: anything malformed is answered with a refusal and changes nothing).

- guest → host: ``{"ask": n, "view": {}}``, ``{"ask": n, "version": {}}`` (the table's version only: a
  following seat's periodic check for a lost event), ``{"ask": n, "follow": {}}``, ``{"ask": n, "stop": {}}``,
  ``{"ask": n, "deck": {}}`` (the host's own deck the table plays, whole: a guest reads the table with it),
  ``{"ask": n, "claim": {"seat", "name"}}`` (no token: a free seat; the seat's own token: a rename), and
  ``{"ask": n, "save": {"game", "round_no", "seat_no", "cards", "choice", "replaces_revision"}}``, each with the
  guest's token (``"token"``) where the host checks one;
- host → guest: ``{"answer": n, "ok": {...}}`` or ``{"answer": n, "refused": {"status", "message"}}``, and
  ``{"event": {...}}`` for every change of the table the guest follows (the feed's event, whole table included).

A guest that does not hold the deck a view names (an owner's deck, at its version) asks for it once and keeps
it (`scorer.table.board.keep_table_deck`): its keypad, sheets and explanations read the table with the host's
deck, never with one of its own that has the same name.

A save names its game, and every event carries the whole table with its game number: nothing from one game is
applied in the next. The host answers a save only once the phone has kept it (`scorer.table.phone_store`).
How the text travels (the page's `peer.js`, the worker, back to Python) is not this module's business: each end
is given a `send` and is handed what arrives.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scorer.locale import _
from scorer.table.errors import REFUSALS_BY_STATUS, Forbidden, Invalid, TableError, Unavailable
from scorer.table.service import TableService
from scorer.table.transport import Deliver, SeatSave

log = logging.getLogger(__name__)

Send = Callable[[str], None]
#: The longest message a guest may send: a save is a few hundred bytes (a table view, host to guest, is not
#: limited here: the host makes it).
MAX_GUEST_MESSAGE = 4096
#: Seconds a seat waits for the host's answer before saying the host phone cannot be reached.
ANSWER_TIMEOUT = 10.0

Token = Annotated[str, Field(min_length=1, max_length=128)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Empty(_Strict):
    pass


class _Claim(_Strict):
    seat: int = Field(ge=1, le=64)
    name: str = Field(max_length=200)


class _Save(_Strict):
    game: int = Field(ge=1)
    round_no: int = Field(ge=1, le=64)
    seat_no: int = Field(ge=1, le=64)
    cards: str = Field(max_length=64)
    choice: str | None = Field(default=None, max_length=64)
    replaces_revision: int = Field(ge=0)


class GuestMessage(_Strict):
    """One request of a guest's phone: exactly one of the kinds, with the number its answer will carry."""

    ask: int = Field(ge=0)
    token: Token | None = None
    view: _Empty | None = None
    version: _Empty | None = None
    follow: _Empty | None = None
    stop: _Empty | None = None
    deck: _Empty | None = None
    claim: _Claim | None = None
    save: _Save | None = None

    def kind(self) -> str | None:
        kinds = [k for k in ("view", "version", "follow", "stop", "deck", "claim", "save")
                 if getattr(self, k) is not None]
        return kinds[0] if len(kinds) == 1 else None


class _Refused(_Strict):
    status: int
    message: str


class HostMessage(_Strict):
    """One message of the host phone: the answer to a request, or an event of the table's feed."""

    answer: int | None = None
    ok: dict[str, Any] | None = None
    refused: _Refused | None = None
    event: dict[str, Any] | None = None


def asked_number(text: str) -> int | None:
    """The number a message the host cannot read was asked with, when it has one (a request of a kind a later
    release added): its refusal then reaches the guest at once, instead of the guest waiting for an answer."""
    try:
        ask = json.loads(text).get("ask")
    except (ValueError, AttributeError):
        return None
    return ask if isinstance(ask, int) and not isinstance(ask, bool) and ask >= 0 else None


class ChannelHostLink:
    """The host phone's end of one guest's channel, for table `code` of `service`. `receive` takes each text
    the guest sent; answers and events go out through `send`. A `read_only` link is a board's (a TV or
    tablet): it reads and follows the table, and every claim and save on it is refused, whatever token it names."""

    def __init__(self, service: TableService, code: str, send: Send, read_only: bool = False) -> None:
        self.service = service
        self.code = service.view(code)["code"]
        self.send = send
        self.read_only = read_only
        self._unsubscribe: Callable[[], None] | None = None

    def receive(self, text: str) -> None:
        ask = None
        try:
            if len(text) > MAX_GUEST_MESSAGE:
                raise Invalid(_("a message from a seat's phone is too long"))
            try:
                message = GuestMessage.model_validate_json(text)
            except ValidationError as err:
                ask = asked_number(text)  # answered, so a guest on a later release hears this host cannot
                raise Invalid(_("a seat's phone sent a message the host cannot read: {error}").format(
                    error=err.errors()[0]["msg"])) from None
            ask = message.ask
            answer = self._handle(message)
        except TableError as err:
            self._send({"answer": ask, "refused": {"status": err.status, "message": err.message}})
            return
        self._send({"answer": ask, "ok": answer})

    def _handle(self, message: GuestMessage) -> dict:
        if message.kind() is None:
            raise Invalid(_("a seat's phone sent a message the host cannot read: {error}").format(
                error=_("one request per message")))
        if message.view is not None:
            return self.service.view(self.code)
        if message.version is not None:
            return {"version": self.service.version(self.code)}
        if message.follow is not None:
            return self._follow()
        if message.stop is not None:
            self.close()
            return {}
        if message.deck is not None:
            return {"deck": self.service.deck(self.code)}
        if self.read_only:
            raise Forbidden(_("a board only shows the table: it cannot take a seat or save a round"))
        if message.claim is not None:
            token = self.service.claim_seat(self.code, message.claim.seat, message.claim.name, message.token)
            return {"seat": message.claim.seat, "token": token}
        s = message.save
        if s is None:  # kind() found exactly one of the above
            return {}
        return self.service.submit(self.code, s.round_no, s.seat_no, s.cards, s.choice, s.replaces_revision,
                                   message.token, game=s.game)

    def _follow(self) -> dict:
        self.close()

        def listener(event: dict) -> None:
            # on the phone this runs where the change was made, under the table's lock: only a send
            self._send({"event": event})

        view, self._unsubscribe = self.service.subscribe(self.code, listener)
        return view

    def close(self) -> None:
        """The channel closed (or the guest stopped following): no more events for it."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _send(self, message: dict) -> None:
        self.send(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


class _Answer:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.message: HostMessage | None = None


class ChannelSeatTransport:
    """A seat's end of the channel to the host phone that holds table `code`: a `SeatTransport`. `receive` takes
    each text the host sent. A request waits for its answer with `wait(event, timeout)`: a thread's wait where
    the answer comes on another thread (the default); the browser's page answers on the one thread the seat has,
    so there it suspends on the answer's promise instead (JSPI, as `scorer.browser_storage.persist` does)."""

    def __init__(self, send: Send, code: str, token: str | None = None,
                 wait: Callable[[threading.Event, float], bool] | None = None,
                 timeout: float = ANSWER_TIMEOUT) -> None:
        self.send = send
        self.code = code
        self.token = token or ""
        self.timeout = timeout
        self._wait = wait or (lambda event, seconds: event.wait(seconds))
        self._asks = itertools.count(1)
        self._answers: dict[int, _Answer] = {}
        self._deliver: Deliver | None = None
        #: the (deck id, version) of the tables this seat has read, once this device holds that deck
        self._decks_held: set[tuple[str, str | None]] = set()
        self._host_has_version = True
        self._closed = False

    # --- what arrives ---------------------------------------------------------------------------------------

    def receive(self, text: str) -> None:
        try:
            message = HostMessage.model_validate_json(text)
        except ValidationError:
            log.warning("dropped a message from the host phone that is not one: %.80s", text)
            return
        if message.event is not None:
            if self._deliver is not None:
                self._deliver(message.event)
            return
        waiting = self._answers.pop(message.answer, None) if message.answer is not None else None
        if waiting is not None:
            waiting.message = message
            waiting.done.set()

    def closed(self) -> None:
        """The channel dropped: every request still waiting is answered that the host cannot be reached."""
        self._closed = True
        for ask in list(self._answers):
            answer = self._answers.pop(ask)
            answer.done.set()

    # --- SeatTransport --------------------------------------------------------------------------------------

    def _request(self, kind: str, body: dict | None = None) -> dict:
        ask = next(self._asks)
        waiting = self._answers[ask] = _Answer()
        self._send({"ask": ask, kind: body or {}})
        if not self._wait(waiting.done, self.timeout) or waiting.message is None:
            self._answers.pop(ask, None)
            log.warning("the host phone did not answer a %s request (ask %d) within %.0f s", kind, ask, self.timeout)
            raise Unavailable(_("the host phone does not answer: check that both phones are on the same Wi-Fi, "
                                "then scan its code again"))
        answer = waiting.message
        if answer.refused is not None:
            raise REFUSALS_BY_STATUS.get(answer.refused.status, TableError)(answer.refused.message)
        return answer.ok or {}

    def _send(self, message: dict[str, Any]) -> None:
        if self.token:
            message["token"] = self.token
        self.send(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def _with_deck(self, view: dict) -> dict:
        """`view`, once this device holds the deck it plays: the host's own deck is asked for (once) and kept,
        so the seat's screens never read the table with another deck (a table keeps its deck all its life)."""
        from scorer.table.board import has_table_deck, keep_table_deck

        info = view["edition"]
        held = (info["id"], info.get("version"))
        if held not in self._decks_held:
            if not has_table_deck(view):
                keep_table_deck(view, self._request("deck").get("deck"))
            self._decks_held.add(held)
        return view

    def view(self) -> dict:
        return self._with_deck(self._request("view"))

    def version(self) -> int:
        if self._host_has_version:
            try:
                return int(self._request("version")["version"])
            except (Invalid, Unavailable):
                if self._closed:
                    raise
                # A host phone on an earlier release of the app (phones at a table with no internet keep the
                # release they last fetched) cannot read this ask: it refuses it, or an older one leaves it
                # unanswered. It is asked the whole table from then on.
                self._host_has_version = False
        return int(self.view()["version"])

    def follow(self, deliver: Deliver) -> dict:
        self._deliver = deliver
        view = self._request("follow")
        try:
            return self._with_deck(view)
        except TableError:  # no table without its deck: the events stop too
            self.stop()
            raise

    def stop(self) -> None:
        if self._deliver is not None:
            self._deliver = None
            # not waited for (the seat is leaving its screens; its answer, if any, is dropped as unasked)
            self._send({"ask": next(self._asks), "stop": {}})

    def save(self, save: SeatSave) -> dict:
        return self._request("save", {"game": save.game, "round_no": save.round_no, "seat_no": save.seat_no,
                                      "cards": save.cards, "choice": save.choice,
                                      "replaces_revision": save.replaces_revision})

    def claim(self, seat_no: int, name: str) -> str:
        """Take free seat `seat_no` (or, holding its token, rename it); the seat's token is kept for the saves."""
        self.token = self._request("claim", {"seat": seat_no, "name": name})["token"]
        return self.token
