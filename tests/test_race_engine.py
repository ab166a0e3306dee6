"""The Race Around Europe engine: setup, turns, discard piles, reshuffle, winning, turn cap, hidden info."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.race.board import load_board
from rules.race.bots import RandomRaceBot, make_race_bot, play_race
from rules.race.engine import (
    DRAW_PILE,
    PILES,
    SLOTS,
    IllegalAction,
    RaceGame,
    RacePhase,
    decode,
    discard,
    place,
    replace,
    take_discard,
)
from rules.race.journey import is_complete

BOARD = load_board()
ALL_TILES = Counter(range(len(BOARD.tiles)))


def after_setup(players: int = 2, seed: int = 1, **kw):
    state = RaceGame(players, seed, **kw).new_initial_state()
    while state.phase == RacePhase.SETUP:
        state.apply_action(state.current, state.legal_actions(state.current)[0])
    return state


def test_setup_fills_every_holder_one_tile_at_a_time():
    state = RaceGame(3, seed=5, first_player=1).new_initial_state()
    order = []
    while state.phase == RacePhase.SETUP:
        p = state.current
        assert state.in_hand is not None
        open_slots = [s for s, t in enumerate(state.holders[p]) if t is None]
        assert state.legal_actions(p) == [place(s) for s in open_slots]
        order.append(p)
        state.apply_action(p, place(open_slots[-1]))  # any open slot, not just the next one
    assert order == [1, 2, 0] * SLOTS
    assert all(None not in h for h in state.holders)
    assert [len(d) for d in state.discards] == [1, 1, 1]
    assert len(state.draw_pile) == len(BOARD.tiles) - 3 * SLOTS - 3
    assert state.phase == RacePhase.DRAW and state.current == 1
    assert Counter(state.all_tiles()) == ALL_TILES


def test_a_placed_tile_cannot_be_moved_or_placed_twice():
    state = RaceGame(2, seed=2).new_initial_state()
    state.apply_action(0, place(4))
    state.apply_action(1, place(4))
    with pytest.raises(IllegalAction, match="cannot place in trip 5"):
        state.apply_action(0, place(4))
    with pytest.raises(IllegalAction, match="player 1's turn, not player 2's"):
        state.apply_action(1, place(0))


def test_turn_draw_then_replace_or_discard():
    state = after_setup()
    assert state.legal_actions(0) == [DRAW_PILE, take_discard(0), take_discard(1), take_discard(2)]
    top = state.draw_pile[-1]
    state.apply_action(0, DRAW_PILE)
    assert state.phase == RacePhase.PLACE and state.in_hand == top
    assert len(state.legal_actions(0)) == SLOTS * PILES + PILES
    old = state.holders[0][3]
    state.apply_action(0, replace(3, 2))
    assert state.holders[0][3] == top and state.discards[2][-1] == old
    assert state.current == 1 and state.phase == RacePhase.DRAW
    taken = state.discards[1][-1]
    state.apply_action(1, take_discard(1))
    # the last tile of pile 2 was taken: this turn's discard must refill it
    assert state.legal_actions(1) == [replace(s, 1) for s in range(SLOTS)] + [discard(1)]
    with pytest.raises(IllegalAction, match="discard onto pile 1"):
        state.apply_action(1, discard(0))
    state.apply_action(1, discard(1))
    assert state.discards[1] == [taken]
    assert Counter(state.all_tiles()) == ALL_TILES


def test_reshuffle_keeps_the_top_discards():
    state = after_setup(seed=3)
    while True:
        tops_before = [d[-1] for d in state.discards]
        last_draw = len(state.draw_pile) == 1
        state.apply_action(state.current, DRAW_PILE)
        drawn = state.in_hand
        state.apply_action(state.current, discard(0))
        if last_draw:
            break
    assert [d[-1] for d in state.discards] == [drawn, tops_before[1], tops_before[2]]
    assert all(len(d) == 1 for d in state.discards)
    assert len(state.draw_pile) == len(BOARD.tiles) - 2 * SLOTS - 3
    assert Counter(state.all_tiles()) == ALL_TILES


def test_completing_the_journey_wins():
    state = after_setup(seed=4)
    target = [BOARD.kind_of(n) for n in ("Portugal", "Spain", "France", "England", "Ireland", "Atlantic ship",
                                         "Norway", "Sweden", "Denmark", "Germany")]
    # give player 1 the journey but for trip 10, and put a Germany tile on the draw pile
    everything = [t for t in state.all_tiles()]
    by_kind: dict[int, list[int]] = {}
    for t in everything:
        by_kind.setdefault(BOARD.tiles[t], []).append(t)
    holder = [by_kind[k].pop() for k in target]
    rest = [t for k in by_kind for t in by_kind[k] if t not in holder]
    germany = holder[9]
    holder[9] = next(t for t in rest if BOARD.tiles[t] == BOARD.kind_of("Malta"))
    rest.remove(holder[9])
    rest.append(germany)
    state.holders[0] = holder
    state.holders[1] = rest[:SLOTS]
    state.discards = [[t] for t in rest[SLOTS:SLOTS + 3]]
    state.draw_pile = rest[SLOTS + 3:]
    state.draw_pile.remove(germany)
    state.draw_pile.append(germany)
    assert Counter(state.all_tiles()) == ALL_TILES
    state.apply_action(0, DRAW_PILE)
    state.apply_action(0, replace(9, 0))
    assert state.is_terminal() and state.winner == 0 and state.returns() == [1.0, 0.0]
    assert is_complete(BOARD, state.kinds(0))
    assert state.legal_actions(1) == [] and not list(state.current_players())


def test_turn_cap_ends_in_a_draw():
    state = play_race(RaceGame(2, seed=9, turn_cap=30), [RandomRaceBot(1), RandomRaceBot(2)])
    # random players practically never complete a journey: the cap ends it, nobody wins
    assert state.is_terminal() and state.winner is None
    assert state.turn == 30 and state.returns() == [0.0, 0.0] and state.legal_actions(state.current) == []


def test_observation_hides_other_holders_and_the_draw_pile():
    state = after_setup(seed=6)
    obs = state.observation(0)
    assert obs.holder == state.kinds(0) and obs.in_hand is None
    assert obs.discard_tops == tuple(BOARD.tiles[d[-1]] for d in state.discards)
    rng = random.Random(1)
    for _ in range(5):
        other = state.view(0).determinized(rng)
        assert Counter(other.all_tiles()) == ALL_TILES
        assert other.observation(0) == obs  # nothing player 1 sees changed
        assert other.holders[0] == state.holders[0]
    assert "holders" not in obs.__slots__ and "draw_pile" not in obs.__slots__
    state.apply_action(0, DRAW_PILE)
    assert state.observation(0).in_hand == BOARD.tiles[state.in_hand]
    assert state.observation(1).in_hand is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(["easy", "normal"]))
def test_fuzz_random_play_conserves_every_tile(seed, players, bot):
    rng = random.Random(seed)
    game = RaceGame(players, seed, first_player=seed % players, turn_cap=300)
    state = game.new_initial_state()
    bots = [make_race_bot(bot if p == 0 else "easy", seed + p) for p in range(players)]
    steps = 0
    while not state.is_terminal():
        p = state.current
        legal = state.legal_actions(p)
        assert legal and all(state.legal_actions(q) == [] for q in range(players) if q != p)
        action = bots[p].act(state.view(p)) if rng.random() < 0.8 else rng.choice(legal)
        assert action in legal
        state.apply_action(p, action)
        steps += 1
        if steps % 7 == 0 or state.is_terminal():
            tiles = state.all_tiles()
            assert Counter(tiles) == ALL_TILES, "every tile exactly once in piles, holders and hand"
            assert all(state.discards) or state.phase in (RacePhase.SETUP, RacePhase.PLACE)
        if state.phase == RacePhase.DRAW:
            assert all(len(d) >= 1 for d in state.discards)
    assert state.winner is not None or state.turn == 300
    if state.winner is not None:
        assert is_complete(BOARD, state.kinds(state.winner))
    clone = state.clone()
    assert clone.holders == state.holders and clone.holders is not state.holders


def test_decode_round_trips_every_action():
    assert decode(DRAW_PILE) == ("draw", -1, -1)
    for j in range(PILES):
        assert decode(take_discard(j)) == ("take", -1, j)
        assert decode(discard(j)) == ("discard", -1, j)
        for s in range(SLOTS):
            assert decode(replace(s, j)) == ("replace", s, j)
    assert decode(place(9)) == ("place", 9, -1)
    with pytest.raises(ValueError, match="not a Race Around Europe action"):
        decode(999)
