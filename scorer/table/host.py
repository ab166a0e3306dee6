"""`tourpad host`: serve the table API (and the app, once it has screens) on the local network.

The join URL's QR code is printed in the terminal and offered as a PNG for the app's host screen.
"""

from __future__ import annotations

import io
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import segno

from scorer.table.service import TableService
from scorer.table.tls import CertificateFiles

DB_NAME = "tables.sqlite3"
EXPIRY_SWEEP_SECONDS = 60.0


def db_path() -> Path:
    from scorer.packs import data_dir

    return data_dir() / DB_NAME


def lan_address() -> str:
    """This machine's address on the local network (the interface of its default route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # UDP connect sends nothing; it only picks the interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


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


def reachable_address(bind: str) -> str:
    """The address phones use: the LAN address when listening on every interface, else the one bound."""
    return lan_address() if bind in ("0.0.0.0", "") else bind


def join_url(bind: str, port: int, https: bool = False) -> str:
    return f"{'https' if https else 'http'}://{reachable_address(bind)}:{port}/"


def qr_terminal(url: str) -> str:
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def qr_png(url: str, scale: int = 8) -> bytes:
    """The QR code as PNG bytes (for an image control on the host's screen)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=2)
    return out.getvalue()


@dataclass
class HostPlan:
    """What `tourpad host` shows: the table it opened (new or resumed) and how to reach it."""

    code: str
    url: str
    host_token: str | None
    resumed: list[str]


def open_table(service: TableService, bind: str, port: int, edition: str, seats: int,
               new_table: bool, new_host_token: bool, https: bool = False) -> HostPlan:
    """Resume the most recently active table, or create one when there is none (or when asked)."""
    resumed = service.codes()
    if new_table or not resumed:
        code, token = service.create_table(edition, seats)
    else:
        code = resumed[0]
        token = service.issue_host_token(code) if new_host_token else None
    return HostPlan(code, join_url(bind, port, https), token, resumed)


def start_expiry_sweeper(service: TableService, every: float = EXPIRY_SWEEP_SECONDS) -> threading.Thread:
    def sweep() -> None:
        while True:
            time.sleep(every)
            service.expire_idle()

    thread = threading.Thread(target=sweep, name="table-expiry", daemon=True)
    thread.start()
    return thread


# Links a QR code carries, so a scan replaces typing: the join link opens one table's seat picker; the seat
# link (shown by the host after seating someone) opens that seat with its token. The app reads them from the
# page's route (scorer/table/screens.py).
JOIN_LINK = re.compile(r"^/join/([A-Za-z0-9-]{4,16})/?$")  # the page route of a join link: its code
SEAT_LINK = re.compile(r"^/seat/([A-Za-z0-9-]{4,16})/([A-Za-z0-9_-]{16,64})/?$")  # a seat link: code, token


def join_link(url: str, code: str) -> str:
    return f"{url.rstrip('/')}/join/{code}"


def seat_link(url: str, code: str, token: str) -> str:
    return f"{url.rstrip('/')}/seat/{code}/{token}"


def serve(asgi_app, bind: str, port: int, on_ready: Callable[[], None] | None = None,
          tls: CertificateFiles | None = None) -> None:
    import uvicorn

    ssl = {"ssl_certfile": str(tls.cert), "ssl_keyfile": str(tls.key)} if tls is not None else {}
    config = uvicorn.Config(asgi_app, host=bind, port=port, log_level="warning",
                            timeout_graceful_shutdown=2, lifespan="on", **ssl)
    server = uvicorn.Server(config)
    if on_ready is not None:
        original_startup = server.startup

        async def startup(sockets=None) -> None:
            await original_startup(sockets)
            on_ready()

        server.startup = startup
    server.run()


#: Where the host serves the published web app (`tourpad publish --base-url /app/`), if given one.
SITE_PREFIX = "/app/"


def build_asgi(service: TableService, url: str, api_only: bool = False, site: Path | None = None):
    """One FastAPI server: the JSON API under /api, the published web app (if any) under /app/, and (unless
    api_only) the Flet app everywhere else."""
    from scorer.table import api

    if api_only:
        asgi = api.create_app(service)
        mount_site(asgi, site)
        return asgi
    import flet as ft
    from starlette.routing import Mount

    from scorer.table import screens
    from scorer.ui.app import make_main

    screens.configure(service, url)
    pad_main = make_main()

    def main(page: ft.Page) -> None:
        pad_main(page)
        page.data.go("table")  # a phone opening the join URL lands on the join form

    assets = str(Path(__file__).resolve().parents[2] / "assets")
    asgi = ft.run(main, export_asgi_app=True, no_cdn=True, assets_dir=assets)
    api.install(asgi, service)
    mount_site(asgi, site)
    # Flet mounts its web client at "/", which matches every path: the API's routes must come first.
    routes = asgi.router.routes
    catch_all = [r for r in routes if isinstance(r, Mount) and r.path in ("", "/")]
    for route in catch_all:
        routes.remove(route)
        routes.append(route)
    return asgi


def mount_site(asgi, site: Path | None) -> None:
    """Serve a published site's files as they are: phones install the web app from here once."""
    if site is None:
        return
    from starlette.staticfiles import StaticFiles

    asgi.mount(SITE_PREFIX.rstrip("/"), StaticFiles(directory=str(site), html=True), name="published-app")
