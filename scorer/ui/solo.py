"""Play solo against bots: the set-up form and the game screen (hand, table, round-end choice, round
summary, final ranking). The rules and bots are `scorer.solo.game.SoloGame`; saving, resuming and the texts are
`scorer.solo.view`. Every decision is saved in the event store before its effect is drawn.
"""

from __future__ import annotations

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
from scorer.ui.app import NotFound, PadApp, Screen, screen, sem
from scorer.ui.end import final_ranking_view
from scorer.ui.home import PAD, section, short_edition_name
from scorer.ui.pictogram import card_icon, is_dark
from scorer.ui.sheet import round_summary_view
from scorer.ui.text_size import DEFAULT_TEXT_SIZE

SOLO_EDITIONS = ("australia", "europe", "usa")
CARD_HEIGHT = 164
LARGE_TEXT_CARD_WIDTH = 136


class SoloWindow:
    """One window's open solo game and what it is showing (a hint, a finished round's summary)."""

    def __init__(self) -> None:
        self.game_id: int | None = None
        self.game: SoloGame | None = None
        self.hint: dict | None = None
        #: The finished round whose summary is shown (1-based), or None to show the table.
        self.summary_round: int | None = None
        #: The bots are deciding: the hand is not tappable meanwhile.
        self.thinking = False
        self.setup = {"edition": "australia", "bots": ["normal", "normal", "normal"], "count": 3,
                      "variant": False}


_WINDOWS: WeakKeyDictionary[PadApp, SoloWindow] = WeakKeyDictionary()


def window(app: PadApp) -> SoloWindow:
    if app not in _WINDOWS:
        _WINDOWS[app] = SoloWindow()
    return _WINDOWS[app]


# --- cards ------------------------------------------------------------------------------------------------

def card_face(card: dict, on_click=None, identifier: str | None = None, width: float = 112,
              fixed_height: bool = True) -> ft.Control:
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
        *(icon_line(icon, label, fg, card["color"]) for icon, label in zip(card["icons"], card["icon_labels"],
                                                                            strict=True)),
    ], spacing=2, tight=True), bgcolor=card["color"], border_radius=10, padding=8,
        # in larger text, wider too: two still fit side by side on a 320 px phone, and "Sightseeing" in one
        width=width if fixed_height else max(width, LARGE_TEXT_CARD_WIDTH),
        height=CARD_HEIGHT if fixed_height else None,
        border=ft.Border.all(2, "#263238"), on_click=on_click, ink=on_click is not None)
    return sem(identifier, face) if identifier else face


def icon_line(name: str, shown: str, colour: str, background: str) -> ft.Control:
    """An icon's pictogram (the printables' SVG, found by the icon's key `name`) and its name as a person
    reads it (`shown`), in the card's text colour; the pictogram's knocked-out details (a camera's lens, a
    koala's face) in the card's colour, as printed."""
    # two lines: a long name ("Indigenous Culture") is cut off on one line at phone width
    label = ft.Text(shown, size=11, color=colour, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS, expand=True)
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
    win = window(app)
    chosen = win.setup
    from scorer.ui.decks import deck_choice

    editions = [e for e in SOLO_EDITIONS if e in available_editions()]
    if chosen.get("deck") not in available_editions():  # none chosen yet, or deleted since
        chosen["deck"] = chosen["edition"]
    edition_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
    deck_column = ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    count_row = ft.Row(spacing=8)
    bots_column = ft.Column(spacing=8)
    variant = ft.Switch(value=chosen["variant"], on_change=lambda e: chosen.update(variant=bool(e.control.value)))
    message = ft.Text("", color=ft.Colors.ERROR)

    def choice_button(label: str, selected: bool, on_click, identifier: str | None = None) -> ft.Control:
        button = (ft.FilledButton if selected else ft.OutlinedButton)(label, on_click=on_click)
        return sem(identifier, button) if identifier else button

    def redraw() -> None:
        edition_row.controls = [
            choice_button(short_edition_name(e), e == chosen["edition"],
                          lambda ev, e=e: (chosen.update(edition=e, deck=e), redraw()))
            for e in editions]
        deck_column.controls = [deck_choice(app, chosen["edition"], chosen["deck"],
                                            lambda deck: (chosen.update(deck=deck), redraw()))]
        count_row.controls = [
            choice_button(str(n), n == chosen["count"], lambda ev, n=n: (chosen.update(count=n), redraw()),
                          f"bots-{n}")
            for n in (1, 2, 3)]
        bots_column.controls = [
            ft.Row([ft.Text(_("Bot {n}").format(n=i + 1), width=52),
                    *(choice_button(difficulty_label(level), chosen["bots"][i] == level,
                                    lambda ev, i=i, level=level: (chosen["bots"].__setitem__(i, level), redraw()),
                                    f"bot-{i + 1}-{level}")
                      for level in DIFFICULTIES)], spacing=6, wrap=True, run_spacing=6)
            for i in range(chosen["count"])]
        variant.disabled = chosen["count"] < 2
        if variant.disabled:
            variant.value = chosen["variant"] = False

    redraw()

    def start(e) -> None:
        win_bots = chosen["bots"][:chosen["count"]]
        try:
            game_id, game = new_game(app.store, chosen["deck"], win_bots, chosen["variant"])
        except SoloError as err:
            message.value = str(err)
            return
        win.game_id, win.game, win.hint, win.summary_round = game_id, game, None, None
        app.go("solo_game", game_id=game_id)

    body = ft.Container(ft.Column([
        section(_("Edition"), edition_row, deck_column),
        section(_("Bots"), count_row, bots_column,
                ft.Text(_("easy: random legal cards · normal: greedy · hard: searches the deals it cannot see · "
                          "expert: searches far more deals and plans its own next picks"),
                        size=12, color=ft.Colors.ON_SURFACE_VARIANT)),
        ft.Row([variant, ft.Text(wording.direction_variant_solo_switch(),
                                 expand=True, size=13)], spacing=8),
        sem("solo-setup-message", message),
        sem("solo-start", ft.FilledButton(_("Start solo game"), icon=ft.Icons.PLAY_ARROW,
                                          on_click=start)),
    ], spacing=16, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=PAD)
    return Screen(_("Play solo"), body)


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


def decide(app: PadApp, action: int) -> None:
    """The person's pick or choice: the bots answer, everything is saved, then the screen shows it."""
    win = window(app)
    game = win.game
    rounds_before = len(game.state.round_log)
    if any(level in SEARCHING_LEVELS for level in game.setup.bots):
        win.thinking = True  # a searching bot takes up to a second or two: say so instead of looking frozen
        app.render()
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
        win.game = None
        app.toast(_("Your move could not be saved ({error}); the game goes on from what was saved.").format(
            error=err), error=True)
        app.render()
        return
    win.hint = None
    if len(game.state.round_log) > rounds_before:
        win.summary_round = len(game.state.round_log)
    app.render()


def show_hint(app: PadApp, longer: bool = False) -> None:
    win = window(app)
    if longer:
        win.thinking = True  # the expert's search takes about a second: say so instead of looking frozen
        app.render()
    try:
        win.hint = win.game.hint(longer=longer)
    except SoloError as err:
        app.toast(str(err), error=True)
        return
    finally:
        win.thinking = False
    app.render()


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
        lines.append(ft.Row([ft.Text(line.label, width=150, weight=ft.FontWeight.BOLD if line.best else None,
                                     size=13),
                             ft.Text(line.value, size=13, expand=True)]))
    lines.append(ft.Text(_("Options ranked by {why}.").format(why=hint["why"]), size=12,
                         color=ft.Colors.ON_SURFACE_VARIANT))
    # The hint's words are one node a screen reader reads whole; a button inside it would split that node
    # (its text then becomes the group's label and the button's the only text), so the button sits below it.
    body: list[ft.Control] = [sem("solo-hint", ft.Column(lines, spacing=4))]
    if can_think_longer:
        body.append(sem("solo-hint-longer", ft.TextButton(_("Think longer (expert bot)"), icon=ft.Icons.PSYCHOLOGY,
                                                          on_click=lambda e: show_hint(app, longer=True))))
    return ft.Card(ft.Container(ft.Column(body, spacing=4), padding=10))


def play_body(app: PadApp, game: SoloGame) -> ft.Control:
    view = game.screen()
    win = window(app)
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
            options.append(sem(f"choice-{i}", ft.FilledTonalButton(
                _("{option}: {points} pts").format(option=option["label"], points=option["points"]),
                icon=card_icon(option["icon"], "choice", dark=dark) if option["icon"] else None,
                on_click=None if win.thinking else lambda e, a=option["action"]: decide(app, a))))
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
        hand = [card_face(c, on_click=(lambda e, a=c["index"]: decide(app, a)) if c["index"] in legal else None,
                          identifier=f"hand-{i}", fixed_height=app.text_size == DEFAULT_TEXT_SIZE)
                for i, c in enumerate(view["hand"])]
        items += [ft.Text(_("Your hand: tap a card"), weight=ft.FontWeight.BOLD),
                  ft.Row(hand, wrap=True, spacing=6, run_spacing=6)]
    items.append(ft.Text(_("The table"), weight=ft.FontWeight.BOLD))
    items.append(table_rows(view))
    return ft.Column(items, spacing=10)


def summary_body(app: PadApp, game: SoloGame, round_number: int) -> ft.Control:
    """A finished round's summary: the score pad's, drawn from the same model."""
    win = window(app)

    def next_step(e) -> None:
        win.summary_round = None
        app.render()

    return round_summary_view(game.pad_state(), round_number - 1, to_end=game.state.is_terminal(),
                              on_proceed=next_step)


def end_body(app: PadApp, game: SoloGame) -> ft.Control:
    """The final ranking: the score pad's, with a way back to each round's summary and to a new game."""
    win = window(app)
    return final_ranking_view(game.pad_state(), after_podium=[], closing=[
        ft.Row([ft.OutlinedButton(_("Round {n}").format(n=r),
                                  on_click=lambda e, r=r: (setattr(win, "summary_round", r), app.render()))
                for r in range(1, len(game.state.round_log) + 1)], wrap=True, spacing=6),
        ft.Row([ft.FilledTonalButton(_("New solo game"), icon=ft.Icons.SMART_TOY,
                                     on_click=lambda e: app.go("solo_setup")),
                ft.OutlinedButton(_("Home"), icon=ft.Icons.HOME, on_click=lambda e: app.go("home"))],
               wrap=True, spacing=8)])


@screen("solo_game")
def solo_game(app: PadApp, game_id: int) -> Screen:
    game = open_game(app, game_id)
    win = window(app)
    actions: list[ft.Control] = []
    if win.summary_round is not None:
        body, title = summary_body(app, game, win.summary_round), _("Round {round}").format(round=win.summary_round)
    elif game.state.is_terminal():
        body, title = end_body(app, game), _("Final ranking")
    else:
        body, title = play_body(app, game), _("Solo: {edition}").format(edition=short_edition_name(game.edition.id))
        actions.append(sem("solo-hint-button", ft.TextButton(_("Hint"), icon=ft.Icons.LIGHTBULB,
                                                             on_click=lambda e: show_hint(app))))
    return Screen(title, ft.Container(body, padding=PAD), actions=actions)
