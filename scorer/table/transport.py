"""How a seat's sheet reaches the table that holds it: the seat transport.

A seat's screens (`scorer.table.sheet.TableSheetSession`) need three things of a table: read it, follow its
feed of committed changes, and send a save. Whoever holds the table, that is all they ask, so the same seat
runs over any of:

- `ServiceTransport`: the table in this very process (`tourpad host` serves each phone's screens itself);
- `scorer.table.http_seat.HttpSeatTransport`: the JSON API and event stream of a `tourpad host` elsewhere;
- a WebRTC data channel to a host phone (issue 41; `scorer/table/peer_code.py` and the page's `peer.js` set
  the channel up), which plugs in here the same way.

Every save names the game it belongs to, and every event carries the whole table view with its game number,
so nothing from one game is applied in the next: the host refuses a save for an earlier game, and a seat
takes the table as each event shows it. The events are the feed's (`scorer.table.feed`): `kind`, `version`,
`table` (the view, or None: `expired`, or a change the host began before anyone followed the table, when the
seat reads `view()` instead) and what the kind adds (`seat_removed`: the `seat` number removed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from scorer.table.service import TableService

#: Told each event of the table's feed, in version order; it runs on the transport's own thread (the store's
#: writer, or a stream reader), so it must hand the event off to the screens' loop, not work on it.
Deliver = Callable[[dict], None]


@dataclass(frozen=True)
class SeatSave:
    """One seat's entry for one round of one game, replacing the revision the seat last saw (0: none)."""

    game: int
    round_no: int  # 1-based
    seat_no: int  # 1-based
    cards: str
    choice: str | None
    replaces_revision: int

    def body(self) -> dict:
        """What the JSON API's submission carries (the round and seat are in its path)."""
        fields = asdict(self)
        return {name: fields[name] for name in ("game", "cards", "choice", "replaces_revision")}


class SeatTransport(Protocol):
    """A table as one token holder reaches it. Refusals raise `scorer.table.errors.TableError` with the host's
    message (the seat shows it and changes nothing)."""

    #: The table's join code, as the host spells it.
    code: str
    #: The seat's (or the host's) token: what the host checks every save against.
    token: str

    def view(self) -> dict:
        """The table as it is now."""
        ...

    def version(self) -> int:
        """The version of the table's latest change (cheap: a following seat asks it every few seconds)."""
        ...

    def follow(self, deliver: Deliver) -> dict:
        """Start telling `deliver` every change committed after the view returned (taken with the subscription:
        an event whose version is not above the view's is already in it). One follower at a time."""
        ...

    def stop(self) -> None:
        """No more events (the seat left the table's screens)."""
        ...

    def save(self, save: SeatSave) -> dict:
        """Submit the entry; returns once the host has committed it (its acknowledgement)."""
        ...


class ServiceTransport:
    """The table in this process: what the phones `tourpad host` serves use (their screens run beside it)."""

    def __init__(self, service: TableService, code: str, token: str) -> None:
        self.service = service
        self.token = token
        self.code = service.view(code)["code"]
        self._unsubscribe: Callable[[], None] | None = None

    def view(self) -> dict:
        return self.service.view(self.code)

    def version(self) -> int:
        return self.service.version(self.code)

    def follow(self, deliver: Deliver) -> dict:
        self.stop()
        view, self._unsubscribe = self.service.subscribe(self.code, deliver)
        return view

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def save(self, save: SeatSave) -> dict:
        return self.service.submit(self.code, save.round_no, save.seat_no, save.cards, save.choice,
                                   save.replaces_revision, self.token, game=save.game)
