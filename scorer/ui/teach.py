""""Teach tourpad your cards": four photos of 7 known cards teach the scanner the player's own printing of an
edition (the publisher's cards carry no QR code; their corner letters are read against what was learned).

`/teach` lists the editions with what is learned of each; `/teach/<edition>` walks through the photos: which
7 cards to lay out for each, in order, then Camera or Photo file (the entry screen's own buttons), then the
letters to confirm before anything is learned. A photo that cannot teach says why and changes nothing.
The learning is `scorer.scan.faces` (OpenCV, numpy), imported only here on the host: the browser-only build
and a machine without OpenCV get a message instead of the buttons.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import flet as ft

from rules.edition import Edition
from scorer.locale import N_, _, ngettext
from scorer.packs import available_editions, resolve_edition
from scorer.pad.teach import (
    TeachLettersError,
    check_letters,
    opencv_missing,
    progress,
    sentence,
    still_to_teach,
    teaching_rows,
)
from scorer.runtime import IN_BROWSER, needs_host
from scorer.ui.app import NotFound, PadApp, Screen, island, live_text, quiet, screen, sem
from scorer.ui.home import PAD
from scorer.ui.named import icon_button
from scorer.ui.scan_entry import PhotoSource

#: Short: the app bar of a phone cuts a long title (the buttons that lead here say "Teach tourpad your cards").
TITLE = N_("Teach your cards")


def teaching_unavailable() -> str | None:
    """Why this app cannot teach (the browser-only build, no OpenCV), or None when it can."""
    if IN_BROWSER:
        return needs_host(_("Teaching tourpad your cards"))
    try:
        import scorer.scan.faces  # noqa: F401  (OpenCV and numpy load here)
    except ImportError as err:
        return sentence(opencv_missing(err))
    return None


def learned_letters(edition: Edition) -> str:
    from scorer.scan.taught import learned

    return learned(edition)


def cannot_teach(app: PadApp, title: str, reason: str) -> Screen:
    body = ft.Container(ft.Column([
        sem("teach-unavailable", ft.Text(reason)),
        ft.FilledButton(_("Home"), icon=ft.Icons.HOME, on_click=lambda e: app.go("home"))],
        spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=PAD)
    return Screen(title, body)


def intro() -> ft.Control:
    return ft.Text(_("The publisher's cards have no QR code: tourpad reads their corner letter and number. Every "
                     "printing and every light differs, so show tourpad your own deck once, 7 cards a photo, "
                     "four photos in all. From then on Camera and Photo file on a round's keypad read your "
                     "cards."), size=13, color=ft.Colors.ON_SURFACE_VARIANT)


@screen("teach")
def teach_editions(app: PadApp) -> Screen:
    """Every edition this device knows, with how many of its cards are learned: the way into one's photos."""
    title = _(TITLE)
    reason = teaching_unavailable()
    if reason is not None:
        return cannot_teach(app, title, reason)
    rows: list[ft.Control] = [intro()]
    for edition_id in available_editions():
        try:
            edition = resolve_edition(edition_id)
        except (KeyError, ValueError):
            continue  # a damaged pack: the new-game screen names it
        known = learned_letters(edition)
        done = len(known) == len(edition.letters)
        rows.append(sem(f"teach-{edition.id}", ft.Card(ft.ListTile(
            leading=ft.Icon(ft.Icons.CHECK_CIRCLE if done else ft.Icons.SCHOOL_OUTLINED,
                            color=ft.Colors.PRIMARY if done else None),
            title=ft.Text(edition.label), subtitle=ft.Text(progress(edition, known)),
            trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT),
            on_click=lambda e, ident=edition.id: app.go("teach_edition", edition=ident)))))
    return Screen(title, ft.Container(ft.Column(rows, spacing=8), padding=PAD))


@screen("teach_edition")
def teach_edition(app: PadApp, edition: str, back_to: str | None = None) -> Screen:
    try:
        deck = resolve_edition(edition)
    except (KeyError, ValueError) as err:
        raise NotFound(str(err.args[0] if err.args else err)) from None
    title = _(TITLE)
    reason = teaching_unavailable()
    if reason is not None:
        return cannot_teach(app, title, reason)
    panel = TeachPanel(app, deck, back_to)
    return Screen(title, island(teach_body, panel.changes, panel))


def letter_boxes(letters: str, known: str = "", size: int = 40) -> ft.Row:
    """The cards to lay out, as the keypad shows letters: one box each, a learned one ticked off in colour."""
    return ft.Row([ft.Container(
        ft.Text(letter, size=size * 0.45, weight=ft.FontWeight.BOLD,
                color=ft.Colors.ON_PRIMARY_CONTAINER if letter in known else ft.Colors.ON_SURFACE),
        width=size, height=size, border_radius=8, alignment=ft.Alignment.CENTER,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if letter in known else None,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)) for letter in letters],
        spacing=4, wrap=True, run_spacing=4, alignment=ft.MainAxisAlignment.CENTER)


@ft.observable
@dataclass
class TeachChanges:
    """Counts the changes to a `TeachPanel`: each one re-renders the teaching screen's body."""

    count: int = 0


@ft.component
def teach_body(changes: TeachChanges, panel: TeachPanel) -> ft.Control:
    """One edition's teaching, drawn from `panel`: a tap changes the panel, and only what changed is patched."""
    return ft.Container(ft.Column(panel.controls(), spacing=14, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        padding=PAD, data=panel)  # data: the panel, for the screen's tests


class TeachPanel:
    """One edition's teaching: the photos to take, the one being taken, what is learned, and Forget."""

    def __init__(self, app: PadApp, edition: Edition, back_to: str | None) -> None:
        self.app = app
        self.edition = edition
        self.back_to = back_to
        self.rows = teaching_rows(edition)
        self.known = learned_letters(edition)
        self.step = self.next_step()
        self.photo: bytes | None = None  # the photo waiting for its letters to be confirmed
        self.busy = False
        self.forgetting = False  # Forget was tapped once: asking to confirm
        self.message = ""  # shown only when there is one: an empty line leaves a gap
        self.message_is_error = False
        #: the letters of the photo waiting (what the step asked for, as the player corrected them)
        self.letters = ""
        # the letters' field as last drawn, and the text it was drawn with (`scorer.ui.app.live_text`)
        self._letters_field: ft.Ref[ft.TextField] = ft.Ref()
        self._letters_drawn = ""
        self.changes = TeachChanges()
        self.photos = PhotoSource(app.page, _("7 cards, upright, a finger's width apart"), self.got_photo,
                                  self.show, ident="teach")

    @property
    def letters_field(self) -> ft.TextField | None:
        """The letters' field on show (None when no photo waits)."""
        return self._letters_field.current

    def next_step(self) -> int | None:
        """The first photo whose cards are not all learned yet; None when every card is (a photo may still be
        tapped to teach it again)."""
        return next((i for i, row in enumerate(self.rows) if still_to_teach(row, self.known)), None)

    # --- events ----------------------------------------------------------------------------------------

    def choose(self, step: int | None) -> None:
        self.step, self.photo, self.forgetting = step, None, False
        self.show("")

    async def got_photo(self, data: bytes) -> None:
        """A photo for the current step: its letters are confirmed before anything is learned."""
        if self.step is None:
            return
        self.photo = data
        self.letters = self.rows[self.step]
        self.show(_("Check the letters: the cards in the photo, left to right. Change them if you laid the "
                    "cards out differently, then learn them."))

    def typed(self, e) -> None:
        quiet()
        self.letters = e.control.value or ""

    async def learn(self, e=None) -> None:
        if self.photo is None or self.busy:
            return
        self.letters = self.typed_letters()
        try:
            letters = check_letters(self.edition, self.letters)
        except TeachLettersError as err:
            self.show(sentence(str(err)), error=True)
            return
        from scorer.scan.faces import TeachError, teach_deck
        from scorer.scan.image import ScanImageError

        self.busy = True
        self.show(_("Learning {letters}…").format(letters=letters))
        try:
            self.known = await asyncio.to_thread(teach_deck, self.photo, self.edition, letters)
        except (ScanImageError, TeachError) as err:
            self.show(_("Nothing was learned from this photo: {problem}").format(problem=err), error=True)
            return
        finally:
            self.busy = False
        self.photo = None
        self.step = self.next_step()
        if self.step is not None:
            self.show(_("Learned {letters}. Next: photo {n} of {count}.").format(
                letters=letters, n=self.step + 1, count=len(self.rows)))
        else:
            self.show(_("Learned {letters}. tourpad knows every card of your deck: Camera and Photo file on a "
                        "round's keypad read them.").format(letters=letters))

    def cancel_photo(self, e) -> None:
        self.photo = None
        self.show("")

    def ask_forget(self, e) -> None:
        self.forgetting = True
        self.show("")

    def forget(self, e) -> None:
        from scorer.scan.taught import forget_deck

        count = forget_deck(self.edition)
        self.known, self.photo, self.forgetting = "", None, False
        self.step = self.next_step()
        self.show(ngettext("Forgot {n} learned card of {edition}.", "Forgot {n} learned cards of {edition}.",
                           count).format(n=count, edition=self.edition.label))

    def keep(self, e) -> None:
        self.forgetting = False
        self.show("")

    # --- rendering -------------------------------------------------------------------------------------

    def show(self, message: str, error: bool = False) -> None:
        """Say `message` (red when an `error`) and draw the panel again."""
        self.message, self.message_is_error = message, error
        quiet()
        self.changes.count += 1

    def typed_letters(self) -> str:
        """The letters as the field shows them: typed on the phone since it was drawn, or as drawn."""
        typed = live_text(self._letters_field)
        if typed is not None and typed != self._letters_drawn:
            self.letters = typed
        return self.letters

    def status(self) -> ft.Control:
        return sem("teach-status", ft.Text(
            self.message, size=13, color=ft.Colors.ERROR if self.message_is_error else ft.Colors.ON_SURFACE_VARIANT))

    def controls(self) -> list[ft.Control]:
        edition, known = self.edition, self.known
        controls: list[ft.Control] = [
            ft.Text(edition.label, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
            intro(),
            sem("teach-progress", ft.Text(progress(edition, known), size=16, weight=ft.FontWeight.BOLD)),
            sem("teach-learned", ft.Container(letter_boxes(edition.letters, known, size=30),
                                              tooltip=_("Learned cards are shaded"))),
        ]
        if self.step is None and self.message:  # every card learned, or the step closed: under the progress
            controls.append(self.status())
        for i, row in enumerate(self.rows):
            controls.append(self.step_card(i, row))
        controls.append(self.forget_controls())
        if self.back_to:
            controls.append(sem("teach-back-to-round", ft.FilledTonalButton(
                _("Back to the round"), icon=ft.Icons.ARROW_BACK,
                on_click=lambda e: self.app.open(self.back_to))))
        return controls

    def step_card(self, i: int, row: str) -> ft.Control:
        """Photo i+1: its cards; the current one opens with how to lay them out and the buttons."""
        left = still_to_teach(row, self.known)
        heading = ft.Row([
            ft.Icon(ft.Icons.CHECK_CIRCLE if not left else ft.Icons.PHOTO_CAMERA_OUTLINED,
                    color=ft.Colors.PRIMARY if not left else ft.Colors.ON_SURFACE_VARIANT, size=20),
            ft.Text(_("Photo {n} of {count}: {letters}").format(n=i + 1, count=len(self.rows), letters=row),
                    weight=ft.FontWeight.BOLD, expand=True),
            ft.Text(_("learned") if not left else "", size=12, color=ft.Colors.PRIMARY)], spacing=8)
        if i != self.step:
            return sem(f"teach-step-{i + 1}", ft.Card(ft.Container(heading, padding=12,
                                                                     on_click=lambda e, i=i: self.choose(i))))
        heading.controls[-1] = icon_button(ft.Icons.EXPAND_LESS, _("Close"), lambda e: self.choose(None))
        parts: list[ft.Control] = [
            heading,
            ft.Text(_("Lay out these 7 cards face up in this order, left to right, upright and a finger's width "
                      "apart on a plain table; photograph them from above, the row filling the picture."),
                    size=13),
            letter_boxes(row),
        ]
        if self.photo is None:
            parts.append(ft.Row(self.photos.make_buttons(), spacing=8))
        else:
            self.typed_letters()
            self._letters_drawn = self.letters
            parts += [
                sem("teach-letters", ft.TextField(
                    label=_("The cards in this photo, left to right"), value=self.letters, dense=True,
                    capitalization=ft.TextCapitalization.CHARACTERS, ref=self._letters_field, on_change=self.typed,
                    on_submit=self.learn)),
                ft.Row([sem("teach-learn", ft.FilledButton(_("Learn these 7 cards"), icon=ft.Icons.CHECK,
                                                           on_click=self.learn, expand=True)),
                        ft.TextButton(_("Cancel"), on_click=self.cancel_photo)], spacing=8),
            ]
        if self.message:  # where the eyes are: under the buttons just tapped
            parts.append(self.status())
        return sem(f"teach-step-{i + 1}", ft.Card(ft.Container(
            ft.Column(parts, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=12),
            elevation=3))

    def forget_controls(self) -> ft.Control:
        if not self.known:
            return ft.Container()
        if not self.forgetting:
            return sem("teach-forget", ft.OutlinedButton(_("Forget what tourpad learned"),
                                                         icon=ft.Icons.DELETE_OUTLINE,
                                                         on_click=self.ask_forget))
        question = ngettext("Forget the {n} learned card of {edition}? Scanning then reads its letters less "
                            "surely until you teach it again.",
                            "Forget the {n} learned cards of {edition}? Scanning then reads their letters less "
                            "surely until you teach them again.", len(self.known)).format(
            n=len(self.known), edition=self.edition.label)
        return ft.Column([
            ft.Text(question, color=ft.Colors.ERROR),
            ft.Row([sem("teach-forget-confirm", ft.FilledButton(
                        _("Forget"), icon=ft.Icons.DELETE, on_click=self.forget,
                        style=ft.ButtonStyle(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR))),
                    ft.TextButton(_("Keep them"), on_click=self.keep)], spacing=8)], spacing=8)
