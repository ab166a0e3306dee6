"""Home (new game, resume, history) and the new-game form."""

from __future__ import annotations

import datetime as dt

import flet as ft

from rules.i18n import format_datetime
from scorer.locale import _
from scorer.packs import available_editions, resolve_edition
from scorer.pad.errors import EntryError
from scorer.pad.game import CATEGORIES_MODE, LETTERS_MODE, GameSession
from scorer.pad.store import summary_line
from scorer.ui.app import PadApp, Screen, screen, sem

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


@screen("home")
def home(app: PadApp) -> Screen:
    playing = app.store.games("playing")
    finished = app.store.games("finished")
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
    if playing:
        game = playing[0]
        items.append(ft.FilledTonalButton(
            _("Resume: {players}").format(players=" · ".join(game.players)), icon=ft.Icons.PLAY_ARROW,
            on_click=lambda e, gid=game.id: resume(app, gid)))
        items.append(sem("resume-info", ft.Text(f"{edition_name(game.edition)}, {summary_line(game.summary)}",
                                                color=ft.Colors.ON_SURFACE_VARIANT)))
        for other in playing[1:]:
            items.append(ft.TextButton(_("Also unfinished: {players} ({summary})").format(
                players=" · ".join(other.players), summary=summary_line(other.summary)),
                                       on_click=lambda e, gid=other.id: resume(app, gid)))
    items.append(ft.OutlinedButton(_("History ({n})").format(n=len(finished)), icon=ft.Icons.HISTORY,
                                   on_click=lambda e: app.go("history")))
    items.append(ft.OutlinedButton(_("Table mode: host or join"), icon=ft.Icons.GROUPS,
                                   on_click=lambda e: app.go("table")))
    items.append(ft.OutlinedButton(_("Teach tourpad your cards"), icon=ft.Icons.SCHOOL_OUTLINED,
                                   tooltip=_("So that Camera and Photo file read the publisher's cards"),
                                   on_click=lambda e: app.go("teach")))
    items.append(solo_entries(app))
    items.append(section(
        "Race Around Europe",
        ft.OutlinedButton(_("Journey checker"), icon=ft.Icons.RULE,
                          on_click=lambda e: app.go("race_checker")),
        ft.OutlinedButton(_("Solo game vs a bot"), icon=ft.Icons.SMART_TOY,
                          on_click=lambda e: app.go("race_solo"))))
    body = ft.Container(ft.Column(items, spacing=14, horizontal_alignment=ft.CrossAxisAlignment.STRETCH),
                        padding=PAD)
    return Screen("tourpad", body)


def solo_entries(app: PadApp) -> ft.Control:
    """Play solo against bots, and resume the last unfinished solo game."""
    from scorer.solo_view import unfinished

    entries: list[ft.Control] = [ft.OutlinedButton(_("Play solo"), icon=ft.Icons.SMART_TOY,
                                                   on_click=lambda e: app.go("solo_setup"))]
    saved = unfinished(app.store)
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
    finished = app.store.games("finished")
    rows: list[ft.Control] = []
    for i, game in enumerate(finished, start=1):
        when = format_datetime(dt.datetime.fromtimestamp(game.updated_at), "short")
        rows.append(sem(f"history-game-{i}", ft.Card(ft.ListTile(
            leading=ft.Icon(ft.Icons.EMOJI_EVENTS), title=ft.Text(summary_line(game.summary)),
            subtitle=ft.Text(f"{edition_name(game.edition)} · {when}"),
            on_click=lambda e, gid=game.id: (app.open_game(gid), app.go("end", game_id=gid))))))
    if not rows:
        rows.append(ft.Text(_("No finished games yet."), color=ft.Colors.ON_SURFACE_VARIANT))
    from scorer.ui.backup import backup_buttons

    rows.append(backup_buttons(app))  # every game, finished or not, as one file: how to move to a new phone
    return Screen(_("History"), ft.Container(ft.Column(rows, spacing=8), padding=PAD))


@screen("new_game")
def new_game(app: PadApp, edition: str = "australia") -> Screen:
    editions = available_editions()
    chosen = {"edition": edition if edition in editions else editions[0], "mode": LETTERS_MODE}
    names = [ft.TextField(label=(_("Player {n} (optional)") if i >= 2 else _("Player {n}")).format(n=i + 1),
                          dense=True)
             for i in range(4)]
    # the switch's label is its name for a screen reader (a label beside it would not be); a switch's label
    # does not wrap, so it is short and what the variant does is said under it
    variant = ft.Switch(value=False, label=_("Direction variant"))
    variant_row = ft.Column([variant, ft.Text(_("With 3–4 players, pass right in rounds 2 and 4."), size=13,
                                              color=ft.Colors.ON_SURFACE_VARIANT)], spacing=2)
    message = ft.Text("", color=ft.Colors.ERROR)
    edition_row = ft.Row(wrap=True, spacing=8, run_spacing=8)
    mode_row = ft.Row(wrap=True, spacing=8)

    def pick_buttons() -> None:
        edition_row.controls = [
            (ft.FilledButton if e == chosen["edition"] else ft.OutlinedButton)(
                short_edition_name(e),
                on_click=lambda ev, e=e: (chosen.update(edition=e), pick_buttons()))
            for e in editions]
        mode_row.controls = [
            (ft.FilledButton if m == chosen["mode"] else ft.OutlinedButton)(
                label, on_click=lambda ev, m=m: (chosen.update(mode=m), pick_buttons()))
            for m, label in ((LETTERS_MODE, _("By letters")), (CATEGORIES_MODE, _("By category")))]

    pick_buttons()

    def start(e) -> None:
        try:
            session = GameSession.new(app.store, chosen["edition"], [n.value or "" for n in names],
                                      bool(variant.value), chosen["mode"])
        except EntryError as err:
            message.value = str(err)
            app.toast(str(err), error=True)  # the message line may be scrolled out of sight
            return
        app.session = session
        app.go("sheet", game_id=session.game_id)

    from scorer.ui.backup import pack_import_button

    body = ft.Container(ft.Column([
        section(_("Edition"), edition_row, pack_import_button(app)),
        section(_("Players"), *names),
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
