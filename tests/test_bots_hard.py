"""The hard bot: legal play at every player count, its round-end choice, budgets, the difficulty names."""

from __future__ import annotations

import random

import pytest

from rules.bots import bot_names, make_bot, play
from rules.bots.greedy import GreedyBot
from rules.bots.hard import GREEDY_PICK, HardBot, PickWeights, _Rollout, choice_outlook
from rules.bots.random_bot import RandomBot
from rules.edition import Edition, compile_edition
from rules.editions import load_edition
from rules.engine import CHOICE_NONE, Game, Phase, action_choice
from rules.model import EditionSpec, RouteSpec
from rules.scoring import choice_option_points

AUSTRALIA = load_edition("australia")


def variant_edition(**rules) -> Edition:
    """Australia's deck under other editions' rules (Europe's and USA's data land on another branch):
    the bots must handle every rule the engine knows, not only Australia's."""
    spec: EditionSpec = AUSTRALIA.spec
    choice = spec.choice
    if rules.pop("treasures", False):
        choice = choice.model_copy(update={"rule": "treasure_others", "table": None,
                                           "per_icon_by_players": {2: 3, 3: 2, 4: 2}})
    collection = spec.collection.model_copy(update={"rule": rules.pop("collection")})
    return compile_edition(spec.model_copy(update={"id": "variant", "choice": choice, "collection": collection,
                                                   **rules}))


EUROPE_LIKE = variant_edition(collection="halve_above_7", treasures=True, tie_breakers=["route", "throw_catch"],
                              route=RouteSpec(kind="passport", id="passport", name="Passport", tiers=[10, 6, 3],
                                              last_tier_min_players=3))
USA_LIKE = variant_edition(collection="must_beat_previous", throw_catch="throw_if_caught")


def test_difficulty_names_are_registered() -> None:
    assert {"easy", "normal", "hard", "random", "greedy"} <= set(bot_names())
    assert isinstance(make_bot("easy"), RandomBot)
    assert isinstance(make_bot("normal"), GreedyBot)
    assert isinstance(make_bot("hard"), HardBot)


@pytest.mark.parametrize(("players", "variant"), [(2, False), (3, True), (4, False)])
def test_hard_bot_plays_whole_games_legally(players: int, variant: bool) -> None:
    # play() applies joint actions, which refuse any illegal one
    bots = [HardBot(seed=p, samples=3) for p in range(players)]
    state = play(Game(AUSTRALIA, players, 17, variant), bots)
    assert state.is_terminal() and len(state.round_log) == 4


@pytest.mark.parametrize("edition", [EUROPE_LIKE, USA_LIKE], ids=["europe-like", "usa-like"])
def test_hard_bot_handles_every_rule(edition) -> None:
    for players in (2, 4):
        state = play(Game(edition, players, 3), [HardBot(seed=p, samples=3) for p in range(players)])
        assert state.is_terminal()


def test_round_end_choice_weighs_points_now_against_icons_kept() -> None:
    state = Game(AUSTRALIA, 4, 5).new_initial_state()
    bots = [GreedyBot(p) for p in range(4)]
    while state.phase != Phase.CHOICE:
        state.apply_joint([b.act(state.view(p)) for p, b in enumerate(bots)])
    view = state.view(0)
    values = HardBot(seed=1).action_values(view)
    assert set(values) == set(view.legal_actions())
    outlook = choice_outlook(AUSTRALIA, 4)
    points = dict(choice_option_points(AUSTRALIA, [tuple(r) for r in state.rows], 0))
    assert values[CHOICE_NONE] == pytest.approx(outlook.future(0, 3))
    for action, value in values.items():
        if action != CHOICE_NONE:
            icon = action_choice(action)
            assert value == pytest.approx(points[icon] + outlook.future(1 << icon, 3))
    # keeping more icons unused is never worth less
    assert outlook.future(0, 3) >= outlook.future(1, 3) >= outlook.future(3, 3)
    assert outlook.future(0, 0) == 0


def test_time_budget_still_values_every_action() -> None:
    state = Game(AUSTRALIA, 3, 8).new_initial_state()
    view = state.view(1)
    values = HardBot(seed=2, seconds=0.05).action_values(view)
    assert set(values) == set(view.legal_actions())


def test_hard_bot_outscores_greedy_over_a_few_games() -> None:
    """A smoke check of strength (the real measurement is `tourpad sim`): 6 games, rotating seats."""
    margin = 0
    for g in range(6):
        seat = g % 4
        bots = [GreedyBot(g * 4 + p) for p in range(4)]
        bots[seat] = HardBot(seed=g, samples=8)
        totals = play(Game(AUSTRALIA, 4, 100 + g), bots).totals()
        margin += totals[seat] - sum(totals) / 4
    assert margin > 0


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_the_rollout_policy_picks_the_card_its_weighted_terms_value_most(edition_id: str) -> None:
    """`_pick` sums `pick_features`' terms inline (its hot loop); any weights, any hand, the two agree."""
    edition = load_edition(edition_id)
    state = Game(edition, 4, 31).new_initial_state()
    bots = [RandomBot(p) for p in range(4)]
    weights_rng = random.Random(5)
    checked = 0
    while not state.is_terminal():
        if state.phase in (Phase.THROW, Phase.DRAFT):
            rollout = _Rollout(state, 0, choice_outlook(edition, 4), 0.0)
            for q, hand in enumerate(state.hands):
                mask = sum(1 << c for c in state.rows[q])
                collection = sum(edition.collection_values[c] for c in state.rows[q])
                throw = state.phase == Phase.THROW
                for _ in range(3):
                    rollout.weights = PickWeights(*(weights_rng.uniform(-1, 2) for _ in PickWeights._fields))
                    features = rollout.pick_features(q, hand, mask, collection, throw)
                    noise = random.Random(checked)
                    noise.random()  # the draw `_pick` spends on its ε test
                    values = [noise.random() * 0.25 + sum(w * f for w, f in zip(rollout.weights, terms, strict=True))
                              for terms in features]
                    expected = hand[values.index(max(values))]
                    assert rollout._pick(q, hand, mask, collection, throw, random.Random(checked)) == expected
                    checked += 1
        state.apply_joint([bot.act(view) for bot, view in zip(bots, state.views(), strict=True)])
    assert checked >= 250


def test_hard_rollout_policy_weighs_each_card_by_its_points_this_round() -> None:
    """`GREEDY_PICK` counts a term's points as they are: a new site 1, a region's bonus as printed, a pair
    only when completed."""
    assert GREEDY_PICK.new_site == GREEDY_PICK.bonus == GREEDY_PICK.collection == GREEDY_PICK.pair_completed == 1
    assert GREEDY_PICK.pair_started == GREEDY_PICK.region_progress == 0
    assert GREEDY_PICK.choice_step + GREEDY_PICK.choice_icon == 1
