"""The app as `tourpad host` serves it: the score pad's screens with table mode on this process's tables.

The server (API, security, TLS) is `scorer.table.host`; this is only its Flet part, so the table package
never imports the app's screens.
"""

from __future__ import annotations

from pathlib import Path

import flet as ft

from scorer.table.service import TableService
from scorer.ui import table
from scorer.ui.main import make_main
from scorer.ui.text_size import with_page_script


def table_web_app(service: TableService, url: str):
    """The app's Flet ASGI app (web client and sessions) with table mode on `service`; players reach it at
    `url`. A phone opening the bare URL lands on table mode (the join form, or its seat)."""
    table.configure(service, url)
    pad_main = make_main()

    def main(page: ft.Page) -> None:
        pad_main(page)
        if page.data.path == "/":
            page.data.go("table")

    assets = str(Path(__file__).resolve().parents[2] / "assets")
    return with_page_script(ft.run(main, export_asgi_app=True, no_cdn=True, assets_dir=assets))
