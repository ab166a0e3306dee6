"""`tourpad host`: serve the table API (and the app) on the local network.

The join URL's QR code is printed in the terminal and offered as a PNG for the app's host screen.
"""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rules.text import for_terminal
from scorer.locale import _, ngettext

# The links a QR code carries (the join link opens one table's seat picker; the seat link, shown by the host
# after seating someone, opens that seat with its token; the host link makes a second device a host) are
# routes of the app.
from scorer.routes import host_link, host_screen_link, join_link, seat_link  # noqa: F401  (re-exported: what `tourpad host` prints)
from scorer.table.connections import Limits, guarded_protocols
from scorer.table.lan import (  # noqa: F401  (re-exported: what `tourpad host` prints and tests use)
    is_local_client,
    join_url,
    lan_address,
    qr_png,
    qr_terminal,
    reachable_address,
    session_credential,
)
from scorer.table.origins import Served, guarded_app, parse_proxies
from scorer.table.service import TableService
from scorer.table.tls import CertificateFiles

DB_NAME = "tables.sqlite3"
EXPIRY_SWEEP_SECONDS = 60.0


def db_path() -> Path:
    from scorer.packs import data_dir

    return data_dir() / DB_NAME


def wait_until_port_free(bind: str, port: int) -> None:
    """Block until nothing listens on (bind, port) any more, e.g. the host this one replaces has exited."""
    while True:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            try:
                probe.bind((bind, port))
                return
            except OSError:
                time.sleep(0.02)


#: What a new table plays when `tourpad host` is given no --edition / --seats.
DEFAULT_EDITION = "australia"
DEFAULT_SEATS = 4


@dataclass
class HostPlan:
    """What `tourpad host` shows: the table it opened (new or resumed) and how to reach it."""

    code: str
    url: str
    host_token: str | None
    resumed: list[str]
    #: set when a live table was not resumed because --edition / --seats asked for another one: what differs
    not_resumed: str | None = None


def open_table(service: TableService, bind: str, port: int, edition: str | None, seats: int | None,
               new_table: bool, new_host_token: bool, https: bool = False) -> HostPlan:
    """Resume the host's most recently active table (one it opened with its credential, never a table
    someone else made), or open one when there is none, when asked, or when `edition` / `seats` (None: not
    given) name another game than that table's: a table is started as the host asked, never silently not."""
    resumed = service.host_codes()
    credential = service.host_credential
    live = None if new_table or not resumed else service.view(resumed[0])
    differs = None if live is None else asked_differently(live, edition, seats)
    if differs:  # what was not asked for stays as the table it replaces had it (the same players, another game)
        code, token = service.create_table(edition or live["edition"]["id"], seats or len(live["seats"]),
                                           credential=credential)
    elif live is None:
        code, token = service.create_table(edition or DEFAULT_EDITION, seats or DEFAULT_SEATS,
                                           credential=credential)
    else:
        code = resumed[0]
        token = service.issue_host_token(code, credential) if new_host_token else None
    return HostPlan(code, join_url(bind, port, https), token, resumed, differs)


def edition_label(edition_id: str) -> str:
    """An edition's name in the language of the moment (its id when its pack is gone)."""
    from scorer.packs import resolve_edition

    try:
        return resolve_edition(edition_id).label
    except KeyError:
        return edition_id


def asked_differently(view: dict, edition: str | None, seats: int | None) -> str | None:
    """How the table `view` differs from the edition and seats asked for (None: it is what was asked)."""
    differences = []
    if edition is not None and edition != view["edition"]["id"]:
        differences.append(_("it plays {edition}").format(edition=edition_label(view["edition"]["id"])))
    if seats is not None and seats != len(view["seats"]):
        differences.append(ngettext("it has {n} seat", "it has {n} seats", len(view["seats"])).format(
            n=len(view["seats"])))
    return "; ".join(differences) or None


def start_expiry_sweeper(service: TableService, every: float = EXPIRY_SWEEP_SECONDS) -> threading.Thread:
    def sweep() -> None:
        while True:
            time.sleep(every)
            service.expire_idle()

    thread = threading.Thread(target=sweep, name="table-expiry", daemon=True)
    thread.start()
    return thread


class EscapedFormatter(logging.Formatter):
    """Log lines with control and format characters escaped: a player's name cannot forge a line or send
    escape sequences to the host's terminal, whatever reaches a log message."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return for_terminal(super().formatMessage(record))

    def formatException(self, ei) -> str:
        return "\n".join(for_terminal(line) for line in super().formatException(ei).split("\n"))


def escape_logs() -> None:
    """Every handler of the root logger and uvicorn's loggers formats through `EscapedFormatter`."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=logging.WARNING)
    for logger in (root, logging.getLogger("uvicorn"), logging.getLogger("uvicorn.error"),
                   logging.getLogger("uvicorn.access")):
        for handler in logger.handlers:
            fmt = handler.formatter
            handler.setFormatter(EscapedFormatter(fmt._fmt if fmt else None, fmt.datefmt if fmt else None))


def make_server(asgi_app, bind: str, port: int, tls: CertificateFiles | None = None, limits: Limits = Limits(),
                trust_proxy: str | None = None):
    """The host's uvicorn server: its HTTP and WebSocket protocols enforce `limits`, its logs are escaped,
    browser pages of other origins cannot write, and forwarded headers count only from `trust_proxy`."""
    import uvicorn
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    ssl = {"ssl_certfile": str(tls.cert), "ssl_keyfile": str(tls.key)} if tls is not None else {}
    http, ws = guarded_protocols(HttpToolsProtocol, AutoWebSocketsProtocol, limits)
    served = Served("https" if tls is not None else "http", bind, port, parse_proxies(trust_proxy))
    # uvicorn's own proxy handling is off (it would trust 127.0.0.1, or FORWARDED_ALLOW_IPS from the
    # environment): `guarded_app` reads forwarded headers from the --trust-proxy addresses alone.
    config = uvicorn.Config(guarded_app(asgi_app, served), host=bind, port=port, log_level="warning",
                            timeout_graceful_shutdown=2, lifespan="on", http=http, ws=ws,
                            timeout_keep_alive=limits.idle_seconds, proxy_headers=False,
                            forwarded_allow_ips=[], **ssl)
    escape_logs()  # after uvicorn's Config has set up its log handlers
    return uvicorn.Server(config)


#: The interpreter's thread switch interval in the host (Python's default: 5 ms). The event loop keeps the
#: GIL busy under a burst of submissions; the store's writer thread needs it back after every SQLite call
#: and the fsync, and would wait up to a whole interval each time before the commit completes.
SWITCH_INTERVAL_SECONDS = 0.001


def serve(asgi_app, bind: str, port: int, on_ready: Callable[[], None] | None = None,
          tls: CertificateFiles | None = None, limits: Limits = Limits(), trust_proxy: str | None = None) -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    server = make_server(asgi_app, bind, port, tls, limits, trust_proxy)
    if on_ready is not None:
        original_startup = server.startup

        async def startup(sockets=None) -> None:
            await original_startup(sockets)
            on_ready()

        server.startup = startup
    server.run()


#: Where the host serves the published web app (`tourpad publish --base-url /app/`), if given one.
SITE_PREFIX = "/app/"


def build_asgi(service: TableService, web_app=None, site: Path | None = None):
    """One FastAPI server: the JSON API under /api, the published web app (`site`, if any) under /app/, and
    the app's web client (`web_app`, the Flet ASGI app from scorer.ui.hosting) everywhere else; without one,
    the API alone."""
    from scorer.table import api

    if web_app is None:
        asgi = api.create_app(service)
        mount_site(asgi, site)
        return asgi
    from starlette.routing import Mount

    api.install(web_app, service)
    mount_site(web_app, site)
    # Flet mounts its web client at "/", which matches every path: the API's routes must come first.
    routes = web_app.router.routes
    catch_all = [r for r in routes if isinstance(r, Mount) and r.path in ("", "/")]
    for route in catch_all:
        routes.remove(route)
        routes.append(route)
    return web_app


def mount_site(asgi, site: Path | None) -> None:
    """Serve a published site's files (their precompressed copies where the browser accepts them): phones
    install the web app from here once."""
    if site is None:
        return
    from scorer.table.site_files import precompressed_static_files

    asgi.mount(SITE_PREFIX.rstrip("/"), precompressed_static_files(site), name="published-app")
