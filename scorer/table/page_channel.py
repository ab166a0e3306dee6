"""The page's data channels, from the web app's Python (issue 41).

The worker's Python has no WebRTC: the page's `peer.js` holds each channel, and the worker relays
(`python-worker.js`: `self.tourpadPeer`). Here the browser's SDP becomes the QR code's text and back
(`scorer.table.peer_code`), and each channel's events reach whoever uses it (the host phone's
`ChannelHostLink`, or a guest's `ChannelSeatTransport`). Only Pyodide has `js`: it is imported inside `in_browser`;
tests hand in a page of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.locale import _
from scorer.table.peer_code import PeerCodeError, expand, pack


class ChannelEvents:
    """What one channel's user is told: its opening, each text, its end, or why it never opened."""

    def __init__(self, text: Callable[[str], None], opened: Callable[[], None] | None = None,
                 closed: Callable[[], None] | None = None, failed: Callable[[str], None] | None = None) -> None:
        self.text = text
        self.opened = opened or (lambda: None)
        self.closed = closed or (lambda: None)
        self.failed = failed or (lambda reason: None)


class PageChannels:
    """This phone's data channels. `page` is the worker's `tourpadPeer`: `call(name, *args)` returns an
    awaitable answer, `listen(fn)` is told `fn(kind, id, detail)` for each event."""

    def __init__(self, page: Any, keep: Callable[[Callable], Any] = lambda listener: listener) -> None:
        """`keep` makes the listener outlive the call that hands it over (Pyodide's `create_proxy`)."""
        self.page = page
        self.users: dict[str, ChannelEvents] = {}
        page.listen(keep(self._event))

    @classmethod
    def in_browser(cls) -> PageChannels:
        import js
        from pyodide.ffi import create_proxy

        return cls(js.tourpadPeer, create_proxy)

    async def offer(self, events: ChannelEvents) -> tuple[str, str]:
        """The host's side: a new channel's id and the code to show (its offer)."""
        made = _fields(await self.page.call("offer"))
        self.users[made["id"]] = events
        return made["id"], pack("offer", made["sdp"])

    async def answer(self, scanned: str, events: ChannelEvents, board: bool = False) -> tuple[str, str]:
        """The guest's side: the host's code, scanned; the new channel's id and the code to show back (a board's
        answer when `board`: the host gives that channel a read-only link)."""
        kind, sdp = expand(scanned)
        if kind != "offer":
            raise PeerCodeError(_("this is a joining phone's code: scan the code on the host's phone"))
        made = _fields(await self.page.call("answer", sdp))
        self.users[made["id"]] = events
        return made["id"], pack("board" if board else "answer", made["sdp"])

    async def accept(self, channel: str, scanned: str) -> None:
        """The host's side: the guest's (or a board's) code, scanned; the channel then opens (or fails, said
        through its events)."""
        kind, sdp = expand(scanned)
        if kind not in ("answer", "board"):
            raise PeerCodeError(_("this is a host's code: scan the code on the joining phone"))
        await self.page.call("accept", channel, sdp)

    def send(self, channel: str, text: str) -> None:
        """Send a text; the page answers whether it went, but a channel that closed says so by its event."""
        self.page.call("send", channel, text)

    def close(self, channel: str) -> None:
        self.users.pop(channel, None)
        self.page.call("close", channel)

    def _event(self, kind: str, channel: str, detail: Any) -> None:
        user = self.users.get(channel)
        if user is None:
            return
        if kind == "message":
            user.text(str(detail))
        elif kind == "open":
            user.opened()
        elif kind in ("closed", "failed"):
            del self.users[channel]
            if kind == "closed":
                user.closed()
            else:
                user.failed(str(detail))


def _fields(made: Any) -> dict:
    """{id, sdp} of the page's answer: a JS object in the browser, a dict from a test's page."""
    if not isinstance(made, dict) and hasattr(made, "to_py"):
        made = made.to_py()
    return {"id": str(made["id"]), "sdp": str(made["sdp"])}
