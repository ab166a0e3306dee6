"""Game end: ranking with tie-breaks, category breakdown, running-totals chart, exports."""

from __future__ import annotations

import contextlib
import itertools

import flet as ft
import flet.canvas as cv

from rules.engine import ROUNDS
from scorer.locale import _
from scorer.pad.chart import PLAYER_COLORS, layout
from scorer.pad.errors import EntryError
from scorer.pad.game import LETTERS_MODE, GameSession, PadState
from scorer.pad.session import SheetSession
from scorer.ui.app import PadApp, Screen, screen, sem
from scorer.ui.sheet import GameView, game_screen, sheet_screen

#: Gold, silver, bronze: dark enough for 3:1 on the light theme's surface, light enough for the dark one's.
MEDALS = {1: "#A67C00", 2: "#7D8A96", 3: "#B0703A"}


def chart(running: list[list[int]], players: list[str] | tuple[str, ...]) -> ft.Control:
    """The running-totals chart: one line per player over the rounds (the score pad's and solo games')."""
    geo = layout(running, ROUNDS)
    shapes: list = []
    muted = ft.Paint(color=ft.Colors.OUTLINE_VARIANT, stroke_width=1)
    small = ft.TextStyle(size=10, color=ft.Colors.ON_SURFACE_VARIANT)
    for y, label in geo.grid:
        shapes.append(cv.Line(geo.margin, y, geo.width - geo.margin, y, paint=muted))
        shapes.append(cv.Text(2, y - 7, label, style=small))
    for x, label in geo.ticks:
        shapes.append(cv.Text(x - 10, geo.height - geo.margin + 6, label, style=small))
    for p, line in enumerate(geo.lines):
        paint = ft.Paint(color=PLAYER_COLORS[p], stroke_width=3, style=ft.PaintingStyle.STROKE)
        for (x1, y1), (x2, y2) in itertools.pairwise(line):
            shapes.append(cv.Line(x1, y1, x2, y2, paint=paint))
        for x, y in line:
            shapes.append(cv.Circle(x, y, 4, paint=ft.Paint(color=PLAYER_COLORS[p])))
    legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=PLAYER_COLORS[p], border_radius=7),
                             ft.Text(name, size=12)], spacing=4) for p, name in enumerate(players)],
                    wrap=True, spacing=12)
    return ft.Column([cv.Canvas(shapes, width=geo.width, height=geo.height), legend], spacing=6)


def podium_card(seat: int, place: int, name: str, total: int) -> ft.Control:
    """One line of the final ranking (seat counts from 1: the test hooks rank-<seat>, final-total-<seat>)."""
    return ft.Card(ft.Container(ft.Row([
        ft.Icon(ft.Icons.EMOJI_EVENTS, size=30, color=MEDALS.get(place, ft.Colors.OUTLINE)),
        ft.Container(sem(f"rank-{seat}", ft.Text(_("#{place} {name}").format(place=place, name=name), size=18,
                                                      weight=ft.FontWeight.BOLD)),
                     expand=True),
        sem(f"final-total-{seat}", ft.Text(str(total), size=22, weight=ft.FontWeight.BOLD,
                                           color=ft.Colors.PRIMARY))]), padding=12))


#: What a 390 px phone leaves the breakdown's card (the page's and the card's padding taken off).
BREAKDOWN_W = 330
LABEL_W, GAP = 110, 4


def breakdown(state: PadState) -> ft.Control:
    """Category × player totals; the columns share the phone's width (4 players fit without scrolling)."""
    names = state.edition.category_names()
    col_w = min(64, (BREAKDOWN_W - LABEL_W) // state.setup.n - GAP)
    right = ft.TextAlign.RIGHT

    def row(label: ft.Text, cells: list[ft.Text]) -> ft.Row:
        return ft.Row([label, *cells], spacing=GAP)

    rows = [row(ft.Text("", width=LABEL_W),
                [ft.Text(n, width=col_w, weight=ft.FontWeight.BOLD, max_lines=1,
                         overflow=ft.TextOverflow.ELLIPSIS, text_align=right) for n in state.players])]
    per_player = [state.category_totals(p) for p in range(state.setup.n)]
    for cid in state.edition.category_ids():
        rows.append(row(ft.Text(names[cid], width=LABEL_W, size=13),
                        [ft.Text(str(per_player[p][cid]), width=col_w, size=13, text_align=right)
                         for p in range(state.setup.n)]))
    rows.append(row(ft.Text(_("Total"), width=LABEL_W, weight=ft.FontWeight.BOLD),
                    [ft.Text(str(t), width=col_w, weight=ft.FontWeight.BOLD, text_align=right)
                     for t in state.totals()]))
    return ft.Row([ft.Column(rows, spacing=4)], scroll=ft.ScrollMode.AUTO)


def export(app: PadApp, session: SheetSession, kind: str, copy: bool) -> None:
    """Write the export beside the games database, offer it as a download, or copy it."""
    from scorer.packs import data_dir

    state = session.state
    try:
        text = state.record().model_dump_json(indent=2) + "\n" if kind == "json" else state.csv_text()
    except EntryError as err:
        app.toast(str(err), error=True)
        return
    name = f"{session.export_name}.{kind}"

    async def deliver() -> None:
        if copy:
            await ft.Clipboard().set(text)
            app.toast(_("{kind} copied to the clipboard").format(kind=kind.upper()))
            return
        folder = data_dir() / "exports"
        folder.mkdir(exist_ok=True)
        path = folder / name
        path.write_text(text, encoding="utf-8")
        with contextlib.suppress(Exception):  # no save dialog on this platform: the file on disk is it
            await ft.FilePicker().save_file(file_name=name, src_bytes=text.encode("utf-8"))
        app.toast(_("Saved {path}").format(path=path))

    app.page.run_task(deliver)


def start_rematch(app: PadApp, session: GameSession) -> None:
    try:
        game = session.rematch()
    except KeyError as err:  # the game's deck pack was removed since: say so, change nothing
        app.toast(err.args[0], error=True)
        return
    app.session = game
    app.go("sheet", game_id=game.game_id)


@screen("end")
def game_end(app: PadApp, game_id: int) -> Screen:
    return end_screen(app, app.open_game(game_id))


def end_screen(app: PadApp, session: SheetSession) -> Screen:
    """The final ranking of a game wherever it lives, with the chart and the exports."""
    if not session.state.finished:
        return sheet_screen(app, session)
    return game_screen(app, _("Final ranking"), GameView(session), end_body,
                       still_shown=lambda: session.state.finished)


@ft.component
def end_body(view: GameView, app: PadApp) -> ft.Control:
    """The final ranking over `view`, then a rematch (a game on this device), the exports and the way on."""
    session = view.session
    state = session.state
    exports = ft.Row([
        *([ft.FilledTonalButton(_("Save JSON"), icon=ft.Icons.SAVE_ALT,
                                on_click=lambda e: export(app, session, "json", False)),
           ft.OutlinedButton(_("Copy JSON"), icon=ft.Icons.COPY,
                             on_click=lambda e: export(app, session, "json", True))]
          if state.setup.mode == LETTERS_MODE else []),
        ft.FilledTonalButton(_("Save CSV"), icon=ft.Icons.TABLE_CHART,
                             on_click=lambda e: export(app, session, "csv", False)),
    ], wrap=True, spacing=8, run_spacing=8)
    # the one-phone game: the same players, edition and variant again in one tap (a table's next game is
    # the host's Play again)
    rematch = ([sem("rematch", ft.FilledButton(_("Rematch"), icon=ft.Icons.REPLAY,
                                               tooltip=_("A new game: the same players, edition and variant"),
                                               on_click=lambda e: start_rematch(app, session)))]
               if isinstance(session, GameSession) else [])
    return final_ranking_view(state, after_podium=rematch, closing=[
        ft.Text(_("Export"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        exports,
        ft.Row([ft.OutlinedButton(_("Score sheet"), icon=ft.Icons.GRID_ON,
                                  on_click=lambda e: app.go_to(session.place.route("sheet"))),
                ft.OutlinedButton(_("Home"), icon=ft.Icons.HOME, on_click=lambda e: app.go("home"))],
               wrap=True, spacing=8)])


def final_ranking_view(state: PadState, after_podium: list[ft.Control], closing: list[ft.Control]) -> ft.Control:
    """A finished game's final ranking, drawn alike for every game (the pad, a table's seats, solo): the
    winner, the podium (hooks by seat), how ties were settled, the points by category, the running totals;
    `after_podium` and `closing` are what the screen offers besides (a rematch, exports, the way home)."""
    ranks, totals = state.ranks(), state.totals()
    order = sorted(range(state.setup.n), key=lambda p: (ranks[p], -totals[p]))
    podium = [podium_card(p + 1, ranks[p], state.players[p], totals[p]) for p in order]
    ties = state.tie_breaks()
    problems = state.consistency_problems()
    return ft.Column([
        sem("winner", ft.Text(_("{name} wins!").format(name=state.players[order[0]]) if ranks.count(1) == 1
                              else _("Shared victory!"), theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                              weight=ft.FontWeight.BOLD)),
        *podium,
        *after_podium,
        sem("tie-breaks", ft.Text("\n".join(ties) if ties else _("No ties."), size=13,
                                  color=ft.Colors.ON_SURFACE_VARIANT)),
        ft.Text(_("By category"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        ft.Card(ft.Container(breakdown(state), padding=10)),
        ft.Row([ft.Icon(ft.Icons.CHECK_CIRCLE if not problems else ft.Icons.ERROR, size=16,
                        color=ft.Colors.PRIMARY if not problems else ft.Colors.ERROR),
                ft.Text("; ".join(problems) or _("Categories add up to the totals"), size=12, expand=True)]),
        ft.Text(_("Running totals"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
        ft.Card(ft.Container(chart(state.running_totals(), state.players), padding=10)),
        *closing,
    ], spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
