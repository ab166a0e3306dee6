"""The hard bot: legal play at every player count, its round-end choice, budgets, the difficulty names."""

from __future__ import annotations

import pytest

from rules.bots import bot_names, make_bot, play
from rules.bots.greedy import GreedyBot
from rules.bots.hard import HardBot, choice_outlook
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
