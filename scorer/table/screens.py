"""Table mode screens in the score pad app: host a table, join by code, take a seat, enter your own sheet,
see everyone's.

Every screen is a view of the one `TableService` in this server process: it calls the service with
the device's own token (a seat token, or the host token on the host's device), so a phone can only
change its own sheet, exactly as through the JSON API. The tokens live in the device's client storage
(`ft.SharedPreferences`), so a phone that drops off Wi-Fi or reloads comes back to its seat.
Live updates: the service calls this session's listener after every committed change.
The service exists only under `tourpad host` (`configure`); plain `tourpad app` explains how to host.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from scorer.table.host import HOST_LINK, JOIN_LINK, SEAT_LINK, join_link, qr_png, seat_link, session_credential
from scorer.table.service import TableError, TableService
from scorer.ui.app import PadApp, Screen, screen, sem

PREFS_PREFIX = "tourpad.table."
LAST_TABLE_KEY = PREFS_PREFIX + "last"
PAD = ft.Padding.symmetric(horizontal=16, vertical=12)


@dataclass
class Hosting:
    service: TableService
    url: str


HOSTING: Hosting | None = None


def configure(service: TableService, url: str) -> None:
    """Called by `tourpad host`: this process holds the tables, players reach it at `url`."""
    global HOSTING
    HOSTING = Hosting(service, url)


def qr_image(identifier: str, link: str, scale: int) -> ft.Control:
    """A QR code of `link` on screen; its accessible name is the link itself (screen readers, tests)."""
    return sem(identifier, ft.Image(src=qr_png(link, scale=scale), width=150, height=150, semantics_label=link))


class TableScreens:
    """One device's session of table mode."""

    def __init__(self, page: ft.Page, service: TableService, url: str) -> None:
        self.page = page
        self.service = service
        self.url = url
        self.prefs = ft.SharedPreferences()
        self.code: str | None = None
        self.token: str | None = None
        self.seat: int | None = None  # None with a token = the host
        self.view: dict | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.root = ft.Column(spacing=12)
        # Not on_disconnect: a phone that drops off Wi-Fi reattaches to this same session and must still
        # get live updates; on_close is the session's end.
        page.on_close = lambda e: self.stop_listening()

    # --- storage ----------------------------------------------------------------------------------------------

    async def _remember(self) -> None:
        await self.prefs.set(PREFS_PREFIX + self.code,
                             json.dumps({"token": self.token, "seat": self.seat}))
        await self.prefs.set(LAST_TABLE_KEY, self.code)

    async def _recall(self, code: str) -> dict | None:
        stored = await self.prefs.get(PREFS_PREFIX + code)
        try:
            return json.loads(stored) if isinstance(stored, str) else None
        except ValueError:
            return None

    async def start(self) -> None:
        """Follow the link the page was opened with (a scanned QR code); else resume this device's last table
        if its token still works; else the start screen."""
        route = self.page.route or ""
        if (link := HOST_LINK.match(route)) is not None and self.service.is_host(link.group(1)):
            await self.prefs.set(PREFS_PREFIX + "host", link.group(1))  # a second host device, from now on
        if (link := JOIN_LINK.match(route)) is not None:
            await self._enter_or_explain(link.group(1))
            return
        if (link := SEAT_LINK.match(route)) is not None:
            await self._enter_or_explain(link.group(1), link.group(2))
            return
        last = await self.prefs.get(LAST_TABLE_KEY)
        if isinstance(last, str):
            saved = await self._recall(last)
            if saved and saved.get("token"):
                try:
                    role = self.service.role(last, saved["token"])
                except TableError:
                    role = "gone"
                if role != "gone":
                    self.code, self.token, self.seat = last, saved["token"], role
                    self.show_sheet()
                    return
        self.show_start()

    # --- screens ----------------------------------------------------------------------------------------------

    def _screen(self, title: str, *controls: ft.Control) -> None:
        self.root.controls = [ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_LARGE, weight=ft.FontWeight.BOLD),
                              *controls]
        self._refresh()

    def _refresh(self) -> None:
        # Explicit: the control whose event started this may have just left the page, and background
        # (live) updates get no auto-update at all.
        with contextlib.suppress(RuntimeError):  # not on the page yet: the first page.add shows it
            self.page.update()

    def show_start(self, message: str = "") -> None:
        from scorer.packs import available_editions

        self.stop_listening()
        code_field = ft.TextField(label="Join code", hint_text="ABCD-EFGH",
                                  capitalization=ft.TextCapitalization.CHARACTERS, width=220)
        feedback = ft.Text(message, color=ft.Colors.RED)
        edition = ft.Dropdown(label="Edition", value="australia", width=220,
                              options=[ft.DropdownOption(key=e, text=e.title()) for e in available_editions()])
        seats = ft.Dropdown(label="Players", value="4", width=120,
                            options=[ft.DropdownOption(key=str(n), text=str(n)) for n in (2, 3, 4)])

        async def join(e) -> None:
            try:
                await self._enter(code_field.value or "")
            except TableError as err:
                feedback.value = err.message

        async def host(e) -> None:
            try:
                credential = (session_credential(self.service, self.page.client_ip)
                              or await self.prefs.get(PREFS_PREFIX + "host"))
                self.code, self.token = self.service.create_table(edition.value, int(seats.value),
                                                                  credential=credential)
            except TableError as err:
                feedback.value = err.message
                return
            self.seat = None
            await self._remember()
            self.show_sheet()

        code_field.on_submit = join
        self._screen(
            "Table mode",
            ft.Text("Everyone keeps score on their own phone; the host's device keeps the one shared table."),
            ft.Text("Join a table", size=18, weight=ft.FontWeight.W_600),
            ft.Row([code_field, ft.FilledButton("Join", on_click=join)], wrap=True),
            ft.Divider(),
            ft.Text("Host a table", size=18, weight=ft.FontWeight.W_600),
            ft.Row([edition, seats, ft.FilledButton("Host a table", on_click=host)], wrap=True),
            sem("message", feedback),
        )

    async def _enter(self, code: str, token: str | None = None) -> None:
        """Open table `code`: with a token, as its holder (the host token: the host's view; a seat token: that
        seat); without, this device's remembered seat there, else the seat picker. Raises TableError."""
        self.view = self.service.view(code)
        self.code = self.view["code"]
        if token:
            await self._open_with(token)  # a token that is no good here: the caller says so
            return
        saved = await self._recall(self.code)
        if saved and saved.get("token"):
            with contextlib.suppress(TableError):  # a seat the host has since given to someone else
                await self._open_with(saved["token"])
                return
        self.show_seats()

    async def _open_with(self, token: str) -> None:
        """This table as the token's holder sees it; raises TableError (changing nothing) for a bad token."""
        self.seat = self.service.role(self.code, token)
        self.token = token
        await self._remember()
        self.show_sheet()

    async def _enter_or_explain(self, code: str, token: str | None = None) -> None:
        try:
            await self._enter(code, token)
        except TableError as err:
            self.show_start(err.message)

    def show_seats(self, message: str = "") -> None:
        view = self.view
        feedback = ft.Text(message, color=ft.Colors.RED)
        rows: list[ft.Control] = []
        for seat in view["seats"]:
            if seat["claimed"]:
                rows.append(ft.ListTile(title=ft.Text(f"Seat {seat['seat']}: {seat['name']}"),
                                        subtitle=ft.Text("taken")))
                continue
            name = ft.TextField(label=f"Your name (seat {seat['seat']})", width=220)

            async def take(e, seat_no=seat["seat"], name=name) -> None:
                try:
                    self.token = self.service.claim_seat(self.code, seat_no, name.value or "")
                except TableError as err:
                    feedback.value = err.message
                    self.view = self.service.view(self.code)
                    return
                self.seat = seat_no - 1
                await self._remember()
                self.show_sheet()

            name.on_submit = take
            rows.append(ft.Row([name, ft.FilledButton(f"Take seat {seat['seat']}", on_click=take)], wrap=True))
        token_field = ft.TextField(label="Token", password=True, can_reveal_password=True, width=220)

        async def use_token(e) -> None:
            try:
                await self._enter(self.code, token_field.value or "")
            except TableError as err:
                feedback.value = err.message

        self._screen(f"Table {view['code']}: pick your seat", *rows, sem("message", feedback),
                     ft.TextButton("Another table", on_click=lambda e: self.show_start()),
                     ft.Divider(),
                     ft.Text("Have a token? The host token `tourpad host` printed, or the seat token the host "
                             "gave you when seating you."),
                     ft.Row([token_field, ft.OutlinedButton("Use token", on_click=use_token)], wrap=True))

    def show_sheet(self) -> None:
        """Your own entry form (host: any seat, any round so far) and every sheet, kept live."""
        self.stop_listening()
        try:
            self.view, self._unsubscribe = self.service.subscribe(self.code, self._on_event)
        except TableError as err:
            self.show_start(err.message)
            return
        self.status = ft.Text()
        self.message = ft.Text()
        self.cards = ft.TextField(label="Your 7 cards" if self.seat is not None else "7 cards",
                                  hint_text="Throw first, Catch last",
                                  capitalization=ft.TextCapitalization.CHARACTERS, width=220)
        self.choice = ft.Dropdown(label=self.view["edition"]["choice_family"], width=220)
        self.submit_button = ft.FilledButton("Submit", on_click=self._submit)
        self.sheets = ft.Column(horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        self.host_panel = ft.Column()
        self.seat_pick = ft.Dropdown(label="Seat", width=180, on_select=lambda e: self._load_entry())
        self.round_pick = ft.Dropdown(label="Round", width=150, on_select=lambda e: self._load_entry())
        if self.seat is None:
            self.seat_name = ft.TextField(label="Player's name", width=220)
            self.host_panel.controls = [
                self._join_card(),
                ft.Text("Any seat", weight=ft.FontWeight.W_600),
                ft.Row([sem("seat-pick", self.seat_pick), sem("round-pick", self.round_pick)], wrap=True),
                # a player without a phone, or one whose phone lost its seat: the host seats them by name
                ft.Row([self.seat_name, ft.OutlinedButton("Seat player", on_click=self._seat_player)], wrap=True)]
        self.seat_qr = ft.Container(visible=False)  # the seat link of the player just seated
        who = "Host" if self.seat is None else self.view["seats"][self.seat]["name"]
        self._screen(f"Table {self.view['code']} · {who}",
                     sem("status", self.status),
                     self.host_panel,
                     ft.Row([self.cards, self.choice], wrap=True),
                     ft.Row([self.submit_button, ft.TextButton("Leave", on_click=lambda e: self.show_start())]),
                     sem("message", self.message),
                     self.seat_qr,
                     ft.Divider(),
                     ft.Text("All sheets", size=18, weight=ft.FontWeight.W_600),
                     self.sheets)
        self._render(reload_entry=True)

    def _join_card(self) -> ft.Control:
        return ft.Row([qr_image("join-qr", join_link(self.url, self.view["code"]), scale=6),
                       ft.Column([ft.Text("Scan to join, or open"), ft.Text(self.url, selectable=True,
                                                                      weight=ft.FontWeight.BOLD),
                                  ft.Text("and enter the code"),
                                  sem("join-code", ft.Text(self.view["code"], size=24,
                                                              weight=ft.FontWeight.BOLD))])],
                      wrap=True)

    # --- state → screen ---------------------------------------------------------------------------------------

    def _editing(self) -> tuple[int, int] | None:
        """(round, seat), 1-based, that the form edits; None when there is nothing to enter."""
        view = self.view
        if self.seat is None:
            if not self.seat_pick.value or not self.round_pick.value:
                return None
            return int(self.round_pick.value), int(self.seat_pick.value)
        if view["finished"]:
            return None
        return view["round"], self.seat + 1

    def _render(self, reload_entry: bool = False) -> None:
        view = self.view
        names = {s["seat"]: s["name"] for s in view["seats"]}
        if view["finished"]:
            status = "Game over"
        else:
            waiting = ", ".join(names[s] for s in view["waiting_for"])
            status = f"Round {view['round']} · waiting for {waiting}"
        self.status.value = status
        if self.seat is None:
            last_round = 4 if view["finished"] else view["round"]
            self.seat_pick.options = [ft.DropdownOption(key=str(s), text=f"{s}: {n}") for s, n in names.items()]
            self.round_pick.options = [ft.DropdownOption(key=str(r), text=f"Round {r}")
                                       for r in range(1, last_round + 1)]
            self.seat_pick.value = self.seat_pick.value or "1"
            if self.round_pick.value is None or int(self.round_pick.value) > last_round:
                self.round_pick.value = str(last_round)
        self.choice.options = [ft.DropdownOption(key="", text="none")] + [
            ft.DropdownOption(key=o, text=o) for o in view["edition"]["choice_options"]]
        if reload_entry:
            self._load_entry()
        self.sheets.controls = [self._sheet(s) for s in range(len(view["seats"]))]
        self._refresh()

    def _load_entry(self) -> None:
        editing = self._editing()
        entry = None
        if editing is not None:
            r, s = editing
            entry = self.view["rounds"][r - 1]["entries"][s - 1]
        self.cards.value = entry["cards"] if entry else ""
        self.choice.value = (entry["choice"] or "") if entry else ""
        self.cards.disabled = self.choice.disabled = self.submit_button.disabled = editing is None
        if editing is not None:
            self.submit_button.content = f"{'Update' if entry else 'Submit'} round {editing[0]}"

    def _sheet(self, seat: int) -> ft.Control:
        view = self.view
        player = view["scores"]["players"][seat]
        lines = []
        for rnd in view["rounds"]:
            entry = rnd["entries"][seat]
            if entry is None:
                continue
            points, breakdown = "", ""
            if rnd["closed"]:
                by_category = player["rounds"][rnd["round"] - 1]
                points = f" · {sum(by_category.values())} pts"
                names = view["scores"]["categories"]
                breakdown = " · ".join(f"{names.get(c, c)} {v}" for c, v in by_category.items() if v)
            choice = f" · {entry['choice']}" if entry["choice"] else ""
            lines.append(ft.Text(f"R{rnd['round']}: {entry['cards']}{choice}{points}"))
            if breakdown:
                lines.append(ft.Text(breakdown, size=12, color=ft.Colors.ON_SURFACE_VARIANT))
        mine = self.seat == seat
        title = f"{player['name']}{' (you)' if mine else ''} · {player['total']} pts"
        return sem(f"sheet-{seat + 1}", ft.Container(
            ft.Column([ft.Text(title, weight=ft.FontWeight.BOLD), *lines], spacing=2),
            padding=10, border_radius=8,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if mine else ft.Colors.SURFACE_CONTAINER_HIGHEST))

    # --- actions and live updates ---------------------------------------------------------------------------

    async def _submit(self, e) -> None:
        editing = self._editing()
        if editing is None:
            return
        r, s = editing
        entry = self.view["rounds"][r - 1]["entries"][s - 1]
        try:
            ack = self.service.submit(self.code, r, s, self.cards.value or "", self.choice.value or None,
                                      entry["revision"] if entry else 0, self.token)
        except TableError as err:
            self.message.value = err.message
            self.message.color = ft.Colors.RED
            return
        self.message.value = (f"Round {ack['round']} saved" +
                              (" · round closed" if ack["round_closed"] else ""))
        self.message.color = ft.Colors.GREEN
        self.view = self.service.view(self.code)
        self._render(reload_entry=True)

    async def _seat_player(self, e) -> None:
        seat_no = int(self.seat_pick.value or "1")
        name = (self.seat_name.value or "").strip()
        was = self.view["seats"][seat_no - 1]
        try:
            token = self.service.claim_seat(self.code, seat_no, name, self.token)
        except TableError as err:
            self.message.value = err.message
            self.message.color = ft.Colors.RED
            return
        replaced = (f" {was['name']}'s old seat token no longer works." if was["claimed"] else "")
        self.message.value = (f"Seat {seat_no} is {name}'s.{replaced} Enter their rounds here, or let their "
                              f"phone scan this code (or type the seat token under 'Have a token?'): {token}")
        self.message.color = ft.Colors.GREEN
        self.seat_qr.content = qr_image("seat-link", seat_link(self.url, self.code, token), scale=5)
        self.seat_qr.visible = True
        self.seat_name.value = ""
        self.view = self.service.view(self.code)
        self._render(reload_entry=True)

    def _on_event(self, event: dict) -> None:
        """Called by the service (any thread, under its lock): hand over to this session's loop."""
        self.page.run_task(self._apply_event, event)

    async def _apply_event(self, event: dict) -> None:
        if event["kind"] == "expired":
            self.show_start("The table expired")
            return
        if event["version"] <= self.view["version"]:
            return
        previous_round, editing = self.view["round"], self._editing()
        self.view = event["table"]
        # Someone else changed the entry this form shows (the host, or the player on another device):
        # show theirs, since a submission based on the old one would be refused as overtaken.
        changed_mine = editing is not None and editing == (event.get("round"), event.get("seat"))
        if changed_mine and self.seat is not None and event["table"]["rounds"][editing[0] - 1]["entries"][
                editing[1] - 1]["by_host"]:
            self.message.value = f"The host corrected your round {editing[0]}"
            self.message.color = ft.Colors.ORANGE
        self._render(reload_entry=changed_mine or self.view["round"] != previous_round)

    def stop_listening(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


@screen("table")
def table_screen(app: PadApp) -> Screen:
    """Table mode inside the pad app; the same session object survives re-renders (theme, resize)."""
    if HOSTING is None:
        return Screen("Table mode", ft.Container(ft.Column([
            ft.Text("Every player keeps score on their own phone, one shared table on the host."),
            ft.Text("To host a table, start `tourpad host` on the device at the table (a laptop or tablet on "
                    "the same Wi-Fi): it prints the join URL, a join code and a QR code. Each player opens "
                    "the URL on their phone and enters the code."),
        ], spacing=12), padding=PAD), back=("home", {}))
    screens: TableScreens | None = getattr(app, "table_screens", None)
    if screens is None:
        screens = TableScreens(app.page, HOSTING.service, HOSTING.url)
        app.table_screens = screens
        app.page.run_task(screens.start)

    def leave() -> None:
        screens.stop_listening()
        app.table_screens = None

    return Screen("Table mode", ft.Container(screens.root, padding=PAD), back=("home", {}), on_leave=leave)
