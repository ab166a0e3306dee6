"""`tourpad bench imitate`: fit the expert's model of a pick to the picks the `hard` bot makes.

The expert's rollouts need a model of how the other players pick (and a policy for its own picks below its
search tree). `hard`'s rollout policy weighs what each card adds this round by hand-set weights
(`GREEDY_PICK`): it names `hard`'s actual pick about half the time. Here seeded games of four `hard` bots
are played, every pick from a hand of two or more cards is recorded with the terms `_pick` weighs for each
card of the hand (`_Rollout.pick_features`), and the weights are fitted by maximum likelihood of a
conditional logit (`benchmarks.logit`: the chance of a pick ∝ exp(weights · terms), fitted on the games' first
four fifths). The held-out fifth measures how often each set of weights names `hard`'s pick. The weights are
scaled so that a new site is worth ±1; the shipped ones are `rules.bots.expert.EXPERT_PICK`.
"""

from __future__ import annotations

import numpy as np

from benchmarks import logit
from rules.bots.expert import expert_pick_weights
from rules.bots.hard import GREEDY_PICK, HardBot, PickWeights, _Rollout, choice_outlook
from rules.edition import Edition
from rules.engine import Game, Phase

#: One recorded pick: every card's terms (`PickWeights` order), and which card was picked.
Decision = tuple[list[PickWeights], int]


def collect(edition: Edition, players: int, games: int, seed: int = 5) -> list[list[Decision]]:
    """Every game's recorded picks (Throw and draft, from hands of two or more cards), game by game."""
    outlook = choice_outlook(edition, players)
    recorded = []
    for g in range(games):
        game = Game(edition, players, seed * 100_003 + g)
        state = game.new_initial_state()
        bots = [HardBot(g * players + p) for p in range(players)]
        decisions: list[Decision] = []
        while not state.is_terminal():
            actions = [bot.act(view) for bot, view in zip(bots, state.views(), strict=True)]
            if state.phase in (Phase.THROW, Phase.DRAFT):
                terms = _Rollout(state, 0, outlook, 0.0)
                _, _, masks, collections = terms.round_start()
                for q, hand in enumerate(state.hands):
                    if len(hand) < 2:
                        continue
                    features = terms.pick_features(q, hand, masks[q], collections[q], state.phase == Phase.THROW)
                    decisions.append((features, hand.index(actions[q])))
            state.apply_joint(actions)
        recorded.append(decisions)
    return recorded


def fit(decisions: list[Decision], iterations: int = 30) -> tuple[PickWeights, float]:
    """The weights of highest likelihood (scaled so that a new site is worth ±1) and the fitted
    temperature: how many points of value make a pick e times likelier."""
    weights = logit.fit(decisions, iterations)
    # The scale is |new site| so the temperature stays positive (a player who shuns new sites fits a
    # negative weight there); with no weight on new sites at all, the weights' length is the unit.
    scale = abs(weights[PickWeights._fields.index("new_site")])
    if scale < 1e-6:
        scale = float(np.linalg.norm(weights)) or 1.0
    return PickWeights(*(float(w / scale) for w in weights)), float(1 / scale)


def agreement(decisions: list[Decision], weights: PickWeights) -> float:
    """The share of the picks that the highest-valued card under `weights` names (ties: the first card)."""
    terms, present, picked = logit.arrays(decisions)
    values = np.where(present, terms @ np.array(weights), -np.inf)
    return float((values.argmax(axis=1) == picked).mean())


def run(edition: Edition, players: int = 4, games: int = 100, seed: int = 5) -> dict:
    recorded = collect(edition, players, games, seed)
    split = games * 4 // 5
    train = [d for game in recorded[:split] for d in game]
    held_out = [d for game in recorded[split:] for d in game]
    weights, temperature = fit(train)
    shipped = expert_pick_weights(edition, players)
    return {
        "edition": edition.id, "players": players, "games": games, "seed": seed,
        "picks_fitted": len(train), "picks_held_out": len(held_out),
        "weights": {name: round(value, 3) for name, value in weights._asdict().items()},
        "temperature": round(temperature, 3),
        "agreement_held_out": {"fitted": round(agreement(held_out, weights), 4),
                               "shipped": round(agreement(held_out, shipped), 4),
                               "hard_rollout_policy": round(agreement(held_out, GREEDY_PICK), 4)},
    }
