"""`tourpad app` (the score pad) and `tourpad host` (the score pad and a shared table on the LAN)."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path

import typer

from scorer.commands.common import fail
from scorer.commands.scan_command import app as scan_app
from scorer.locale import N_, _
from scorer.ports import free_port, port_free


def register(app: typer.Typer) -> None:
    app.command("app", help=N_("Start the score pad: a desktop window if possible, else the web view served locally "
                               "(offline)."))(run_app)
    app.command("host", help=N_("Host a table: players join from their phones' browsers (API at /api, schema at "
                                "/docs).\n\nOnly this device (and one that opened the printed host link) can open "
                                "tables; players join with the code."))(host)
    app.add_typer(scan_app, name="scan")


def has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def desktop_client_available() -> bool:
    """The Flet desktop client is a separate download (flet-desktop fetches it from GitHub on first run);
    only use it when it is installed and already on this machine, so an offline start never hangs."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if os.environ.get("FLET_VIEW_PATH"):
        return Path(os.environ["FLET_VIEW_PATH"]).exists()
    import flet

    client_root = Path.home() / ".flet" / "client"
    return client_root.is_dir() and any(flet.__version__ in p.name for p in client_root.iterdir())


def open_when_ready(url: str) -> None:
    """Open the browser once the server answers; a machine without one just keeps the printed URL."""
    for _attempt in range(300):
        try:
            urllib.request.urlopen(url, timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    try:
        opened = webbrowser.open(url)
    except Exception:  # a broken browser setup must not stop the server
        opened = False
    if not opened:
        typer.echo(_("No browser could be opened here; open {url} yourself.").format(url=url))


def run_app(
    host: str = typer.Option("127.0.0.1", help=N_("Address to serve the web view on (0.0.0.0 = the LAN).")),
    port: int = typer.Option(8550, help=N_("Port for the web view; a free one is picked if it is taken.")),
    web: bool = typer.Option(False, "--web", help=N_("Serve the web view even where a desktop window works.")),
    browser: bool = typer.Option(True, "--browser/--no-browser", help=N_("Open the web view in a browser.")),
) -> None:
    import flet as ft

    from scorer.ui.main import make_main

    main = make_main()
    assets = str(Path(__file__).resolve().parents[2] / "assets")
    if not web and has_display() and desktop_client_available():
        typer.echo(_("Opening the score pad window…"))
        ft.run(main, view=ft.AppView.FLET_APP, assets_dir=assets)
        return
    if not port_free(host, port):
        taken = port
        port = free_port(host)
        typer.echo(_("Port {taken} is busy; using {port}.").format(taken=taken, port=port))
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    url = f"http://{shown}:{port}/"
    # Our own server settings win over Flet's defaults (0.0.0.0:8000, fonts and renderer from a CDN), and
    # FLET_FORCE_WEB_SERVER stops Flet from trying to download its desktop client.
    os.environ.update(FLET_FORCE_WEB_SERVER="1", FLET_SERVER_IP=host, FLET_SERVER_PORT=str(port),
                      FLET_WEB_NO_CDN="1")
    typer.echo(_("tourpad score pad: {url}  (Ctrl+C to stop)").format(url=url))
    sys.stdout.flush()
    if browser:
        threading.Thread(target=open_when_ready, args=(url,), daemon=True).start()
    # Served as `tourpad host` serves the app (scorer.table.host.serve), not by Flet's own server: a page of
    # another site open in this machine's browser cannot open the pad's websocket (foreign Origin refused),
    # forwarded headers are ignored, and request heads are bounded. (The port was checked free above; if
    # something takes it meanwhile, uvicorn says so and exits.)
    from scorer.table.host import serve
    from scorer.ui.text_size import with_page_script

    serve(with_page_script(ft.run(main, export_asgi_app=True, no_cdn=True, assets_dir=assets)), host, port)


def host(port: int = typer.Option(8550, help=N_("port to serve on")),
         bind: str = typer.Option("0.0.0.0", help=N_("address to listen on (0.0.0.0 = the local network)")),
         edition: str | None = typer.Option(None, help=N_("edition of the table: another than the resumed "
                                                           "table's starts a new table (default: the resumed "
                                                           "table's, else australia)")),
         seats: int | None = typer.Option(None, min=2, max=4, help=N_("players at the table: another number than "
                                                                      "the resumed table's starts a new table "
                                                                      "(default: the resumed table's, else 4)")),
         new_table: bool = typer.Option(False, "--new-table", help=N_("open a new table even if one is live")),
         new_host_token: bool = typer.Option(False, "--new-host-token",
                                             help=N_("print another host token for the resumed table")),
         idle_hours: float = typer.Option(12.0, min=0.01, help=N_("tables idle this long are deleted")),
         api_only: bool = typer.Option(False, "--api-only", help=N_("serve the JSON API without the app")),
         https: bool = typer.Option(False, "--https",
                                    help=N_("serve over HTTPS with a self-signed certificate (made once, kept in the "
                                            "data folder): phones then get a secure origin, so the camera works for "
                                            "scanning; each phone accepts the certificate warning once")),
         wait_for_port: bool = typer.Option(False, "--wait-for-port",
                                            help=N_("start up, then wait until the previous host on this port "
                                                    "is gone before opening the tables (a quick restart)")),
         new_host_credential: bool = typer.Option(False, "--new-host-credential",
                                                  help=N_("replace the host credential (old host links stop "
                                                          "working; tables made with it are no longer resumed)")),
         host_qr: bool = typer.Option(False, "--host-qr",
                                      help=N_("also print the host link as a QR code, for a second host device")),
         site: Path | None = typer.Option(None, "--site", help=N_("also serve this published web app under /app/ "
                                                                   "(tourpad publish -o DIR --base-url /app/)")),
         trust_proxy: str | None = typer.Option(None, "--trust-proxy", metavar="ADDR",
                                                help=N_("a reverse proxy's address (or several, comma-separated; "
                                                        "networks too): only requests from it may say who the "
                                                        "client is (X-Forwarded-For); otherwise those headers "
                                                        "are ignored"))
         ) -> None:
    from rules.text import for_terminal
    from scorer.commands.common import console
    from scorer.packs import data_dir
    from scorer.table.credential import load_or_create
    from scorer.table.host import (
        build_asgi,
        db_path,
        edition_label,
        host_link,
        host_screen_link,
        join_link,
        open_table,
        qr_terminal,
        serve,
        start_expiry_sweeper,
        wait_until_port_free,
    )
    from scorer.table.origins import parse_proxies
    from scorer.table.service import TableError, TableService
    from scorer.table.trace import trace_if_asked

    trace_if_asked()

    try:
        parse_proxies(trust_proxy)
    except ValueError as err:
        fail(str(err))
    if wait_for_port:
        import uvicorn  # noqa: F401  (the slow imports happen while the previous host still serves)

        from scorer.table import api  # noqa: F401

        wait_until_port_free(bind, port)
    try:
        credential = load_or_create(data_dir(), renew=new_host_credential)
    except OSError as err:
        fail(_("cannot keep the host credential in {folder}: {error}").format(folder=data_dir(),
                                                                               error=err.strerror or err))
    from scorer.pad.store import EventStore

    # the host's own History keeps each finished game of its tables (its History and Stats count them)
    service = TableService(db_path(), idle_seconds=idle_hours * 3600, host_credential=credential)
    service.keep_history(EventStore.default())
    try:
        plan = open_table(service, bind, port, edition, seats, new_table, new_host_token, https)
    except TableError as err:
        fail(err.message)
    if site is not None:
        from scorer.table.host import SITE_PREFIX
        from scorer.web.publish import PublishError, check_site

        try:
            check_site(site, SITE_PREFIX)
        except PublishError as err:
            fail(str(err))
    start_expiry_sweeper(service)
    web_app = None
    if not api_only:  # the app's screens (Flet) beside the API
        from scorer.ui.hosting import table_web_app

        web_app = table_web_app(service, plan.url)
    asgi_app = build_asgi(service, web_app, site)

    def ready() -> None:
        others = [c for c in plan.resumed if c != plan.code]
        lines = []
        if plan.not_resumed:
            lines.append(_("New table:  {code} (table {old} was not resumed: {why})").format(
                code=plan.code, old=plan.resumed[0], why=plan.not_resumed))
        view = service.view(plan.code)
        lines += [_("Table:      {code} · {edition} · {seats} players").format(
                      code=plan.code, edition=edition_label(view["edition"]["id"]), seats=len(view["seats"])),
                  _("Join URL:   {url}").format(url=plan.url), _("Join code:  {code}").format(code=plan.code)]
        if not api_only:
            lines.append(_("Host screen: {link}  (open it on this computer: the table's host screen, "
                           "ready)").format(link=host_screen_link(plan.url, plan.code)))
        if plan.host_token:
            lines.append(_("Host token: {token}  (keep it private: it edits every seat; in the app: Join, then Use "
                           "token)").format(token=plan.host_token))
        if others:
            lines.append(_("Also live:  {codes}").format(codes=", ".join(others)))
        lines.append(_("Host link:  {link}  (a second host device: opens this table's host screen; keep it "
                       "private, it opens tables)").format(link=host_link(plan.url, credential)))
        lines.append(_("API:        {url}api  (schema: {url}docs)").format(url=plan.url))
        lines.append(_("Tables:     {path}").format(path=service.store.path))
        if site is not None:
            lines.append(_("Web app:    {url}app/  (install it on a phone; it then works without this "
                           "host)").format(url=plan.url))
        # the QR code opens the table's seat picker directly (the API-only host has no app to open)
        console.print(qr_terminal(plan.url if api_only else join_link(plan.url, plan.code)), highlight=False,
                      soft_wrap=True)
        if host_qr:
            console.print(qr_terminal(host_link(plan.url, credential)), highlight=False, soft_wrap=True)
        for line in lines:  # soft_wrap: a URL or token is never broken across lines
            console.print(for_terminal(line), highlight=False, soft_wrap=True, markup=False)

    tls = None
    if https:
        from scorer.packs import data_dir
        from scorer.table.host import reachable_address
        from scorer.table.tls import ensure_certificate

        tls = ensure_certificate(data_dir() / "tls", reachable_address(bind))
    serve(asgi_app, bind, port, on_ready=ready, tls=tls, trust_proxy=trust_proxy)
