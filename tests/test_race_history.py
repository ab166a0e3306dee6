"""Every finished Race Around Europe game is kept in History (`scorer.race.history`), once, and the Stats
screen's Race figures (`scorer.stats.race_figures`) count them.

The games are played here to their end, your seat by a bot's policy; the expected figures are re-counted
from the games' own final states, not from what History stored.
"""

from __future__ import annotations

import json
import os

import pytest
from test_race_ui import open_screens

from rules.race.board import load_board
from rules.race.bots import make_race_bot
from scorer import stats
from scorer.pad.archive import export_games, import_games
from scorer.pad.store import EventStore
from scorer.race import history
from scorer.race.solo import SoloRace

BOARD = load_board()


def play_out(solo: SoloRace, policy_seed: int, level: str = "normal", move=None) -> SoloRace:
    """Play your seat to the game's end with a bot's policy (`move` sends each action, e.g. by the screen)."""
    me = make_race_bot(level, policy_seed)
    while not solo.state.is_terminal():
        action = me.act(solo.state.view(0))
        if move is None:
            solo.act(action)
        else:
            move(lambda action=action: solo.act(action))
    return solo


def recount(games: list[SoloRace]) -> stats.RaceFigures:
    winners = [g.state.winner for g in games]
    turns = [g.state.turn for g in games]
    won = [t for w, t in zip(winners, turns, strict=True) if w == 0]
    return stats.RaceFigures(games=len(games), wins=len(won), bot_wins=sum(w not in (0, None) for w in winners),
                             draws=winners.count(None), average_turns=sum(turns) / len(turns),
                             fastest_win=min(won) if won else None)


@pytest.fixture
def store(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    yield store
    store.close()


def test_each_new_game_no_longer_replaces_the_last_finished_one(tmp_path, store):
    """On the solo screen: two games played to their end, a new game after each; both stay in History."""
    _window, screens = open_screens(tmp_path, "solo")
    screens.store = store
    screens.rerender = lambda: None  # the moves go through the screen's handler; drawing each is not the point
    played = []
    for policy_seed in (3, 8):
        played.append(play_out(screens.solo, policy_seed, move=screens.solo_do))
        screens.new_solo()
    assert screens.solo not in played and not screens.solo.state.is_terminal()
    kept = history.kept_races(store)
    assert [(k.winner, k.turns, k.actions) for k in kept] == [
        (g.state.winner, g.state.turn, g.actions) for g in played]
    assert stats.race_figures(kept) == recount(played)


def test_a_finished_game_is_kept_once_even_when_reopened(tmp_path, store):
    """Kept when it ends; a second keep, or the app reopened on the finished game, adds nothing; a game that
    ended while History could not be written (the app closed first) is kept on reopening."""
    _window, screens = open_screens(tmp_path, "solo")
    finished = play_out(screens.solo, 5)  # played past the screen: nothing kept yet
    assert history.kept_races(store) == []
    for _attempt in range(2):
        _window, again = open_screens(tmp_path)
        again.store = store
        again.open_solo()
        assert again.solo.state.is_terminal()
    assert history.keep(store, again.solo) == history.keep(store, finished)
    assert len(store.games(history.FINISHED)) == 1
    assert history.keep(store, SoloRace(BOARD, ("easy",), seed=1)) is None  # not over: not kept


def test_a_game_saved_before_games_had_a_start_time_is_kept_once(tmp_path, store):
    path = tmp_path / "race-solo.json"
    solo = play_out(SoloRace(BOARD, ("easy",), seed=2, path=path, bot_seed=2), 4)
    data = json.loads(path.read_text())
    del data["started_at"]
    path.write_text(json.dumps(data))
    os.utime(path, (1_700_000_000, 1_700_000_000))
    for _attempt in range(2):
        history.keep(store, SoloRace.load(path, BOARD))
    [kept] = history.kept_races(store)
    assert kept.started_at == 1_700_000_000 and kept.winner == solo.state.winner


def test_race_figures_match_a_recount_with_wins_losses_and_draws(store):
    games = []
    for seed, bots, cap, level in [(1, ("easy",), 2000, "normal"), (6, ("easy",), 2000, "normal"),
                                   (3, ("normal", "easy"), 12, "normal"), (4, ("easy",), 2000, "easy"),
                                   (7, ("normal",), 2000, "easy"), (9, ("easy", "easy", "normal"), 2000, "normal")]:
        solo = play_out(SoloRace(BOARD, bots, seed=seed, bot_seed=seed, turn_cap=cap, started_at=float(seed)),
                        100 + seed, level)
        games.append(solo)
        history.keep(store, solo)
    expected = recount(games)
    assert expected.wins and expected.bot_wins and expected.draws  # every outcome is in the history
    assert stats.race_figures(history.kept_races(store)) == expected
    assert stats.race_figures([]) == stats.RaceFigures(0, 0, 0, 0, 0.0, None)


def test_a_kept_game_replays_and_travels_with_export_and_import(tmp_path, store):
    solo = play_out(SoloRace(BOARD, ("normal",), seed=11, bot_seed=3), 12)
    history.keep(store, solo)
    [kept] = history.kept_races(store)
    replay = SoloRace(BOARD, tuple(kept.bots), kept.seed, turn_cap=kept.turn_cap, bot_seed=kept.bot_seed)
    for action in kept.actions:
        replay.act(action)
    assert (replay.state.winner, replay.state.turn) == (kept.winner, kept.turns)
    other = EventStore(tmp_path / "other.sqlite3")
    try:
        assert import_games(other, export_games(store)) == (1, 0)
        assert import_games(other, export_games(store)) == (0, 1)
        assert history.kept_races(other) == [kept]
    finally:
        other.close()


def test_a_stored_race_game_that_does_not_read_is_left_out(store):
    store.restore_game(1.0, 1.0, history.RACE_GAME, ["You", "Bot 1"], history.FINISHED, "",
                       [(history.EVENT, {"board": "tourpad", "seed": 1, "bots": ["easy"], "actions": [],
                                         "turn_cap": 10, "bot_seed": 1, "started_at": 1.0, "winner": 4,
                                         "turns": 3}, 1.0)])
    assert history.kept_races(store) == []
