"""A "Scan a code" button for the screens that take a QR code rather than a row of cards: a shared deck's
link (Your decks) and a table's join link (the web app's table screen). It opens a sheet with Camera and
Photo file, as the keypad's scan does, and hands the texts of the codes read to the screen
(`scorer.scan.any_code`: in the web app the page's own code reader, fetched at the first scan and kept
offline)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import flet as ft

from scorer.locale import _
from scorer.ui.app import PadApp, sem
from scorer.ui.scan_entry import PhotoSource


def scan_code_button(app: PadApp, ident: str, title: str, how: str,
                     on_texts: Callable[[list[str]], Awaitable[None] | None]) -> ft.Control:
    """A button (`<ident>-button`) opening a sheet whose Camera and Photo file (`<ident>-camera-button`,
    `<ident>-scan-button`) read every QR code in the photo; `on_texts` gets their texts (none read: a message
    here, `on_texts` not called)."""
    from scorer.scan.any_code import CodePhotoError, code_texts

    sheet: list[ft.BottomSheet] = []

    def close() -> None:
        if sheet and sheet[0].open:
            sheet[0].open = False
            with contextlib.suppress(Exception):  # dismissed meanwhile
                sheet[0].update()

    def show(message: str, error: bool = False) -> None:
        app.toast(message, error=error)

    async def read(data: bytes) -> None:
        try:
            texts = await code_texts(data)
        except CodePhotoError as err:
            show(str(err), error=True)
            return
        if not texts:
            show(_("No QR code read in the photo: fill the picture with the code, in focus, and try again."),
                 error=True)
            return
        done = on_texts(texts)
        if done is not None:
            await done

    def open_sheet(e) -> None:
        photos = PhotoSource(app.page, title, read, show, ident=ident, on_start=close, in_page=True,
                             reading=_("Reading the code in {file}…"),
                             camera_hint=_("Fill the frame with the QR code"))
        sheet[:] = [ft.BottomSheet(ft.Container(ft.Column([
            ft.Text(title, weight=ft.FontWeight.BOLD, size=16),
            ft.Text(how, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row(photos.buttons, spacing=8)], spacing=10, tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=16))]
        app.page.show_dialog(sheet[0])

    return sem(f"{ident}-button", ft.OutlinedButton(_("Scan a code"), icon=ft.Icons.QR_CODE_SCANNER,
                                                    on_click=open_sheet))
