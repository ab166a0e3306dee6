"""History's Export all / Import buttons: every game as one file (`scorer.pad.archive`), e.g. to a new phone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import flet as ft

from scorer.pad.archive import ArchiveError, export_games, import_games
from scorer.ui.app import PadApp, sem


def backup_buttons(app: PadApp) -> ft.Control:
    async def export_all(e) -> None:
        name = f"tourpad-games-{dt.date.today().isoformat()}.json"
        data = export_games(app.store).encode("utf-8")
        try:
            await ft.FilePicker().save_file(file_name=name, src_bytes=data)
        except Exception as err:  # no save dialog here: say so rather than pretend
            app.toast(f"Cannot save {name} here: {err}", error=True)
            return
        app.toast(f"{name}: every game on this device, ready to import on another")

    async def import_file(e) -> None:
        try:
            files = await ft.FilePicker().pick_files(dialog_title="A tourpad games file (.json)",
                                                     allowed_extensions=["json"], with_data=True)
        except Exception as err:
            app.toast(f"Cannot open a file here: {err}", error=True)
            return
        if not files:
            return
        picked = files[0]
        try:
            data = picked.bytes if picked.bytes is not None else Path(picked.path or "").read_bytes()
            added, skipped = import_games(app.store, data)
        except (ArchiveError, OSError) as err:
            app.toast(f"{picked.name}: {err}", error=True)
            return
        app.toast(f"{picked.name}: {added} game(s) added" + (f", {skipped} already here" if skipped else ""))
        app.render()

    return ft.Row([
        sem("export-games", ft.OutlinedButton("Export all games", icon=ft.Icons.DOWNLOAD, on_click=export_all,
                                              expand=True)),
        sem("import-games", ft.OutlinedButton("Import games", icon=ft.Icons.UPLOAD_FILE, on_click=import_file,
                                              expand=True))], spacing=8)
