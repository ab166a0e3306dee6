"""Play solo against bots: the set-up form and the game screen (hand, table, round-end choice, round
summary, final ranking). The rules and bots are `scorer.solo.game.SoloGame`; saving, resuming and the texts are
`scorer.solo.view`. Every decision is saved in the event store before its effect is drawn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import flet as ft

from rules import wording
from scorer.locale import _
from scorer.packs import available_editions
from scorer.pad.contrast import text_on
from scorer.pad.pictograms import pictogram_svg
from scorer.solo.game import DIFFICULTIES, SEARCHING_LEVELS, SoloError, SoloGame, difficulty_label
from scorer.solo.view import (
    FINISHED,
    PLAYING,
    hint_lines,
    load,
    new_game,
    save,
    status_line,
    step_line,
)
from scorer.ui.app import NotFound, PadApp, Screen, island, quiet, screen, sem
from scorer.ui.end import final_ranking_view
from scorer.ui.home import CHOSEN, PAD, section, short_edition_name
from scorer.ui.pictogram import card_icon, is_dark
from scorer.ui.sheet import round_summary_view
from scorer.ui.text_size import DEFAULT_TEXT_SIZE, REGULAR_LETTER_EM, text_width

SOLO_EDITIONS = ("australia", "europe", "usa")
CARD_HEIGHT = 164
LARGE_TEXT_CARD_WIDTH = 136


@ft.observable
@dataclass
class SoloSetup:
    """The set-up form's choices, drawn by the `setup_form` component: a tap changes one, and only the
    buttons whose look changed are patched (the one tapped keeps its identity)."""

    edition: str = "australia"
    #: the deck the game is played with: the edition's own, or an owner's deck of it (`scorer.ui.decks`)
    deck: str = "australia"
    bots: tuple[str, ...] = ("normal", "normal", "normal")
    count: int = 3
    variant: bool = False
    #: why the game could not start
    message: str = ""

    def choose_count(self, count: int) -> None:
        self.count = count
        if count < 2:  # the direction variant is for 3 or 4 players
            self.variant = False

    def choose_bot(self, bot: int, level: str) -> None:
        self.bots = tuple(level if i == bot else chosen for i, chosen in enumerate(self.bots))


@ft.observable
@dataclass
class SoloWindow:
    """One window's open solo game and what it is showing (a hint, a finished round's summary): the game
    screen is a component over it, so a tap changes this model and only what changed is patched."""

    game_id: int | None = None
    #: The game, changed in place by each move: `moves` counts them, so that a move re-renders the screen.
    game: SoloGame | None = None
    moves: int = 0
    hint: dict | None = None
    #: The finished round whose summary is shown (1-based), or None to show the table.
    summary_round: int | None = None
    #: The bots are deciding: the hand is not tappable meanwhile.
    thinking: bool = False

    def __post_init__(self) -> None:
        # the set-up form's choices, kept for the window's next game (a model of its own: the game's
        # component does not follow it)
        self._setup = SoloSetup()

    @property
    def setup(self) -> SoloSetup:
        return self._setup

    def page_shown(self) -> str:
        """Which of the game screen's pages is up: its title and app bar go with it."""
        if self.summary_round is not None:
            return "summary"
        return "end" if self.game is not None and self.game.state.is_terminal() else "play"


_WINDOWS: WeakKeyDictionary[PadApp, SoloWindow] = WeakKeyDictionary()


def window(app: PadApp) -> SoloWindow:
    if app not in _WINDOWS:
        _WINDOWS[app] = SoloWindow()
    return _WINDOWS[app]


# --- cards ------------------------------------------------------------------------------------------------

def card_face(card: dict, on_click=None, identifier: str | None = None, width: float = 112,
              fixed_height: bool = True, key: str | None = None) -> ft.Control:
    """A card as printed: letter, Throw & Catch number, site, region colour, the icons' names; all cards
    one height, unless `fixed_height` is off (larger text: each card as tall as its words)."""
    fg = text_on(card["color"])
    face = ft.Container(ft.Column([
        ft.Row([ft.Text(card["letter"], size=26, weight=ft.FontWeight.BOLD, color=fg),
                ft.Container(ft.Text(str(card["number"]), size=15, weight=ft.FontWeight.BOLD, color="#000000"),
                             bgcolor="#FFFFFF", border_radius=14, width=28, height=28,
                             alignment=ft.Alignment.CENTER)],
               alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
        ft.Text(card["site"], size=12, weight=ft.FontWeight.BOLD, color=fg, max_lines=2,
                overflow=ft.TextOverflow.ELLIPSIS),
        ft.Text(card["region"], size=10, color=fg, italic=True, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
        *(icon_line(icon, label, fg, card["color"], room=width - ICON_LINE_INSET if fixed_height else None)
          for icon, label in zip(card["icons"], card["icon_labels"], strict=True)),
    ], spacing=2, tight=True), bgcolor=card["color"], border_radius=10, padding=8,
        # in larger text, wider too: two still fit side by side on a 320 px phone, and "Sightseeing" in one
        width=width if fixed_height else max(width, LARGE_TEXT_CARD_WIDTH),
        height=CARD_HEIGHT if fixed_height else None,
        border=ft.Border.all(2, "#263238"), on_click=on_click, ink=on_click is not None)
    shown = sem(identifier, face) if identifier else face
    shown.key = key
    return shown


#: What a card face's width leaves for an icon's name: the padding and border either side, the pictogram and
#: the gap after it (px).
ICON_LINE_INSET = 2 * 8 + 2 * 2 + 14 + 4
#: An icon's name: its size, and the smallest it is drawn at so that its longest word fits on a line.
ICON_NAME_SIZE, ICON_NAME_MIN_SIZE = 11, 9


def icon_name_size(shown: str, room: float | None) -> float:
    """The size an icon's name is drawn at, `room` px wide: smaller when its longest word would not fit on a
    line (Flutter breaks such a word, "Ornithorynque / s"); `room` None (larger text): as it is."""
    longest = max(shown.split(), key=len, default="")
    if room is None or text_width(longest, ICON_NAME_SIZE, REGULAR_LETTER_EM) <= room:
        return ICON_NAME_SIZE
    return max(ICON_NAME_MIN_SIZE, room / text_width(longest, 1, REGULAR_LETTER_EM))


def icon_line(name: str, shown: str, colour: str, background: str, room: float | None = None) -> ft.Control:
    """An icon's pictogram (the printables' SVG, found by the icon's key `name`) and its name as a person
    reads it (`shown`), in the card's text colour; the pictogram's knocked-out details (a camera's lens, a
    koala's face) in the card's colour, as printed. `room`: how wide the name may be drawn (px)."""
    # two lines: a long name ("Indigenous Culture") is cut off on one line at phone width
    label = ft.Text(shown, size=icon_name_size(shown, room), color=colour, max_lines=2,
                    overflow=ft.TextOverflow.ELLIPSIS, expand=True)
    svg = pictogram_svg(name, colour, background)
    if svg is None:
        return label
    return ft.Row([ft.Image(src=svg, width=14, height=14, exclude_from_semantics=True), label], spacing=4)


def mini_card(card: dict) -> ft.Control:
    """A face-up card in a row on the table: letter and number on the region colour."""
    fg = text_on(card["color"])
    return ft.Container(ft.Column([
        ft.Text(card["letter"], size=15, weight=ft.FontWeight.BOLD, color=fg),
        ft.Text(str(card["number"]), size=10, color=fg)], spacing=0, tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        bgcolor=card["color"], border_radius=6, width=34, height=44, alignment=ft.Alignment.CENTER,
        tooltip=_("{site} ({region}): {icons}").format(site=card["site"], region=card["region"],
                                                      icons=", ".join(card["icon_labels"])))


def hidden_card(label: str = "?") -> ft.Control:
    return ft.Container(ft.Text(label, size=13, color="#FFFFFF"), bgcolor="#546E7A", border_radius=6,
                        width=34, height=44, alignment=ft.Alignment.CENTER)


# --- set-up -----------------------------------------------------------------------------------------------

@screen("solo_setup")
def solo_setup(app: PadApp) -> Screen:
    setup = window(app).setup
    if setup.deck not in available_editions():  # deleted since it was chosen
        setup.deck = setup.edition
    setup.message = ""
    return Screen(_("Play solo"), ft.Container(island(setup_form, setup, app), padding=PAD))


def chosen_style(selected: bool) -> ft.ButtonStyle | None:
    """The chosen option: an outlined button drawn as a filled one (`scorer.ui.home.CHOSEN`), so that
    choosing another only changes two buttons' style."""
    return CHOSEN if selected else None


def quiet_change(change) -> None:
    """A tap on the form: the model changes and the component patches itself (`quiet`)."""
    quiet()
    change()


@ft.component
def setup_form(setup: SoloSetup, app: PadApp) -> ft.Control:
    """The solo set-up form over `setup`: edition and deck, how many bots and how strong, the variant."""
    from scorer.ui.decks import deck_choice

    def choice_button(label: str, selected: bool, on_click, identifier: str | None = None) -> ft.Control:
        button = ft.OutlinedButton(label, style=chosen_style(selected), on_click=on_click)
        return sem(identifier, button) if identifier else button

    def pick_edition(edition: str) -> None:
        setup.edition = setup.deck = edition

    def pick_deck(deck: str) -> None:
        quiet_change(lambda: setattr(setup, "deck", deck))

    def start(e) -> None:
        try:
            game_id, game = new_game(app.store, setup.deck, list(setup.bots[:setup.count]), setup.variant)
        except SoloError as err:
            refused = str(err)
            quiet_change(lambda: setattr(setup, "message", refused))
            return
        win = window(app)
        win.game_id, win.game, win.hint, win.summary_round = game_id, game, None, None
        app.go("solo_game", game_id=game_id)

    editions = [e for e in SOLO_EDITIONS if e in available_editions()]
    edition_row = ft.Row([choice_button(short_edition_name(e), e == setup.edition,
                                        lambda ev, e=e: quiet_change(lambda: pick_edition(e)))
                          for e in editions], wrap=True, spacing=8, run_spacing=8)
    deck_column = ft.Column([deck_choice(app, setup.edition, setup.deck, pick_deck)], spacing=0,
                            horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    count_row = ft.Row([choice_button(str(n), n == setup.count,
                                      lambda ev, n=n: quiet_change(lambda: setup.choose_count(n)), f"bots-{n}")
                        for n in (1, 2, 3)], spacing=8)
    bots_column = ft.Column([
        ft.Row([ft.Text(_("Bot {n}").format(n=i + 1), width=52),
                *(choice_button(difficulty_label(level), setup.bots[i] == level,
                                lambda ev, i=i, level=level: quiet_change(lambda: setup.choose_bot(i, level)),
                                f"bot-{i + 1}-{level}")
                  for level in DIFFICULTIES)], spacing=6, wrap=True, run_spacing=6)
        for i in range(setup.count)], spacing=8)
    variant = ft.Switch(value=setup.variant, disabled=setup.count < 2,
                        on_change=lambda e: quiet_change(lambda: setattr(setup, "variant", bool(e.control.value))))
    return ft.Column([
        section(_("Edition"), edition_row, deck_column),
        section(_("Bots"), count_row, bots_column,
                ft.Text(_("easy: random legal cards · normal: greedy · hard: searches the deals it cannot see · "
                          "expert: searches far more deals and plans its own next picks"),
                        size=12, color=ft.Colors.ON_SURFACE_VARIANT)),
        ft.Row([variant, ft.Text(wording.direction_variant_solo_switch(),
                                 expand=True, size=13)], spacing=8),
        sem("solo-setup-message", ft.Text(setup.message, color=ft.Colors.ERROR)),
        sem("solo-start", ft.FilledButton(_("Start solo game"), icon=ft.Icons.PLAY_ARROW,
                                          on_click=start)),
    ], spacing=16, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


# --- the game ---------------------------------------------------------------------------------------------

def open_game(app: PadApp, game_id: int) -> SoloGame:
    win = window(app)
    if win.game is None or win.game_id != game_id:
        try:
            status = app.store.game(game_id).status
        except KeyError:
            raise NotFound(_("There is no solo game {game_id} on this device.").format(game_id=game_id)) from None
        if status not in (PLAYING, FINISHED):
            raise NotFound(_("Game {game_id} is not a solo game.").format(game_id=game_id))
        win.game_id, win.game, win.hint, win.summary_round = game_id, load(app.store, game_id), None, None
    return win.game


def decide(app: PadApp, action: int) -> Iterator[None]:
    """The person's pick or choice: the bots answer, everything is saved, then the screen shows it. A
    generator handler: its `yield` has Flet draw "The bots are choosing…" before a searching bot thinks."""
    win = window(app)
    game = win.game
    shown = win.page_shown()
    rounds_before = len(game.state.round_log)
    if any(level in SEARCHING_LEVELS for level in game.setup.bots):
        win.thinking = True  # a searching bot takes up to a second or two: say so instead of looking frozen
        yield
    try:
        events = game.play(action)
    except SoloError as err:
        app.toast(str(err), error=True)
        return
    finally:
        win.thinking = False
    try:
        save(app.store, win.game_id, game, events)
    except Exception as err:  # not saved, so not done: drop the move by replaying what the store holds
        win.game = load(app.store, win.game_id)
        app.toast(_("Your move could not be saved ({error}); the game goes on from what was saved.").format(
            error=err), error=True)
    else:
        win.hint = None
        if len(game.state.round_log) > rounds_before:
            win.summary_round = len(game.state.round_log)
    win.moves += 1
    turn_page(app, win, shown)


def turn_page(app: PadApp, win: SoloWindow, shown: str) -> None:
    """After a tap: the component has patched the page it shows; another page (a round's summary, the
    final ranking) has its own title and app bar, so the screen is drawn anew for it."""
    if win.page_shown() != shown:
        app.render()


def show_hint(app: PadApp, longer: bool = False) -> Iterator[None]:
    """The hard bot's (or, `longer`, the expert's) view of the options, shown above the hand."""
    win = window(app)
    if longer:
        win.thinking = True  # the expert's search takes about a second: say so instead of looking frozen
        yield
    try:
        win.hint = win.game.hint(longer=longer)
    except SoloError as err:
        app.toast(str(err), error=True)
        return
    finally:
        win.thinking = False


def table_rows(view: dict) -> ft.Control:
    """Every player's face-up row (and the person's own Throw card); never another's Throw or hand."""
    rows: list[ft.Control] = []
    for p, player in enumerate(view["players"]):
        cards = [mini_card(c) for c in player["face_up"]]
        if player["throw"] is not None:  # the person's own, or everyone's once the round is revealed
            cards.insert(0, ft.Container(mini_card(player["throw"]), border=ft.Border.all(2, "#263238"),
                                         border_radius=8, tooltip=_("Throw card")))
        elif view["phase"] == "draft":
            cards.insert(0, hidden_card())
        rows.append(sem(f"row-{p}", ft.Column([
            ft.Row([ft.Text(player["name"], weight=ft.FontWeight.BOLD, size=13, expand=True),
                    ft.Text(_("{points} pts").format(points=player["total"]), size=13)]),
            ft.Row(cards or [ft.Text(_("no cards face up yet"), size=12, color=ft.Colors.ON_SURFACE_VARIANT)],
                   spacing=4, wrap=True, run_spacing=4)], spacing=4)))
    return ft.Card(ft.Container(ft.Column(rows, spacing=10), padding=10))


def hint_panel(app: PadApp, hint: dict, can_think_longer: bool) -> ft.Control:
    title = (_("Hint: the expert bot would choose {option}") if hint["bot"] == "expert"
             else _("Hint: the hard bot would choose {option}"))
    lines: list[ft.Control] = [ft.Text(title.format(option=hint["best_label"]), weight=ft.FontWeight.BOLD)]
    for line in hint_lines(hint):
        label = ft.Text(line.label, weight=ft.FontWeight.BOLD if line.best else None, size=13)
        value = ft.Text(line.value, size=13)
        if app.text_size == DEFAULT_TEXT_SIZE:
            label.width, value.expand = 150, True
            lines.append(ft.Row([label, value]))
        else:  # larger text: beside a 150 px label the figures had a few letters a line ("maintenan / t")
            lines.append(ft.Column([label, ft.Container(value, padding=ft.Padding.only(left=16))], spacing=0))
    lines.append(ft.Text(_("Options ranked by {why}.").format(why=hint["why"]), size=12,
                         color=ft.Colors.ON_SURFACE_VARIANT))
    # The hint's words are one node a screen reader reads whole; a button inside it would split that node
    # (its text then becomes the group's label and the button's the only text), so the button sits below it.
    body: list[ft.Control] = [sem("solo-hint", ft.Column(lines, spacing=4))]
    if can_think_longer:
        def think_longer(e) -> Iterator[None]:
            yield from show_hint(app, longer=True)

        body.append(sem("solo-hint-longer", ft.TextButton(_("Think longer (expert bot)"), icon=ft.Icons.PSYCHOLOGY,
                                                          on_click=think_longer)))
    return ft.Card(ft.Container(ft.Column(body, spacing=4), padding=10))


def decision(app: PadApp, action: int):
    """The click handler of a card or a choice: a generator function, as Flet must see it (`decide`)."""
    def tapped(e) -> Iterator[None]:
        yield from decide(app, action)
    return tapped


def play_body(app: PadApp, win: SoloWindow) -> ft.Control:
    game = win.game
    view = game.screen()
    items: list[ft.Control] = [
        sem("solo-status", ft.Text(_("The bots are choosing…") if win.thinking else status_line(view),
                                   weight=ft.FontWeight.BOLD, size=16)),
        sem("solo-step", ft.Text(step_line(view), size=12, color=ft.Colors.ON_SURFACE_VARIANT)),
    ]
    if win.hint is not None:
        # at the round-end choice both bots weigh the options exactly alike: nothing to think longer about
        items.append(hint_panel(app, win.hint, win.hint["bot"] == "hard" and view["phase"] != "choice"
                                and not win.thinking))
    if view["phase"] == "choice":
        items.append(ft.Text(_("Your Catch card"), weight=ft.FontWeight.BOLD))
        items.append(card_face(view["catch"], identifier="catch",
                               fixed_height=app.text_size == DEFAULT_TEXT_SIZE))
        options = []
        dark = is_dark(app.page)
        for i, option in enumerate(view["choices"]):
            options.append(ft.Semantics(identifier=f"choice-{i}", key=f"choice-{win.moves}-{win.thinking}-{i}",
                                        content=ft.FilledTonalButton(
                _("{option}: {points} pts").format(option=option["label"], points=option["points"]),
                icon=card_icon(option["icon"], "choice", dark=dark) if option["icon"] else None,
                on_click=None if win.thinking else decision(app, option["action"]))))
        # scored in an earlier round: shown, not choosable
        for name, shown in zip(view["choices_used"], view["choices_used_labels"], strict=True):
            options.append(ft.OutlinedButton(_("{option}: used up").format(option=shown), disabled=True,
                                             icon=ft.Container(card_icon(name, "choice", dark=dark), opacity=0.4)))
        used = ", ".join(view["choices_used_labels"]) or _("none yet")
        items += [ft.Text(wording.choice_once_heading(), weight=ft.FontWeight.BOLD),
                  ft.Column(options, spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                  sem("choices-used", ft.Text(_("Already used: {choices}").format(choices=used), size=12))]
    else:
        legal = set() if win.thinking else {a["action"] for a in view["actions"]}
        # keyed by the move and whether the bots are thinking: a hand dealt anew gets cards of its own, so a
        # tap the browser sent to the hand before (while a bot searched) lands on no card of this one
        hand = [card_face(c, on_click=decision(app, c["index"]) if c["index"] in legal else None,
                          identifier=f"hand-{i}", fixed_height=app.text_size == DEFAULT_TEXT_SIZE,
                          key=f"hand-{win.moves}-{win.thinking}-{i}")
                for i, c in enumerate(view["hand"])]
        items += [ft.Text(_("Your hand: tap a card"), weight=ft.FontWeight.BOLD),
                  ft.Row(hand, wrap=True, spacing=6, run_spacing=6)]
    items.append(ft.Text(_("The table"), weight=ft.FontWeight.BOLD))
    items.append(table_rows(view))
    return ft.Column(items, spacing=10)


def summary_body(app: PadApp, win: SoloWindow) -> ft.Control:
    """A finished round's summary: the score pad's, drawn from the same model."""
    game, round_number = win.game, win.summary_round

    def next_step(e) -> None:
        shown = win.page_shown()
        win.summary_round = None
        turn_page(app, win, shown)

    return round_summary_view(game.pad_state(), round_number - 1, to_end=game.state.is_terminal(),
                              on_proceed=next_step)


def end_body(app: PadApp, win: SoloWindow) -> ft.Control:
    """The final ranking: the score pad's, with a way back to each round's summary and to a new game."""
    game = win.game

    def back_to(round_number: int) -> None:
        win.summary_round = round_number
        turn_page(app, win, "end")

    return final_ranking_view(game.pad_state(), after_podium=[], closing=[
        ft.Row([ft.OutlinedButton(_("Round {n}").format(n=r), on_click=lambda e, r=r: back_to(r))
                for r in range(1, len(game.state.round_log) + 1)], wrap=True, spacing=6),
        ft.Row([ft.FilledTonalButton(_("New solo game"), icon=ft.Icons.SMART_TOY,
                                     on_click=lambda e: app.go("solo_setup")),
                ft.OutlinedButton(_("Home"), icon=ft.Icons.HOME, on_click=lambda e: app.go("home"))],
               wrap=True, spacing=8)])


@ft.component
def solo_body(win: SoloWindow, app: PadApp) -> ft.Control:
    """The game screen's body over `win`: the table and hand, a round's summary or the final ranking."""
    return {"summary": summary_body, "end": end_body, "play": play_body}[win.page_shown()](app, win)


@screen("solo_game")
def solo_game(app: PadApp, game_id: int) -> Screen:
    open_game(app, game_id)
    win = window(app)
    game = win.game
    actions: list[ft.Control] = []
    shown = win.page_shown()
    if shown == "summary":
        title = _("Round {round}").format(round=win.summary_round)
    elif shown == "end":
        title = _("Final ranking")
    else:
        title = _("Solo: {edition}").format(edition=short_edition_name(game.edition.id))

        def hint(e) -> Iterator[None]:
            yield from show_hint(app)

        actions.append(sem("solo-hint-button", ft.TextButton(_("Hint"), icon=ft.Icons.LIGHTBULB, on_click=hint)))
    return Screen(title, ft.Container(island(solo_body, win, app), padding=PAD), actions=actions)
