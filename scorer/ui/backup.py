"""Files in and out of the app, which on a phone (and in the browser-only build) is the only way: History's
Export all / Import (every game as one file, `scorer.pad.archive`), and New game's deck pack import."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import flet as ft

from scorer.locale import _, ngettext
from scorer.pad.archive import ArchiveError, export_games, import_games
from scorer.ui.app import PadApp, sem
from scorer.userfile import UserFileError, shown


async def pick_one(app: PadApp, title: str, extensions: list[str]):
    """The chosen file (name, bytes), or None when cancelled or when this platform has no picker (said)."""
    try:
        files = await ft.FilePicker().pick_files(dialog_title=title, allowed_extensions=extensions,
                                                 with_data=True)
    except Exception as err:
        app.toast(_("Cannot open a file here: {error}").format(error=err), error=True)
        return None
    if not files:
        return None
    picked = files[0]
    try:
        return picked.name, picked.bytes if picked.bytes is not None else Path(picked.path or "").read_bytes()
    except OSError as err:
        app.toast(_("Cannot read {name}: {error}").format(name=shown(picked.name), error=err.strerror or err),
                  error=True)
        return None


async def import_pack_file(app: PadApp) -> None:
    """Pick an owner's deck pack (TOML or JSON, `docs/deck-pack-template-usa.toml`), validate it as `tourpad
    deck import` does, install it, and open New game with it chosen."""
    from rules.model import EditionDataError
    from scorer.packs import pack_from_data, save_deck

    chosen = await pick_one(app, _("A deck pack (.toml or .json)"), ["toml", "json"])
    if chosen is None:
        return
    name, data = chosen
    try:  # read by the command line's loader (scorer.userfile), validated as `tourpad deck import` does
        edition = save_deck(pack_from_data(data, name))
    except UserFileError as err:  # its message names the file
        app.toast(str(err), error=True)
        return
    except EditionDataError as err:
        app.toast(_("{name}: {error}").format(name=shown(name), error=err), error=True)
        return
    app.toast(_("{name}: deck pack {pack} installed").format(name=shown(name), pack=edition.id))
    app.go("new_game", edition=edition.id)


def pack_import_button(app: PadApp) -> ft.Control:
    """The button that imports an owner's deck pack (`import_pack_file`); the new deck is then chosen on
    New game."""
    async def on_click(e) -> None:
        await import_pack_file(app)

    return sem("import-pack", ft.TextButton(_("Import a deck pack"), icon=ft.Icons.UPLOAD_FILE,
                                            on_click=on_click))


def backup_buttons(app: PadApp) -> ft.Control:
    async def export_all(e) -> None:
        name = f"tourpad-games-{dt.date.today().isoformat()}.json"
        data = export_games(app.store).encode("utf-8")
        try:
            await ft.FilePicker().save_file(file_name=name, src_bytes=data)
        except Exception as err:  # no save dialog here: say so rather than pretend
            app.toast(_("Cannot save {name} here: {error}").format(name=name, error=err), error=True)
            return
        app.toast(_("{name}: every game on this device, ready to import on another").format(name=name))

    async def import_file(e) -> None:
        chosen = await pick_one(app, _("A tourpad games file (.json)"), ["json"])
        if chosen is None:
            return
        name, data = chosen
        try:
            added, skipped = import_games(app.store, data, name)
        except UserFileError as err:  # its message names the file
            app.toast(str(err), error=True)
            return
        except ArchiveError as err:
            app.toast(_("{name}: {error}").format(name=shown(name), error=err), error=True)
            return
        if skipped:
            app.toast(ngettext("{name}: {added} game added, {skipped} already here",
                               "{name}: {added} games added, {skipped} already here", added).format(
                name=shown(name), added=added, skipped=skipped))
        else:
            app.toast(ngettext("{name}: {added} game added", "{name}: {added} games added", added).format(
                name=shown(name), added=added))
        app.refresh()  # History lists the games added

    # wraps: side by side they run past a 320 px phone's side (the buttons sit under semantics, where
    # `expand` does not reach the row)
    return ft.Row([
        sem("export-games", ft.OutlinedButton(_("Export all games"), icon=ft.Icons.DOWNLOAD, on_click=export_all)),
        sem("import-games", ft.OutlinedButton(_("Import games"), icon=ft.Icons.UPLOAD_FILE, on_click=import_file))],
        spacing=8, run_spacing=8, wrap=True)
