"""A phone-hosted table's links (issue 41): the host phone's guests, and a guest's one channel to its host.

`HostLinks` keeps, for one table of the host phone, a connection code waiting for its guest (a new one as soon as
a guest has answered: one code per guest) and a `ChannelHostLink` for each open channel. `GuestLink` is a
guest's side: the host's code scanned, its answer code to show, then a `ChannelSeatTransport` once the channel
opens. A board (a TV or tablet) joins the same way with a board's answer (`GuestLink(board=True)`): the host
gives its channel a read-only link. Neither knows a screen: each says what happened through
`on_change(what, detail)` — `opened` (detail: the channel), `closed` or `failed` (detail: `UNREACHABLE`, in plain
words) — called where the page's event arrives, so a screen hands it to its own loop. A channel that never opens
is closed by the page after `peer.js`'s OPEN_TIMEOUT_MS (12 s).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from scorer.locale import _
from scorer.table.channel import ChannelHostLink, ChannelSeatTransport
from scorer.table.page_channel import ChannelEvents, PageChannels
from scorer.table.peer_code import PeerCodeError, expand
from scorer.table.service import TableService

OnChange = Callable[[str, str], None]


def unreachable() -> str:
    """What a phone says when no channel opened in time (guest Wi-Fi that keeps phones apart, a network that
    blocks local names), and what works instead."""
    return _("The phones cannot reach each other on this network (a guest or public Wi-Fi often keeps phones "
             "apart). Turn on one phone's hotspot and join it with the others, or run `tourpad host` on a laptop "
             "on this Wi-Fi and open the address it shows.")


class HostLinks:
    """The host phone's guests at table `code` of `service`, over the page's `channels`."""

    def __init__(self, channels: PageChannels, service: TableService, code: str, on_change: OnChange) -> None:
        self.channels = channels
        self.service = service
        self.code = service.view(code)["code"]
        self.on_change = on_change
        #: the channel whose offer is on show, and its code (None until `offer`)
        self.waiting: str | None = None
        self.offer_code = ""
        #: the channel a guest's answer was scanned for, until it opens or fails
        self.answered: set[str] = set()
        #: the channels answered by a board's code: their links are read-only
        self.board_channels: set[str] = set()
        self.links: dict[str, ChannelHostLink] = {}

    @property
    def connected(self) -> int:
        """The guests' phones connected (boards are counted apart)."""
        return sum(not link.read_only for link in self.links.values())

    @property
    def boards(self) -> int:
        """The boards (TVs, tablets) showing the table."""
        return sum(link.read_only for link in self.links.values())

    def is_board(self, channel: str) -> bool:
        return channel in self.board_channels

    async def offer(self) -> str:
        """A new code for the next guest (the one on show, if no guest has answered it yet)."""
        if self.waiting is not None:
            return self.offer_code
        channel = ""

        def text(message: str) -> None:
            link = self.links.get(channel)
            if link is not None:
                link.receive(message)

        def opened() -> None:
            self.answered.discard(channel)
            self.links[channel] = ChannelHostLink(self.service, self.code,
                                                  lambda message: self.channels.send(channel, message),
                                                  read_only=channel in self.board_channels)
            self.on_change("opened", channel)

        def closed() -> None:
            link = self.links.pop(channel, None)
            if link is not None:
                link.close()
            self.board_channels.discard(channel)
            self.on_change("closed", channel)

        def failed(reason: str) -> None:
            self.answered.discard(channel)
            self.board_channels.discard(channel)
            if self.waiting == channel:
                self.waiting = None
            self.on_change("failed", unreachable())

        channel, self.offer_code = await self.channels.offer(ChannelEvents(text, opened, closed, failed))
        self.waiting = channel
        return self.offer_code

    async def accept(self, scanned: str) -> None:
        """The guest's (or a board's) answer to the code on show: its channel opens (or fails) by itself from
        here. The code is used up (`offer_code` is empty): `offer` makes the next guest's. Raises `PeerCodeError`
        for a text that is no guest's answer (nothing changes)."""
        if self.waiting is None:
            await self.offer()
        channel = self.waiting
        if expand(scanned)[0] == "board":  # known before the channel can open: its link is read-only from the start
            self.board_channels.add(channel)
        # used up once answered, and the channel can open before `accept` returns: no screen may show it then
        offer_code, self.offer_code = self.offer_code, ""
        try:
            await self.channels.accept(channel, scanned)
        except PeerCodeError:
            self.board_channels.discard(channel)
            self.offer_code = offer_code
            raise
        self.answered.add(channel)
        self.waiting = None

    def close(self) -> None:
        """The host left the table's screens for good: every guest's channel closes."""
        for channel in [*self.links, *self.answered, *([self.waiting] if self.waiting else [])]:
            link = self.links.pop(channel, None)
            if link is not None:
                link.close()
            self.channels.close(channel)
        self.answered.clear()
        self.board_channels.clear()
        self.waiting = None


def page_wait(done: threading.Event, seconds: float) -> bool:
    """A guest's wait for the host phone's answer in the browser: Python's only thread suspends on a promise
    (JSPI, as `scorer.browser_storage.persist` does) while the page hands the channel's texts in. Where the
    browser cannot suspend Python, a request that was not answered at once is answered "cannot be reached"."""
    from pyodide.ffi import can_run_sync, run_sync

    async def answered() -> bool:
        until = time.monotonic() + seconds
        while not done.is_set() and time.monotonic() < until:
            await asyncio.sleep(0.01)
        return done.is_set()

    if done.is_set() or not can_run_sync():
        return done.is_set()
    return run_sync(answered())


class GuestLink:
    """A guest phone's channel to a host phone: `answer` the host's scanned code, show the answer it returns;
    once the host scanned that, `transport` is the seat's way to the table (the table's code learned from it).
    A `board`'s answer asks for a read-only link: it follows the table, and can take no seat and save nothing."""

    def __init__(self, channels: PageChannels, on_change: OnChange,
                 wait: Callable[[threading.Event, float], bool] | None = None, board: bool = False) -> None:
        self.channels = channels
        self.on_change = on_change
        self.board = board
        self.channel: str | None = None
        self.open = False
        self.transport = ChannelSeatTransport(self._send, "", wait=wait)

    def _send(self, text: str) -> None:
        if self.channel is not None:
            self.channels.send(self.channel, text)

    async def answer(self, scanned: str) -> str:
        """The host's code, scanned: the answer code to show it. Raises `PeerCodeError` for a text that is no
        host's code."""
        if self.channel is not None:
            self.channels.close(self.channel)
            self.transport.closed()
        self.open = False

        def opened() -> None:
            self.open = True
            self.on_change("opened", "")

        def closed() -> None:
            self.open = False
            self.transport.closed()
            self.on_change("closed", "")

        def failed(reason: str) -> None:
            self.on_change("failed", unreachable())

        self.channel, code = await self.channels.answer(scanned, ChannelEvents(self.transport.receive, opened,
                                                                               closed, failed), board=self.board)
        return code
