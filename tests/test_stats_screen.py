"""The Stats screen and New game's players met before, drawn in a real Flet session (no browser): the
figures the screen shows are `scorer.stats`'s for the games in the store, in English and in French."""

from __future__ import annotations

import json
from pathlib import Path

import flet as ft
from eventually import drawn, until
from test_pad_screens import find_button, hidden_contents, run_session, start, texts, top, walk

from rules.i18n import format_percent, use_language
from rules.race.bots import make_race_bot
from rules.record import GameRecord
from scorer import stats
from scorer.pad.game import GameSession
from scorer.pad.people import People
from scorer.pad.store import EventStore
from scorer.ui.main import make_main

USA = json.loads((Path(__file__).parent / "data" / "table_usa_acceptance.json").read_text())


def usa_game(store: EventStore) -> None:
    """The recorded USA game: Ann 116, Cy 102, Bob 79."""
    GameSession.from_record(store, GameRecord.model_validate(USA))


async def open_stats(store: EventStore):
    """A phone's session on the Stats screen: (session, page)."""
    session, page, _ = await start(make_main(lambda: store))
    page.data.go("stats")
    return session, page


def test_the_stats_screen_shows_each_players_figures(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    usa_game(store)

    async def run():
        _session, page = await open_stats(store)
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


def test_the_race_tab_shows_wins_and_average_length(tmp_path):
    """Three kept Race games, won by you, by a bot and by no one (the turn limit): the Race tab's lines."""
    from rules.race.board import load_board
    from scorer.race import history
    from scorer.race.solo import SoloRace

    store = EventStore(tmp_path / "games.sqlite3")
    turns = []
    for seed, cap in [(1, 2000), (6, 2000), (3, 12)]:
        solo = SoloRace(load_board(), ("easy",), seed=seed, bot_seed=seed, turn_cap=cap, started_at=float(seed))
        while not solo.state.is_terminal():  # your seat plays the normal bot's moves
            solo.act(make_race_bot("normal", 100 + seed).act(solo.state.view(0)))
        turns.append(solo.state.turn)
        history.keep(store, solo)
    assert [k.winner for k in history.kept_races(store)] == [0, 1, None]

    async def run():
        session, page = await open_stats(store)
        await session.dispatch_event(find_button(page, "Race Around Europe")._i, "click", None)
        await until(lambda: "3 finished games against the bots" in texts(page) and drawn(page), "the Race tab")
        shown = texts(page)
        assert "3 finished games against the bots" in shown
        assert f"You won 1 of 3 games ({format_percent(1 / 3)})" in shown
        assert "the bots won 1, draws at the turn limit 1" in shown
        assert f"average length {sum(turns) / 3:.1f} turns (every player's turns)" in shown
        assert f"fastest win: {turns[0]} turns" in shown
        with use_language("fr"):  # drawn anew in French: the Race tab stays chosen
            page.data.language = "fr"
            page.data.go("stats")
        with use_language("fr"):
            assert f"Vous avez gagné 1 sur 3 parties ({format_percent(1 / 3)})" in texts(page)

    run_session(run)
    store.close()


def rename_controls(page) -> tuple[ft.TextField, ft.OutlinedButton]:
    """The Stats screen's new-name field and its Rename button."""
    hooks = {c.identifier: c.content for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier}
    return hooks["stats-new-name"], hooks["stats-rename"]


def test_rename_is_off_until_the_typed_name_has_arrived(tmp_path):
    """A tap on Rename can never overtake the typing: the button is off while the app has no name yet, and
    on once the name's change event has come."""
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)

    async def run():
        session, page = await open_stats(store)
        field, button = rename_controls(page)
        assert button.disabled
        session.apply_patch(field._i, {"value": "Annie"})
        await session.dispatch_event(field._i, "change", "Annie")
        await until(lambda: not rename_controls(page)[1].disabled, "Rename on")
        assert rename_controls(page)[1]._i == button._i  # the same button, turned on: a tap on it lands
        await session.dispatch_event(button._i, "click", None)
        assert People(store).person("Ann") == "Annie"
        assert "Annie" in texts(page)

    run_session(run)
    store.close()


def test_a_name_typed_for_a_rename_stays_through_the_light_dark_switch(tmp_path):
    """The light / dark button draws the screen anew: the player chosen and the name typed for them stay (they
    were dropped: the field came back empty and Rename off); a rename done empties the field."""
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)

    async def run():
        session, page = await open_stats(store)
        field, _button = rename_controls(page)
        session.apply_patch(field._i, {"value": "Annie"})
        await session.dispatch_event(field._i, "change", "Annie")
        await until(lambda: not rename_controls(page)[1].disabled, "Rename on")
        page.data.toggle_theme()
        await until(lambda: drawn(page) and rename_controls(page)[0]._i != field._i, "the screen drawn anew")
        field, button = rename_controls(page)
        assert field.value == "Annie" and not button.disabled
        await session.dispatch_event(button._i, "click", None)
        assert People(store).person("Ann") == "Annie"
        await until(lambda: drawn(page) and rename_controls(page)[0].value == "", "the field emptied")

    run_session(run)
    store.close()


def test_enter_renames_with_the_name_it_carries(tmp_path):
    """Enter on the keyboard sends the typed name with it: it renames even when no change event came first."""
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)

    async def run():
        session, page = await open_stats(store)
        field, _button = rename_controls(page)
        await session.dispatch_event(field._i, "submit", "Annie")
        assert People(store).person("Ann") == "Annie"

    run_session(run)
    store.close()


def test_history_lists_the_solo_and_race_games_stats_counts(tmp_path):
    """A score pad game, a solo game against a bot and a Race Around Europe game, all finished: History
    lists the three, most recent first, each with its result and players; the solo game opens on its
    final ranking and the Race game shows its result; home counts the three."""
    from rules.race.board import load_board
    from scorer.race import history
    from scorer.race.solo import SoloRace
    from scorer.solo import view as solo_view
    from scorer.solo.game import SoloGame

    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    solo = SoloGame.new("australia", ["easy"], seed=4, bot_seed=5, player_name="Zoe")
    solo_id = solo_view.start(store, solo)
    while not solo.state.is_terminal():
        solo_view.save(store, solo_id, solo, solo.play(solo.screen()["actions"][-1]["action"]))
    top_of_solo = solo.ranking()[0]
    race = SoloRace(load_board(), ("easy",), seed=1, bot_seed=1, turn_cap=2000, started_at=1.0)
    while not race.state.is_terminal():
        race.act(make_race_bot("normal", 101).act(race.state.view(0)))
    history.keep(store, race)
    assert len(stats.played_games(store)) == 2 and len(history.kept_races(store)) == 1  # what Stats counts
    turns = race.state.turn
    won = race.state.winner == 0
    # the three were finished in this order: the list shows the last first
    for game_id, at in ((1, 100.0), (solo_id, 200.0), (history.kept_rows(store)[0][0].id, 300.0)):
        store._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        assert find_button(page, "History (3)")
        page.data.go("history")
        rows = {c.identifier: c.content for c in walk(top(page)) if isinstance(c, ft.Semantics)
                and (c.identifier or "").startswith("history-game-")}
        assert sorted(rows) == ["history-game-1", "history-game-2", "history-game-3"]
        race_row, solo_row, pad_row = (rows[f"history-game-{i}"].content for i in (1, 2, 3))
        result = f"You won in {turns} turns" if won else f"Bot 1 (easy) won in {turns} turns"
        assert race_row.title.value == result
        assert race_row.subtitle.value.startswith("Race Around Europe · You · Bot 1 (easy) · ")
        assert solo_row.title.value == f"finished: {top_of_solo['name']} won with {top_of_solo['total']}"
        assert solo_row.subtitle.value.startswith("Solo: Australia · Zoe · ")
        assert pad_row.title.value == "Ann 116, Cy 102, Bob 79"
        with use_language("fr"):
            page.data.language = "fr"
            page.data.go("history")
            french = texts(page)
            assert f"Vous avez gagné en {turns} tours" in french or f"Bot 1 (facile) a gagné en {turns} tours" \
                in french
            page.data.language = "en"
        page.data.go("history")
        race_row = next(c.content.content for c in walk(top(page)) if isinstance(c, ft.Semantics)
                        and c.identifier == "history-game-1")
        await session.dispatch_event(race_row._i, "click", None)
        dialog = page._dialogs.controls[-1]
        assert isinstance(dialog, ft.AlertDialog) and dialog.open
        assert result in [c.value for c in walk(dialog.content) if isinstance(c, ft.Text)]
        page.pop_dialog()
        solo_row = next(c.content.content for c in walk(top(page)) if isinstance(c, ft.Semantics)
                        and c.identifier == "history-game-2")
        await session.dispatch_event(solo_row._i, "click", None)
        assert top(page).route == f"/solo/{solo_id}"
        assert "Final ranking" in texts(page)

    run_session(run)
    store.close()


def test_a_choice_on_the_stats_screen_re_renders_it_in_place(tmp_path):
    """The Stats screen is a component over the person's choices: a view chosen restyles its buttons and a
    player compared changes the head-to-head line, the buttons and fields tapped staying the same controls."""
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)
    usa_game(store)

    async def run():
        session, page = await open_stats(store)
        views = {label: find_button(page, label)._i for label in ("All editions", "USA", "Solo")}
        await session.dispatch_event(views["Solo"], "click", None)
        await until(lambda: "0 finished games" in texts(page) and drawn(page), "the solo view")
        assert {label: find_button(page, label)._i for label in views} == views
        assert find_button(page, "Solo").style is not None and find_button(page, "All editions").style is None

        def versus() -> str:
            return next(c.content.value for c in walk(top(page))
                        if isinstance(c, ft.Semantics) and c.identifier == "stats-versus")

        before = versus()
        assert before == "2 games together: Ann ahead 2, Bob ahead 0, level 0"
        other = next(c for c in walk(top(page)) if isinstance(c, ft.Dropdown) and c.label == "Other player")
        session.apply_patch(other._i, {"value": "Cy"})
        await session.dispatch_event(other._i, "select", "Cy")
        await until(lambda: versus() != before and drawn(page), "Cy compared")
        assert versus() == "2 games together: Ann ahead 2, Cy ahead 0, level 0"
        assert next(c for c in walk(top(page)) if isinstance(c, ft.Dropdown) and c.label == "Other player")._i == \
            other._i

    run_session(run)
    store.close()


def test_the_stats_screen_draws_no_error_box_where_a_message_is_hidden(tmp_path):
    """The rename's message line is hidden until there is something to say; hidden on its Semantics hook, not
    inside it (Flet drew "Semantics.content must be provided and visible" in red there)."""
    store = EventStore(tmp_path / "games.sqlite3")
    usa_game(store)

    async def run():
        _session, page = await open_stats(store)
        await until(lambda: drawn(page) and "Rename or merge a player" in texts(page), "the rename part")
        assert hidden_contents(page) == []
        message = next(c for c in walk(top(page)) if isinstance(c, ft.Semantics) and c.identifier == "stats-message")
        assert message.visible is False

    run_session(run)
    store.close()
