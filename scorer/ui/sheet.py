"""The score sheet (one tab per player, like the paper pad) and the round summary."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft
import flet.canvas as cv

from rules import wording
from rules.engine import ROUNDS, passes_left
from rules.scoring import category_points
from scorer.locale import _, ngettext
from scorer.pad.categories import draft_base, form_values
from scorer.pad.contrast import text_on
from scorer.pad.entry import draft_for
from scorer.pad.errors import EntryError
from scorer.pad.game import LETTERS_MODE, PadState, undo_question
from scorer.pad.session import DRAFTS, SheetSession
from scorer.pad.townmap import has_town_map, town_map_view
from scorer.ui.app import NotFound, PadApp, Screen, island, note, screen, sem
from scorer.ui.confirm import ask
from scorer.ui.named import icon_button
from scorer.ui.pictogram import icon_reference, is_dark
from scorer.ui.text_size import DEFAULT_TEXT_SIZE

PAD = ft.Padding.symmetric(horizontal=12, vertical=10)
MAP_W = 330  # fits a 390 px phone less the page's and the card's padding and margins
COAST_BLUE = "#1565C0"
NAME_W, CELL_W, SUM_W = 112, 46, 52


def undo_button(app: PadApp, session: SheetSession) -> list[ft.Control]:
    """The app bar's Undo and Redo (a game on this device); none at a table, where each seat edits its own
    round. Undo says what it will undo and asks; the undone entry comes back as that keypad's draft. A
    finished game is corrected round by round instead: its app bar offers Edit round (the sheet's list)."""
    if not session.has_undo:
        return []
    state = session.state
    if state.finished:
        return [sem("edit-round", icon_button(ft.Icons.EDIT_NOTE, _("Edit round"),
                                              lambda e: app.go_to(session.place.route("sheet"))))]

    def after(what: str, done: str) -> None:
        app.toast(done.format(what=what))
        name, _params = app.route
        if name in (session.place.summary, session.place.end):
            app.go_to(session.place.route("sheet"))
        else:
            app.render()

    def undo_now() -> None:
        last = session.state.last_done
        try:
            what = session.undo()
        except EntryError as err:
            app.toast(str(err), error=True)
            return
        if last is not None:
            keep_undone_as_draft(session, *last)
        after(what, _("Undone: {what}"))

    def undo(e) -> None:
        last = session.reload().last_done
        if last is None:
            app.toast(_("nothing to undo"), error=True)
            return
        ask(app, undo_question(session.state, *last), yes=_("Undo"), no=_("Keep it"), on_yes=undo_now,
            identifier="undo-question")

    def redo(e) -> None:
        undone = session.reload().last_undone
        try:
            what = session.redo()
        except EntryError as err:
            app.toast(str(err), error=True)
            return
        if undone is not None and "player" in undone[1]:  # back as it was saved: its keypad draft is moot
            DRAFTS.drop((*session.draft_key, undone[1]["round"], undone[1]["player"]))
        after(what, _("Redone: {what}"))

    buttons = [sem("undo", icon_button(ft.Icons.UNDO, _("Undo the last entry"), undo,
                                       disabled=not session.can_undo))]
    if session.can_redo:
        buttons.append(sem("redo", icon_button(ft.Icons.REDO, _("Redo"), redo)))
    return buttons


def keep_undone_as_draft(session: SheetSession, kind: str, payload: dict) -> None:
    """An undone round entry is not lost: its letters and choice wait on that player's keypad as a draft (its
    numbers on the player's form, in a game entered by category)."""
    if kind != "entry":
        return
    r, p = payload["round"], payload["player"]
    if "categories" in payload:
        saved = (session.state.entries[r].get(p) or {}).get("categories", {})
        DRAFTS.keep((*session.draft_key, r, p), [], payload["categories"].get("choice"), base=draft_base(saved),
                    choice_made=True, categories=form_values(payload["categories"]))
        return
    if "cards" not in payload:
        return
    saved = draft_for(session.state, r, p)
    DRAFTS.keep((*session.draft_key, r, p), list(payload["cards"]), payload.get("choice"),
                base=(saved.cards, saved.choice), choice_made=True)


def cell(text: str, width: int, bold: bool = False, color=None, strike: bool = False,
         align=ft.TextAlign.CENTER) -> ft.Control:
    style = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if strike else None
    return ft.Container(ft.Text(text, weight=ft.FontWeight.BOLD if bold else None, color=color,
                                text_align=align, style=style, size=14),
                        width=width, alignment=ft.Alignment.CENTER if align == ft.TextAlign.CENTER
                        else ft.Alignment.CENTER_LEFT, padding=ft.Padding.symmetric(vertical=6))


def region_map(state: PadState, player: int, fixed_label: bool = True) -> ft.Control:
    """Letters by region; the letters this player has visited are crossed; the bonus is circled when
    this player scored it, struck out when someone else claimed it first. `fixed_label`: the region names
    in a column of their own (normal text), else each as wide as it needs."""
    edition = state.edition
    visited = state.visited(player)
    claims = state.region_claims()
    most = max(sum(1 for c in edition.cards if c.region == r.index) for r in edition.regions)
    circle, gap = (34, 4) if most <= 4 else (30, 3)
    rows = []
    for region in edition.regions:
        letters = []
        for card in edition.cards:
            if card.region != region.index:
                continue
            crossed = bool(visited >> card.index & 1)
            letters.append(ft.Container(
                ft.Text(card.letter, size=16, weight=ft.FontWeight.BOLD,
                        color=text_on(region.color) if crossed else ft.Colors.ON_SURFACE,
                        style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if crossed else None),
                width=circle, height=circle, alignment=ft.Alignment.CENTER, border_radius=circle // 2,
                bgcolor=region.color if crossed else None, border=ft.Border.all(2, region.color),
                tooltip=card.site_label))
        claim = claims.get(region.name)  # claims are by key
        scored = claim is not None and player in claim[1]
        bonus = ft.Container(
            ft.Text(f"+{region.bonus}", size=13, weight=ft.FontWeight.BOLD,
                    style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH)
                    if claim is not None and not scored else None,
                    color=ft.Colors.ON_SURFACE_VARIANT if claim is not None and not scored else None),
            width=40, height=30, alignment=ft.Alignment.CENTER, border_radius=15,
            border=ft.Border.all(2, ft.Colors.PRIMARY) if scored else None)
        # wraps: on a 320 px phone (or in large text) the letters and the bonus go under the region's name
        rows.append(ft.Row([
            ft.Row([ft.Container(width=6, height=30, bgcolor=region.color, border_radius=3),
                    # a long name wraps rather than being cut short; in large text, where the letters go
                    # under it, it takes the width it needs
                    ft.Text(region.label, size=13, width=(118 if most <= 4 else 110) if fixed_label else None,
                            expand=not fixed_label, expand_loose=True)], spacing=6, tight=True),
            ft.Row([ft.Container(ft.Row(letters, spacing=gap), width=most * circle + (most - 1) * gap), bonus],
                   spacing=6, tight=True)], spacing=6, wrap=True, run_spacing=4))
    status = state.route_status(player)
    if status is not None:
        rows.append(sem(f"route-status-{player + 1}", ft.Text(status, size=13, weight=ft.FontWeight.W_500)))
    tiers = route_tiers(state)
    if tiers is not None:
        rows.append(tiers)
    return ft.Column(rows, spacing=4)


def route_tiers(state: PadState) -> ft.Control | None:
    """The route bonus's tiers as the paper pad shows them: circled with who took each (and when), the one
    on offer next outlined, the rest still open."""
    marks = state.bonus_marks().route
    if marks is None:
        return None
    chips = []
    for tier in marks.tiers:
        takers = "; ".join(wording.tier_takers([state.players[p] for p in t.players], t.round)
                           for t in tier.takings)
        label = wording.tier_chip(tier.points, takers, tier.open, tier.on_offer_next)
        chips.append(ft.Container(
            ft.Text(label, size=12, weight=ft.FontWeight.W_500,
                    color=ft.Colors.ON_PRIMARY_CONTAINER if takers else None),
            padding=ft.Padding.symmetric(horizontal=8, vertical=3), border_radius=12,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if takers else None,
            border=ft.Border.all(2 if tier.on_offer_next else 1,
                                 ft.Colors.PRIMARY if tier.on_offer_next else ft.Colors.OUTLINE_VARIANT)))
    heading = ft.Text(_("{route}:").format(route=route_label(state)), size=12)
    return sem("route-tiers", ft.Row([heading, *chips], wrap=True, spacing=4, run_spacing=4))


def route_label(state: PadState) -> str:
    route = state.edition.route
    return route.label if route is not None else ""


def town_map(state: PadState, player: int) -> ft.Control:
    """USA: the town graph as on the paper pad (same layout): visited towns filled in their region's
    colour, the pathways this player has drawn solid, the others faint; coast towns ringed in blue."""
    view = town_map_view(state.edition, state.visited(player), MAP_W)
    faint = ft.Colors.with_opacity(0.28, ft.Colors.ON_SURFACE)
    shapes: list[cv.Shape] = []
    for line in sorted(view.pathways, key=lambda p: p.drawn):  # drawn ones on top
        paint = ft.Paint(color=ft.Colors.PRIMARY if line.drawn else faint, stroke_width=3.5 if line.drawn else 1.5,
                         style=ft.PaintingStyle.STROKE, stroke_cap=ft.StrokeCap.ROUND)
        elements = [cv.Path.MoveTo(*line.start),
                    cv.Path.QuadraticTo(*line.control, *line.end) if line.control is not None
                    else cv.Path.LineTo(*line.end)]
        shapes.append(cv.Path(elements, paint=paint))
    r = view.radius
    towns = []
    for town in view.towns:
        ring = ft.Border.all(2.5, COAST_BLUE) if town.coast else ft.Border.all(1.5, town.color)
        towns.append(ft.Container(
            ft.Text(town.letter, size=12, weight=ft.FontWeight.BOLD,
                    color=text_on(town.color) if town.visited else ft.Colors.ON_SURFACE),
            left=town.x - r, top=town.y - r, width=2 * r, height=2 * r, border_radius=r, border=ring,
            bgcolor=town.color if town.visited else ft.Colors.SURFACE, alignment=ft.Alignment.CENTER,
            tooltip=town.site))  # the town's name in the reader's language (scorer.pad.townmap)
    legend = ft.Row([ft.Container(width=14, height=14, border_radius=7, border=ft.Border.all(2.5, COAST_BLUE)),
                     ft.Text(_("coast town"), size=11, color=ft.Colors.ON_SURFACE_VARIANT),
                     ft.Container(width=18, height=3.5, bgcolor=ft.Colors.PRIMARY, border_radius=2),
                     ft.Text(_("pathway drawn"), size=11, color=ft.Colors.ON_SURFACE_VARIANT)], spacing=5)
    drawn = sum(1 for line in view.pathways if line.drawn)
    return ft.Column([
        ft.Row([ft.Text(_("WEST"), size=10, weight=ft.FontWeight.BOLD, color=ft.Colors.TERTIARY, expand=True),
                ft.Text(_("EAST"), size=10, weight=ft.FontWeight.BOLD, color=ft.Colors.TERTIARY)]),
        ft.Semantics(identifier=f"town-map-{player + 1}",
                     label=ngettext("Town map: {n} pathways drawn", "Town map: {n} pathways drawn",
                                    drawn).format(n=drawn),
                     content=ft.Stack([cv.Canvas(shapes, width=view.width, height=view.height), *towns],
                                      width=view.width, height=view.height)),
        legend], spacing=2, horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def family_references(state: PadState, dark: bool) -> ft.Control:
    """The icons behind the collection, pairs and choice rows, as on the pad's reference strip."""
    edition = state.edition
    rows = []
    for family, kind in ((edition.collection, "collection"), (edition.pairs, "pairs"), (edition.choice, "choice")):
        rows += [ft.Text(family.label, size=12, weight=ft.FontWeight.BOLD), icon_reference(family, kind, dark)]
    return ft.Column(rows, spacing=3)


def category_table(state: PadState, player: int) -> ft.Control:
    edition = state.edition
    names = edition.category_names()
    header = ft.Row([cell("", NAME_W),
                     *(cell(_("R{round}").format(round=r + 1), CELL_W, bold=True) for r in range(ROUNDS)),
                     cell("Σ", SUM_W, bold=True)], spacing=0)
    rows: list[ft.Control] = [header, ft.Divider(height=1)]
    scores = state.scores[player]
    by_category = [category_points(edition, s) for s in scores]
    for cid in edition.category_ids():
        values = [points[cid] for points in by_category]
        rows.append(ft.Row([cell(names[cid], NAME_W, align=ft.TextAlign.LEFT),
                            *(cell(str(values[r]) if r < len(values) else "·", CELL_W)
                              for r in range(ROUNDS)),
                            cell(str(sum(values)), SUM_W, bold=True)], spacing=0))
    rows.append(ft.Divider(height=1))
    rows.append(ft.Row([cell(_("Round total"), NAME_W, bold=True, align=ft.TextAlign.LEFT),
                        *(cell(str(scores[r].total) if r < len(scores) else "·", CELL_W, bold=True)
                          for r in range(ROUNDS)),
                        sem(f"sheet-total-{player + 1}", cell(str(state.totals()[player]), SUM_W, bold=True,
                                                          color=ft.Colors.PRIMARY))], spacing=0))
    problems = state.consistency_problems()
    check = ft.Row([ft.Icon(ft.Icons.CHECK_CIRCLE if not problems else ft.Icons.ERROR, size=16,
                            color=ft.Colors.PRIMARY if not problems else ft.Colors.ERROR),
                    ft.Text(_("Categories add up to the totals") if not problems else "; ".join(problems),
                            size=12, color=ft.Colors.ON_SURFACE_VARIANT, expand=True)], spacing=6)
    # focusable: a keyboard can reach the table to scroll it sideways (on a phone it is wider than the screen)
    table = ft.Semantics(content=ft.Column(rows, spacing=0), focusable=True)
    return ft.Column([ft.Row([table], scroll=ft.ScrollMode.AUTO), check], spacing=6)


def round_status(app: PadApp, session: SheetSession) -> ft.Control:
    state = session.state
    r = state.current_round
    if state.finished:
        return ft.FilledButton(_("Final ranking"), icon=ft.Icons.EMOJI_EVENTS,
                               on_click=lambda e: app.go_to(session.place.route("end")))
    entered = state.entered(r)
    buttons: list[ft.Control] = []
    for p, name in enumerate(state.players):
        if session.may_enter(r, p):
            if entered[p]:
                buttons.append(sem(f"enter-{p + 1}", ft.OutlinedButton(
                    _("{name}: entered").format(name=name), icon=ft.Icons.CHECK,
                    on_click=lambda e, p=p: open_entry(app, session, r, p))))
            else:
                buttons.append(sem(f"enter-{p + 1}", ft.FilledButton(
                    _("Enter {name}").format(name=name),
                    on_click=lambda e, p=p: open_entry(app, session, r, p))))
        else:  # another seat's phone enters it: only whether it has
            buttons.append(ft.Container(ft.Row([
                ft.Icon(ft.Icons.CHECK if entered[p] else ft.Icons.EDIT_NOTE, size=18,
                        color=ft.Colors.PRIMARY if entered[p] else ft.Colors.ON_SURFACE_VARIANT),
                # wraps, and the chip grows with it, rather than running past its side (large text): the
                # row's own child is what it lets flex, not the text under the semantics
                ft.Container(sem(f"entering-{p + 1}", ft.Text(
                    (_("{name}: entered") if entered[p] else _("{name}: entering…")).format(name=name),
                    weight=ft.FontWeight.W_500)), expand=True, expand_loose=True)], spacing=6, tight=True),
                padding=ft.Padding.symmetric(horizontal=14, vertical=12), border_radius=24,
                border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)))
    heading = wording.round_heading(r + 1, ROUNDS, passes_left(r, state.setup.n, True)
                                    if state.setup.direction_variant else None)
    waiting = [n for p, n in enumerate(state.players) if not entered[p]]
    return ft.Card(ft.Container(ft.Column([
        sem("round-status", ft.Text(heading,
                                    theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD)),
        sem("waiting-for", ft.Text(_("Waiting for {names}").format(names=", ".join(waiting)) if waiting else "",
                                   size=12, color=ft.Colors.ON_SURFACE_VARIANT)),
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)], spacing=6), padding=12))


def open_entry(app: PadApp, session: SheetSession, round_index: int, player: int) -> None:
    app.go_to(session.place.route("entry", round_index=round_index, player=player))


def rounds_history(app: PadApp, session: SheetSession) -> ft.Control:
    """Every entered round, every player: what was entered, with an Edit button where this device may."""
    state = session.state
    items: list[ft.Control] = []
    for r in range(ROUNDS):
        if not state.entries[r]:
            continue
        items.append(ft.Text((_("Round {round} (open)") if r >= state.rounds_done else _("Round {round}")).format(
                                 round=r + 1),
                             weight=ft.FontWeight.BOLD))
        for p, name in enumerate(state.players):
            payload = state.entries[r].get(p)
            if payload is None:
                continue
            if "cards" in payload:
                what = payload["cards"] + (f" · {choice_label(state, payload['choice'])}" if payload.get("choice")
                                           else "")
            else:
                what = _("by category")
            points = (ngettext("{n} pts", "{n} pts", state.scores[p][r].total).format(n=state.scores[p][r].total)
                      if r < state.rounds_done else _("entered"))
            items.append(ft.Row([
                ft.Text(name, width=70, weight=ft.FontWeight.W_500, max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS),
                ft.Container(sem(f"history-r{r + 1}-p{p + 1}", ft.Text(what)), expand=True),
                ft.Text(points, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                *([sem(f"edit-r{r + 1}-p{p + 1}", ft.TextButton(
                    _("Edit"), on_click=lambda e, r=r, p=p: open_entry(app, session, r, p)))]
                  if session.may_enter(r, p) else [])], spacing=6))
    if not items:
        items.append(ft.Text(_("Nothing entered yet."), color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Column(items, spacing=2)


def choice_label(state: PadState, name: str) -> str:
    """A recorded choice (its English key) as the reader names it."""
    family = state.edition.choice
    try:
        return family.icons[family.icon_index(name)].label
    except KeyError:
        return name


def player_tab_label(state: PadState, player: int) -> str:
    """A player's tab: their name and total over the closed rounds; before any round closes, the name
    alone (nothing is scored until a round closes, so "Ann · 0" would say she scored nothing)."""
    name = state.players[player]
    return f"{name} · {state.totals()[player]}" if state.rounds_done else name


@ft.observable
@dataclass(eq=False)
class GameView:
    """What a game's sheet screens (the sheet, a round's summary, the final ranking) show of it: its session
    (this device's game, a table's seat or host) and the sheet's player tab. Each screen is a component over
    it: a tab tapped re-renders the sheet, and a change made elsewhere (another seat's round, another tab's
    undo) is read again with `refresh`; only what changed is patched, and no control a tap may be aimed at
    is replaced."""

    session: SheetSession
    #: The sheet's player tab on show (a tap on a tab changes it: the screen is not drawn anew).
    player: int = 0
    #: The game as last shown (`shown_of`; not a field: `game_screen` re-renders at once when it changes,
    #: in the same turn, rather than at the update scheduler's next one).
    _shown: tuple = ()

    def refresh(self) -> bool:
        """Read the game again: whether the screen shows anything different now."""
        shown = shown_of(self.session)
        if shown == self._shown:
            return False
        self._shown = shown
        return True


def shown_of(session: SheetSession) -> tuple:
    """Everything of the game its sheet screens show: the entries (the open round's too), the names, the
    status lines, who may enter, undo and redo."""
    state = session.state
    return (state.rounds_done, repr(state.entries), state.players, tuple(session.status_lines()),
            tuple(session.may_enter(state.current_round, p) for p in range(state.setup.n))
            if not state.finished else (), session.can_undo, session.can_redo)


def frame_of(session: SheetSession) -> tuple:
    """What a sheet screen shows outside its component (its title, its app bar's Undo / Redo / Edit round):
    when it changes, the screen is drawn anew rather than re-rendered."""
    state = session.state
    return session.title, state.finished, session.has_undo, session.can_redo


def game_screen(app: PadApp, title: str, view: GameView, body: Callable[..., ft.Control], *args,
                still_shown: Callable[[], bool] = lambda: True, on_leave: Callable[[], None] | None = None
                ) -> Screen:
    """A sheet screen over `view`: `body` (a component) renders it; when the game changes elsewhere it is
    re-rendered in place, unless its frame changed or it no longer has anything to show (`still_shown`: an
    undone round's summary), when it is drawn anew."""
    session = view.session
    view.refresh()
    frame = frame_of(session)
    actions = undo_button(app, session)
    undo = next((a.content for a in actions if a.identifier == "undo"), None)
    component = island(body, view, app, *args)

    def on_change() -> None:
        if frame_of(session) != frame or not still_shown():
            app.render()
            return
        if undo is not None:  # the first entry, or the last one undone
            undo.disabled = not session.can_undo
        with contextlib.suppress(RuntimeError):  # not on the page (being drawn anew): the next draw shows it
            if view.refresh():
                component.update()  # re-rendered now: a screen Back returns to is up to date when shown
            if undo is not None:
                undo.update()

    return Screen(title, ft.Container(component, padding=PAD), actions=actions, on_leave=on_leave,
                  on_change=on_change)


def sheet_screen(app: PadApp, session: SheetSession, player: int = 0) -> Screen:
    """The score sheet of a game wherever it lives (this device, a table): one tab per player."""
    state = session.state
    view = GameView(session, player=player if 0 <= player < state.setup.n else 0)
    app.keep_awake(not state.finished)
    return game_screen(app, session.title, view, sheet_body, on_leave=lambda: app.keep_awake(False))


def show_tab(app: PadApp, view: GameView, player: int) -> None:
    """A tap on a player's tab: the sheet shows that player's (re-rendered, not drawn anew), and the sheet's
    route remembers it (Back from a keypad, a reload come back to it)."""
    view.player = player
    app.remember(view.session.place.route("sheet", player=player))


@ft.component
def sheet_body(view: GameView, app: PadApp) -> ft.Control:
    """The sheet over `view`: the round's status and who may enter, the player tabs, that player's map and
    categories, and every round entered."""
    session, player = view.session, view.player
    state = session.state
    tabs = ft.Row([
        sem(f"tab-{p + 1}", ft.OutlinedButton(
            player_tab_label(state, p), style=picked_style(p == player),
            on_click=lambda e, p=p: show_tab(app, view, p)))
        for p in range(state.setup.n)], wrap=True, spacing=6, run_spacing=6)
    parts: list[ft.Control] = [*(sem("sheet-status", ft.Text(line, size=13, weight=ft.FontWeight.W_500))
                                 for line in session.status_lines()),
                               round_status(app, session), tabs]
    if state.setup.mode == LETTERS_MODE:
        places = [region_map(state, player, fixed_label=app.text_size == DEFAULT_TEXT_SIZE)]
        if has_town_map(state.edition):
            places.insert(0, town_map(state, player))
        parts.append(ft.Card(ft.Container(ft.Column(places, spacing=8), padding=10)))
    parts += [ft.Card(ft.Container(ft.Column([category_table(state, player),
                                              family_references(state, is_dark(app.page))], spacing=8),
                                   padding=10)),
              ft.Text(_("Rounds"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
              rounds_history(app, session)]
    return ft.Column(parts, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def picked_style(chosen: bool) -> ft.ButtonStyle:
    """An outlined button filled when it is the one picked (a player's tab, a category entry's choice): one
    button either way, restyled, so that a quick tap on another finds the button it was aimed at."""
    return ft.ButtonStyle(bgcolor=ft.Colors.PRIMARY if chosen else None,
                          color=ft.Colors.ON_PRIMARY if chosen else None,
                          side=ft.BorderSide(1, ft.Colors.PRIMARY) if chosen else None, animation_duration=0)


def round_summary_screen(app: PadApp, session: SheetSession, round_index: int) -> Screen:
    """A closed round of a game wherever it lives (this device, a table)."""
    state = session.state
    if round_index >= ROUNDS:
        raise NotFound(_("A game has {rounds} rounds, not {number}.").format(rounds=ROUNDS, number=round_index + 1))
    if round_index >= state.rounds_done:  # not closed yet, or undone meanwhile
        return sheet_screen(app, session)
    return game_screen(app, _("Round {round}").format(round=round_index + 1), GameView(session), summary_body,
                       round_index, still_shown=lambda: round_index < session.state.rounds_done)


@ft.component
def summary_body(view: GameView, app: PadApp, round_index: int) -> ft.Control:
    """A closed round over `view`, and the way on: the next round, or the final ranking after the last."""
    place = view.session.place
    last = round_index == ROUNDS - 1
    return round_summary_view(view.session.state, round_index, to_end=last,
                              on_proceed=lambda e: app.go_to(place.route("end" if last else "sheet")))


def round_summary_view(state: PadState, round_index: int, to_end: bool, on_proceed) -> ft.Control:
    """A closed round, drawn alike for every game (the pad, a table's seats, solo): who took which shared
    bonus and why, then each player, highest total first: the round's points, the total after it, the
    points by category, the row and choice entered, and the rules' lines explaining the score. Its button
    goes on to the final ranking (`to_end`) or to the next round."""
    edition = state.edition
    names = edition.category_names()
    running = state.running_totals()
    cards = []
    order = sorted(range(state.setup.n), key=lambda p: -running[p][round_index])
    for p in order:
        score = state.scores[p][round_index]
        gains = [f"{names[cid]} +{v}" for cid, v in category_points(edition, score).items() if v]
        lines: list[ft.Control] = [
            ft.Row([ft.Text(state.players[p], theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                            weight=ft.FontWeight.BOLD, expand=True),
                    sem(f"summary-gain-{p + 1}", ft.Text(f"+{score.total}", size=20,
                                                         weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)),
                    sem(f"summary-total-{p + 1}", ft.Text(f"= {running[p][round_index]}", size=16))]),
            ft.Text(", ".join(gains) or _("no points"), size=13)]
        entry = state.entries[round_index].get(p, {})
        if "cards" in entry:
            choice = entry.get("choice")
            lines.append(ft.Text((_("Row {row} · scored {choice}") if choice else _("Row {row}")).format(
                row=entry["cards"], choice=choice_label(state, choice) if choice else None), size=12))
        lines += [ft.Text(line, size=12, color=ft.Colors.ON_SURFACE_VARIANT)
                  for line in state.notes[p][round_index] if line]
        cards.append(ft.Card(ft.Container(ft.Column(lines, spacing=4), padding=12)))
    bonuses = state.bonus_summary(round_index)
    proceed = ft.FilledButton(_("Final ranking") if to_end else _("Start round {round}").format(round=round_index + 2),
                              icon=ft.Icons.EMOJI_EVENTS if to_end else ft.Icons.ARROW_FORWARD, on_click=on_proceed)
    return ft.Column([
        sem("summary-title", ft.Text(_("Round {round} closed").format(round=round_index + 1), weight=ft.FontWeight.BOLD,
                                     theme_style=ft.TextThemeStyle.HEADLINE_SMALL)),
        ft.Text(_("Shared bonuses this round"), theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                weight=ft.FontWeight.BOLD),
        sem("summary-bonuses", ft.Column([note(line) for line in bonuses] or
                                         [ft.Text(_("Nobody took a shared bonus this round."), size=13)],
                                         spacing=2)),
        *cards, proceed], spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


@screen("sheet")
def sheet(app: PadApp, game_id: int, player: int = 0) -> Screen:
    return sheet_screen(app, app.open_game(game_id), player)


@screen("round_summary")
def round_summary(app: PadApp, game_id: int, round_index: int) -> Screen:
    return round_summary_screen(app, app.open_game(game_id), round_index)
