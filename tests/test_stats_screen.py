"""The Stats screen and New game's players met before, drawn in a real Flet session (no browser): the
figures the screen shows are `scorer.stats`'s for the games in the store, in English and in French."""

from __future__ import annotations

import json
from pathlib import Path

import flet as ft
from test_pad_screens import run_session, start, texts, top, walk

from rules.i18n import format_percent, use_language
from rules.record import GameRecord
from scorer.pad.game import GameSession
from scorer.pad.people import People
from scorer.pad.store import EventStore
from scorer.ui.main import make_main

USA = json.loads((Path(__file__).parent / "data" / "table_usa_acceptance.json").read_text())


def usa_game(store: EventStore) -> None:
    """The recorded USA game: Ann 116, Cy 102, Bob 79."""
    GameSession.from_record(store, GameRecord.model_validate(USA))


def test_the_stats_screen_shows_each_players_figures(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    usa_game(store)

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        page.data.go("stats")
        shown = texts(page)
        assert "2 finished games" in shown
        # most wins first, then most games, then by name
        assert shown.index("Ann") < shown.index("Bob") < shown.index("Cy")
        assert "won 2 of 2 games (100%)" in shown and "won 0 of 2 games (0%)" in shown
        assert "average 116.0 points, best 116" in shown and "average 79.0 points, best 79" in shown
        bars = [c.label for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.label
                and (c.identifier or "").startswith("stats-bar-1-")]
        assert "Throw & Catch: 15.0 points a game" in bars and len(bars) == 7

    run_session(run)
    store.close()


def test_the_stats_screen_in_french(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    People(store).rename("Ann", "Annie")

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        with use_language("fr"):
            page.data.language = "fr"
            page.data.go("stats")
        shown = texts(page)
        assert "1 partie terminée" in shown
        assert "Annie" in shown and "Ann" not in shown
        with use_language("fr"):
            assert f"1 sur 1 partie gagnée ({format_percent(1.0)})" in shown

    run_session(run)
    store.close()


def test_new_game_offers_the_players_met_before(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    People(store).merge("Cy", "Bob")

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        page.data.go("new_game")
        met = next(c for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier == "met-before")
        offered = [b.content for b in met.content.controls]
        assert offered == ["Ann", "Bob"]
        await session.dispatch_event(met.content.controls[1]._i, "click", None)
        await session.dispatch_event(met.content.controls[1]._i, "click", None)  # once only
        fields = [c for c in walk(top(page)) if isinstance(c, ft.TextField)]
        assert [f.value for f in fields[:2]] == ["Bob", None] or [f.value for f in fields[:2]] == ["Bob", ""]

    run_session(run)
    store.close()
