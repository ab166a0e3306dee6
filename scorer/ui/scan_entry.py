"""Scan in round entry: one photo of the player's 7 cards fills the keypad's slots for them to confirm.

The photo comes from the device: the live camera (flet-camera, web and phones; browsers allow it only on a
secure origin: https or localhost), or the image picker, which on a phone also offers the camera (this works
on plain-http LAN origins too, where browsers refuse live camera access), or a file on desktop and web. The
decoding is `scorer.scan.photo` (in the web app, `scorer.scan.browser`); this panel only shows what it read
and lets the player fill the gaps by tapping cards on the keypad. The letters reach the draft only when the
row is complete, and the round only when the player taps Save.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import flet as ft

from scorer.locale import _, ngettext
from scorer.pad.scan import RowProposal
from scorer.runtime import IN_BROWSER
from scorer.ui.app import sem
from scorer.userfile import IMAGE_LIMIT, UserFileError, check_user_bytes, shown

if TYPE_CHECKING:
    from rules.edition import Edition


class ScanTarget(Protocol):
    """What a panel fills: the keypad of round entry (`scorer.ui.entry.LetterEntry`), or any other entry
    form (table mode's) that can say which letters are taken and take a complete row."""

    edition: Edition

    def taken_letters(self) -> Mapping[str, str]: ...

    def use_scanned(self, letters: str) -> None: ...

    def redraw(self) -> None: ...


class PhotoSource:
    """The Camera and Photo file buttons, shared by round entry's scan and the teach screen: each hands the
    photo's bytes to `on_photo`, and says what went wrong through `show`. Where no decoder can run (the
    browser-only build) there are no buttons (`available` is False)."""

    def __init__(self, page: ft.Page, title: str, on_photo: Callable[[bytes], Awaitable[None]],
                 show: Callable[..., None], ident: str = "", on_start: Callable[[], None] | None = None,
                 in_page: bool = False, reading: str | None = None, camera_hint: str | None = None) -> None:
        self.page = page
        #: Said while the photo is read ({file}: its name, if picked) and, in the web app's camera view, what
        #: to fill the frame with (None: a row of cards).
        self.reading = reading
        self.camera_hint = camera_hint
        #: Called when a button is tapped, before the photo is asked for (the sheet holding the buttons closes).
        self.on_start = on_start or (lambda: None)
        self.title = title
        self.on_photo = on_photo
        self.show = show
        # The host's decoders (zxing-cpp, OpenCV, numpy, Pillow) have no browser build; in the web app only what
        # the page's code reader does is offered (`in_page`: tourpad's card codes, scorer.scan.browser).
        self.available = not IN_BROWSER or in_page
        self._prefix = f"{ident}-" if ident else ""
        self.buttons: list[ft.Control] = self.make_buttons()

    def make_buttons(self) -> list[ft.Control]:
        """Camera (on the web and on phones: flet-camera has no desktop implementation) and Photo file, new
        controls each time: a component draws its own on every render (`buttons` are drawn once by hand)."""
        if not self.available:
            return []
        buttons: list[ft.Control] = [sem(f"{self._prefix}scan-button", ft.OutlinedButton(
            _("Photo file"), icon=ft.Icons.PHOTO_LIBRARY_OUTLINED, on_click=self.pick, expand=True))]
        if self.page.web or self.page.platform.is_mobile():
            buttons.insert(0, sem(f"{self._prefix}camera-button", ft.OutlinedButton(
                _("Camera"), icon=ft.Icons.PHOTO_CAMERA_OUTLINED, on_click=self.open_camera, expand=True)))
        return buttons

    async def pick(self, e) -> None:
        self.on_start()
        try:
            files = await ft.FilePicker().pick_files(
                dialog_title=self.title, file_type=ft.FilePickerFileType.IMAGE, with_data=True)
        except Exception as err:  # no picker on this platform: say so instead of failing silently
            self.show(_("Cannot open the photo picker here: {error}").format(error=err), error=True)
            return
        if not files:
            return
        picked = files[0]
        self.show((self.reading or _("Reading the cards in {file}…")).format(file=shown(picked.name)))
        try:
            data = picked.bytes if picked.bytes is not None else Path(picked.path or "").read_bytes()
            check_user_bytes(data, picked.name, _("a photo"), IMAGE_LIMIT)  # the command line's bound too
        except OSError as err:
            self.show(_("Cannot read {file}: {error}").format(file=shown(picked.name), error=err.strerror or err),
                      error=True)
            return
        except UserFileError as err:
            self.show(str(err), error=True)
            return
        await self.on_photo(data)

    async def open_camera(self, e) -> None:
        """A live preview and a shutter. Where the browser refuses the camera (plain http on the LAN), the
        message points to the picker, which still offers the phone's camera app."""
        self.on_start()
        if IN_BROWSER:
            await self.camera_in_page()
            return
        import flet_camera as fc

        page = self.page
        camera = fc.Camera(preview_enabled=True, width=320, height=240)
        dialog = ft.AlertDialog(title=ft.Text(self.title), content=camera)

        def close(ev=None) -> None:
            with contextlib.suppress(Exception):
                page.pop_dialog()

        async def shoot(ev) -> None:
            try:
                data = await camera.take_picture()
            except Exception as err:
                close()
                self.show(_("The camera did not take the picture ({error}); use Photo file instead.").format(error=err),
                          error=True)
                return
            close()
            self.show((self.reading or _("Reading the cards…")).format(file=_("the photo")))
            await self.on_photo(data)

        dialog.actions = [ft.TextButton(_("Cancel"), on_click=close),
                          sem("camera-shoot", ft.FilledButton(_("Take photo"), icon=ft.Icons.CAMERA, on_click=shoot))]
        page.show_dialog(dialog)
        try:
            cameras = await camera.get_available_cameras()
            if not cameras:
                raise RuntimeError(_("no camera found"))
            back = [c for c in cameras if c.lens_direction == fc.CameraLensDirection.BACK]
            await camera.initialize((back or cameras)[0], fc.ResolutionPreset.MAX, enable_audio=False)
        except Exception as err:
            close()
            self.show(_("No camera here ({error}): on a phone joined over plain http the browser refuses it; "
                        "Photo file opens the phone's camera app instead.").format(error=err), error=True)


    async def camera_in_page(self) -> None:
        """The web app's camera: the page's own view (rear camera, a frame, a shutter; camera.js)."""
        from scorer.scan.browser import PhotoError, take_photo

        try:
            data = await take_photo(self.title, hint=self.camera_hint)
        except PhotoError as err:
            self.show(str(err), error=True)
            return
        if data is not None:
            self.show((self.reading or _("Reading the cards…")).format(file=_("the photo")))
            await self.on_photo(data)


class ScanPanel:
    """The Scan button, which opens a small sheet of the ways to scan (Camera, Photo file, Teach), and after
    a scan the row read from the photo with its holes and messages (`status_view` and `row_view`, rendered
    by the target where it wants them, anew on each `target.redraw()`). While the row has holes, the
    target passes its keypad taps to `fill`."""

    def __init__(self, target: ScanTarget, page: ft.Page) -> None:
        self.target = target
        self.page = page
        self.proposal: RowProposal | None = None
        #: What the last scan said, and whether it is a problem.
        self.message = ""
        self.error = False
        self.button = sem("scan-menu", ft.TextButton(
            _("Scan"), icon=ft.Icons.DOCUMENT_SCANNER_OUTLINED, on_click=self.open_menu,
            tooltip=_("Fill in the 7 cards from a photo of them")))
        self._menu: ft.BottomSheet | None = None

    def look(self) -> tuple:
        """What the panel shows (the target renders anew when it changes)."""
        return self.message, self.error, tuple(self.proposal.slots) if self.proposal is not None else None

    def open_menu(self, e) -> None:
        """The ways to scan, in a sheet over the keypad: what to photograph, Camera and Photo file, Teach."""
        photos = PhotoSource(self.page, _("Your 7 cards, Throw card on the left"), self.read, self.show,
                             on_start=self.close_menu, in_page=True)
        if IN_BROWSER:
            how = _("Lay your 7 tourpad cards face up in a row, Throw card on the left, and photograph the row "
                    "filling the picture. The publisher's printed cards cannot be read on the phone alone: for "
                    "those, close this and tap their letters on the keypad.")
            teach = []
        elif photos.available:
            how = _("Lay your 7 cards face up in a row, Throw card on the left, and photograph the row filling "
                    "the picture.")
            teach = [sem("teach-link", ft.TextButton(
                _("Teach tourpad your cards"), icon=ft.Icons.SCHOOL_OUTLINED, on_click=self.open_teach,
                tooltip=_("The publisher's cards are read best once tourpad has seen your own deck")))]
        self._menu = ft.BottomSheet(ft.Container(ft.Column([
            ft.Text(_("Scan your cards"), weight=ft.FontWeight.BOLD, size=16),
            sem("scan-how", ft.Text(how, size=13, color=ft.Colors.ON_SURFACE_VARIANT)),
            ft.Row(photos.buttons, spacing=8), *teach], spacing=10, tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=16))
        self.page.show_dialog(self._menu)

    def close_menu(self) -> None:
        """Closes the sheet itself, not whatever dialog is on top (a toast may have come up since)."""
        menu, self._menu = self._menu, None
        if menu is not None and menu.open:
            menu.open = False
            with contextlib.suppress(Exception):  # dismissed meanwhile
                menu.update()

    # --- events ----------------------------------------------------------------------------------------

    def open_teach(self, e) -> None:
        """The teach screen for this game's edition; its "Back to the round" returns to this keypad."""
        self.close_menu()
        app = self.page.data
        app.go("teach_edition", edition=self.target.edition.id, back_to=app.path)

    async def read(self, data: bytes) -> None:
        """Decode off the UI thread (a hard photo takes a few hundred ms) and show the proposal."""
        target = self.target
        taken = target.taken_letters()
        if IN_BROWSER:  # the page reads the codes (zxing-wasm); the row logic is the host's
            from scorer.scan.browser import PhotoError as Unreadable
            from scorer.scan.browser import scan_photo as scan
        else:
            from scorer.scan.image import ScanImageError as Unreadable
            from scorer.scan.photo import scan_row

            async def scan(data, edition, taken):
                return await asyncio.to_thread(scan_row, data, edition, taken)
        try:
            result = await scan(data, target.edition, taken)
        except Unreadable as err:
            self.show(str(err), error=True)
            return
        self.proposal = RowProposal.from_result(result, taken)
        if self.proposal.complete:
            letters = self.adopt()
            self.show(_("Read {letters} from the photo: check the cards and the points, then save the round.").format(
                letters=letters))
        else:
            read = sum(letter is not None for letter in result.slots[:len(self.proposal.slots)])
            lines = [ngettext("Read {n} of {size} cards.", "Read {n} of {size} cards.", read).format(
                         n=read, size=len(self.proposal.slots)), *result.problems,
                     _("Tap the card at position {position} on the keypad, or scan again.").format(
                         position=self.proposal.holes[0] + 1)]
            self.show("\n".join(lines), error=True)

    def fill(self, letter: str) -> bool:
        """A keypad tap while a scan has holes fills the first hole; True when the tap was used here."""
        if self.proposal is None:
            return False
        filled = self.proposal.fill(letter.upper())
        if filled and self.proposal.complete:
            letters = self.adopt()
            self.show(_("{letters}: complete. Check the points, then save the round.").format(letters=letters))
        else:
            self.show(self.proposal.message, error=not filled)
        return True

    def adopt(self) -> str:
        """The completed row goes to the target's entry (not yet saved); the scan is done."""
        letters = self.proposal.letters
        self.proposal = None
        self.target.use_scanned(letters)
        return letters

    # --- rendering -------------------------------------------------------------------------------------

    def show(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        self.target.redraw()

    def status_view(self) -> ft.Control:
        """What the last scan said, shown only once there is something to say (the hook: a Semantics must
        have a visible content, so the hook itself is hidden)."""
        view = sem("scan-status", ft.Text(self.message, size=12,
                                          color=ft.Colors.ERROR if self.error else ft.Colors.ON_SURFACE_VARIANT))
        view.visible = bool(self.message)
        return view

    def row_view(self) -> ft.Control:
        """The row read from the photo, its holes marked, while it is being completed."""
        boxes = []
        if self.proposal is not None:
            for i, letter in enumerate(self.proposal.slots):
                boxes.append(ft.Container(
                    ft.Text(letter or "?", size=18, weight=ft.FontWeight.BOLD,
                            color=ft.Colors.ON_SURFACE if letter else ft.Colors.ERROR),
                    width=40, height=42, border_radius=8, alignment=ft.Alignment.CENTER,
                    border=ft.Border.all(2, ft.Colors.ERROR if letter is None else ft.Colors.OUTLINE_VARIANT),
                    tooltip=_("position {position}").format(position=i + 1)))
        return ft.Row(boxes, spacing=4, alignment=ft.MainAxisAlignment.CENTER)
