"""Table mode screens in the score pad app: host a table, join by code, take a seat, enter your own sheet,
see everyone's.

Routes (scorer/routes.py): `/table` (join by code, or host a table), `/table/<code>` (its seat picker),
`/table/<code>/seat/<n>` (seat n's own sheet) and `/table/<code>/host` (the host's), and the links the host's
QR codes carry: `/join/<code>` (the seat picker, or this device's seat there) and `/seat/<code>/<token>`
(that seat, for the phone of a player the host seated). A link, and `/table` itself, is followed the first
time a window opens it (to the remembered seat); Back to it later shows its picker instead of following it
again, so Back never bounces forward.

Every screen is a view of the one `TableService` in this server process: it calls the service with
the device's own token (a seat token, or the host token on the host's device), so a phone can only
change its own sheet, exactly as through the JSON API. The tokens live in the device's client storage
(`ft.SharedPreferences`), so a phone that drops off Wi-Fi or reloads comes back to its seat; a seat's URL
opens only on a device holding that seat's token (elsewhere it shows the picker).
Live updates: the service calls this session's listener after every committed change.
The service exists only under `tourpad host` (`configure`); plain `tourpad app` explains how to host.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import flet as ft

from scorer.locale import _, ngettext
from scorer.pad.store import summary_line
from scorer.routes import board_link, format_route, join_link, seat_link
from scorer.table.board import seat_name
from scorer.table.lan import qr_png, session_credential
from scorer.table.page_channel import PageChannels
from scorer.table.peer_code import PeerCodeError
from scorer.table.phone_links import GuestLink, HostLinks
from scorer.table.service import TableError, TableService, normalize_code
from scorer.table.sheet import SeatSheetSession
from scorer.table.transport import SeatTransport, ServiceTransport
from scorer.ui.app import NotFound, PadApp, Screen, TapGuard, island, live_text, quiet, screen, sem
from scorer.ui.end import end_screen
from scorer.ui.entry import entry_screen
from scorer.ui.home import edition_name
from scorer.ui.sheet import round_summary_screen, sheet_screen

if TYPE_CHECKING:
    from scorer.table.fetch_seat import FetchSeatTransport

PREFS_PREFIX = "tourpad.table."
LAST_TABLE_KEY = PREFS_PREFIX + "last"
HOST_CREDENTIAL_KEY = PREFS_PREFIX + "host"
PAD = ft.Padding.symmetric(horizontal=16, vertical=12)
#: How often a seat that follows another device's table (a host phone, or the `tourpad host` this web app came
#: from) reads the table again, in case a change's event never reached it (`SeatSheetSession.catch_up`).
CATCH_UP_SECONDS = 10.0


@dataclass
class Hosting:
    service: TableService
    url: str
    #: A host phone (the web app): the page's data channels, made at first use. Its guests join by two codes
    #: over a channel each (scorer/table/phone_links.py), not by its URL; None under `tourpad host`.
    channels: Callable[[], PageChannels] | None = None
    #: The web app's own origin (``https://192.168.1.5:8000``), and a seat transport to table `code` on the host
    #: there (`scorer.table.fetch_seat`): a phone that opened `tourpad host`'s own `/app/` plays its seat with
    #: its own screens, its taps kept on the phone until Save. Empty / None elsewhere.
    origin: str = ""
    over_http: Callable[[str], FetchSeatTransport] | None = None


@dataclass
class OverHttp:
    """A phone's way to a table on the `tourpad host` its web app came from: what `TableScreens.remote` gives,
    as a `GuestLink` does for a host phone (never a board)."""

    transport: FetchSeatTransport
    board: bool = False


HOSTING: Hosting | None = None


def configure(service: TableService, url: str, channels: Callable[[], PageChannels] | None = None,
              origin: str = "", over_http: Callable[[str], FetchSeatTransport] | None = None) -> None:
    """Called by `tourpad host`: this process holds the tables, players reach it at `url`. The web app calls it
    with `channels`: the phone holds its own tables and reaches other phones over data channels (and, from
    its own `origin`, the tables of the `tourpad host` that served it, `over_http`)."""
    global HOSTING
    HOSTING = Hosting(service, url, channels, origin, over_http)


def configure_phone() -> None:
    """The web app's table mode: this phone's tables in its own storage (`scorer.table.phone_store`), its guests
    over the page's data channels."""
    from scorer.packs import data_dir
    from scorer.table.fetch_seat import FetchSeatTransport, browser_fetch, browser_later, browser_stream
    from scorer.table.phone_store import phone_table_service

    def over_http(code: str) -> FetchSeatTransport:
        return FetchSeatTransport(code, "", browser_fetch, browser_stream, browser_later)

    # the app's origin is its page's (`TableScreens`): a worker's `location` is not the page's to read
    configure(phone_table_service(data_dir()), "", PageChannels.in_browser, over_http=over_http)


def table_game(view: dict) -> str:
    """What the table plays, for its seat picker and host screen: "Boomerang: Europe · 3 players" (the
    edition's name in this session's language; the seats' and the host's sheets name it in their title)."""
    from rules.model import EditionDataError
    from scorer.table.board import table_edition

    n = len(view["seats"])
    try:  # the host's deck by its name, even where this device has another deck of the same id
        name = table_edition(view).label
    except (KeyError, EditionDataError):
        name = edition_name(view["edition"]["id"])
    return ngettext("{edition} · {n} player", "{edition} · {n} players", n).format(edition=name, n=n)


@functools.lru_cache(maxsize=32)
def _qr_src(link: str, scale: int) -> bytes:
    """A QR code's PNG, made once per link (the host's screen draws its codes again at every change)."""
    return qr_png(link, scale=scale)


def qr_image(identifier: str, link: str, scale: int) -> ft.Control:
    """A QR code of `link` on screen; its accessible name is the link itself (screen readers, tests)."""
    return sem(identifier, ft.Image(src=_qr_src(link, scale), width=150, height=150, semantics_label=link))


@ft.observable
@dataclass
class TablePlace:
    """What one table screen shows, drawn by the `table_place` component: `shows` is "opening" (the device's
    storage is being read), "start" (join or host a table), "seats" (table `code`'s seat picker) or "host"
    (its host's controls). A change re-renders the screen, patching only what changed."""

    shows: str = "opening"
    code: str = ""
    #: a line under the form: why it is shown (red), or what just happened (`good_news`: the primary colour)
    message: str = ""
    good_news: bool = False
    #: the host's: the table as last published, the link of the player just seated, the record exported
    view: dict | None = None
    seat_link: str = ""
    record: str = ""
    #: a phone's connection code on show ("host": for the next guest; "answer": the guest's answer), and the
    #: number of guests' phones and of boards (TVs, tablets) connected to the host phone
    offer: str = ""
    guests: int = 0
    boards: int = 0

    def __post_init__(self) -> None:
        # What is typed and picked in the screen's fields, by field. Not observed (a keystroke redraws
        # nothing): a redraw for another reason shows each field as it was typed, never emptied.
        self._typed: dict[str, str] = {}
        # Each text field as last drawn, and the text it was drawn with: a redraw takes the text the phone
        # sent ahead of its change event (`typed_field`)
        self._fields: dict[str, ft.Ref[ft.TextField]] = {}
        self._drawn: dict[str, str] = {}
        self._taps = TapGuard()  # the host's buttons: a double tap is one tap (Remove seat would remove two)

    def say(self, message: str, good_news: bool = False) -> None:
        self.message, self.good_news = message, good_news


def typed_field(place: TablePlace, key: str, label: str, width: int = 220, **options) -> ft.TextField:
    """A text field whose text lives in `place` (see `TablePlace._typed`)."""
    def keep(e) -> None:
        quiet()
        place._typed[key] = e.control.value or ""

    field = place._fields.setdefault(key, ft.Ref())
    typed = live_text(field)
    if typed is not None and typed != place._drawn.get(key):  # typed on the phone since it was drawn
        place._typed[key] = typed
    place._drawn[key] = place._typed.get(key, "")
    return ft.TextField(label=label, value=place._drawn[key], width=width, on_change=keep, ref=field, **options)


def picked_dropdown(place: TablePlace, key: str, default: str, label: str, options: list[ft.DropdownOption],
                    width: int | None, then: Callable[[str], None] | None = None) -> ft.Dropdown:
    """A drop-down whose choice lives in `place`; `then(choice)` follows a pick."""
    def pick(e) -> None:
        quiet()
        place._typed[key] = e.control.value or default
        if then is not None:
            then(place._typed[key])

    return ft.Dropdown(label=label, value=place._typed.get(key, default), width=width, options=options,
                       on_select=pick)


@ft.component
def table_place(place: TablePlace, screens: TableScreens) -> ft.Control:
    """A table screen's body, a function of its `place` (see `TablePlace`)."""
    if place.shows == "opening":
        controls = [ft.Text(_("Opening the table…"), color=ft.Colors.ON_SURFACE_VARIANT)]
    else:
        drawn = {"start": start_form, "seats": seat_picker, "host": host_desk, "answer": answer_card}[place.shows]
        title, *controls = drawn(place, screens)
        controls = [ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD),
                    *controls]
    return ft.Column(controls, spacing=12)


def message_line(place: TablePlace) -> ft.Control:
    return sem("message", ft.Text(place.message, color=ft.Colors.PRIMARY if place.good_news else ft.Colors.ERROR))


def start_form(place: TablePlace, screens: TableScreens) -> list:
    """Join a table by its code, or host one (the host's own devices): the title, then the controls."""
    from scorer.packs import available_editions
    from scorer.ui.decks import deck_base, deck_choice

    code_field = typed_field(place, "code", _("Join code"), hint_text="ABCD-EFGH",
                             capitalization=ft.TextCapitalization.CHARACTERS)

    def pick_deck(ident: str) -> None:
        """An edition picked, or one of the owner's decks: the host's deck is every seat's and the board's."""
        quiet()
        place._typed["edition"] = ident
        place.notify()  # the deck line follows the choice

    edition = picked_dropdown(place, "edition", "australia", _("Edition"),
                              [ft.DropdownOption(key=e, text=e.title()) for e in available_editions()], 220,
                              then=pick_deck)
    chosen = place._typed.get("edition", "australia")
    seats = picked_dropdown(place, "seats", "4", _("Players"),
                            [ft.DropdownOption(key=str(n), text=str(n)) for n in (2, 3, 4)], 120)

    async def join(e) -> None:
        quiet()
        await screens.join(place, place._typed.get("code", ""))

    async def host(e) -> None:
        quiet()
        await screens.host(place, place._typed.get("edition", "australia"), int(place._typed.get("seats", "4")))

    code_field.on_submit = join
    own: list[ft.Control] = []
    if screens.host_device or session_credential(screens.service, screens.page.client_ip):
        for code in screens.service.host_codes():
            with contextlib.suppress(TableError):  # expired meanwhile
                own.append(sem(f"own-table-{code}", ft.OutlinedButton(
                    _("Host screen: {code} · {game}").format(code=code, game=table_game(screens.service.view(code))),
                    icon=ft.Icons.TABLE_RESTAURANT,
                    on_click=lambda e, code=code: screens.app.go("table_host", code=code))))
    if own:
        own.insert(0, ft.Text(_("Your tables"), size=18, weight=ft.FontWeight.W_600))
    if screens.phone:
        # phone to phone: the host phone's code scanned here, this phone's answer shown back
        from scorer.ui.code_scan import scan_code_button

        async def scanned(texts: list[str]) -> None:
            await screens.scan_host_code(place, texts)

        async def scanned_for_board(texts: list[str]) -> None:
            await screens.scan_host_code(place, texts, board=True)

        joining = [ft.Text(_("Scan the code on the host's phone, then show it the code this phone makes.")),
                   scan_code_button(screens.app, "join-code", _("Scan the host's code"),
                                    _("Photograph the code on the host's phone."), scanned),
                   # a TV or tablet: the same exchange, its answer a board's (the host saves nothing from it)
                   ft.Text(_("Show a table on this screen"), size=18, weight=ft.FontWeight.W_600),
                   ft.Text(_("A TV or tablet beside the table shows every sheet and the standings, read-only: "
                             "scan the host's code here, then show it this screen's code.")),
                   scan_code_button(screens.app, "board-join-code", _("Show a table on this screen"),
                                    _("Photograph the code on the host's phone."), scanned_for_board)]
    else:
        joining = [ft.Row([code_field, ft.FilledButton(_("Join"), on_click=join)], wrap=True)]
    return [
        _("Table mode"),
        ft.Text(_("Everyone keeps score on their own phone; the host's device keeps the one shared table.")),
        *own,
        ft.Text(_("Join a table"), size=18, weight=ft.FontWeight.W_600),
        *joining,
        ft.Divider(),
        ft.Text(_("Host a table"), size=18, weight=ft.FontWeight.W_600),
        ft.Row([sem("edition-pick", edition), sem("players-pick", seats),
                ft.FilledButton(_("Host a table"), on_click=host)], wrap=True),
        ft.Column([deck_choice(screens.app, deck_base(chosen), chosen, pick_deck)], spacing=0,
                  horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
        message_line(place),
    ]


def seat_picker(place: TablePlace, screens: TableScreens) -> list:
    """Table `place.code`'s seats: a free one taken by name, or a token used."""
    try:
        view = screens.table_view(place.code)
    except TableError as err:  # gone since it was opened
        return [_("Table mode"), sem("message", ft.Text(err.message, color=ft.Colors.ERROR)),
                ft.TextButton(_("Another table"), on_click=lambda e: screens.app.go("table"))]
    code = view["code"]
    rows: list[ft.Control] = []
    for seat in view["seats"]:
        if seat["claimed"]:
            rows.append(ft.ListTile(title=ft.Text(_("Seat {seat}: {name}").format(seat=seat["seat"],
                                                                                  name=seat["name"])),
                                    subtitle=ft.Text(_("taken"))))
            continue

        async def take(e, seat_no=seat["seat"]) -> None:
            quiet()
            await screens.take_seat(place, code, seat_no, place._typed.get(f"name-{seat_no}", ""))

        name = typed_field(place, f"name-{seat['seat']}", _("Your name (seat {seat})").format(seat=seat["seat"]),
                           on_submit=take)
        rows.append(ft.Row([name, ft.FilledButton(_("Take seat {seat}").format(seat=seat["seat"]), on_click=take)],
                           wrap=True))

    async def use_token(e) -> None:
        quiet()
        try:
            await screens._enter(place, code, place._typed.get("token", ""))
        except TableError as err:
            place.say(err.message)

    return [_("Table {code}: pick your seat").format(code=code),
            sem("table-game", ft.Text(table_game(view), weight=ft.FontWeight.W_600)),
            *rows, message_line(place),
            ft.TextButton(_("Another table"), on_click=lambda e: screens.app.go("table")),
            ft.Divider(),
            ft.Text(_("Have a token? The host token `tourpad host` printed, or the seat token the host "
                      "gave you when seating you.")),
            ft.Row([typed_field(place, "token", _("Token"), password=True, can_reveal_password=True),
                    ft.OutlinedButton(_("Use token"), on_click=use_token)], wrap=True)]


def code_image(identifier: str, code: str) -> ft.Control:
    """A phone's connection code as a QR code, its text under it (selectable, for a screen reader or a copy);
    the image's accessible name is the code itself."""
    return ft.Column([sem(identifier, ft.Image(src=_qr_src(code, 5), width=230, height=230, semantics_label=code)),
                      ft.Text(code, selectable=True, size=10, color=ft.Colors.ON_SURFACE_VARIANT)],
                     horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=4)


def answer_card(place: TablePlace, screens: TableScreens) -> list:
    """A guest phone's answer to the host's code: the host phone scans it, then the channel opens."""
    return [_("Join a table"),
            ft.Text(_("Show this code to the host's phone: it scans it with “Scan a guest's answer”.")),
            code_image("answer-code", place.offer),
            message_line(place),
            ft.TextButton(_("Another table"), on_click=lambda e: screens.app.go("table"))]


def guest_card(place: TablePlace, screens: TableScreens) -> ft.Control:
    """The host phone's code for the next guest, and the scan of that guest's answer (a new code follows)."""
    from scorer.ui.code_scan import scan_code_button

    async def scanned(texts: list[str]) -> None:
        await screens.scan_guest_answer(place, texts)

    return ft.Column([
        ft.Text(_("Phones joining"), weight=ft.FontWeight.W_600),
        sem("guests", ft.Text(ngettext("{n} phone connected", "{n} phones connected", place.guests).format(
            n=place.guests))),
        *([sem("boards", ft.Text(ngettext("{n} board showing the table", "{n} boards showing the table",
                                          place.boards).format(n=place.boards)))] if place.boards else []),
        ft.Text(_("A guest's phone scans this code (Table mode, Join a table), then shows its own: scan it here. "
                  "A phone that lost its seat rejoins the same way. A TV or tablet joins the same way as a board "
                  "(Show a table on this screen): it can save nothing.")),
        code_image("guest-code", place.offer) if place.offer else ft.Text(_("Making a code…")),
        scan_code_button(screens.app, "guest-answer", _("Scan a guest's answer"),
                         _("Photograph the code on the guest's phone."), scanned)], spacing=8)


def host_status(view: dict) -> str:
    """The host's line on the game: its number, the round and who the table waits for, or how it ended."""
    names = {s["seat"]: seat_name(s) for s in view["seats"]}
    if view["ended"]:
        status = _("The host ended the game")
    elif view["finished"]:
        status = _("Game over")
    else:
        waiting = ", ".join(names[s] for s in view["waiting_for"])
        status = _("Round {round} · waiting for {names}").format(round=view["round"], names=waiting)
    if view["game"] > 1:
        status = _("Game {game} · {status}").format(game=view["game"], status=status)
    return status


def roster(view: dict) -> ft.Control:
    totals = [p["total"] for p in view["scores"]["players"]]
    waiting = set(view["waiting_for"])
    return ft.Column([
        sem(f"roster-{seat['seat']}", ft.Text(
            ngettext("{seat}: {name} · {n} pts", "{seat}: {name} · {n} pts", totals[seat["seat"] - 1]).format(
                seat=seat["seat"], name=seat_name(seat), n=totals[seat["seat"] - 1])
            + (_(" · entering…") if seat["seat"] in waiting else "")
            + ("" if seat["claimed"] else _(" · no phone yet"))))
        for seat in view["seats"]], spacing=2)


def host_desk(place: TablePlace, screens: TableScreens) -> list:
    """The host runs the table: who sits where and has entered, the links, joining, seats, the games.
    Entering or correcting a round happens on the host's sheet (the same sheet every seat has)."""
    from scorer.ui.decks import deck_line_of

    view = place.view
    code = view["code"]
    seats = len(view["seats"])
    if int(place._typed.get("seat", "1")) > seats:  # a seat removed since it was picked
        place._typed["seat"] = "1"
    seat_pick = picked_dropdown(place, "seat", "1", _("Seat"),
                                [ft.DropdownOption(key=str(s["seat"]),
                                                   text=_("{seat}: {name}").format(seat=s["seat"], name=seat_name(s)))
                                 for s in view["seats"]], None)  # as wide as its longest name

    def run(button: str, action: Callable[[], object], done: str) -> None:
        """One of the host's buttons (a double tap is one tap: Close joining would open it again)."""
        quiet()
        if not place._taps.again(button):
            screens.host_action(place, action, done)

    def remove_seat(e) -> None:
        quiet()
        if place._taps.again("remove seat"):
            return  # a double tap: the picker is back on seat 1 by now, which must not go too
        seat_no = int(place._typed.get("seat", "1"))
        place._typed["seat"] = "1"
        screens.host_action(
            place, lambda: screens.service.remove_seat(code, seat_no, screens.token),
            _("Seat {seat} ({name}) is removed").format(seat=seat_no, name=view["seats"][seat_no - 1]["name"]))

    reopen = view["locked"]
    joining = ft.OutlinedButton(
        _("Open joining") if reopen else _("Close joining"),
        on_click=lambda e: run("joining", lambda: screens.service.set_joining(code, reopen, screens.token),
                               _("New players can join again") if reopen else
                               _("The table is closed to new players")))

    async def seat_player(e) -> None:
        quiet()
        seat_no, name = int(place._typed.get("seat", "1")), place._typed.get("seat_name", "")
        if place._taps.again(("seat player", seat_no)):
            return  # the same seat again (its name field emptied by now): the token just given would stop working
        await screens.seat_player(place, seat_no, name)

    def export_record(e) -> None:
        quiet()
        screens.export_record(place)

    def save_to_history(e) -> None:
        quiet()
        screens.save_to_history(place)

    if not place.record:
        record_link = ""
    elif screens.phone:  # no address: the record is the text below
        record_link = _("The record `tourpad score` reads (game {game})").format(game=view["game"])
    else:
        record_link = _("The record `tourpad score` reads (game {game}), also at {link}").format(
            game=view["game"], link=f"{screens.url.rstrip('/')}/api/tables/{code}/record")
    # a host phone's guests join by codes, not by an address (and its board is not served to anyone)
    reach = [guest_card(place, screens)] if screens.phone else [join_card(screens.url, code),
                                                                  board_card(screens.url, code)]
    return [
        _("Table {code} · Host").format(code=code),
        sem("table-game", ft.Text(table_game(view), weight=ft.FontWeight.W_600)),
        *deck_line_of(view),  # the host's deck is every seat's and the board's
        sem("status", ft.Text(host_status(view))),
        sem("roster", roster(view)),
        ft.Row([sem("host-sheet", ft.FilledButton(_("Score sheets"), icon=ft.Icons.GRID_ON,
                                                  on_click=lambda e: screens.app.go("table_host_sheet", code=code))),
                ft.TextButton(_("Leave"), on_click=lambda e: screens.app.go("table"))], wrap=True),
        ft.Text(_("Enter a round for a player without a phone, or correct any seat's round, on the "
                  "score sheets."), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        message_line(place),
        *reach,
        ft.Text(_("Seats"), weight=ft.FontWeight.W_600),
        ft.Row([sem("seat-pick", seat_pick)], wrap=True),
        # a player without a phone, or one whose phone lost its seat: the host seats them by name
        ft.Row([typed_field(place, "seat_name", _("Player's name")),
                ft.OutlinedButton(_("Seat player"), on_click=seat_player)], wrap=True),
        ft.Container(qr_image("seat-link", place.seat_link, scale=5) if place.seat_link else None,
                     visible=bool(place.seat_link)),
        ft.Column([
            ft.Text(_("Run the table"), weight=ft.FontWeight.W_600),
            ft.Row([joining,
                    ft.OutlinedButton(_("Remove seat"), on_click=remove_seat),
                    ft.OutlinedButton(_("End game"), on_click=lambda e: run(
                        "end", lambda: screens.service.end_game(code, screens.token), _("The game is ended"))),
                    ft.OutlinedButton(_("Play again"), on_click=lambda e: run(
                        "again", lambda: screens.service.play_again(code, screens.token), _("A new game has started"))),
                    ft.OutlinedButton(_("Export record"), on_click=export_record),
                    ft.OutlinedButton(_("Save to History"), on_click=save_to_history)], wrap=True),
            sem("record", ft.Text(record_link)),
            # selectable (to copy it), and read out whole: a selectable text's words are not in its semantics
            sem("record-text", ft.Text(place.record, selectable=True, size=12, visible=bool(place.record),
                                       semantics_label=place.record or None))]),
    ]


def join_card(url: str, code: str) -> ft.Control:
    return ft.Row([qr_image("join-qr", join_link(url, code), scale=6),
                   ft.Column([ft.Text(_("Scan to join, or open")), ft.Text(url, selectable=True,
                                                                     weight=ft.FontWeight.BOLD),
                              ft.Text(_("and enter the code")),
                              sem("join-code", ft.Text(code, size=24, weight=ft.FontWeight.BOLD))])],
                  wrap=True)


def board_card(url: str, code: str) -> ft.Control:
    """The table's big-screen board (scorer/ui/table_board.py): its QR code and link for a laptop or TV."""
    link = board_link(url, code)
    return ft.Row([qr_image("board-qr", link, scale=4),
                   # narrow enough to stay beside its QR code on a phone (the long link wraps instead)
                   ft.Column([ft.Text(_("Show the table on a big screen"), weight=ft.FontWeight.W_600),
                              ft.Text(_("Open on a laptop or TV beside the table:")),
                              sem("board-link", ft.Text(link, selectable=True))], width=180)],
                  wrap=True)


def page_origin(url: str | None) -> str:
    """``scheme://host:port`` of a page's address ("" when it has none, or is no web address)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


class TableScreens:
    """One window's table mode: the device's tokens, the links it has followed, and the sheet it shows live.
    Its screens are `table_place` components over a `TablePlace` each; what it learns (storage read, a
    table's change) it writes into their places."""

    def __init__(self, app: PadApp, service: TableService, url: str,
                 channels: Callable[[], PageChannels] | None = None, origin: str = "",
                 over_http: Callable[[str], FetchSeatTransport] | None = None) -> None:
        self.app = app
        self.page = app.page
        self.service = service
        self.url = url
        #: the web app's origin (its page's, unless given) and its way to the tables of the `tourpad host` there
        #: (see `Hosting`)
        self.origin = origin or page_origin(self.page.url)
        self._over_http = over_http
        self.http: OverHttp | None = None
        #: a host phone's (the web app's) data channels, made at first use; None under `tourpad host`
        self._channels = channels
        self._made_channels: PageChannels | None = None
        #: the host phone's guests at the table whose host screen is open
        self.host_links: HostLinks | None = None
        #: a guest phone's channel to a host phone, and the screen that shows its answer code
        self.guest: GuestLink | None = None
        self.link_place: TablePlace | None = None
        self.prefs = ft.SharedPreferences()
        self.code: str | None = None
        self.token: str | None = None
        self.seat: int | None = None  # None with a token = the host
        #: The host screen on show, live (its place's view follows the table).
        self.host_place: TablePlace | None = None
        #: The sheet this window shows live (a seat's, or the host's).
        self.sheet: SeatSheetSession | None = None
        self._game_seen = 0
        self._revisions_seen: dict[int, int] = {}
        self.followed: set[str] = set()  # the links (paths) this window has followed
        self.notice = ""  # why the start screen is shown (a table that expired), said once
        self.host_device = False  # this device holds the host credential (as last looked up)
        self._unsubscribe: Callable[[], None] | None = None
        # Not on_disconnect: a phone that drops off Wi-Fi reattaches to this same session and must still
        # get live updates; on_close is the session's end.
        self.page.on_close = lambda e: self.close()

    # --- phone to phone (the web app) ------------------------------------------------------------------------

    @property
    def phone(self) -> bool:
        """This is a phone's web app: its own tables, and other phones' over data channels."""
        return self._channels is not None

    def channels(self) -> PageChannels:
        if self._made_channels is None:
            self._made_channels = self._channels()
        return self._made_channels

    def remote(self, code: str) -> GuestLink | OverHttp | None:
        """The channel to the host phone that holds table `code`, when this phone joined it that way (or the
        way to the `tourpad host` this web app came from, when it joined that host's table)."""
        for remote in (self.guest, self.http):
            if (remote is not None and remote.transport.code
                    and normalize_code(remote.transport.code) == normalize_code(code)):
                return remote
        return None

    def table_view(self, code: str) -> dict:
        """Table `code` as it is now: from the host phone this phone joined, else from this device's service."""
        guest = self.remote(code)
        return guest.transport.view() if guest is not None else self.service.view(code)

    def transport(self, code: str, token: str) -> SeatTransport:
        guest = self.remote(code)
        if guest is None:
            return ServiceTransport(self.service, code, token)
        guest.transport.token = token
        return guest.transport

    def _from_the_channel(self, what: str, detail: str, act: Callable[[str, str], object]) -> None:
        """A channel's news, told where the page's event arrived: handled on this window's loop."""
        async def run() -> None:
            act(what, detail)

        self.page.run_task(run)

    async def scan_host_code(self, place: TablePlace, texts: list[str], board: bool = False) -> None:
        """A guest: the host phone's code scanned; this phone's answer code shown in `place` (a `board`'s answer:
        this device will only show the table). A table link from a `tourpad host` computer opens that table's
        own page instead."""
        from scorer.pad.scanned_code import table_link_in
        from scorer.runtime import IN_BROWSER
        from scorer.table.phone_links import page_wait

        link = next((found for text in texts if (found := table_link_in(text))), None)
        if link is not None and (code := self._own_host_table(link)) is not None:
            await self.join_over_http(place, code)
            return
        if link is not None:  # the table lives on its computer: this tab opens the table's page there
            await ft.UrlLauncher().launch_url(link, web_only_window_name="_self")
            return
        if self.guest is None:
            self.guest = GuestLink(self.channels(), lambda what, detail: self._from_the_channel(
                what, detail, self._guest_news), wait=page_wait if IN_BROWSER else None)
        self.guest.board = board
        try:
            answer = await self.guest.answer(texts[0])
        except PeerCodeError as err:
            place.say(str(err))
            return
        self.link_place = place
        place.offer = answer
        place.say(_("Waiting for the host's phone to scan this code…"), good_news=True)
        place.shows = "answer"

    def _own_host_table(self, link: str) -> str | None:
        """The table code of a join link to the `tourpad host` this web app was opened from (same origin: its
        API is reachable without a mixed-content or cross-origin refusal); None for any other link."""
        from urllib.parse import urlsplit

        from scorer.routes import RouteError, parse

        parts = urlsplit(link)
        if self._over_http is None or not self.origin or f"{parts.scheme}://{parts.netloc}" != self.origin:
            return None
        for route in (parts.fragment, parts.path):
            try:
                screen_name, params = parse(route)
            except RouteError:
                continue
            if screen_name in ("join", "table_seats"):
                return params["code"]
        return None

    async def join_over_http(self, place: TablePlace, code: str) -> None:
        """Table `code` of the `tourpad host` this web app came from, played with this phone's own screens over
        its API: this phone's seat there, or the seat picker."""
        if self.http is not None:
            self.http.transport.stop()
        try:
            self.http = OverHttp(self._over_http(code))
        except TableError as err:
            place.say(err.message)
            return
        code = self.http.transport.code
        held = await self._role(code)
        if held is not None and held[1] is not None:
            self._go_to_sheet(code, held[1])
        else:
            self.app.go("table_seats", code=code)

    def _guest_news(self, what: str, detail: str) -> None:
        place = self.link_place
        if what == "failed":
            if place is not None:
                place.say(detail)
            return
        if what == "closed":
            # nothing can be saved without the channel: the start screen, its scan a tap away, says why
            if self.sheet is not None and self.sheet.transport is self.guest.transport:
                self.sheet.stop()
                self.sheet = None
            self.notice = (_("The connection to the host's phone dropped. To show the table again, scan its code "
                             "again with “Show a table on this screen”.") if self.guest.board else
                           _("The connection to the host's phone dropped. To rejoin, scan its code again: your "
                             "seat and what you typed are kept."))
            self.app.go("table")
            return
        self.page.run_task(self._joined)

    async def _joined(self) -> None:
        """The channel opened: this phone's seat there if it holds one (a rejoin), else the table's seat picker."""
        guest, place = self.guest, self.link_place
        try:
            code = guest.transport.view()["code"]
        except TableError as err:
            if place is not None:
                place.say(err.message)
            return
        guest.transport.code = code
        if guest.board:  # a TV or tablet: the table's board, read-only
            self.app.go("table_board", code=code)
            return
        held = await self._role(code)
        if held is not None and held[1] is not None:
            if self.sheet is not None and self.sheet.transport is guest.transport:
                self.sheet = None  # the sheet followed the channel that dropped: open it anew
            self._go_to_sheet(code, held[1])
        else:
            self.app.go("table_seats", code=code)

    def _host_news(self, what: str, detail: str) -> None:
        links, place = self.host_links, self.host_place
        if links is None or place is None:
            return
        place.guests, place.boards = links.connected, links.boards
        place.offer = links.offer_code  # never a code a guest has already answered
        if what == "failed":
            place.say(detail)
            self.page.run_task(self._next_offer, place)
        elif what == "opened":
            place.say(_("A board is showing the table (it can save nothing)") if links.is_board(detail)
                      else _("A phone joined the table"), good_news=True)

    async def _next_offer(self, place: TablePlace) -> None:
        if self.host_links is not None:
            place.offer = await self.host_links.offer()

    async def scan_guest_answer(self, place: TablePlace, texts: list[str]) -> None:
        """The host phone: a guest's answer scanned; its channel opens, and the next guest gets a new code."""
        links = self.host_links
        if links is None:
            return
        place.say(_("Connecting to the guest's phone…"), good_news=True)  # said before the channel can open
        try:
            await links.accept(texts[0])
        except PeerCodeError as err:
            place.say(str(err))
            return
        # The code just answered is used up: off the screen at once, so that no other guest scans it while the
        # next one is made (its answer would open no channel, and the guest would be told the phones cannot
        # reach each other)
        place.offer = links.offer_code
        place.offer = await links.offer()

    # --- storage ----------------------------------------------------------------------------------------------

    async def _remember(self, code: str, token: str, seat: int | None) -> None:
        await self.prefs.set(PREFS_PREFIX + code, json.dumps({"token": token, "seat": seat}))
        await self.prefs.set(LAST_TABLE_KEY, code)

    async def _recall(self, code: str) -> dict | None:
        stored = await self.prefs.get(PREFS_PREFIX + code)
        try:
            return json.loads(stored) if isinstance(stored, str) else None
        except ValueError:
            return None

    async def _role(self, code: str) -> tuple[str, int | None] | None:
        """This device's remembered (token, seat) at table `code` while the token still works there."""
        saved = await self._recall(code)
        if not saved or not saved.get("token"):
            return None
        if self.remote(code) is not None:  # the host phone checks the token at every save
            return saved["token"], saved.get("seat")
        try:
            return saved["token"], self.service.role(code, saved["token"])
        except TableError:  # a seat the host has since given to someone else, or a table that is gone
            return None

    async def _host_credential(self) -> str | None:
        """The host credential this device holds: the host's own device is known server-side (the socket's
        address, never a header); a second host device kept it when it opened the host link; a host phone holds
        its own tables' credential."""
        credential = self.service.host_credential if self.phone else session_credential(self.service,
                                                                                         self.page.client_ip)
        if credential is None:
            stored = await self.prefs.get(HOST_CREDENTIAL_KEY)
            credential = stored if isinstance(stored, str) and self.service.is_host(stored) else None
        self.host_device = credential is not None
        return credential

    async def _host_role(self, code: str) -> tuple[str, int | None] | None:
        """This device's remembered role at table `code`; a host device without one there gets (and keeps) a
        host token for a table the host opened, so its host screen opens in one step."""
        held = await self._role(code)
        if held is not None:
            return held
        credential = await self._host_credential()
        if credential is None:
            return None
        try:
            token = self.service.issue_host_token(code, credential)
        except TableError:  # a table someone else opened, or one that is gone
            return None
        await self._remember(code, token, None)
        return token, None

    # --- where to go --------------------------------------------------------------------------------------------

    def _go_to_sheet(self, code: str, seat: int | None) -> None:
        """This device's place at table `code`: its seat's sheet, or the host's controls."""
        if seat is None:
            self.app.go("table_host", code=code)
        else:
            self.app.go("table_seat", code=code, seat=seat + 1)

    async def _enter(self, place: TablePlace, code: str, token: str | None = None) -> None:
        """Open table `code`: with a token, as its holder (the host token: the host's sheet; a seat token: that
        seat); without, this device's remembered seat there, else its seat picker (in `place`).
        Raises TableError (changing nothing) for an unknown table or a token that is no good there."""
        code = self.service.view(code)["code"]
        if token:
            seat = self.service.role(code, token)
            await self._remember(code, token, seat)
            self._go_to_sheet(code, seat)
            return
        held = await self._role(code)
        if held is not None:
            self._go_to_sheet(code, held[1])
            return
        self.show_seats(place, code)

    async def _follow(self, place: TablePlace, code: str | None = None, token: str | None = None) -> None:
        """A link (or `/table`, code None: this device's last table) opened for the first time in this window."""
        await self._host_credential()
        try:
            if code is not None:
                await self._enter(place, code, token)
                return
            last = await self.prefs.get(LAST_TABLE_KEY)
            if isinstance(last, str) and (held := await self._role(last)) is not None:
                self._go_to_sheet(last, held[1])
                return
        except TableError as err:
            self.show_start(place, err.message)
            return
        self.show_start(place)

    # --- what the start screen and the seat picker do -------------------------------------------------------

    def show_start(self, place: TablePlace, message: str = "", good_news: bool = False) -> None:
        message, self.notice = message or self.notice, ""
        place.say(message, good_news)
        place.shows = "start"

    def show_seats(self, place: TablePlace, code: str, message: str = "") -> None:
        """Table `code`'s seat picker; raises TableError for a table that does not exist (any more)."""
        place.code = self.table_view(code)["code"]
        place.say(message)
        place.shows = "seats"

    async def join(self, place: TablePlace, typed: str) -> None:
        try:
            code = self.service.view(typed)["code"]
        except TableError as err:
            place.say(err.message)
            return
        held = await self._role(code)
        if held is not None:
            self._go_to_sheet(code, held[1])
        else:
            self.app.go("table_seats", code=code)

    async def host(self, place: TablePlace, edition: str, seats: int) -> None:
        try:
            # The host's own device is known server-side; a second host device opened the host link once.
            credential = (await self._host_credential()) or await self.prefs.get(HOST_CREDENTIAL_KEY)
            code, token = self.service.create_table(edition, seats, credential=credential)
        except TableError as err:
            place.say(err.message)
            return
        await self._remember(code, token, None)
        self._go_to_sheet(code, None)

    async def take_seat(self, place: TablePlace, code: str, seat_no: int, name: str) -> None:
        guest = self.remote(code)
        try:
            token = guest.transport.claim(seat_no, name) if guest is not None else self.service.claim_seat(
                code, seat_no, name)
        except TableError as err:
            place.say(err.message)
            return
        await self._remember(code, token, seat_no - 1)
        self._go_to_sheet(code, seat_no - 1)

    # --- a seat's sheet (and the host's): the pad's sheet screens over a SeatSheetSession ----------------

    def sheet_session(self, code: str, seat: int | None) -> SeatSheetSession | None:
        """This window's live sheet of table `code` as seat `seat` (None: the host), once it is open."""
        session = self.sheet
        if (session is not None and session.gone is None and session.seat == seat
                and normalize_code(session.code) == normalize_code(code)):
            return session
        return None

    async def open_seat(self, place: TablePlace, code: str, seat: int | None) -> None:
        """Open seat `seat`'s sheet (None: the host's) when this device holds its token, then draw the route
        again; else the seat picker in `place`, saying why."""
        held = await (self._role(code) if seat is not None else self._host_role(code))
        if held is not None and held[1] == seat:
            try:
                self._watch(code, held[0], seat)
            except TableError as err:
                self.show_start(place, err.message)
                return
            self.app.render()
            return
        self._not_held(place, code, seat)

    def _not_held(self, place: TablePlace, code: str, seat: int | None) -> None:
        """A seat's (`seat`, 0-based) or the host's (None) screen opened on a device without its token: the
        table's seat picker."""
        message = (_("This device does not hold the host's token at table {code}: pick your seat, or use a token.")
                   if seat is None else
                   _("This device does not hold seat {seat} at table {code}: pick your seat, or use a token."))
        try:
            self.show_seats(place, code, message.format(code=code, seat=None if seat is None else seat + 1))
        except TableError as err:
            self.show_start(place, err.message)

    def _watch(self, code: str, token: str, seat: int | None) -> None:
        if self.sheet is not None:
            self.sheet.stop()
        session = SeatSheetSession(self.transport(code, token), seat)
        self.sheet = session
        self._game_seen = session.view["game"]
        self._revisions_seen: dict[int, int] = {}
        self._host_corrections(session)
        session.listeners.append(lambda state: self._sheet_changed(session))
        session.watch(lambda update: self.page.run_task(self._run, update))
        if self.remote(code) is not None:
            self.page.run_task(self._keep_in_step, session)

    async def _keep_in_step(self, session: SeatSheetSession) -> None:
        """While `session` is this window's sheet of another device's table: read the table again now and then,
        so a change whose event was lost on the way still reaches the screens."""
        while self.sheet is session and session.gone is None:
            await asyncio.sleep(CATCH_UP_SECONDS)
            if self.sheet is session:
                session.catch_up()

    @staticmethod
    async def _run(update: Callable[[], None]) -> None:
        update()

    def _sheet_changed(self, session: SeatSheetSession) -> None:
        """A committed change at the table (on this session's loop): follow it on this window's screens."""
        game, self._game_seen = self._game_seen, session.view["game"]
        name, params = self.app.route
        if session.gone is not None:
            self.sheet = None
            if session.place.shows(name, params):
                self.notice = session.gone
                self.app.go("table")
            return
        if session.seat is not None and params.get("seat") not in (None, session.seat + 1) \
                and session.place.shows(name, {**params, "seat": session.seat + 1}):
            # the host removed a seat before this one: the same player, one seat down
            self.page.run_task(self._remember, session.code, session.token, session.seat)
            self.app.go_to(session.place.route("sheet"))
            return
        corrected = self._host_corrections(session)
        if corrected and session.place.shows(name, params):
            self.app.toast(_("The host corrected your round {round}").format(round=corrected[0]))
        if game != session.view["game"] and session.place.shows(name, params):
            self.app.toast(_("Game {game} has started: same seats, empty sheets").format(game=session.view["game"]))
            self.app.go_to(session.place.route("sheet"))
            return
        self.app.sheet_changed(session, session.rounds_done_before)

    def _host_corrections(self, session: SeatSheetSession) -> list[int]:
        """The rounds (from 1) of this seat the host has changed since this window last looked."""
        if session.seat is None:
            return []
        revisions = {r: entry["revision"] for r, rnd in enumerate(session.view["rounds"], start=1)
                     if (entry := rnd["entries"][session.seat]) is not None}
        seen, self._revisions_seen = self._revisions_seen, revisions
        return [r for r, revision in revisions.items()
                if revision != seen.get(r) and session.view["rounds"][r - 1]["entries"][session.seat]["by_host"]]

    # --- the host's controls -------------------------------------------------------------------------------

    async def open_host(self, place: TablePlace, code: str) -> None:
        """The host's controls of table `code`, when this device holds its host token (or the host
        credential, for a table the host opened); else the picker."""
        held = await self._host_role(code)
        if held is not None and held[1] is None:
            self.code, (self.token, self.seat) = code, held
            self.show_host(place)
            return
        self._not_held(place, code, None)

    def show_host(self, place: TablePlace) -> None:
        """The host's controls in `place`, following the table live from now on."""
        self.stop_listening()
        try:
            view, self._unsubscribe = self.service.subscribe(self.code, self._on_event)
        except TableError as err:
            self.show_start(place, err.message)
            return
        self.host_place = place
        place.view = view
        place.shows = "host"
        if self.phone:  # the guests' phones connect to this one: a code for the next
            if self.host_links is None or self.host_links.code != view["code"]:
                if self.host_links is not None:
                    self.host_links.close()
                self.host_links = HostLinks(self.channels(), self.service, view["code"],
                                            lambda what, detail: self._from_the_channel(what, detail,
                                                                                        self._host_news))
            place.guests, place.boards = self.host_links.connected, self.host_links.boards
            self.page.run_task(self._next_offer, place)

    def host_action(self, place: TablePlace, action: Callable[[], object], done: str) -> None:
        """One of the host's buttons: the service's answer said in the message line, the table as it is now."""
        try:
            action()
        except TableError as err:
            place.say(err.message)
            return
        place.say(done, good_news=True)
        place.view = self.service.view(self.code)

    async def seat_player(self, place: TablePlace, seat_no: int, typed: str) -> None:
        name = typed.strip()
        was = place.view["seats"][seat_no - 1]
        try:
            token = self.service.claim_seat(self.code, seat_no, name, self.token)
        except TableError as err:
            place.say(err.message)
            return
        if self.phone:  # a host phone's guests take their seats by codes: no seat link, no token to type
            message = _("Seat {seat} is {name}'s: enter their rounds on the score sheets.")
        elif was["claimed"]:
            message = _("Seat {seat} is {name}'s. {old}'s old seat token no longer works. Enter their rounds on the "
                        "score sheets, or let their phone scan this code (or type the seat token under 'Have a "
                        "token?'): {token}")
        else:
            message = _("Seat {seat} is {name}'s. Enter their rounds on the score sheets, or let their phone scan "
                        "this code (or type the seat token under 'Have a token?'): {token}")
        place._typed["seat_name"] = ""
        place.seat_link = "" if self.phone else seat_link(self.url, self.code, token)
        place.say(message.format(seat=seat_no, name=name, old=was["name"], token=token), good_news=True)
        place.view = self.service.view(self.code)

    def export_record(self, place: TablePlace) -> None:
        """The game as the JSON record `tourpad score` reads (also at /api/tables/<code>/record)."""
        try:
            record = self.service.record(self.code)
        except TableError as err:
            place.say(err.message)
            return
        place.record = json.dumps(record, ensure_ascii=False, indent=1)

    def save_to_history(self, place: TablePlace) -> None:
        """This game (its closed rounds) as a game of this device's History, with the pad's own export."""
        from rules.record import GameRecord
        from scorer.pad.game import EntryError, GameSession

        try:
            # a finished game is the one the host keeps by itself (`scorer.table.history`): never twice
            number = self.service.keep_finished(self.code)
            if number is None:
                session = GameSession.from_record(self.app.store, GameRecord(**self.service.record(self.code)))
                number, summary = session.game_id, summary_line(session.state.summary())
            else:
                summary = summary_line(self.app.store.game(number).summary)
        except TableError as err:
            place.say(_("could not save this game to History: {problem}").format(problem=err.message))
        except (EntryError, ValueError) as err:
            place.say(_("could not save this game to History: {problem}").format(problem=err))
        else:
            place.say(_("Saved to History as game {number} ({summary})").format(number=number, summary=summary),
                      good_news=True)

    # --- live ---------------------------------------------------------------------------------------------------

    def _on_event(self, event: dict) -> None:
        """Called by the service (any thread, under its lock): hand over to this session's loop."""
        self.page.run_task(self._apply_event, event)

    async def _apply_event(self, event: dict) -> None:
        place = self.host_place
        if event["kind"] == "expired":
            self.stop_listening()
            self.notice = _("The table expired")
            self.app.go("table")
            return
        if place is None or place.view is None or event["version"] <= place.view["version"]:
            return
        place.view = event["table"]  # the host's screen re-renders itself: no page update

    def close(self) -> None:
        self.stop_listening()
        if self.sheet is not None:
            self.sheet.stop()

    def stop_listening(self) -> None:
        self.host_place = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


def table_screens(app: PadApp) -> TableScreens | None:
    """This window's table mode (one per window, across its screens); None under plain `tourpad app`."""
    if HOSTING is None:
        from scorer.runtime import IN_BROWSER

        if not IN_BROWSER:
            return None
        configure_phone()  # at the first table screen: the data folder is open by then
    screens: TableScreens | None = getattr(app, "table_screens", None)
    if screens is None:
        screens = TableScreens(app, HOSTING.service, HOSTING.url, HOSTING.channels, HOSTING.origin,
                               HOSTING.over_http)
        app.table_screens = screens
    return screens


def how_to_host() -> Screen:
    return Screen(_("Table mode"), ft.Container(ft.Column([
        ft.Text(_("Every player keeps score on their own phone, one shared table on the host.")),
        ft.Text(_("To host a table, start `tourpad host` on the device at the table (a laptop or tablet on "
                  "the same Wi-Fi): it prints the join URL, a join code and a QR code. Each player opens "
                  "the URL on their phone and enters the code.")),
    ], spacing=12), padding=PAD))


def table_screen(title: str, fill: Callable[[TableScreens, TablePlace], object], app: PadApp,
                 on_leave: Callable[[], None] | None = None) -> Screen:
    """A table screen: a `table_place` component over a new place, which `fill` sets (at once, or in a task
    once the device's storage has answered; until then it says the table is opening)."""
    screens = table_screens(app)
    if screens is None:
        return how_to_host()
    place = TablePlace()
    fill(screens, place)
    return Screen(title, ft.Container(island(table_place, place, screens), padding=PAD), on_leave=on_leave)


def follow_once(app: PadApp, screens: TableScreens, place: TablePlace, path: str, code: str | None = None,
                token: str | None = None) -> None:
    """Follow a link (or `/table`) the first time this window shows it on top; Back to it later (or drawn
    under another screen) shows, in place, the table's seat picker (the start screen for `/table`)."""
    follow = path not in screens.followed and app.path == path
    screens.followed.add(path)
    if follow:
        app.page.run_task(screens._follow, place, code, token)
    elif code is None:
        screens.show_start(place)
    else:
        try:
            screens.show_seats(place, code)
        except TableError as err:
            screens.show_start(place, err.message)


@screen("table")
def start(app: PadApp) -> Screen:
    """Join by code or host a table; the first time, this device's last table if it still holds a seat."""
    def fill(screens: TableScreens, place: TablePlace) -> None:
        follow_once(app, screens, place, format_route("table"))

    return table_screen(_("Table mode"), fill, app)


@screen("table_seats")
def seats(app: PadApp, code: str) -> Screen:
    def fill(screens: TableScreens, place: TablePlace) -> None:
        try:
            screens.show_seats(place, code)
        except TableError as err:
            raise NotFound(err.message) from None

    return table_screen(_("Table mode"), fill, app)


def sheet_route(app: PadApp, code: str, seat: int | None, build: Callable[[SeatSheetSession], Screen]) -> Screen:
    """A screen of a seat's sheet (`seat` 0-based; None: the host's), built by the pad's own sheet screens
    once this window has the table open; until then "Opening the table…" while the device's storage is
    read for its token (a reload, a pasted link)."""
    screens = table_screens(app)
    if screens is None:
        return how_to_host()
    session = screens.sheet_session(code, seat)
    if session is None:
        return table_screen(_("Table mode"), lambda screens, place: app.page.run_task(screens.open_seat, place, code,
                                                                                   seat), app)
    return build(session)


@screen("table_seat")
def seat_sheet(app: PadApp, code: str, seat: int, player: int | None = None) -> Screen:
    return sheet_route(app, code, seat - 1,
                       lambda session: sheet_screen(app, session, seat - 1 if player is None else player))


@screen("table_seat_summary")
def seat_summary(app: PadApp, code: str, seat: int, round_index: int) -> Screen:
    return sheet_route(app, code, seat - 1, lambda session: round_summary_screen(app, session, round_index))


@screen("table_seat_entry")
def seat_entry(app: PadApp, code: str, seat: int, round_index: int, player: int) -> Screen:
    return sheet_route(app, code, seat - 1, lambda session: entry_screen(app, session, round_index, player))


@screen("table_seat_end")
def seat_end(app: PadApp, code: str, seat: int) -> Screen:
    return sheet_route(app, code, seat - 1, lambda session: end_screen(app, session))


@screen("table_host")
def host_controls(app: PadApp, code: str) -> Screen:
    return table_screen(_("Table mode"), lambda screens, place: app.page.run_task(screens.open_host, place, code),
                        app, on_leave=lambda: leave_host(app))


@screen("table_host_sheet")
def host_sheet(app: PadApp, code: str, player: int = 0) -> Screen:
    return sheet_route(app, code, None, lambda session: sheet_screen(app, session, player))


@screen("table_host_summary")
def host_summary(app: PadApp, code: str, round_index: int) -> Screen:
    return sheet_route(app, code, None, lambda session: round_summary_screen(app, session, round_index))


@screen("table_host_entry")
def host_entry(app: PadApp, code: str, round_index: int, player: int) -> Screen:
    return sheet_route(app, code, None, lambda session: entry_screen(app, session, round_index, player))


@screen("table_host_end")
def host_end(app: PadApp, code: str) -> Screen:
    return sheet_route(app, code, None, lambda session: end_screen(app, session))


def leave_host(app: PadApp) -> None:
    screens = table_screens(app)
    if screens is not None:
        screens.stop_listening()


@screen("join")
def join(app: PadApp, code: str) -> Screen:
    """A scanned join QR code: this device's seat at that table, else its seat picker."""
    def fill(screens: TableScreens, place: TablePlace) -> None:
        follow_once(app, screens, place, format_route("join", code=code), code)

    return table_screen(_("Table mode"), fill, app)


@screen("seat_link")
def seat_by_link(app: PadApp, code: str, token: str) -> Screen:
    """A seat's QR code (the host seated this player): that seat, its token kept on this device."""
    def fill(screens: TableScreens, place: TablePlace) -> None:
        follow_once(app, screens, place, format_route("seat_link", code=code, token=token), code, token)

    return table_screen(_("Table mode"), fill, app)


@screen("host_link")
def host_by_link(app: PadApp, credential: str) -> Screen:
    """The host link `tourpad host` printed: this device keeps the host credential, then opens the host
    screen of the host's most recently active table (the one `tourpad host` just opened or resumed), or the
    start screen, where it may open tables, when there is none."""
    def fill(screens: TableScreens, place: TablePlace) -> None:
        async def keep() -> None:
            if not screens.service.is_host(credential):
                screens.show_start(place, _("that host link is not this host's (it may have been renewed)"))
                return
            await screens.prefs.set(HOST_CREDENTIAL_KEY, credential)
            screens.host_device = True
            for code in screens.service.host_codes()[:1]:
                held = await screens._host_role(code)
                if held is not None and held[1] is None:
                    screens.app.go("table_host", code=code)
                    return
            screens.show_start(place, _("This device can now host tables."), good_news=True)

        app.page.run_task(keep)

    return table_screen(_("Table mode"), fill, app)
