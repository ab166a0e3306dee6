"""The Stats screen (`/stats`): every player's figures across History, per edition or for all, solo games
apart; head to head between two players; renaming and merging players. The figures are `scorer.stats`'s;
this module only lays them out (a phone's width, a small bar chart per player whose bars a screen reader
names with their figure).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

import flet as ft

from rules.i18n import format_percent
from scorer import stats
from scorer.locale import _, ngettext
from scorer.packs import available_editions
from scorer.pad.chart import PLAYER_COLORS
from scorer.pad.errors import EntryError
from scorer.pad.people import People, name_key
from scorer.race.history import kept_races
from scorer.solo.view import one_decimal
from scorer.ui.app import PadApp, Screen, island, screen, sem
from scorer.ui.home import CHOSEN, PAD, section, short_edition_name

#: The chart's widest bar (px): a 390 px phone keeps room for the category's name beside it.
BAR_WIDTH = 150
ALL = "all"
SOLO = "solo"
RACE = "race"
#: Each window's choices that outlive a drawing of the screen anew (the theme, the language, the text size): the
#: view (all editions, one, solo, Race), the player to rename and the new name typed for them.
KEPT: WeakKeyDictionary[PadApp, dict[str, str]] = WeakKeyDictionary()


def win_line(fig: stats.PlayerFigures) -> str:
    """Wins with their count, the rate after it: "won 2 of 3 games (67%)"."""
    return ngettext("won {wins} of {games} game ({rate})", "won {wins} of {games} games ({rate})",
                    fig.games).format(wins=fig.wins, games=fig.games, rate=format_percent(fig.win_rate))


def total_line(fig: stats.PlayerFigures) -> str:
    return _("average {average} points, best {best}").format(average=one_decimal(fig.average_total),
                                                             best=fig.best_total)


def bonus_line(fig: stats.PlayerFigures, route_label: str | None) -> str:
    parts = [ngettext("{n} region bonus", "{n} region bonuses", fig.regions_taken).format(n=fig.regions_taken)]
    if route_label is not None:
        parts.append(_("{route} {n}×").format(route=route_label, n=fig.routes_taken))
    parts.append(_("Throw & Catch scored in {n} of {rounds} rounds").format(n=fig.throw_catch_rounds,
                                                                           rounds=fig.card_rounds))
    return " · ".join(parts)


def streak_line(fig: stats.PlayerFigures) -> str:
    return _("longest winning streak {longest}, current {current}").format(longest=fig.longest_streak,
                                                                         current=fig.current_streak)


def category_labels(games: Sequence[stats.PlayedGame]) -> dict[str, str]:
    """Each category id's name, from the first edition among `games` that has it."""
    labels: dict[str, str] = {}
    for game in games:
        for cid, label in game.edition.category_names().items():
            labels.setdefault(cid, label)
    return labels


def route_label(games: Sequence[stats.PlayedGame]) -> str | None:
    """The route bonus's name ("Passport", "Coast to Coast", both joined), None if no edition has one."""
    labels = list(dict.fromkeys(g.edition.route.label for g in games if g.edition.route is not None))
    return " / ".join(labels) if labels else None


def category_chart(fig: stats.PlayerFigures, ids: Sequence[str], labels: dict[str, str], color: str,
                   index: int) -> ft.Control:
    """Average points a game per category, one bar each; each bar a screen reader names with its figure."""
    averages = [(cid, fig.average_category(cid)) for cid in ids]
    averages = [(cid, value) for cid, value in averages if value is not None]
    if not averages:
        return ft.Text(_("No game entered by cards yet."), size=12, color=ft.Colors.ON_SURFACE_VARIANT)
    top = max(value for _cid, value in averages) or 1
    rows = []
    for cid, value in averages:
        text = _("{category}: {points} points a game").format(category=labels.get(cid, cid),
                                                               points=one_decimal(value))
        rows.append(ft.Semantics(identifier=f"stats-bar-{index}-{cid}", label=text, container=True,
                                 exclude_semantics=True, content=ft.Row([
                # two lines for a long name ("Objets Typiques Américains" beside a bar at 390 px)
                ft.Text(labels.get(cid, cid), size=12, expand=True, max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS),
                ft.Container(width=max(2, BAR_WIDTH * value / top), height=12, bgcolor=color, border_radius=2),
                ft.Text(one_decimal(value), size=12, width=40, text_align=ft.TextAlign.RIGHT),
            ], spacing=6)))
    return ft.Column(rows, spacing=2)


def player_card(fig: stats.PlayerFigures, index: int, ids: Sequence[str], labels: dict[str, str],
                route: str | None) -> ft.Control:
    color = PLAYER_COLORS[index % len(PLAYER_COLORS)]
    return sem(f"stats-player-{index + 1}", ft.Card(ft.Container(ft.Column([
        sem(f"stats-name-{index + 1}", ft.Text(fig.name, theme_style=ft.TextThemeStyle.TITLE_MEDIUM,
                                               weight=ft.FontWeight.BOLD)),
        sem(f"stats-wins-{index + 1}", ft.Text(win_line(fig))),
        sem(f"stats-average-{index + 1}", ft.Text(total_line(fig))),
        ft.Text(streak_line(fig), size=13),
        ft.Text(bonus_line(fig, route), size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(_("Average points a game, by category"), size=12, weight=ft.FontWeight.BOLD),
        category_chart(fig, ids, labels, color, index + 1),
    ], spacing=4), padding=12)))


def race_rows(figures: stats.RaceFigures) -> list[ft.Control]:
    """Race Around Europe's figures: the person's wins against the bots, and how long the games last."""
    rows: list[ft.Control] = [
        sem("stats-games", ft.Text(ngettext("{n} finished game against the bots",
                                            "{n} finished games against the bots",
                                            figures.games).format(n=figures.games))),
        sem("stats-race-wins", ft.Text(ngettext(
            "You won {wins} of {games} game ({rate})", "You won {wins} of {games} games ({rate})",
            figures.games).format(wins=figures.wins, games=figures.games, rate=format_percent(figures.win_rate)))),
        ft.Text(_("the bots won {bots}, draws at the turn limit {draws}").format(bots=figures.bot_wins,
                                                                                draws=figures.draws), size=13,
                color=ft.Colors.ON_SURFACE_VARIANT),
        sem("stats-race-length", ft.Text(_("average length {turns} turns (every player's turns)").format(
            turns=one_decimal(figures.average_turns)))),
    ]
    if figures.fastest_win is not None:
        rows.append(sem("stats-race-fastest", ft.Text(ngettext(
            "fastest win: {n} turn", "fastest win: {n} turns", figures.fastest_win).format(n=figures.fastest_win))))
    return rows


@dataclass(frozen=True, eq=False)
class StatsData:
    """What the Stats screen shows figures of, read from the store once per drawing of the screen (a rename
    draws it anew): the score pad's and solo games, Race games, and the players' names as renamed."""

    people: People
    games: tuple[stats.PlayedGame, ...]
    races: tuple
    #: every person who played a score pad game, by their current name, sorted
    names: tuple[str, ...]

    @classmethod
    def read(cls, store) -> StatsData:
        people = People(store)
        games = tuple(stats.played_games(store))
        names = sorted({people.person(g.players[p]) for g in games for p in g.people if not g.solo},
                       key=str.casefold)
        return cls(people, games, tuple(kept_races(store)), tuple(names))

    def views(self) -> list[tuple[str, str]]:
        """The views to choose from: all editions, each edition played, solo, and Race if any was kept."""
        views = [(ALL, _("All editions"))] + [(e, short_edition_name(e)) for e in available_editions()
                                              if any(g.edition.id == e for g in self.games)]
        views.append((SOLO, _("Solo")))
        if self.races:
            views.append((RACE, "Race Around Europe"))
        return views


@ft.observable
@dataclass
class StatsChoices:
    """What the person chose on the Stats screen: the view, the two players compared, the player to rename,
    the new name as typed and the last refusal. A choice re-renders the part of the screen it changes; the
    controls a tap is aimed at keep their identity."""

    view: str = ALL
    first: str | None = None
    second: str | None = None
    renamed: str | None = None
    new_name: str = ""
    message: str = ""


def choose(choices: StatsChoices, **changes) -> None:
    """A choice made: the model changes and the component re-renders what it shows (not the whole page)."""
    ft.context.disable_auto_update()
    for name, value in changes.items():
        setattr(choices, name, value)


@screen("stats")
def stats_screen(app: PadApp) -> Screen:
    data = StatsData.read(app.store)
    names = data.names
    # what was chosen and typed stays when the screen is drawn anew (a rename, the theme, the language)
    kept = KEPT.setdefault(app, {"view": ALL})
    if kept["view"] not in dict(data.views()):  # its games were deleted since
        kept["view"] = ALL
    renamed = kept.get("renamed") if kept.get("renamed") in names else (names[0] if names else None)
    choices = StatsChoices(view=kept["view"], first=names[0] if names else None,
                           second=names[1] if len(names) > 1 else None, renamed=renamed,
                           new_name=kept.get("new_name", ""))
    return Screen(_("Stats"), ft.Container(island(stats_body, choices, data, app), padding=PAD))


@ft.component
def stats_body(choices: StatsChoices, data: StatsData, app: PadApp) -> ft.Control:
    """The Stats screen over `choices`: the views, the chosen view's figures, head to head, rename."""
    KEPT.setdefault(app, {}).update(view=choices.view, renamed=choices.renamed or "", new_name=choices.new_name)
    return ft.Column([
        ft.Row([ft.OutlinedButton(label, style=CHOSEN if key == choices.view else None,
                                  on_click=lambda e, key=key: choose(choices, view=key))
                for key, label in data.views()], wrap=True, spacing=8, run_spacing=8),
        figures_part(data, choices.view),
        head_to_head_part(choices, data, choices.first, choices.second),
        rename_part(choices, data, app, choices.renamed, choices.new_name, choices.message),
    ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


@ft.memo
@ft.component
def figures_part(data: StatsData, view: str) -> ft.Control:
    """The chosen view's figures: every player's card, or Race Around Europe's lines."""
    if view == RACE:
        return ft.Column(race_rows(stats.race_figures(data.races)), spacing=8,
                         horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    selected = stats.select(data.games, None if view in (ALL, SOLO) else view, view == SOLO)
    figures = stats.figures(selected, data.people.person)
    labels, route = category_labels(selected), route_label(selected)
    rows: list[ft.Control] = [sem("stats-games", ft.Text(ngettext(
        "{n} finished game", "{n} finished games", figures.games).format(n=figures.games)))]
    if figures.best_round is not None:
        best = figures.best_round
        rows.append(sem("stats-best-round", ft.Text(_("Best round ever: {name}, {points} points "
                                                      "(round {round}, {edition})").format(
            name=data.people.person(best.name), points=best.points, round=best.round_number,
            edition=short_edition_name(best.edition)))))
    rows += [player_card(fig, i, figures.category_ids, labels, route) for i, fig in enumerate(figures.players)]
    if not figures.players:
        rows.append(ft.Text(_("No finished games yet."), color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Column(rows, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def versus_line(data: StatsData, first: str | None, second: str | None) -> str:
    if not first or not second or name_key(first) == name_key(second):
        return _("Choose two players.")
    head = stats.head_to_head(stats.select(data.games), first, second, data.people.person)
    return ngettext(
        "{n} game together: {first} ahead {ahead}, {second} ahead {behind}, level {level}",
        "{n} games together: {first} ahead {ahead}, {second} ahead {behind}, level {level}",
        head.games).format(n=head.games, first=first, second=second, ahead=head.first_ahead,
                           behind=head.second_ahead, level=head.level)


@ft.memo
@ft.component
def head_to_head_part(choices: StatsChoices, data: StatsData, first: str | None, second: str | None
                      ) -> ft.Control:
    """Two players' games together: who finished ahead how often."""
    options = [ft.DropdownOption(n) for n in data.names]
    return section(_("Head to head"), ft.Row([
        ft.Dropdown(label=_("Player"), options=options, dense=True, value=first, expand=True,
                    on_select=lambda e: choose(choices, first=e.control.value)),
        ft.Dropdown(label=_("Other player"), options=options, dense=True, value=second, expand=True,
                    on_select=lambda e: choose(choices, second=e.control.value)),
    ], spacing=8), sem("stats-versus", ft.Text(versus_line(data, first, second))))


@ft.memo
@ft.component
def rename_part(choices: StatsChoices, data: StatsData, app: PadApp, renamed: str | None, new_name: str,
                message: str) -> ft.Control:
    """Renaming a player, or merging two (another player's name typed). Rename stays off until the typed
    name has reached the app: a tap that overtook the typing (a busy phone) would otherwise rename no one."""

    def rename(e) -> None:
        # Enter on the keyboard sends the name with it: it counts even if its change event has not come yet
        typed = e.data if e.name == "submit" and isinstance(e.data, str) and e.data.strip() else choices.new_name
        if not choices.renamed or not typed.strip():
            return
        # another player's name merges the two; the player's own name in other capitals renames them
        target = next((n for n in data.names if name_key(n) == name_key(typed)
                       and name_key(n) != name_key(choices.renamed)), None)
        try:
            if target is not None:
                data.people.merge(choices.renamed, target)
            else:
                data.people.rename(choices.renamed, typed)
        except EntryError as err:
            choose(choices, message=str(err))
            app.toast(str(err), error=True)
            return
        app.toast(_("Saved: their games follow the new name."))
        KEPT.setdefault(app, {})["new_name"] = ""  # done: the field is empty again
        app.render()  # every figure and name read again

    return section(
        _("Rename or merge a player"),
        ft.Dropdown(label=_("Player"), options=[ft.DropdownOption(n) for n in data.names], dense=True,
                    value=renamed, on_select=lambda e: choose(choices, renamed=e.control.value)),
        sem("stats-new-name", ft.TextField(label=_("New name (another player's name merges the two)"), dense=True,
                                           value=new_name, on_submit=rename,
                                           on_change=lambda e: choose(choices, new_name=e.control.value or ""))),
        sem("stats-rename", ft.OutlinedButton(_("Rename"), icon=ft.Icons.EDIT, disabled=not new_name.strip(),
                                              on_click=rename)),
        sem("stats-message", ft.Text(message, color=ft.Colors.ERROR, visible=bool(message))),
        ft.Text(_("Saved games keep the names they were played under."), size=12,
                color=ft.Colors.ON_SURFACE_VARIANT))
