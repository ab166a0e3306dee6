"""The browser-only build's stand-in for table mode: a table needs a host on the network (`tourpad host`).
Every table route (a join or seat QR code opened on the phone, too) says so instead of failing."""

from __future__ import annotations

import flet as ft

from scorer.locale import _
from scorer.routes import ROUTES
from scorer.runtime import needs_host
from scorer.ui.app import PadApp, Screen, screen, sem

#: The table's screens in `tourpad app` / `tourpad host` (scorer.ui.table, scorer.ui.table_board): every route
#: under /table and the table's links (/join, /seat, /host).
TABLE_SCREENS = tuple(route.screen for route in ROUTES
                      if route.segments and route.segments[0] in ("table", "join", "seat", "host"))


def table_needs_host(app: PadApp, **params) -> Screen:
    from scorer.pad.scanned_code import table_link_in
    from scorer.ui.code_scan import scan_code_button

    async def open_table(texts: list[str]) -> None:
        link = next((found for text in texts if (found := table_link_in(text))), None)
        if link is None:
            app.toast(_("this QR code is not a table's: scan the join code the table's computer shows"), error=True)
            return
        # the table lives on its computer: this tab opens the table's own page there
        await ft.UrlLauncher().launch_url(link, web_only_window_name="_self")

    body = ft.Container(ft.Column([
        sem("hosted-only", ft.Text(needs_host(_("Table mode (every player on their own phone)")))),
        ft.Text(_("On this phone alone: New game passes one phone around the table.")),
        ft.Text(_("A table already running on a computer shows a QR code to join it: scan it to take a seat.")),
        scan_code_button(app, "join-code", _("Scan a table's join code"),
                         _("Photograph the QR code the table's computer shows."), open_table),
        ft.FilledButton(_("Home"), on_click=lambda e: app.go("home"))], spacing=12), padding=16)
    return Screen(_("Table mode"), body)


for name in TABLE_SCREENS:
    screen(name)(table_needs_host)
