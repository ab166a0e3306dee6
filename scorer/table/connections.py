"""Connection limits uvicorn does not have: the host must outlast slow, idle and half-open clients.

uvicorn arms its keep-alive timer only after a response; a connection that never completes a request head
(or body) is held forever, so a guest could exhaust the host's file descriptors. `guarded_protocols`
wraps uvicorn's HTTP and WebSocket protocols:

- time limits: the request head must arrive within `head_seconds` of the connection opening (or of the
  previous response ending), the body within `body_seconds` of the head; otherwise the connection is
  closed. Once a request is read there is no limit: a server-sent event stream lives as long as the phone
  listens, as does the app's websocket.
- head size: a request head (request line and headers) over `head_bytes`, or with more than
  `head_fields` header fields, is answered 431 and the connection closed, before the parser has buffered
  more than that (httptools, which the host runs, has no limit of its own: a 64 MB header grew the host by
  as much before the time limit cut it).
- caps: at most `per_address` open connections from one client address and `total` in all; a connection
  over a cap is closed as soon as it is accepted.
- dead peers: TCP keep-alive probes and TCP_USER_TIMEOUT make the kernel drop a connection whose peer
  stopped acknowledging (a phone gone from the Wi-Fi); the event stream's heartbeat gives it data to
  acknowledge, so a dead stream ends within about `dead_peer_seconds` and its subscription with it.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import defaultdict
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    head_seconds: float = 5.0
    body_seconds: float = 10.0
    #: idle keep-alive connections (uvicorn's own timer, armed after each response)
    idle_seconds: float = 5.0
    per_address: int = 128
    total: int = 512
    dead_peer_seconds: int = 45
    #: a request head (request line and header fields, as received) larger than this is refused (431); a
    #: browser's head is 1-2 KB, cookies included
    head_bytes: int = 32 * 1024
    #: more header fields than this is refused (431); a browser sends about 15
    head_fields: int = 100


#: What a refused head is answered, before the connection is closed (no ASGI app sees the request).
_HEAD_REFUSAL = b"request head too large, or too many header fields\n"
HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                  b"content-type: text/plain; charset=utf-8\r\nx-content-type-options: nosniff\r\n"
                  b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_HEAD_REFUSAL), _HEAD_REFUSAL))


class HeadTooLarge(Exception):
    """Raised from the parser's header callback: httptools stops parsing, uvicorn answers the error."""


class Registry:
    """Open connections (transports) by client address; the caps are checked when one opens."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_address: dict[str, set[object]] = defaultdict(set)
        self.count = 0

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        address = _address(transport)
        mine = self.by_address[address]
        if len(mine) >= self.limits.per_address or self.count >= self.limits.total:
            if not mine:
                del self.by_address[address]
            return False
        mine.add(transport)
        self.count += 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = _address(transport)
        mine = self.by_address.get(address)
        if mine is None or transport not in mine:
            return
        mine.discard(transport)
        self.count -= 1
        if not mine:
            del self.by_address[address]


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


def _watch_dead_peer(transport: asyncio.BaseTransport, seconds: int) -> None:
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if hasattr(socket, "TCP_KEEPIDLE"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, max(1, seconds // 3))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, max(1, seconds // 6))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, seconds * 1000)
    except OSError:  # a platform without these options keeps the OS defaults
        log.debug("cannot set keep-alive options on a connection", exc_info=True)


def guarded_protocols(http_base: type, ws_base: type | None, limits: Limits) -> tuple[type, type | None]:
    """Subclasses of uvicorn's httptools HTTP protocol and its WebSocket protocol enforcing `limits`
    (one registry for both: an upgraded connection keeps its place under the caps until it closes)."""
    registry = Registry(limits)

    class GuardedHTTP(http_base):
        def connection_made(self, transport) -> None:
            self._deadline: asyncio.TimerHandle | None = None
            self._head_bytes = 0  # bytes of the request head being read (None while a body or answer runs)
            self._head_fields = 0
            self._head_refused = False
            self._refused = not registry.admit(transport)
            if self._refused:
                transport.abort()
                return
            _watch_dead_peer(transport, limits.dead_peer_seconds)
            super().connection_made(transport)
            self._arm(limits.head_seconds)

        def _arm(self, seconds: float | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            if seconds is not None:
                self._deadline = asyncio.get_running_loop().call_later(seconds, self._too_slow)

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            if self._refused or self._head_refused:
                return
            super().data_received(data)
            # Counted once parsed: a chunk that leaves the head unfinished was all head (or, at most, the
            # tail of a pipelined body before it), and the parser has buffered it.
            if self._head_bytes is not None and not self.transport.is_closing():
                self._head_bytes += len(data)
                if self._head_bytes > limits.head_bytes:
                    self._refuse_head()

        def _refuse_head(self) -> None:
            self._head_refused = True
            self._arm(None)
            self.transport.write(HEAD_TOO_LARGE)
            self.transport.close()

        def on_header(self, name: bytes, value: bytes) -> None:
            self._head_fields += 1
            if self._head_fields > limits.head_fields:
                self._head_refused = True
                raise HeadTooLarge  # httptools stops; uvicorn answers with send_400_response
            super().on_header(name, value)

        def send_400_response(self, msg: str) -> None:
            if self._head_refused:
                self._refuse_head()
            else:
                super().send_400_response(msg)

        def on_headers_complete(self) -> None:
            self._head_bytes = None
            self._arm(limits.body_seconds)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._arm(None)  # the request is read: the app may take as long as it answers (event streams)
            self._head_bytes, self._head_fields = 0, 0  # a pipelined request's head may follow
            super().on_message_complete()

        def on_response_complete(self) -> None:
            pipelined = bool(self.pipeline)  # a request already read starts now: no head to wait for
            super().on_response_complete()
            if not pipelined and not self.transport.is_closing():
                self._arm(limits.head_seconds)  # the next request's head, or close when idle

        def handle_websocket_upgrade(self) -> None:
            self._arm(None)
            self._upgraded = True
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._arm(None)
            if not getattr(self, "_upgraded", False):
                registry.release(self.transport)
            super().connection_lost(exc)

    if ws_base is None:
        return GuardedHTTP, None

    class GuardedWebSocket(ws_base):
        def connection_made(self, transport) -> None:
            self._guarded_transport = transport
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            registry.release(self._guarded_transport)
            super().connection_lost(exc)

    return GuardedHTTP, GuardedWebSocket
