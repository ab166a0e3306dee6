"""`tourpad bench engine`'s yardstick: the plain loop plays and scores exactly the engine's games."""

from __future__ import annotations

import random

import pytest

from benchmarks.engine import plain_random_game, plain_tables, play_only, profile, run
from rules.bots import make_bot, play
from rules.editions import bundled_ids, load_edition
from rules.engine import Game


@pytest.mark.parametrize("edition_id", bundled_ids())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_plain_loop_scores_every_game_as_the_engine_does(edition_id, players):
    edition = load_edition(edition_id)
    tables = plain_tables(edition)
    bonuses_seen = 0
    for seed in range(40):
        bot_seeds = [seed * 10 + p for p in range(players)]
        engine = play(Game(edition, players, seed), [make_bot("random", s) for s in bot_seeds])
        plain = plain_random_game(tables, players, random.Random(seed), [make_bot("random", s) for s in bot_seeds])
        assert plain == engine.totals(), f"seed {seed}"
        bonuses_seen += sum(score.regions + score.route for rounds in engine.round_scores for score in rounds) > 0
    assert bonuses_seen  # the shared bonuses were part of what was compared


def test_the_bench_reports_both_rates_and_their_ratio():
    result = run(load_edition("australia"), games=8, batches=2)
    assert result["games"] == 8 and result["scored_alike"] is True
    assert result["games_per_second"] > 0 and result["baseline_games_per_second"] > 0
    assert result["ratio"] == pytest.approx(result["games_per_second"] / result["baseline_games_per_second"],
                                            rel=0.01)


def test_one_side_alone_and_the_profile():
    australia = load_edition("australia")
    play_only(australia, "plain", games=2)
    play_only(australia, "engine", games=2)
    with pytest.raises(ValueError, match="engine or plain, not 'both'"):
        play_only(australia, "both", games=2)
    assert "_play_rounds_uniform" in profile(australia, games=5)  # the top function by own time
