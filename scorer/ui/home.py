"""Home (new game, resume, history) and the new-game form."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from rules import wording
from rules.i18n import format_datetime
from scorer.locale import _
from scorer.packs import available_editions, resolve_edition
from scorer.pad.errors import EntryError
from scorer.pad.game import CATEGORIES_MODE, LETTERS_MODE, GameSession
from scorer.pad.people import People, name_key
from scorer.pad.store import EventStore, GameRow, summary_line
from scorer.race.history import KeptRace, kept_rows, player_names, result_line
from scorer.ui.app import PadApp, Screen, island, screen, sem

PAD = ft.Padding.symmetric(horizontal=16, vertical=12)


def edition_name(edition_id: str) -> str:
    try:
        return resolve_edition(edition_id).label
    except (KeyError, ValueError):
        return edition_id


def short_edition_name(edition_id: str) -> str:
    """The edition's name without the game's ("Australia" for "Boomerang: Australia"), for a button."""
    return edition_name(edition_id).rpartition(":")[2].strip()


def section(title: str, *controls: ft.Control) -> ft.Control:
    return ft.Column([ft.Text(title, theme_style=ft.TextThemeStyle.TITLE_MEDIUM, weight=ft.FontWeight.BOLD),
                      *controls], spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


@ft.observable
@dataclass
class Shelf:
    """This device's games as home and History list them, last read from the store: a change (a game
    finished here, another tab's round, an import) re-renders the screen over it, patching what changed."""

    playing: tuple[GameRow, ...] = ()
    finished: tuple[GameRow, ...] = ()
    solo: tuple[GameRow, ...] = ()
    #: finished solo games against bots, and finished Race Around Europe games: History lists them too
    solo_finished: tuple[GameRow, ...] = ()
    races: tuple[tuple[GameRow, KeptRace], ...] = ()

    @classmethod
    def of(cls, store: EventStore) -> Shelf:
        shelf = cls()
        shelf.refresh(store)
        return shelf

    def refresh(self, store: EventStore) -> None:
        """Read the store again (only fields that differ notify the screen)."""
        from scorer.solo.view import FINISHED, unfinished

        self.playing = tuple(store.games("playing"))
        self.finished = tuple(store.games("finished"))
        self.solo = tuple(unfinished(store))
        self.solo_finished = tuple(store.games(FINISHED))
        self.races = tuple(kept_rows(store))

    @property
    def history_size(self) -> int:
        """How many games History lists: the score pad's, solo games' and Race games'."""
        return len(self.finished) + len(self.solo_finished) + len(self.races)


def shelf_screen(app: PadApp, title: str, body: Callable[..., ft.Control], **kwargs) -> Screen:
    """A screen listing this device's games: a component over a `Shelf`, brought up to date in place when
    a game changes (`Screen.on_change`), never drawn anew for it."""
    shelf = Shelf.of(app.store)
    return Screen(title, ft.Container(island(body, shelf, app), padding=PAD),
                  on_change=lambda: shelf.refresh(app.store), **kwargs)


@screen("home")
def home(app: PadApp) -> Screen:
    return shelf_screen(app, "tourpad", home_body)


@ft.component
def home_body(shelf: Shelf, app: PadApp) -> ft.Control:
    """Home: new game, the games to resume, History, the table, teaching, solo and Race (over `shelf`)."""
    items: list[ft.Control] = [
        ft.Container(ft.Column([
            ft.Icon(ft.Icons.EXPLORE, size=56, color=ft.Colors.PRIMARY),
            ft.Text(_("Boomerang score pad"), theme_style=ft.TextThemeStyle.HEADLINE_SMALL,
                    weight=ft.FontWeight.BOLD),
            ft.Text(_("Australia · Europe · USA — every point explained, nothing ever lost."),
                    color=ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.CENTER),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=6), padding=ft.Padding.only(top=12)),
        ft.FilledButton(_("New game"), icon=ft.Icons.ADD, expand=True,
                        on_click=lambda e: app.go("new_game")),
    ]
    if shelf.playing:
        game, *others = shelf.playing
        items.append(ft.FilledTonalButton(
            _("Resume: {players}").format(players=" · ".join(game.players)), icon=ft.Icons.PLAY_ARROW,
            on_click=lambda e, gid=game.id: resume(app, gid)))
        items.append(sem("resume-info", ft.Text(f"{edition_name(game.edition)}, {summary_line(game.summary)}",
                                                color=ft.Colors.ON_SURFACE_VARIANT)))
        for other in others:
            items.append(ft.TextButton(_("Also unfinished: {players} ({summary})").format(
                players=" · ".join(other.players), summary=summary_line(other.summary)),
                                       on_click=lambda e, gid=other.id: resume(app, gid)))
    items.append(ft.OutlinedButton(_("History ({n})").format(n=shelf.history_size), icon=ft.Icons.HISTORY,
                                   on_click=lambda e: app.go("history")))
    items.append(ft.OutlinedButton(_("Table mode: host or join"), icon=ft.Icons.GROUPS,
                                   on_click=lambda e: app.go("table")))
    items.append(ft.OutlinedButton(_("Teach tourpad your cards"), icon=ft.Icons.SCHOOL_OUTLINED,
                                   tooltip=_("So that Camera and Photo file read the publisher's cards"),
                                   on_click=lambda e: app.go("teach")))
    items.append(solo_entries(app, shelf.solo))
    items.append(section(
        "Race Around Europe",
        ft.OutlinedButton(_("Journey checker"), icon=ft.Icons.RULE,
                          on_click=lambda e: app.go("race_checker")),
        ft.OutlinedButton(_("Solo game vs a bot"), icon=ft.Icons.SMART_TOY,
                          on_click=lambda e: app.go("race_solo"))))
    return ft.Column(items, spacing=14, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def solo_entries(app: PadApp, saved: tuple[GameRow, ...]) -> ft.Control:
    """Play solo against bots, and resume the last unfinished solo game (`saved`, most recent first)."""
    entries: list[ft.Control] = [ft.OutlinedButton(_("Play solo"), icon=ft.Icons.SMART_TOY,
                                                   on_click=lambda e: app.go("solo_setup"))]
    if saved:
        entries.append(ft.FilledTonalButton(
            _("Resume solo game"), icon=ft.Icons.PLAY_ARROW,
            on_click=lambda e, gid=saved[0].id: app.go("solo_game", game_id=gid)))
        line = f"{edition_name(saved[0].edition)}, {summary_line(saved[0].summary)}"
        entries.append(sem("solo-resume-info", ft.Text(line, color=ft.Colors.ON_SURFACE_VARIANT)))
    return section(_("Solo against bots"), *entries)


def resume(app: PadApp, game_id: int) -> None:
    app.open_game(game_id)
    app.go("sheet", game_id=game_id)


@screen("history")
def history(app: PadApp) -> Screen:
    stats_action = sem("open-stats", ft.TextButton(_("Stats"), icon=ft.Icons.INSIGHTS,
                                                   on_click=lambda e: app.go("stats")))
    return shelf_screen(app, _("History"), history_body, actions=[stats_action])


@ft.component
def history_body(shelf: Shelf, app: PadApp) -> ft.Control:
    """Every finished game, most recent first (a tap opens its final ranking), and the backup buttons. Solo
    games against bots and Race Around Europe games are listed among the others, as Stats counts them."""
    from scorer.ui.backup import backup_buttons
    from scorer.ui.decks import played_with

    def when(row: GameRow) -> str:
        return format_datetime(dt.datetime.fromtimestamp(row.updated_at), "short")

    def pad_tile(game: GameRow) -> ft.ListTile:
        return ft.ListTile(
            leading=ft.Icon(ft.Icons.EMOJI_EVENTS), title=ft.Text(summary_line(game.summary)),
            subtitle=ft.Text(f"{played_with(app, game.edition, game.id)} · {when(game)}"),
            on_click=lambda e, gid=game.id: (app.open_game(gid), app.go("end", game_id=gid)))

    def solo_tile(game: GameRow) -> ft.ListTile:
        return ft.ListTile(
            leading=ft.Icon(ft.Icons.SMART_TOY), title=ft.Text(summary_line(game.summary)),
            subtitle=ft.Text(_("Solo: {edition}").format(edition=short_edition_name(game.edition))
                             + f" · {' · '.join(game.players)} · {when(game)}"),
            on_click=lambda e, gid=game.id: app.go("solo_game", game_id=gid))

    def race_tile(game: GameRow, race: KeptRace) -> ft.ListTile:
        # a kept Race game has no screen of its own (the Race screen plays the current one): a tap shows
        # what it came to
        return ft.ListTile(
            leading=ft.Icon(ft.Icons.MAP), title=ft.Text(result_line(race)),
            subtitle=ft.Text(f"Race Around Europe · {' · '.join(player_names(race))} · {when(game)}"),
            on_click=lambda e: show_race(app, game, race))

    listed: list[tuple[GameRow, Callable[[], ft.ListTile]]] = [
        *((g, lambda g=g: pad_tile(g)) for g in shelf.finished),
        *((g, lambda g=g: solo_tile(g)) for g in shelf.solo_finished),
        *((g, lambda g=g, r=r: race_tile(g, r)) for g, r in shelf.races)]
    listed.sort(key=lambda item: (item[0].updated_at, item[0].id), reverse=True)
    rows: list[ft.Control] = [sem(f"history-game-{i}", ft.Card(tile()))
                              for i, (_row, tile) in enumerate(listed, start=1)]
    if not rows:
        rows.append(ft.Text(_("No finished games yet."), color=ft.Colors.ON_SURFACE_VARIANT))
    rows.append(backup_buttons(app))  # every game, finished or not, as one file: how to move to a new phone
    return ft.Column(rows, spacing=8)


def show_race(app: PadApp, game: GameRow, race: KeptRace) -> None:
    """A kept Race Around Europe game's result: who played, who won, in how many turns, and when."""
    when = format_datetime(dt.datetime.fromtimestamp(game.updated_at), "short")
    app.page.show_dialog(ft.AlertDialog(
        title=ft.Text("Race Around Europe"),
        content=sem("race-result", ft.Column([
            ft.Text(result_line(race), weight=ft.FontWeight.BOLD),
            ft.Text(" · ".join(player_names(race))),
            ft.Text(when, color=ft.Colors.ON_SURFACE_VARIANT)], tight=True, spacing=6)),
        actions=[ft.TextButton(_("Close"), on_click=lambda e: app.page.pop_dialog())]))


def met_before(app: PadApp, fields: list[ft.TextField]) -> ft.Control:
    """New game's row of the players met before (`scorer.pad.people`): a tap puts the name in the first
    empty field, once."""
    known = People(app.store).known()[:12]

    def add(name: str) -> None:
        if any(name_key(f.value or "") == name_key(name) for f in fields if (f.value or "").strip()):
            return
        for field in fields:
            if not (field.value or "").strip():
                field.value = name
                app.page.update()
                return

    return sem("met-before", ft.Row([ft.OutlinedButton(name, on_click=lambda e, name=name: add(name))
                                     for name in known], wrap=True, spacing=6, run_spacing=6))


@ft.observable
@dataclass
class GameChoices:
    """The new-game form's two choices: a tap on one re-renders its row of buttons, and nothing else."""

    edition: str
    mode: str = LETTERS_MODE
    #: the deck the game is scored with: the edition's own, or an owner's deck of it (`scorer.ui.decks`)
    deck: str = ""


#: The chosen choice: an outlined button drawn as a filled one, so that choosing another only changes two
#: buttons' style (a tap never replaces the button it is aimed at).
CHOSEN = ft.ButtonStyle(bgcolor=ft.Colors.PRIMARY, color=ft.Colors.ON_PRIMARY,
                        side=ft.BorderSide(1, ft.Colors.PRIMARY))


@ft.component
def choice_row(choices: GameChoices, field: str, options: tuple[tuple[str, str], ...],
               then: Callable[[str], None] | None = None) -> ft.Control:
    """One choice of the form as a row of buttons, the chosen one filled (a component: a tap re-renders the
    row over `choices`, and every button keeps its identity: only the two whose look changed are patched)."""
    chosen = getattr(choices, field)
    return ft.Row([ft.OutlinedButton(label, style=CHOSEN if key == chosen else None,
                                     on_click=lambda e, key=key: choose(choices, field, key, then))
                   for key, label in options], wrap=True, spacing=8, run_spacing=8)


def choose(choices: GameChoices, field: str, key: str, then: Callable[[str], None] | None = None) -> None:
    """A tap on a choice: the model changes and its row alone re-renders (the island's own update; the
    update of the whole page after a handler would draw the row anew instead of patching it)."""
    ft.context.disable_auto_update()
    setattr(choices, field, key)
    if then is not None:  # what else follows the choice (the deck line follows the edition) updates itself
        then(key)


@screen("new_game")
def new_game(app: PadApp, edition: str = "australia") -> Screen:
    from scorer.ui.decks import deck_base, deck_choice

    # an owner's Europe or USA deck is chosen under its edition (the deck line), not as an edition of its own
    editions = tuple(e for e in available_editions() if deck_base(e) == e)
    wanted = edition if edition in available_editions() else editions[0]
    chosen = GameChoices(deck_base(wanted), deck=wanted)
    names = [ft.TextField(label=(_("Player {n} (optional)") if i >= 2 else _("Player {n}")).format(n=i + 1),
                          dense=True)
             for i in range(4)]
    # the switch's label is its name for a screen reader (a label beside it would not be); a switch's label
    # does not wrap, so it is short and what the variant does is said under it
    variant = ft.Switch(value=False, label=wording.direction_variant_name())
    variant_row = ft.Column([variant, ft.Text(wording.direction_variant_effect(), size=13,
                                              color=ft.Colors.ON_SURFACE_VARIANT)], spacing=2)
    message = ft.Text("", color=ft.Colors.ERROR)
    deck_column = ft.Column(spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

    def show_deck() -> None:
        deck_column.controls = [deck_choice(app, chosen.edition, chosen.deck, deck_chosen)]

    def deck_chosen(deck: str) -> None:
        """An owner's deck picked, or an edition chosen (its own deck, until another is picked)."""
        ft.context.disable_auto_update()  # a page-wide update would draw the choice rows anew
        chosen.deck = deck
        show_deck()
        deck_column.update()

    show_deck()
    edition_row = island(choice_row, chosen, "edition", tuple((e, short_edition_name(e)) for e in editions),
                         deck_chosen)
    mode_row = island(choice_row, chosen, "mode",
                      ((LETTERS_MODE, _("By letters")), (CATEGORIES_MODE, _("By category"))))

    def start(e) -> None:
        try:
            session = GameSession.new(app.store, chosen.deck, [n.value or "" for n in names],
                                      bool(variant.value), chosen.mode)
        except EntryError as err:
            message.value = str(err)
            app.toast(str(err), error=True)  # the message line may be scrolled out of sight
            return
        app.session = session
        app.go("sheet", game_id=session.game_id)

    body = ft.Container(ft.Column([
        section(_("Edition"), edition_row, deck_column),
        section(_("Players"), *names, met_before(app, names)),
        variant_row,
        section(_("Round entry"), mode_row,
                ft.Text(_("By letters: tap each player's 7 cards. By category: type each category's value "
                          "(for a deck the app has no card list for)."), size=12,
                        color=ft.Colors.ON_SURFACE_VARIANT)),
        sem("new-game-message", message),
        ft.FilledButton(_("Start game"), icon=ft.Icons.PLAY_ARROW, on_click=start),
    ], spacing=16, horizontal_alignment=ft.CrossAxisAlignment.STRETCH), padding=PAD)
    # also in the app bar: on a phone the button at the foot of the form is below the fold
    start_action = sem("start", ft.TextButton(_("Start"), icon=ft.Icons.PLAY_ARROW, tooltip=_("Start game"),
                                              on_click=start))
    return Screen(_("New game"), body, actions=[start_action])
