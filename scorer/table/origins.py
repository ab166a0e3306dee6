"""Which web pages may drive the host, and whose word counts for a client's address.

A page open in any browser that can reach the host (the host machine's own, most of all: its sessions get
the host credential) could otherwise send it requests: a browser attaches the page's `Origin` to every
websocket and every write, whatever site the page came from. `SameOrigin` refuses a websocket or a
state-changing request whose `Origin` is not the host's own: the scheme and port it serves, on one of this
machine's addresses (loopback, `localhost`, any address of its own, or the one it is bound to). It is
a fixed list, not the request's `Host` header, which a page can make its own by DNS rebinding. Requests
without an `Origin` (the command line, scripts, the benchmark) are not a browser's: their tokens judge them.

Forwarded headers (`X-Forwarded-For`, `X-Forwarded-Proto`) are ignored unless `tourpad host --trust-proxy
ADDR` names the proxy; only then, and only from that address, do they say who the client is (uvicorn's own
default trusts 127.0.0.1 and reads `FORWARDED_ALLOW_IPS` from the environment: the host never uses it). A
trusted proxy serves the app under its own name, so a request it forwards may carry the origin its `Host`
header names.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse

from scorer.locale import _

#: Methods that read: a browser may send them cross-site (links, images), and they change nothing here.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The websocket close code of a refused handshake (uvicorn answers the upgrade with 403).
POLICY_VIOLATION = 1008


def parse_proxies(text: str | None) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """`--trust-proxy`'s addresses or networks, comma-separated ("127.0.0.1", "10.0.0.0/8,::1"); raises
    ValueError naming the one that is not an address."""
    networks = []
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(_("--trust-proxy takes IP addresses or networks, not {value}").format(
                value=repr(part))) from None
    return tuple(networks)


def holds_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` is one of this machine's own (any interface: Wi-Fi, Ethernet, a hotspot): only
    those can be bound to."""
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
            return True
    except OSError:
        return False


@dataclass(frozen=True)
class Served:
    """Where the host serves: what its own pages' origin is."""

    scheme: str  # "http" or "https"
    bind: str
    port: int
    proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    def is_proxy(self, peer: str | None) -> bool:
        try:
            address = ipaddress.ip_address(peer or "")
        except ValueError:
            return False
        return any(address in network for network in self.proxies)

    def own_name(self, name: str) -> bool:
        """Whether `name` (an origin's host, lower case) is this machine. Names other than `localhost` (which
        browsers keep on loopback) are not: the host's links are addresses, and a name, even the machine's
        own `.local` one, can be answered by someone else on a shared network."""
        if name == "localhost":
            return True
        try:
            address = ipaddress.ip_address(name.strip("[]"))
        except ValueError:
            return False
        if address.is_loopback:
            return True
        if self.bind not in ("0.0.0.0", "", "::"):
            return str(address) == self.bind
        return holds_address(address)

    def allows(self, origin: str, peer: str | None, host_header: str) -> bool:
        """Whether a browser page of `origin` may write, on a connection from `peer`."""
        try:
            parts = urlsplit(origin)
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:  # a port that is not a number, or "null"'s like
            return False
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        if self.is_proxy(peer):  # the proxy's public name, which it put in Host
            return bool(host_header) and parts.netloc.lower() == host_header.lower()
        return parts.scheme == self.scheme and port == self.port and self.own_name(parts.hostname.lower())


class SameOrigin:
    """ASGI middleware: a websocket or a state-changing request from a browser page of another origin is
    refused (403), before the app sees it. Outermost, so `scope["client"]` is still the socket's peer."""

    def __init__(self, app, served: Served) -> None:
        self.app = app
        self.served = served

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] not in SAFE_METHODS):
            headers = dict(scope["headers"])
            origin = headers.get(b"origin")
            if origin is not None:
                peer = scope["client"][0] if scope.get("client") else None
                host = headers.get(b"host", b"").decode("latin-1")
                if not self.served.allows(origin.decode("latin-1"), peer, host):
                    await self._refuse(kind, send)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(kind: str, send) -> None:
        if kind == "websocket":
            await send({"type": "websocket.close", "code": POLICY_VIOLATION})
            return
        message = _("a page from another site cannot change this host's tables; open the host's own address")
        await JSONResponse({"detail": message}, status_code=403)({"type": "http"}, None, send)


def guarded_app(asgi_app, served: Served):
    """`asgi_app` as the host serves it: forwarded headers read only from `served.proxies`, then (outside,
    seeing the socket's peer) foreign origins refused."""
    if served.proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        asgi_app = ProxyHeadersMiddleware(asgi_app, trusted_hosts=[str(n) for n in served.proxies])
    return SameOrigin(asgi_app, served)
