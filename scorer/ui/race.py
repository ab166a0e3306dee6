"""Race Around Europe screens in the app: the journey checker and solo play against a bot.

The screens only draw what `scorer.race.checker` and `scorer.race.solo` say and forward taps to them.
Each app window keeps one `RaceScreens` (the entered tiles, the open solo game) across redraws; each screen's
body is a component over it (`race_body`): a tap changes the state and re-renders the body, and only what
changed is patched (the tile tapped, and the one tapped next, keep their identity).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

import flet as ft
import flet.canvas as cv

from rules.race.board import Board
from rules.race.journey import BROKEN, OK
from scorer.locale import _, ngettext
from scorer.pad.store import EventStore
from scorer.race import history
from scorer.race.checker import CheckerInputError, JourneyChecker
from scorer.race.map_view import MapPicture, map_picture
from scorer.race.solo import SoloError, SoloRace, bot_label
from scorer.ui.app import PadApp, Screen, island, live_text, quiet, screen, sem

#: The "Trip 1" column: wide enough for "Voyage 10" on one line.
TRIP_LABEL_W = 76

TILE_COLOURS = {"blue": "#6FA8DC", "green": "#7CC47F", "orange": "#F6A85B", "pink": "#F2A2C0",
                "yellow": "#F5D95A"}
SEA_COLOURS = {"Atlantic": "#1F4E79", "Mediterranean": "#0E7C7F", "Baltic": "#6A4C93"}
LINK_LOOK = {OK: (ft.Icons.CHECK_CIRCLE, ft.Colors.PRIMARY), BROKEN: (ft.Icons.CANCEL, ft.Colors.ERROR)}


def tile_look(board: Board, name: str | None) -> tuple[str, str]:
    """(background, text colour) for a tile name, as on the printed tiles."""
    if name is None:
        return "#ECEFF1", "#546E7A"
    kind = board.kind_of(name)
    if board.is_country(kind):
        return TILE_COLOURS[("blue", "green", "orange", "pink", "yellow")[board.colour[kind]]], "#000000"
    key = board.kind_name(kind)  # "pink aeroplane", "Baltic ship": the English key, whatever is shown
    if board.is_plane(kind):
        return TILE_COLOURS[key.split()[0]], "#000000"
    return SEA_COLOURS[key.split()[0]], "#FFFFFF"


JOURNEY_INK, REACH_INK, HAND_INK = "#263238", "#00897B", "#1565C0"
FERRY_INK, BORDER_INK = "#C62828", "#9E9E9E"


def trip_list(trips) -> str:
    return ", ".join(str(t) for t in trips)


def map_control(picture: MapPicture) -> ft.Control:
    """The schematic map on a canvas, wider than a phone: it scrolls sideways (names stay readable)."""
    shapes: list = []
    for stroke in sorted(picture.strokes, key=lambda s: s.on_journey):
        if stroke.on_journey:
            paint = ft.Paint(color=JOURNEY_INK, stroke_width=4, style=ft.PaintingStyle.STROKE)
        elif stroke.kind == "border":
            paint = ft.Paint(color=BORDER_INK, stroke_width=1.2, style=ft.PaintingStyle.STROKE)
        else:
            paint = ft.Paint(color=FERRY_INK, stroke_width=3 if stroke.kind == "bridge" else 1.6,
                             style=ft.PaintingStyle.STROKE,
                             stroke_dash_pattern=None if stroke.kind == "bridge" else [5, 3])
        elements: list = [cv.Path.MoveTo(*stroke.points[0])]
        elements += [cv.Path.LineTo(*p) for p in stroke.points[1:]]
        shapes.append(cv.Path(elements, paint=paint))
    someone_reached = any(b.reach for b in picture.boxes)
    for b in picture.boxes:
        fill = TILE_COLOURS[b.colour]
        if someone_reached and not (b.reach or b.trips or b.in_hand):
            fill = ft.Colors.with_opacity(0.35, fill)  # a tile in hand: what it cannot reach fades
            shapes.append(cv.Rect(b.left, b.top, b.width, b.height, border_radius=4,
                                  paint=ft.Paint(color="#FFFFFF")))  # the lines stop at the box
        shapes.append(cv.Rect(b.left, b.top, b.width, b.height, border_radius=4, paint=ft.Paint(color=fill)))
        ink, width = ("#546E7A", 0.8)
        if b.in_hand:
            ink, width = HAND_INK, 3
        elif b.reach:
            ink, width = REACH_INK, 3
        elif b.trips:
            ink, width = JOURNEY_INK, 2.5
        shapes.append(cv.Rect(b.left, b.top, b.width, b.height, border_radius=4,
                              paint=ft.Paint(color=ink, stroke_width=width, style=ft.PaintingStyle.STROKE)))
        shapes.append(cv.Text(b.left + b.width / 2, b.top + b.height / 2, b.label,
                              style=ft.TextStyle(size=7.5, color="#000000", weight=ft.FontWeight.BOLD, height=1.0),
                              alignment=ft.Alignment.CENTER, text_align=ft.TextAlign.CENTER,
                              max_width=b.width - 4, max_lines=2, ellipsis="…"))
        if b.trips:
            label = trip_list(b.trips)
            w = 7 + 5.5 * len(label)
            shapes.append(cv.Rect(b.left - 3, b.top - 6, w, 11, border_radius=5, paint=ft.Paint(color=JOURNEY_INK)))
            shapes.append(cv.Text(b.left - 3 + w / 2, b.top - 0.5, label, alignment=ft.Alignment.CENTER,
                                  style=ft.TextStyle(size=8, color="#FFFFFF", weight=ft.FontWeight.BOLD)))
    canvas = cv.Canvas(shapes, width=picture.width, height=picture.height)
    return sem("race-map", ft.Row([canvas], scroll=ft.ScrollMode.AUTO))


def map_caption(board: Board, picture: MapPicture, in_hand: str | None) -> str:
    """What the map's marks mean, and where the tile in hand would connect."""
    if in_hand is None:
        return _("Black outlines and numbers: the trips of your journey; thick lines: its borders. "
                 "The map is wider than the screen: swipe it sideways.")
    if picture.fits:
        fits = ngettext("{tile} links to the countries outlined in teal; it would connect at trip {trips}.",
                        "{tile} links to the countries outlined in teal; it would connect at trips {trips}.",
                        len(picture.fits)).format(tile=in_hand, trips=trip_list(s + 1 for s in picture.fits))
    else:
        fits = _("{tile} links to the countries outlined in teal; it connects at no trip of your journey "
                 "as it stands.").format(tile=in_hand)
    return fits


class RaceScreens:
    def __init__(self, rerender: Callable[[], None], board: Board, data_dir: Path,
                 store: EventStore | None = None) -> None:
        """`store`: History, where each finished solo game is kept (`scorer.race.history`)."""
        self.rerender = rerender
        self.board = board
        self.data_dir = data_dir
        self.store = store
        self.checker = JourneyChecker(board)
        self.selected = 0
        self.filter = ""
        self.solo: SoloRace | None = None
        self.pile = 0
        self.message: str | None = None
        #: The message is a hint (shown in blue), not a refusal (red).
        self.message_is_hint = False
        # The search field as last drawn, and the text it was drawn with: a re-render while the phone is still
        # sending keystrokes takes the field's newer text (`scorer.ui.app.live_text`)
        self._search: ft.Ref[ft.TextField] = ft.Ref()
        self._search_drawn = ""
        #: The bot level of a new game asked for while one is running, until the player confirms.
        self.confirm_new: str | None = None

    def render(self) -> None:
        self.rerender()

    def with_message(self, content: ft.Control) -> ft.Control:
        items: list[ft.Control] = []
        if self.message:
            colour = ft.Colors.TERTIARY if self.message_is_hint else ft.Colors.ERROR
            items.append(sem("race-message", ft.Text(self.message, color=colour)))
        items.append(content)
        return ft.Container(ft.Column(items, spacing=12), padding=16)

    def open_solo(self) -> SoloRace:
        if self.solo is None:
            self.solo = self._resume_or_new()
            self._keep_if_over()  # a game that ended before the app closed, and was not kept yet
        return self.solo

    def _keep_if_over(self) -> None:
        if self.store is not None and self.solo is not None:
            history.keep(self.store, self.solo)

    # --- journey checker --------------------------------------------------------------------------------

    def tile_chip(self, name: str | None, label: str, on_click=None, selected: bool = False,
                  identifier: str | None = None, compact: bool = False) -> ft.Control:
        """A tile as a coloured chip; `compact` for a third of a phone's width (a discard pile), where the
        longest word ("Mediterranean") must still fit on its line."""
        bg, fg = tile_look(self.board, name)
        chip = ft.Container(
            ft.Text(name or label, color=fg, weight=ft.FontWeight.BOLD, size=11 if compact else 14),
            bgcolor=bg, border_radius=8,
            padding=ft.Padding.symmetric(horizontal=6 if compact else 12, vertical=10),
            border=ft.Border.all(3, "#263238") if selected else None, on_click=on_click, expand=True)
        if not identifier:
            return chip
        # Keyed by whether it takes taps: a tile that starts or stops taking them is drawn anew rather than
        # patched: Flutter's web engine drops a semantics node's identifier when a patch changes its role (a
        # button no more), and the tile's hook would be gone (seen on a placed setup tile).
        marked = sem(identifier, chip)
        marked.key = f"{identifier}-{'tappable' if on_click else 'still'}"
        return marked

    def link_row(self, state: str, reason: str | None) -> ft.Control:
        icon, colour = LINK_LOOK.get(state, (ft.Icons.MORE_VERT, ft.Colors.ON_SURFACE_VARIANT))
        parts: list[ft.Control] = [ft.Icon(icon, color=colour, size=18)]
        if reason:
            parts.append(ft.Text(reason, color=colour, size=12, expand=True))
        return ft.Row(parts, spacing=6)

    def checker_body(self) -> ft.Control:
        report = self.checker.report()
        rows: list[ft.Control] = []
        for slot in range(10):
            rows.append(ft.Row([
                ft.Text(_("Trip {n}").format(n=slot + 1), width=TRIP_LABEL_W),
                self.tile_chip(report.tiles[slot], _("tap, then pick a tile"), selected=slot == self.selected,
                               on_click=lambda e, s=slot: self.select(s), identifier=f"trip-{slot + 1}"),
            ]))
            if slot < 9:
                rows.append(ft.Container(self.link_row(report.links[slot], report.reasons[slot]),
                                         padding=ft.Padding.only(left=TRIP_LABEL_W)))
        headline = sem("race-headline", ft.Text(
            report.headline, weight=ft.FontWeight.BOLD, size=16,
            color="#2E7D32" if report.complete else None))
        boards = self.board_choices()
        chooser: list[ft.Control] = []
        if len(boards) > 1:  # an owner imported their board's colours: aeroplanes follow those
            chooser.append(ft.Dropdown(
                label=_("Board colours"), value=self.board.id, dense=True,
                options=[ft.DropdownOption(key=b, text=b) for b in boards],
                on_select=lambda e: self.use_board(e.control.value)))
        details: list[ft.Control] = [ft.Text(f, size=13) for f in report.problems]
        if report.fixes:
            details.append(ft.Text(_("Best single replacement:"), weight=ft.FontWeight.BOLD))
            details.append(ft.Text(_("Tap one to make that replacement."), size=12))
            details += [sem(f"fix-{i}", ft.Container(
                ft.Row([ft.Icon(ft.Icons.SWAP_HORIZ, size=16, color="#1565C0"),
                        ft.Text(line, size=13, color="#1565C0", expand=True)], spacing=4),
                on_click=lambda e, move=move: self.apply_fix(*move), padding=ft.Padding.symmetric(vertical=4)))
                for i, (line, move) in enumerate(zip(report.fixes[:6], report.fix_moves, strict=False))]
            if len(report.fixes) > 6:
                details.append(ft.Text(_("… and {n} more").format(n=len(report.fixes) - 6), size=12))
        elif report.faults:
            details.append(ft.Text(_("No single replacement improves this journey."), size=13))
        typed = live_text(self._search)
        if typed is not None and typed != self._search_drawn:  # typed on the phone since it was drawn
            self.filter = typed
        self._search_drawn = self.filter
        search = ft.TextField(label=_("Find a tile"), value=self.filter, dense=True, ref=self._search,
                              on_change=lambda e: self.set_filter(e.control.value),
                              on_submit=lambda e: self.pick_single(e.control.value))
        search_note = sem("search-note", ft.Text(self.checker.search_note(self.filter) or "", size=12,
                                                  color="#C62828"))
        palette = sem("palette", ft.Row(self.palette_items(), wrap=True, spacing=6, run_spacing=6))
        return ft.Column([
            *chooser, headline, ft.Column(rows, spacing=2), *details,
            ft.Row([ft.Text(_("Choose trip {n}:").format(n=self.selected + 1), weight=ft.FontWeight.BOLD),
                    ft.TextButton(_("Clear trip {n}").format(n=self.selected + 1), icon=ft.Icons.BACKSPACE_OUTLINED,
                                  on_click=lambda e: self.clear_slot(self.selected)),
                    ft.TextButton(_("Clear all"), icon=ft.Icons.CLEAR_ALL, on_click=lambda e: self.clear())],
                   wrap=True),
            search, search_note, palette,
            map_control(map_picture(self.board, self.checker.slots)),
            ft.Text(map_caption(self.board, map_picture(self.board, self.checker.slots), None), size=12),
        ], spacing=8)

    def select(self, slot: int) -> None:
        self.selected = slot
        self.render()

    def board_choices(self) -> tuple[str, ...]:
        from scorer.packs import board_ids

        return board_ids()

    def use_board(self, board_id: str) -> None:
        """Check (and start solo games) with another board's colours; the entered tiles stay."""
        from rules.race.board import BoardDataError
        from scorer.packs import resolve_board

        try:
            self.board = resolve_board(board_id)
        except (KeyError, BoardDataError) as err:
            self.message = (str(err.args[0]) if isinstance(err, KeyError)
                            else _("board {board!r}: {error}").format(board=board_id, error=err))
        else:
            self.checker.board = self.board
            self.message = None
        self.message_is_hint = False
        self.render()

    def palette_items(self) -> list[ft.Control]:
        names = self.checker.matches(self.filter, limit=60) if self.filter else self.checker.tile_names()
        return [ft.Container(ft.Text(n, size=12, color=tile_look(self.board, n)[1]),
                             bgcolor=tile_look(self.board, n)[0], border_radius=6,
                             padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                             on_click=lambda e, n=n: self.pick(n))
                for n in names]

    def set_filter(self, text: str) -> None:
        """Typing narrows the palette (the search field keeps its identity, and so its focus)."""
        self.filter = text
        self.render()

    def pick_single(self, text: str) -> None:
        """Enter in the search field: the one tile it matches goes in; several or none, the list stays."""
        self.filter = text
        names = self.checker.matches(text, limit=2) if text.strip() else []
        if len(names) == 1:
            self.pick(names[0])
        else:
            self.set_filter(text)

    def pick(self, name: str) -> None:
        try:
            self.checker.set_tile(self.selected, name)
        except CheckerInputError as err:
            self.message = str(err)
        else:
            self.message = None
            self.message_is_hint = False
            self.selected = min(self.selected + 1, 9)
            self.filter = ""
        self.render()

    def apply_fix(self, slot: int, name: str) -> None:
        try:
            self.checker.apply_fix(slot, name)
        except CheckerInputError as err:
            self.message = str(err)
        else:
            self.message = None
            self.selected = slot
        self.render()

    def clear_slot(self, slot: int) -> None:
        self.checker.clear(slot)
        self.selected = slot
        self.render()

    def clear(self) -> None:
        self.checker.clear()
        self.selected = 0
        self.render()

    # --- solo -------------------------------------------------------------------------------------------

    @property
    def solo_path(self) -> Path:
        return self.data_dir / "race-solo.json"

    def _resume_or_new(self) -> SoloRace:
        if self.solo_path.is_file():
            try:
                return SoloRace.load(self.solo_path)
            except SoloError as err:
                self.message = _("{error}; started a new game").format(error=err)
                self.message_is_hint = False
        return self._new_game(seed=None)

    def _new_game(self, seed: int | None, bot: str = "normal") -> SoloRace:
        import random

        solo = SoloRace(self.board, (bot,), seed=seed if seed is not None else random.randrange(1 << 30),
                        path=self.solo_path)
        solo.save()
        return solo

    def new_solo(self, bot: str = "normal", confirmed: bool = False) -> None:
        """A new game; a game begun and not over is only thrown away once the player says so."""
        if not confirmed and self.solo is not None and self.solo.running:
            self.confirm_new = bot
            self.render()
            return
        self.confirm_new = None
        self.solo = self._new_game(seed=None, bot=bot)
        self.message = None
        self.message_is_hint = False
        self.render()

    def start_solo_handler(self, bot: str, confirmed: bool = False):
        """The screen's New game button: `new_solo`, and a game started is shown from its top (the body is
        patched in place, so the page would stay scrolled down at the button). An async function, not a lambda:
        Flet awaits a handler only when it is one."""
        async def start(e) -> None:
            self.new_solo(bot, confirmed)
            if self.confirm_new is None:
                with contextlib.suppress(Exception):  # no scrollable view (a screen built alone)
                    await ft.context.page.views[-1].scroll_to(offset=0, duration=250)

        return start

    def keep_playing(self) -> None:
        self.confirm_new = None
        self.render()

    def solo_do(self, move) -> None:
        try:
            move()
        except SoloError as err:
            self.message = str(err)
        else:
            self.message = None
            self._keep_if_over()
        self.message_is_hint = False
        self.render()

    def solo_body(self) -> ft.Control:
        solo = self.solo
        assert solo is not None
        view = solo.view()
        if view.finished:
            status = view.log[-1] if view.log else _("Game over")
        elif view.phase == "setup":
            status = _("Setup: place {tile} in any open trip").format(tile=view.in_hand)
        elif view.phase == "draw":
            status = _("Your turn: draw from the draw pile or take a discard")
        else:
            status = _("You drew {tile}: replace a trip or discard it").format(tile=view.in_hand)
        rows: list[ft.Control] = []
        for slot in range(10):
            name = view.holder[slot]
            label = _("tap to place here") if view.your_turn and view.phase == "setup" else _("empty")
            chip = self.tile_chip(name, label, on_click=self._slot_handler(solo, view, slot),
                                  identifier=f"solo-trip-{slot + 1}")
            rows.append(ft.Row([ft.Text(_("Trip {n}").format(n=slot + 1), width=TRIP_LABEL_W), chip]))
            if slot < 9:
                rows.append(ft.Container(self.link_row(view.links[slot], view.reasons[slot]),
                                         padding=ft.Padding.only(left=TRIP_LABEL_W)))
        picture = map_picture(self.board, view.journey, view.in_hand_kind)
        piles: list[ft.Control] = []
        for j, top in enumerate(view.discard_tops):
            marked = view.phase == "place" and j == self.allowed_pile(view)
            piles.append(ft.Column([
                ft.Text((_("Pile {n} (discard here)") if marked else _("Pile {n}")).format(n=j + 1), size=12,
                        weight=ft.FontWeight.BOLD if marked else None),
                self.tile_chip(top, _("empty"), on_click=self._pile_handler(solo, view, j),
                               identifier=f"pile-{j + 1}", compact=True)], expand=True,
                horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
        opponent = solo.player_name(1)
        controls: list[ft.Control] = [sem("solo-status", ft.Text(status, weight=ft.FontWeight.BOLD, size=16)),
                                      ft.Text(_("You against {opponent}").format(opponent=opponent), size=12)]
        if view.your_turn and view.phase == "draw":
            controls.append(ft.FilledButton(_("Draw from the draw pile ({n})").format(n=view.draw_pile_size),
                                            icon=ft.Icons.STYLE, on_click=lambda e: self.solo_do(solo.draw)))
        if view.your_turn and view.phase == "place":
            controls.append(ft.Row([
                self.tile_chip(view.in_hand, "", identifier="in-hand"),
                ft.FilledButton(_("Discard onto pile {n}").format(n=self.allowed_pile(view) + 1),
                                icon=ft.Icons.DELETE_OUTLINE,
                                on_click=lambda e: self.solo_do(lambda: solo.discard(self.allowed_pile(view)))),
            ]))
            if self.pile_forced(view):
                help_text = self.forced_note(view)
            else:
                help_text = _("Tap a pile to choose where tiles go (marked \"discard here\"). Then tap a trip to "
                              "replace it (its old tile goes onto that pile), or Discard to put {tile} there.").format(
                    tile=view.in_hand)
            controls.append(sem("pile-help", ft.Text(help_text, size=12)))
            controls.append(sem("map-caption", ft.Text(map_caption(self.board, picture, view.in_hand), size=12,
                                                       color=REACH_INK)))
        if view.phase != "setup":
            controls.append(ft.Row(piles, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
        controls.append(ft.Column(rows, spacing=2))
        controls.append(map_control(picture))
        controls.append(ft.Text(map_caption(self.board, picture, None), size=12))
        hint = solo.hint()
        if hint:
            controls.append(ft.TextButton(_("Hint"), icon=ft.Icons.LIGHTBULB,
                                          on_click=lambda e, h=hint: self.show_hint(h)))
        for player, tiles, links, reasons in view.opponents:
            controls.append(self.revealed_journey(player, tiles, links, reasons))
        controls.append(ft.Text(_("What happened"), weight=ft.FontWeight.BOLD))
        log = ft.Column([ft.Text(line, size=12) for line in view.log[-8:]], spacing=2)
        controls.append(sem("solo-log", log))
        controls.append(ft.Divider())
        if not self.confirm_new:
            actions: list[ft.Control] = [ft.Text(_("New game vs:"))]
            actions += [ft.OutlinedButton(bot_label(level), on_click=self.start_solo_handler(level))
                        for level in ("easy", "normal", "search")]
            controls.append(ft.Row(actions, wrap=True))
        else:  # the question where the tap was: the body is patched in place, the page stays where it is
            level = self.confirm_new
            controls.append(sem("confirm-new", ft.Column([
                sem("confirm-question", ft.Text(
                    _("Start a new game against the {level} bot? This game is not over: it will be lost.").format(
                        level=bot_label(level)), weight=ft.FontWeight.BOLD, color="#C62828")),
                ft.Row([ft.FilledButton(_("Start a new game"), on_click=self.start_solo_handler(level, confirmed=True)),
                        ft.OutlinedButton(_("Keep playing"), on_click=lambda e: self.keep_playing())], wrap=True),
            ], spacing=6)))
        return ft.Column(controls, spacing=8)

    def revealed_journey(self, player: str, tiles, links, reasons) -> ft.Control:
        """A bot's holder once the game is over, link by link, as your own is shown."""
        rows: list[ft.Control] = [ft.Text(_("{player}'s journey").format(player=player), weight=ft.FontWeight.BOLD)]
        for slot, name in enumerate(tiles):
            rows.append(ft.Row([ft.Text(_("Trip {n}").format(n=slot + 1), width=TRIP_LABEL_W),
                                self.tile_chip(name, "")]))
            if slot < len(tiles) - 1:
                rows.append(ft.Container(self.link_row(links[slot], reasons[slot]),
                                         padding=ft.Padding.only(left=TRIP_LABEL_W)))
        return sem("bot-journey", ft.Column(rows, spacing=2))

    def _slot_handler(self, solo: SoloRace, view, slot: int):
        if not view.your_turn:
            return None
        if view.phase == "setup" and view.holder[slot] is None:
            return lambda e: self.solo_do(lambda: solo.place(slot))
        if view.phase == "place":
            return lambda e: self.solo_do(lambda: solo.replace(slot, self.allowed_pile(view)))
        return None

    def _pile_handler(self, solo: SoloRace, view, pile: int):
        if view.your_turn and view.phase == "draw":
            return lambda e: self.solo_do(lambda: solo.take(pile))
        if view.your_turn and view.phase == "place":
            return lambda e: self.choose_pile(pile)
        return None

    def allowed_pile(self, view) -> int:
        """An emptied discard pile must take this turn's discard; otherwise the pile the player chose."""
        if self.pile_forced(view):
            return view.took_from
        return self.pile

    def pile_forced(self, view) -> bool:
        return view.took_from >= 0 and view.discard_tops[view.took_from] is None

    def forced_note(self, view) -> str:
        return _("You took the last tile of pile {n}: the rules say an emptied pile takes this turn's discard, "
                 "so tap a trip to replace it (its old tile goes onto pile {n}), or Discard to put {tile} "
                 "there.").format(n=view.took_from + 1, tile=view.in_hand)

    def choose_pile(self, pile: int) -> None:
        view = self.solo.view() if self.solo else None
        if view is not None and self.pile_forced(view) and pile != view.took_from:
            # a tap that cannot be obeyed says why
            self.message = _("Pile {pile} cannot take this turn's discard: pile {n}, which you emptied, must be "
                             "refilled first.").format(pile=pile + 1, n=view.took_from + 1)
            self.message_is_hint = False
        else:
            self.pile = pile
            self.message = None
        self.render()

    def show_hint(self, hint: str) -> None:
        self.message = _("Hint (what the normal bot would do): {move}").format(move=hint)
        self.message_is_hint = True
        self.render()


@ft.observable
@dataclass
class RaceChanges:
    """Counts the changes to a window's `RaceScreens`: each one re-renders the body of the Race screen on show."""

    count: int = 0


@ft.component
def race_body(changes: RaceChanges, screens: RaceScreens, shows: str) -> ft.Control:
    """The journey checker's (`shows` "checker") or the solo game's body, drawn from the window's state."""
    return screens.with_message(screens.checker_body() if shows == "checker" else screens.solo_body())


_WINDOWS: WeakKeyDictionary[PadApp, tuple[RaceScreens, RaceChanges]] = WeakKeyDictionary()


def race_screens(app: PadApp) -> tuple[RaceScreens, RaceChanges]:
    """This window's Race Around Europe state (tourpad's board; the solo game in the user data folder), and what
    counts its changes."""
    if app not in _WINDOWS:
        from rules.race.board import load_board
        from scorer.packs import data_dir

        changes = RaceChanges()

        def changed() -> None:
            quiet()
            changes.count += 1

        _WINDOWS[app] = RaceScreens(changed, load_board(), data_dir(), app.store), changes
    return _WINDOWS[app]


@screen("race_checker")
def checker_screen(app: PadApp) -> Screen:
    screens, changes = race_screens(app)
    return Screen(_("Journey checker"), island(race_body, changes, screens, "checker"))


@screen("race_solo")
def solo_screen(app: PadApp) -> Screen:
    screens, changes = race_screens(app)
    screens.open_solo()
    return Screen(_("Race Around Europe: solo"), island(race_body, changes, screens, "solo"))
