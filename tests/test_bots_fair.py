"""No bot can cheat: a bot's choice depends on its observation only, never on the hidden cards.

Two states that show a player the same thing but hide different cards (other players' Throw cards,
hands the player has not held, the undealt cards, the future shuffles) must get the same decision and,
for the hard bot, the same value of every action. And the worlds the hard bot searches
(`PlayerView.determinized`) agree with what the player sees and deal every card exactly once.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import bot_names, make_bot
from rules.bots.hard import HardBot
from rules.editions import load_edition
from rules.engine import Game, Phase, State
from rules.scoring import row_mask

AUSTRALIA = load_edition("australia")


def advance(n_players: int, seed: int, steps: int, direction_variant: bool = False,
            edition_id: str = "australia") -> State:
    """A game after `steps` joint decisions of random play (stops early at game end)."""
    state = Game(load_edition(edition_id), n_players, seed, direction_variant).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(n_players)])
    return state


def hidden_slots(state: State, player: int) -> list[tuple[str, int, int]]:
    """Where the cards `player` cannot see sit in play: ("throw", q, 0) or ("hand", q, i)."""
    slots = []
    for q in range(state.game.n_players):
        if q == player:
            continue
        if state.rows[q]:
            slots.append(("throw", q, 0))
        if not state.has_held(player, q):
            slots.extend(("hand", q, i) for i in range(len(state.hands[q])))
    return slots


def rearrange_hidden(state: State, player: int, seed: int) -> State:
    """The same state as `player` sees it, with the hidden cards moved around and new future shuffles.

    In-play hidden cards are permuted among themselves; with fewer than 4 players, an undealt card that
    may legally be in play (not set aside last round) is swapped in, so the set of hidden cards in play
    changes too.
    """
    other = state.clone()
    other.rng = random.Random(seed + 99)
    if state.phase not in (Phase.THROW, Phase.DRAFT):
        return other
    rng = random.Random(seed)
    slots = hidden_slots(other, player)
    cards = [other.rows[q][0] if kind == "throw" else other.hands[q][i] for kind, q, i in slots]
    previous = set(other.previous_set_aside)
    swappable = [c for c in other.set_aside if c not in previous]
    movable = [k for k, card in enumerate(cards) if card not in previous]
    if swappable and movable:
        k = rng.choice(movable)
        j = other.set_aside.index(rng.choice(swappable))
        cards[k], other.set_aside[j] = other.set_aside[j], cards[k]
    rng.shuffle(cards)
    rng.shuffle(other.set_aside)
    for (kind, q, i), card in zip(slots, cards, strict=True):
        if kind == "throw":
            other.masks[q] = other.masks[q] & ~(1 << other.rows[q][0]) | 1 << card
            other.rows[q][0] = card
        else:
            other.hands[q][i] = card
    return other


def in_play(state: State) -> list[int]:
    return [c for hand in state.hands for c in hand] + [c for row in state.rows for c in row]


@pytest.mark.parametrize(("edition_id", "n_players", "seed", "steps"),
                         [("australia", 4, 1, 0), ("australia", 4, 2, 3), ("australia", 4, 3, 9),
                          ("australia", 3, 4, 2), ("australia", 3, 5, 12), ("australia", 2, 6, 5),
                          ("australia", 4, 7, 8), ("australia", 4, 8, 5), ("australia", 3, 9, 22),
                          ("europe", 3, 31, 9), ("usa", 4, 32, 2), ("usa", 2, 33, 14), ("europe", 2, 34, 3)])
def test_no_bot_decision_depends_on_hidden_cards(edition_id: str, n_players: int, seed: int, steps: int) -> None:
    state = advance(n_players, seed, steps, edition_id=edition_id)
    assert state.phase in (Phase.THROW, Phase.DRAFT)
    player = seed % n_players
    other = rearrange_hidden(state, player, seed)
    # the rearrangement really hides different cards in different places…
    assert [h[:] for h in other.hands] != [h[:] for h in state.hands] or (
        [r[:1] for r in other.rows] != [r[:1] for r in state.rows])
    # …but shows the player exactly the same thing
    assert other.observation(player) == state.observation(player)
    for name in bot_names():
        a = make_bot(name, 11).act(state.view(player))
        b = make_bot(name, 11).act(other.view(player))
        assert a == b, f"{name} picked {a} in one world and {b} in the other"
    values = HardBot(seed=5, samples=6).action_values(state.view(player))
    assert values == HardBot(seed=5, samples=6).action_values(other.view(player))


def test_hard_bot_values_change_with_what_it_sees() -> None:
    """The fairness test is not vacuous: a different own hand gives different values."""
    a = advance(4, 21, 2)
    b = advance(4, 22, 2)
    assert a.observation(0) != b.observation(0)
    va = HardBot(seed=1, samples=4).action_values(a.view(0))
    vb = HardBot(seed=1, samples=4).action_values(b.view(0))
    assert va != vb


@settings(max_examples=60, deadline=None)
@given(n_players=st.integers(2, 4), seed=st.integers(0, 10_000), steps=st.integers(0, 30),
       variant=st.booleans(), world_seed=st.integers(0, 10_000))
def test_determinized_copy_agrees_with_observation_and_deals_each_card_once(
        n_players: int, seed: int, steps: int, variant: bool, world_seed: int) -> None:
    state = advance(n_players, seed, steps, variant and n_players >= 3)
    player = seed % n_players
    view = state.view(player)
    world = view.determinized(random.Random(world_seed))
    assert world.observation(player) == state.observation(player)
    every = in_play(world) + world.set_aside
    if world.phase is not Phase.GAME_OVER:
        # every card of the deck is exactly once in a hand, a row or the undealt pile
        assert Counter(every) == Counter(range(len(AUSTRALIA.cards)))
        # cards set aside last round are always dealt this round
        assert set(world.previous_set_aside) <= set(in_play(world))
    # the rows' masks follow the re-dealt Throw cards (the copy scores what its rows hold)
    assert world.masks == [row_mask(row) for row in world.rows]
    # the re-deal moved only hidden cards: what the player can see is where it was
    assert world.hands[player] == state.hands[player]
    assert world.rows[player] == state.rows[player]
    # and the copy is independent of the real game
    assert world is not state and world.hands is not state.hands


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 5))
def test_determinized_worlds_vary_the_hidden_cards(seed: int, steps: int) -> None:
    state = advance(4, seed, steps)
    view = state.view(0)
    worlds = {tuple(map(tuple, world.hands + world.rows))
              for world in (view.determinized(random.Random(s)) for s in range(8))}
    assert len(worlds) > 1
