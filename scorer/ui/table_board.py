"""The table's big-screen board (`/table/<code>/board`): a read-only page for a laptop or TV beside the table.

Every sheet side by side, the standings, who is still entering this round, and the shared first-come bonuses
(open, and who took which): `scorer.table.board` arranges the table's view, this module only draws it, in
type large enough to read across a room. Like the event stream, the join code is all it needs; it holds no
token and has nothing to tap. It stays live the way the seat screens do, over a seat transport
(`scorer.table.transport`): under `tourpad host` the service in this process calls this window's listener after
every committed change; on a TV or tablet joined to a host phone, the board's data channel brings each change
(the host phone's link to a board is read-only: it refuses every seat and save). Columns reflow with the window
(a TV at 1920×1080: all sheets in one row beside the standings; a tablet: two sheets a row under them); on a
phone its type is sized to be read in hand (`IN_HAND`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from rules import wording
from scorer.locale import _, ngettext
from scorer.table.board import Board, OpenRegion, RouteBoard, SheetColumn, TakenBonus, board_from_view, tiers_text
from scorer.table.service import TableError
from scorer.table.transport import SeatTransport, ServiceTransport
from scorer.ui import table as table_ui
from scorer.ui.app import NotFound, PadApp, Screen, island, screen, sem


@dataclass(frozen=True)
class BoardType:
    """The board's type sizes (px): large enough to read across a room, or, on a phone, to read in hand."""

    big: int
    large: int
    medium: int
    small: int


ACROSS_THE_ROOM = BoardType(40, 30, 24, 18)
IN_HAND = BoardType(28, 22, 18, 15)
#: A window narrower than this is a phone's: the board's type is sized to be read in hand (px).
PHONE_WIDTH = 600
CARD_PAD = ft.Padding.symmetric(horizontal=18, vertical=14)


def _card(t: BoardType, title: str, *controls: ft.Control, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST) -> ft.Container:
    return ft.Container(ft.Column([ft.Text(title, size=t.large, weight=ft.FontWeight.BOLD), *controls], spacing=6),
                        padding=CARD_PAD, border_radius=12, bgcolor=bgcolor)


def _names(names: tuple[str, ...]) -> str:
    return " & ".join(names)


@ft.observable
@dataclass
class BoardShown:
    """What one window's board shows: the table as last published, or that it expired."""

    board: Board
    expired: bool = False
    #: the type's sizes for this window (`ACROSS_THE_ROOM`, or `IN_HAND` on a phone)
    sizes: BoardType = ACROSS_THE_ROOM


@ft.component
def board_body(shown: BoardShown) -> ft.Control:
    """The board of `shown` (a component: each event re-renders it, patching what changed)."""
    t = shown.sizes
    if shown.expired:
        controls = [sem("board-status", ft.Text(_("The table expired"), size=t.big))]
    else:
        board = shown.board
        status = ft.Text(board.status, size=t.big, weight=ft.FontWeight.BOLD,
                         color=ft.Colors.PRIMARY if not board.finished else ft.Colors.TERTIARY)
        side = ft.ResponsiveRow([
            ft.Container(standings(board, t), col={"xs": 12, "md": 5, "xl": 12}),
            ft.Container(bonuses(board, t), col={"xs": 12, "md": 7, "xl": 12}),
        ], spacing=16, run_spacing=16)
        per_row = 12 // len(board.sheets)
        sheets = ft.ResponsiveRow([ft.Container(sheet_card(board, s, t), col={"xs": 12, "sm": 6, "xl": per_row})
                                   for s in board.sheets], spacing=16, run_spacing=16)
        controls = [
            sem("board-status", status),
            ft.ResponsiveRow([ft.Container(side, col={"xs": 12, "xl": 3}),
                              ft.Container(sheets, col={"xs": 12, "xl": 9})], spacing=16, run_spacing=16),
        ]
    return ft.Column(controls, spacing=16, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


class BoardScreen:
    """One window's board of the table `transport` reaches: it follows the table's events into its `BoardShown`.

    Leaving the screen unsubscribes (`Screen.on_leave`). A window closed while showing the board does not say
    so here (the page's `on_close` belongs to the seat screens); its listener goes at the first event after
    Flet destroys the session, when `run_task` raises and the service drops a listener that failed."""

    def __init__(self, app: PadApp, transport: SeatTransport) -> None:
        self.app = app
        self.transport = transport
        self._unsubscribe: Callable[[], None] | None = None
        try:
            view = transport.follow(self._on_event)
        except TableError as err:
            raise NotFound(err.message) from None
        self._unsubscribe = transport.stop
        narrow = (app.page.width or PHONE_WIDTH) < PHONE_WIDTH
        self.shown = BoardShown(board_from_view(view), sizes=IN_HAND if narrow else ACROSS_THE_ROOM)
        self.root = island(board_body, self.shown)

    @property
    def board(self) -> Board:
        return self.shown.board

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # --- live updates ---------------------------------------------------------------------------------------

    def _on_event(self, event: dict) -> None:
        """Called where the transport hears of a change (the service's writer thread, the page's channel event):
        hand the event to this window's loop."""
        self.app.page.run_task(self._apply, event)

    async def _apply(self, event: dict) -> None:
        """The board re-renders itself from its model (background work gets no page update)."""
        if event["kind"] == "expired":
            self.stop()
            self.shown.expired = True
        elif event["table"] is not None and event["version"] > self.shown.board.version:
            self.shown.board = board_from_view(event["table"])


# --- drawing ------------------------------------------------------------------------------------------------

def standings(board: Board, t: BoardType) -> ft.Control:
    rows = [ft.Row([ft.Text(f"{s.rank}.", size=t.large, width=44, weight=ft.FontWeight.BOLD),
                    ft.Text(s.name, size=t.large, expand=True),  # a long name wraps: never cut short
                    ft.Text(f"{s.total}", size=t.large, weight=ft.FontWeight.BOLD)])
            for s in board.standings]
    return sem("board-standings", _card(t, _("Standings"), *rows))


def bonuses(board: Board, t: BoardType) -> ft.Control:
    parts: list[ft.Control] = [ft.Text(_("Regions still open"), size=t.medium, weight=ft.FontWeight.W_600)]
    parts.append(sem("board-regions-open", ft.Row(
        [region_chip(r, t) for r in board.open_regions] or [ft.Text(wording.regions_none_left(), size=t.medium)],
        wrap=True, spacing=8, run_spacing=8)))
    if board.taken_regions:
        parts.append(ft.Text(_("Regions taken"), size=t.medium, weight=ft.FontWeight.W_600))
        parts.append(sem("board-regions-taken", ft.Column([taken_line(taken, t) for taken in board.taken_regions],
                                                          spacing=2)))
    if board.route is not None:
        parts.append(sem("board-route", route_lines(board.route, t)))
    return _card(t, _("Shared bonuses"), *parts)


def region_chip(region: OpenRegion, t: BoardType) -> ft.Control:
    return ft.Container(
        ft.Row([ft.Container(width=14, height=14, border_radius=7, bgcolor=region.color),
                # wraps rather than runs past the screen's side (a phone, large text)
                ft.Text(f"{region.name} +{region.points}", size=t.small, expand=True, expand_loose=True)],
               spacing=6, tight=True),
        padding=ft.Padding.symmetric(horizontal=10, vertical=4), border_radius=16,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))


def taken_line(taken: TakenBonus, t: BoardType) -> ft.Control:
    return ft.Text(_("{bonus} +{points}: {names} (round {round})").format(
        bonus=taken.name, points=taken.points, names=_names(taken.by), round=taken.round), size=t.small)


def route_lines(route: RouteBoard, t: BoardType) -> ft.Control:
    lines: list[ft.Control] = [
        ft.Text(_("{route}: {tiers}").format(route=route.name, tiers=tiers_text(route)), size=t.medium,
                weight=ft.FontWeight.W_600)]
    lines += [ft.Text(_("+{points}: {names} (round {round})").format(points=tier.points, names=_names(tier.by),
                                                                      round=tier.round), size=t.small)
              for tier in route.taken]
    return ft.Column(lines, spacing=2)


def sheet_card(board: Board, sheet: SheetColumn, t: BoardType) -> ft.Control:
    lines: list[ft.Control] = []
    for line in sheet.rounds:
        choice = f" · {line.choice}" if line.choice else ""
        head = _("R{round}").format(round=line.round) + f"  {line.cards}{choice}"
        total = ft.Text(f"{line.total}" if line.closed else _("entered"), size=t.medium,
                        weight=ft.FontWeight.BOLD if line.closed else None,
                        color=None if line.closed else ft.Colors.ON_SURFACE_VARIANT)
        lines.append(ft.Row([ft.Text(head, size=t.medium, weight=ft.FontWeight.W_500, expand=True), total]))
        if line.points:
            # one unbreakable item per category: a category's name never wraps away from its points
            lines.append(ft.Row([ft.Text(f"{name} {points}", size=t.small, no_wrap=True,
                                         color=ft.Colors.ON_SURFACE_VARIANT) for name, points in line.points],
                                wrap=True, spacing=14, run_spacing=0))
    if sheet.entering:
        lines.append(ft.Text(_("entering round {round}…").format(round=board.round), size=t.medium, italic=True,
                             color=ft.Colors.TERTIARY))
    header = ft.Row([ft.Text(sheet.name, size=t.large, weight=ft.FontWeight.BOLD, expand=True),
                     ft.Text(ngettext("{n} pts", "{n} pts", sheet.total).format(n=sheet.total), size=t.large,
                             weight=ft.FontWeight.BOLD)])
    leading = sheet.rank == 1 and sheet.total > 0
    return sem(f"board-sheet-{sheet.seat}", ft.Container(
        ft.Column([header, ft.Divider(height=4), *lines], spacing=4), padding=CARD_PAD, border_radius=12,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if leading else ft.Colors.SURFACE_CONTAINER_HIGHEST))


@screen("table_board")
def table_board(app: PadApp, code: str) -> Screen:
    """The big-screen board of table `code`: under `tourpad host`, which holds the tables, or on a TV or tablet
    joined to a host phone as a board (its read-only channel)."""
    screens = table_ui.table_screens(app)
    if screens is None:
        return table_ui.how_to_host()
    remote = screens.remote(code)
    try:
        transport = remote.transport if remote is not None else ServiceTransport(screens.service, code, "")
    except TableError as err:
        raise NotFound(err.message) from None
    board = BoardScreen(app, transport)
    title = _("Table {code} · {edition}").format(code=board.board.code, edition=board.board.edition)
    # focusable: a keyboard can reach the board to scroll it (it has no button of its own to land on)
    return Screen(title, ft.Container(ft.Semantics(content=board.root, focusable=True), padding=ft.Padding.all(20)),
                  on_leave=board.stop, full_width=True)
