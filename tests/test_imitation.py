"""`tourpad bench imitate`: fitting the expert's model of a pick to observed picks."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.imitation import agreement, collect, fit, run
from rules.bots.expert import EXPERT_PICK, expert_pick_weights
from rules.bots.hard import GREEDY_PICK, PickWeights
from rules.editions import load_edition


def _drawn_picks(true: PickWeights, temperature: float, seed: int = 3) -> list:
    """Picks drawn from a conditional logit with these weights and temperature, over random hands' terms."""
    rng = np.random.default_rng(seed)
    decisions = []
    for _ in range(6000):
        size = int(rng.integers(2, 8))
        terms = rng.normal(size=(size, len(true))) * (rng.random((size, len(true))) < 0.5)
        chance = np.exp(terms @ np.array(true) / temperature)
        picked = int(rng.choice(size, p=chance / chance.sum()))
        decisions.append(([PickWeights(*row) for row in terms.tolist()], picked))
    return decisions


def test_the_fit_recovers_the_weights_that_made_the_picks() -> None:
    """Picks drawn from a conditional logit with known weights (a new site worth 1, temperature 0.5): the
    fit finds those weights back, and names the likeliest card as often as the true weights do."""
    true = PickWeights(0.7, 1.2, 0.5, 0.6, -0.4, 1.0, 0.9, 0.3, 1.8)
    temperature = 0.5
    decisions = _drawn_picks(true, temperature)
    fitted, fitted_temperature = fit(decisions)
    assert np.allclose(fitted, true, rtol=0.08, atol=0.05), fitted
    assert abs(fitted_temperature - temperature) < 0.06
    assert agreement(decisions, fitted) >= agreement(decisions, true) - 0.01
    assert agreement(decisions, fitted) > agreement(decisions, GREEDY_PICK) + 0.05


def test_a_player_who_shuns_new_sites_fits_a_negative_new_site_and_a_positive_temperature() -> None:
    """Scaling by the new site's weight must keep its sign: picks that avoid new sites (as `hard`'s do with
    two players) fit new_site = -1, and the fitted weights still name the likeliest cards."""
    true = PickWeights(0.5, 0.4, 0.3, 0.2, -0.5, -1.0, 0.0, -0.1, 0.8)
    decisions = _drawn_picks(true, 0.7, seed=4)
    fitted, temperature = fit(decisions)
    assert fitted.new_site == -1.0 and abs(temperature - 0.7) < 0.08
    assert np.allclose(fitted, true, rtol=0.1, atol=0.06), fitted
    assert agreement(decisions, fitted) >= agreement(decisions, true) - 0.01


def test_recorded_picks_are_the_hard_bots_among_their_hands_terms() -> None:
    edition = load_edition("australia")
    games = collect(edition, 4, 2, seed=9)
    assert len(games) == 2
    for decisions in games:
        # 4 rounds × 4 players × picks from hands of 7 down to 2 cards
        assert len(decisions) == 4 * 4 * 6
        for features, picked in decisions:
            assert 2 <= len(features) <= 7 and 0 <= picked < len(features)
            assert all(isinstance(terms, PickWeights) for terms in features)
    throw_picks = [d for game in games for d in game if any(terms.throw for terms in d[0])]
    assert len(throw_picks) == 4 * 4 * 2  # each round's Throw, by each player, in each game


def test_the_expert_uses_its_base_editions_fitted_weights_with_three_or_four_players() -> None:
    for edition_id, weights in EXPERT_PICK.items():
        edition = load_edition(edition_id)
        assert expert_pick_weights(edition, 4) == expert_pick_weights(edition, 3) == weights
        assert expert_pick_weights(edition, 2) == GREEDY_PICK  # two players: hard's own weights
        assert weights.new_site == 1.0  # scaled to a new site
    assert set(EXPERT_PICK) == {"australia", "europe", "usa"}


@pytest.mark.slow
def test_fitted_and_shipped_weights_name_hards_picks_more_often_than_hards_own() -> None:
    """On held-out games (a different seed from the shipped fit's), both the weights fitted on a few games
    and the shipped ones name `hard`'s pick more often than `hard`'s own rollout weights do."""
    result = run(load_edition("australia"), players=4, games=5, seed=17)
    assert result["picks_fitted"] == 4 * 96 and result["picks_held_out"] == 1 * 96
    agreed = result["agreement_held_out"]
    assert agreed["fitted"] > agreed["hard_rollout_policy"] + 0.03
    assert agreed["shipped"] > agreed["hard_rollout_policy"] + 0.05
