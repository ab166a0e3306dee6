"""Which cards a game is scored with, and an owner's decks.

`deck_choice` is the line New game, the solo set-up and the table's host form show for an edition whose
cards are not the publisher's (Europe, USA: tourpad's print-and-play design): it names the deck, offers the
owner's installed decks, and sets up one's own in one tap. The "Your decks" screen renames, duplicates,
exports and deletes them; a deck that saved games were played with says so before it goes (the games keep
their deck: `scorer.packs.saved_game_lookup`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from rules.edition import Edition
from rules.editions import bundled_ids
from rules.model import EditionDataError
from scorer.locale import _, ngettext
from scorer.packs import deck_line as deck_line_text
from scorer.packs import (
    delete_deck,
    duplicate_deck,
    export_text,
    installed_decks,
    own_decks,
    rename_deck,
    resolve_edition,
)
from scorer.routes import RouteError
from scorer.ui.app import PadApp, Screen, TapGuard, island, screen, sem
from scorer.userfile import UserFileError

PAD = ft.Padding.symmetric(horizontal=16, vertical=12)


def deck_base(edition_id: str) -> str:
    """The edition whose box a deck is a copy of (an owner's USA deck → "usa"); the id itself otherwise."""
    try:
        edition = resolve_edition(edition_id)
    except (KeyError, EditionDataError):
        return edition_id
    return edition.base if edition.base and edition.base != edition.id else edition.id


def deck_choice(app: PadApp, base: str, chosen: str, on_pick: Callable[[str], None]) -> ft.Control:
    """The deck a game of edition `base` will be scored with: its line ("Cards: tourpad's print-and-play
    cards" / "Your deck: …"), the owner's decks to choose from, and "Set up your own deck" (a deck pack's
    import, in one tap) beside "Your decks"."""
    def set_up(e) -> None:
        start_own_deck(app, base)

    try:
        tourpads = resolve_edition(base)
    except (KeyError, EditionDataError):
        return ft.Container()
    decks: tuple[Edition, ...] = (tourpads, *own_decks(base))
    selected = next((d for d in decks if d.id == chosen), tourpads)
    line = deck_line_text(selected)
    if line is None and len(decks) == 1:  # the publisher's own card list, and no deck of one's own
        return ft.Container()
    controls: list[ft.Control] = []
    if line is not None:
        controls.append(sem("deck-line", ft.Row([
            ft.Icon(ft.Icons.STYLE, size=18, color=ft.Colors.PRIMARY),
            ft.Text(line, size=14, weight=ft.FontWeight.W_500, expand=True)], spacing=6)))
    if len(decks) > 1:
        controls.append(ft.Row([
            sem(f"deck-{d.id}", (ft.FilledButton if d.id == selected.id else ft.OutlinedButton)(
                deck_button_label(d), height=44, on_click=lambda e, ident=d.id: on_pick(ident)))
            for d in decks], wrap=True, spacing=8, run_spacing=8))
    if deck_line_text(tourpads) is not None:  # where the box's cards differ from tourpad's design
        controls.append(ft.Row([
            sem("set-up-deck", ft.TextButton(_("Set up your own deck"), icon=ft.Icons.EDIT_NOTE,
                                             on_click=set_up)),
            sem("your-decks", ft.TextButton(_("Your decks"), icon=ft.Icons.STYLE_OUTLINED,
                                            on_click=lambda e: app.go("decks")))], wrap=True, spacing=0))
    return ft.Column(controls, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def deck_line_of(view: dict) -> list[ft.Control]:
    """The deck line of a running table (its view): the host's deck at the version the table plays, even if
    the host renamed it since (none for the publisher's cards, or a deck no longer on this device)."""
    from scorer.table.board import table_edition

    try:
        line = deck_line_text(table_edition(view))
    except (KeyError, EditionDataError):
        return []
    return [] if line is None else [sem("table-deck", ft.Text(line, size=13))]


def start_own_deck(app: PadApp, base: str) -> None:
    """A copy of tourpad's deck of `base`, opened in the editor: the family changes only what differs."""
    try:
        copy = duplicate_deck(base)
    except (EditionDataError, UserFileError, KeyError) as err:
        app.toast(str(err.args[0] if isinstance(err, KeyError) else err), error=True)
        return
    app.go("deck_editor", edition=copy.id)


def deck_button_label(edition: Edition) -> str:
    return _("tourpad's cards") if edition.provenance == "tourpad" else edition.label


def played_with(app: PadApp, edition_id: str, game_id: int) -> str:
    """What History says a saved game was played with: an owner's deck by the name it had then (the game
    keeps it, `scorer.packs.deck_to_keep`), even if renamed or deleted since; else the edition's name."""
    from rules.editions import bundled_ids

    if edition_id not in bundled_ids():
        events = app.store.events(game_id)
        kept = events[0].payload.get("deck") if events else None
        if isinstance(kept, dict) and isinstance(kept.get("name"), str):
            return _("Your deck: {name}").format(name=kept["name"])
    try:
        return resolve_edition(edition_id).label
    except (KeyError, EditionDataError):
        return edition_id


def games_with(app: PadApp, ident: str) -> int:
    """How many saved games on this device were played with the deck `ident`."""
    return sum(1 for game in app.store.games() if game.edition == ident)


@dataclass(frozen=True)
class DeckLine:
    """One of the owner's decks as "Your decks" lists it."""

    deck: Edition
    subtitle: str


@ft.observable
@dataclass
class DeckShelf:
    """The owner's decks as "Your decks" lists them, read again after each change made there: the list
    re-renders in place (the paste field, the scan button and the rest of the screen stay as they are)."""

    lines: list[DeckLine] = field(default_factory=list)

    def read(self, app: PadApp) -> None:
        lines = []
        for deck in installed_decks():
            used = games_with(app, deck.id)
            subtitle = _("{edition} · id {id}").format(edition=resolve_edition(deck_base(deck.id)).label,
                                                       id=deck.id)
            if used:
                subtitle += " · " + ngettext("{n} saved game", "{n} saved games", used).format(n=used)
            lines.append(DeckLine(deck, subtitle))
        self.lines = lines


@ft.component
def deck_list(shelf: DeckShelf, app: PadApp) -> ft.Control:
    """The owner's decks, each with what can be done with it (or a line saying there is none yet)."""
    from scorer.ui.confirm import ask

    taps = ft.use_ref(TapGuard).current  # the list's, kept from one render to the next

    def tap(button: str, handler: Callable[[Edition], object]) -> Callable[[ft.Event, Edition], object]:
        """`handler` of one of the row's buttons, called with the row's deck; a double tap calls it once."""
        def on_click(e: ft.Event, deck: Edition) -> object:
            return None if taps.again((button, deck.id)) else handler(deck)
        return on_click

    def act(action: Callable[[], object], done: str) -> None:
        ft.context.disable_auto_update()  # the list re-renders itself in place; a page update would draw it anew
        try:
            action()
        except (EditionDataError, UserFileError, KeyError) as err:
            app.toast(str(err.args[0] if isinstance(err, KeyError) else err), error=True)
            return
        app.toast(done)  # said first: its page update, after the change, would draw the list anew
        shelf.read(app)

    def rename(deck: Edition) -> None:
        name = ft.TextField(label=_("Deck name"), value=deck.label, autofocus=True, max_length=64)

        def save(e) -> None:
            app.page.pop_dialog()
            act(lambda: rename_deck(deck.id, name.value or ""), _("Deck renamed"))

        name.on_submit = save
        app.page.show_dialog(ft.AlertDialog(
            title=ft.Text(_("Rename the deck")), content=sem("rename-field", name),
            actions=[ft.TextButton(_("Cancel"), on_click=lambda e: app.page.pop_dialog()),
                     sem("rename-save", ft.FilledButton(_("Save"), on_click=save))]))

    def delete(deck: Edition) -> None:
        used = games_with(app, deck.id)
        question = (ngettext("{n} saved game was played with {name}; it keeps its cards and scores. "
                             "Delete the deck?",
                             "{n} saved games were played with {name}; they keep their cards and scores. "
                             "Delete the deck?", used).format(n=used, name=deck.label) if used
                    else _("Delete the deck {name}?").format(name=deck.label))
        ask(app, question, _("Delete"), _("Keep it"),
            lambda: act(lambda: delete_deck(deck.id), _("Deck deleted")), identifier="delete-deck")

    async def export(deck: Edition) -> None:
        data = export_text(deck, "toml").encode("utf-8")
        try:
            await ft.FilePicker().save_file(file_name=f"{deck.id}.toml", src_bytes=data)
        except Exception as err:  # no save dialog here: say so rather than pretend
            app.toast(_("Cannot save {name} here: {error}").format(name=f"{deck.id}.toml", error=err), error=True)

    if not shelf.lines:
        return ft.Text(_("No deck of your own yet. Europe and USA are scored with tourpad's print-and-play "
                         "cards until you set up the cards of your box."), color=ft.Colors.ON_SURFACE_VARIANT)
    buttons = [(button, label, tap(button, handler)) for button, label, handler in (
        ("edit", _("Edit"), lambda d: app.go("deck_editor", edition=d.id)),
        ("rename", _("Rename"), rename),
        ("duplicate", _("Duplicate"), lambda d: act(lambda: duplicate_deck(d.id), _("Deck duplicated"))),
        ("export", _("Export"), export),
        ("share", _("Share"), lambda d: show_share(app, d)),
        ("delete", _("Delete"), delete))]
    rows = []
    for line in shelf.lines:
        deck = line.deck
        rows.append(sem(f"own-deck-{deck.id}", ft.Card(ft.Column([
            ft.ListTile(leading=ft.Icon(ft.Icons.STYLE), title=ft.Text(deck.label), subtitle=ft.Text(line.subtitle)),
            ft.Row([sem(f"{button}-{deck.id}", ft.TextButton(label, on_click=lambda e, d=deck, h=handler: h(e, d)))
                    for button, label, handler in buttons], wrap=True, spacing=0)], spacing=0))))
        rows[-1].key = deck.id  # a deck deleted or added moves the others' rows, not their controls
    return ft.Column(rows, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


@screen("decks")
def decks_screen(app: PadApp) -> Screen:
    from scorer.ui.backup import pack_import_button
    from scorer.ui.code_scan import scan_code_button

    shelf = DeckShelf()
    shelf.read(app)
    start = [sem(f"copy-{base}", ft.OutlinedButton(
        _("Start from tourpad's {edition}").format(edition=resolve_edition(base).label), icon=ft.Icons.COPY,
        on_click=lambda e, base=base: start_own_deck(app, base)))
        for base in bundled_ids() if deck_line_text(resolve_edition(base)) is not None]  # tourpad's designs
    pasted = ft.TextField(label=_("A deck link or code"), dense=True, expand=True)

    def open_pasted(e) -> None:
        code = (pasted.value or "").strip().rstrip("/").rpartition("/")[2]
        try:
            app.go("deck_link", deck_code=code)
        except RouteError:
            app.toast(_("this is not a tourpad deck link or code (cut short or mistyped?)"), error=True)

    pasted.on_submit = open_pasted

    def open_scanned(texts: list[str]) -> None:
        from scorer.pad.scanned_code import deck_code_in

        code = next((found for text in texts if (found := deck_code_in(text))), None)
        if code is None:
            app.toast(_("this QR code is not a tourpad deck's (its deck's Share shows one)"), error=True)
            return
        app.go("deck_link", deck_code=code)

    scan = scan_code_button(app, "deck-code", _("Scan a shared deck"),
                            _("Photograph the deck's QR code (another phone shows it with the deck's Share)."),
                            open_scanned)
    body = ft.Column([
        island(deck_list, shelf, app),
        ft.Row([sem("deck-link-field", pasted),
                sem("deck-link-open", ft.FilledTonalButton(_("Open"), on_click=open_pasted))], spacing=8),
        scan,
        ft.Text(_("Set up your own deck"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        ft.Text(_("Start from a copy of tourpad's deck and change what differs on your cards, or import a "
                  "deck pack file (docs/deck-pack-template-usa.toml)."), size=13,
                color=ft.Colors.ON_SURFACE_VARIANT),
        *start, pack_import_button(app),
    ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return Screen(_("Your decks"), ft.Container(body, padding=PAD))


def page_origin(page_url: str | None, published: bool) -> str:
    """The address this app is served from, as a browser opens it. A served app's session reports its
    socket's address; the published web app's, the page's own (`#/screen` and all), whose site is its folder."""
    url = page_url or ""
    if not url:
        return "https://tourpad.invalid"
    if published:
        url = url.split("#")[0].split("?")[0]
        folder, _slash, last = url.rpartition("/")
        return folder if "." in last and "://" in folder else url.rstrip("/")  # …/index.html: its folder
    for socket, web in (("wss://", "https://"), ("ws://", "http://")):
        if url.startswith(socket):
            url = web + url.removeprefix(socket)
    return url.split("/ws")[0].rstrip("/")


def share_link(page_url: str | None, deck_code: str) -> str:
    """The link Share gives for a deck: the published web app's uses its hash routes (a static host has no
    page at /deck/…); a served app (`tourpad app`, `tourpad host`) serves /deck/… itself."""
    from scorer.routes import deck_link
    from scorer.runtime import IN_BROWSER

    return deck_link(page_origin(page_url, IN_BROWSER), deck_code, hash_routes=IN_BROWSER)


def show_share(app: PadApp, deck: Edition) -> None:
    """The deck as a link and its QR code: another phone, or the web app, opens it and installs the deck."""
    import io

    import segno

    from scorer.packs import deck_share_code

    link = share_link(app.page.url, deck_share_code(deck))
    out = io.BytesIO()
    segno.make(link, error="l").save(out, kind="svg", scale=1, border=2, dark="#000000", light="#FFFFFF")

    async def copy(e) -> None:
        await ft.Clipboard().set(link)
        app.toast(_("Link copied"))

    app.page.show_dialog(ft.AlertDialog(
        title=ft.Text(_("Share {name}").format(name=deck.label)),
        content=ft.Column([
            sem("deck-qr", ft.Image(src=out.getvalue(), width=300, height=300,
                                    semantics_label=link)),
            ft.Text(_("Scan it with another phone's camera, or send the link: it opens the deck, ready to "
                      "install."), size=13),
            sem("deck-share-link", ft.Text(link, size=10, selectable=True, max_lines=3,
                                           overflow=ft.TextOverflow.ELLIPSIS)),
        ], tight=True, spacing=8, width=320),
        actions=[sem("copy-deck-link", ft.TextButton(_("Copy link"), icon=ft.Icons.COPY, on_click=copy)),
                 ft.TextButton(_("Close"), on_click=lambda e: app.page.pop_dialog())]))


@screen("deck_link")
def deck_link_screen(app: PadApp, deck_code: str) -> Screen:
    """A deck received by link or QR code: what it is, and one tap to install it."""
    from scorer.packs import deck_from_share_code, install_shared_deck

    try:
        deck = deck_from_share_code(deck_code)
    except EditionDataError as err:
        body = ft.Column([sem("deck-link-problem", ft.Text(str(err), color=ft.Colors.ERROR)),
                          ft.FilledButton(_("Your decks"), on_click=lambda e: app.go("decks"))], spacing=12)
        return Screen(_("A shared deck"), ft.Container(body, padding=PAD))

    def install(e) -> None:
        try:
            installed, already = install_shared_deck(deck)
        except (EditionDataError, UserFileError) as err:
            app.toast(str(err), error=True)
            return
        app.toast((_("{name} is already on this device") if already else _("{name} installed")).format(
            name=installed.label), update=False)
        app.go("new_game", edition=installed.id)

    spec = deck.spec
    rules = resolve_edition(deck.base).label if deck.base in bundled_ids() else deck.label
    facts = [_("Rules of {edition}").format(edition=rules),
             ngettext("{n} region", "{n} regions", len(spec.regions)).format(n=len(spec.regions)),
             ngettext("{n} card", "{n} cards", len(spec.cards)).format(n=len(spec.cards))]
    if spec.map is not None:
        facts.append(ngettext("{n} pathway", "{n} pathways", len(spec.map.edges)).format(n=len(spec.map.edges)))
    body = ft.Column([
        sem("shared-deck-name", ft.Text(deck.label, size=20, weight=ft.FontWeight.BOLD)),
        ft.Text(" · ".join(facts)),
        sem("install-shared-deck", ft.FilledButton(_("Install this deck"), icon=ft.Icons.DOWNLOAD,
                                                   on_click=install)),
    ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return Screen(_("A shared deck"), ft.Container(body, padding=PAD))
