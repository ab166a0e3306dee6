"""The browser-only build's stand-in for table mode: a table needs a host on the network (`tourpad host`)."""

from __future__ import annotations

import flet as ft

from scorer.runtime import needs_host
from scorer.ui.app import PadApp, Screen, screen, sem


@screen("table")
def table_needs_host(app: PadApp, **params) -> Screen:
    body = ft.Container(ft.Column([
        sem("hosted-only", ft.Text(needs_host("Table mode (every player on their own phone)"))),
        ft.Text("On this phone alone: New game passes one phone around the table."),
        ft.FilledButton("Home", on_click=lambda e: app.go("home"))], spacing=12), padding=16)
    return Screen("Table mode", body, back=("home", {}))
