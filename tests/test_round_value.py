"""`tourpad bench round-value`: fitting what a sheet at a round's end is worth beyond its points, to who wins."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks import logit
from benchmarks.round_value import MIN_SEEN, FitError, collect, shipped_values, worth
from rules.bots.expert import RoundEndValue
from rules.editions import load_edition
from rules.engine import ROUNDS
from scorer.cli import app


def _drawn_round_ends(weights: tuple[float, ...], seed: int = 2) -> list:
    """Tables of four whose winner is drawn from a conditional logit with these weights over (standing,
    collection, route, sites)."""
    rng = np.random.default_rng(seed)
    ends = []
    for _ in range(5000):
        sheets = np.column_stack([rng.normal(90, 10, 4), rng.integers(0, 20, 4), rng.random(4) < 0.3,
                                  rng.integers(10, 30, 4)]).astype(float)
        chance = np.exp(sheets @ np.array(weights) - (sheets @ np.array(weights)).max())
        ends.append((sheets.tolist(), int(rng.choice(4, p=chance / chance.sum()))))
    return ends


def test_the_fit_finds_each_terms_worth_in_points_of_standing() -> None:
    """Winners drawn with a point of standing weighing 0.25, a point of collection −0.05 (−0.2 points), a
    scored route −0.5 (−2 points), sites nothing: the fit's worths are those, within sampling error."""
    weights = logit.fit(_drawn_round_ends((0.25, -0.05, -0.5, 0.0)))
    collection, route, sites = worth(weights)
    assert collection == pytest.approx(-0.2, abs=0.06)
    assert route == pytest.approx(-2.0, abs=0.5)
    assert sites == pytest.approx(0.0, abs=0.06)


def test_a_standing_that_does_not_help_to_win_is_refused_by_name() -> None:
    with pytest.raises(FitError, match=r"standing's fitted weight is -0\.1000"):
        worth([-0.1, 0.2, 0.0, 0.0])


def test_a_term_seen_too_rarely_takes_the_nearest_well_seen_worth() -> None:
    fitted = {1: (-0.3, -2.0, 0.1), 2: (-0.4, -3.0, 0.2), 3: (-0.5, -9.0, 0.3)}
    seen = {1: [500, 500, 0], 2: [500, 300, 0], 3: [500, MIN_SEEN - 1, 0]}
    values = shipped_values(fitted, seen, dict.fromkeys((1, 2, 3), True))
    assert values == [RoundEndValue(-0.3, -2.0, 0.0), RoundEndValue(-0.4, -3.0, 0.0),
                      RoundEndValue(-0.5, -3.0, 0.0)]
    # where the terms did not name the held-out winners better, the sheet is worth its standing alone, and
    # no other number of rounds left borrows from there
    values = shipped_values(fitted, seen, {1: True, 2: False, 3: True})
    assert values == [RoundEndValue(-0.3, -2.0, 0.0), RoundEndValue(0.0, 0.0, 0.0),
                      RoundEndValue(-0.5, -2.0, 0.0)]


def test_each_round_end_records_every_players_standing_and_sheet_with_the_one_winner() -> None:
    usa = load_edition("usa")
    games = collect(usa, 4, 3, seed=21)
    assert 1 <= len(games) <= 3  # a shared win is left out
    for game in games:
        assert set(game) == set(range(1, ROUNDS))
        winners = {winner for _, winner in game.values()}
        assert len(winners) == 1 and 0 <= winners.pop() < 4
        for left, (sheets, _) in game.items():
            assert len(sheets) == 4
            for standing, collection, route, sites in sheets:
                assert standing > 0 and collection >= 0 and route in (0, 1)
                assert 7 <= sites <= 7 * (ROUNDS - left)  # a round's 7 cards visit at least one new site...
        # ...and sites are only ever added
        assert all(game[left + 1][0][q][3] <= game[left][0][q][3] for left in (1, 2) for q in range(4))


def test_the_command_prints_the_values_and_what_they_say_on_held_out_games() -> None:
    result = CliRunner().invoke(app, ["bench", "round-value", "--edition", "usa", "--games", "10", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report["round_end_value"]) == {"1", "2", "3"}
    assert set(report["round_end_value"]["1"]) == {"collection", "route", "sites"}
    assert report["games_fitted"] + report["games_held_out"] + report["games_with_a_shared_win_left_out"] == 10
    # USA's collection score is valued by the bar's outlook, read from every sheet's first-round total
    assert all(value["collection"] == 0.0 for value in report["round_end_value"].values())
    first_round = report["collection_totals_in_the_first_round"]
    assert sum(first_round) == 4 * (report["games_fitted"] + report["games_held_out"]) and first_round[-1] > 0
    for measured in report["held_out_mean_log_likelihood_of_the_winner"].values():
        assert measured["standing_alone"] < 0 and measured["with_the_terms"] < 0


def test_a_fit_the_games_do_not_support_is_a_message_not_a_traceback(monkeypatch) -> None:
    from benchmarks import round_value

    # the games' round ends are drawn, not played: the message is what is tested, not the bots
    ends = _drawn_round_ends((0.25, -0.05, -0.5, 0.0))[:10]
    monkeypatch.setattr(round_value, "collect", lambda *_args, **_kw: [dict.fromkeys((1, 2, 3), end) for end in ends])
    monkeypatch.setattr(logit, "fit", lambda choices: np.array([-0.2] + [0.0] * (len(choices[0][0][0]) - 1)))
    result = CliRunner().invoke(app, ["bench", "round-value", "--edition", "usa", "--games", "10"])
    assert result.exit_code == 2
    assert "standing's fitted weight is -0.2000" in result.output and "Traceback" not in result.output
