"""No bot can cheat: a bot is given its view and nothing else, and nothing reachable from a view reveals a
hidden card or the seed.

- Walking everything reachable from a view (tests/reachable.py) finds no `Game`, `State`, random generator
  or the game's seed, at every decision of whole games, in Boomerang and Race Around Europe alike.
- Two states that show a player the same thing but hide different cards (other players' Throw cards and
  pending picks, hands the player has not held, the undealt cards, the deck order, the seed and the future
  shuffles) give views whose whole reachable graphs are equal, and equal determinized samples; so every
  bot's decision and the hard and expert bots' value of every action are equal too.
- The worlds the hard bot searches (`PlayerView.determinized`) agree with what the player sees and deal
  every card exactly once.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reachable import Canonical, canonical, leaks

from rules.bots import bot_names, make_bot, play
from rules.bots.expert import ExpertBot
from rules.bots.hard import HardBot
from rules.editions import load_edition
from rules.engine import Game, Phase, PlayerView, State
from rules.race.bots import RACE_BOTS, make_race_bot
from rules.race.engine import RaceGame, RacePhase, RaceState, RaceView
from rules.scoring import row_mask

AUSTRALIA = load_edition("australia")
#: A seed no edition table, card mask or count can equal by chance, so finding it anywhere is a leak.
SEED = 2_718_281_829


def forbidden(obj: object) -> str | None:
    """Why a bot must not reach `obj`, or None."""
    if isinstance(obj, (State, Game, RaceState, RaceGame)):
        return f"a {type(obj).__name__}"
    if isinstance(obj, random.Random):
        return "a random generator"
    if type(obj) is int and obj in (SEED, SEED + 1):
        return "the game's seed"
    return None


def advance(n_players: int, seed: int, steps: int, direction_variant: bool = False,
            edition_id: str = "australia", pending: int = 0) -> State:
    """A game after `steps` joint decisions of random play (stops early at game end), then the first
    `pending` players' hidden picks of the next step (as from people at a table)."""
    state = Game(load_edition(edition_id), n_players, seed, direction_variant).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(n_players)])
    if not state.is_terminal():
        for p in range(min(pending, n_players - 1)):
            state.apply_action(p, rng.choice(state.legal_actions(p)))
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
    """The same state as `player` sees it, with everything hidden changed: the game's seed and random
    generator, the deck order, the hidden cards moved around, and other players' pending picks.

    In-play hidden cards are permuted among themselves; with fewer than 4 players, an undealt card that
    may legally be in play (not set aside last round) is swapped in, so the set of hidden cards in play
    changes too. The record of this round's steps follows the new Throw cards.
    """
    other = state.clone()
    game = state.game
    other.game = Game(game.edition, game.n_players, SEED + 1 if game.seed != SEED + 1 else SEED,
                      game.direction_variant)
    other.rng = random.Random(seed + 99)
    random.Random(seed + 7).shuffle(other.used_cards)  # the order the deck was dealt from
    rng = random.Random(seed)
    if state.phase not in (Phase.THROW, Phase.DRAFT):
        rng.shuffle(other.set_aside)
        return other
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
    # this round's steps (their Throw cards included) are kept in the history
    start = len(other.history) - other.passes
    for k in range(other.passes):
        other.history[start + k] = tuple(row[k] for row in other.rows)
    other._pending = [None if pick is None or q == player else rng.choice(other.hands[q])
                      for q, pick in enumerate(other._pending)]
    return other


def assert_same_view(view: PlayerView | RaceView, other_view: PlayerView | RaceView) -> None:
    """The two views are equal in everything reachable from them, and so are the worlds they sample (which
    agree with what the player sees)."""
    dump = Canonical()
    assert dump(other_view) == dump(view)
    for k in range(3):
        world, other_world = view.determinized(random.Random(k)), other_view.determinized(random.Random(k))
        assert dump(other_world) == dump(world)
        assert other_world.rng.getstate() == world.rng.getstate()
        assert world.observation(view.player) == view.observation()


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
    # …but shows the player exactly the same thing: the observation, everything reachable from the view,
    # and the worlds it samples
    assert other.observation(player) == state.observation(player)
    assert_same_view(state.view(player), other.view(player))
    for name in bot_names():
        a = quick_bot(name, 11).act(state.view(player))
        b = quick_bot(name, 11).act(other.view(player))
        assert a == b, f"{name} picked {a} in one world and {b} in the other"
    values = HardBot(seed=5, samples=6).action_values(state.view(player))
    assert values == HardBot(seed=5, samples=6).action_values(other.view(player))
    values = ExpertBot(seed=5, simulations=50).action_values(state.view(player))
    assert values == ExpertBot(seed=5, simulations=50).action_values(other.view(player))


def quick_bot(name: str, seed: int):
    """The bot `make_bot` names, the expert with a small budget (its search is the same, only narrower)."""
    bot = make_bot(name, seed)
    return ExpertBot(seed, simulations=50) if isinstance(bot, ExpertBot) else bot


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


# --- nothing reachable from a view gives the game away ---------------------------------------------------------

def not_the_real_game(state: State | RaceState) -> object:
    """A determinized world is a state of its own: it may hold a generator, never the real game's."""
    def check(obj: object) -> str | None:
        if obj is state or obj is state.game or obj is state.rng:
            return f"the real game's {type(obj).__name__}"
        if type(obj) is int and obj == SEED:
            return "the game's seed"
        return None
    return check


@pytest.mark.parametrize(("edition_id", "n_players", "variant"),
                         [("australia", 4, False), ("australia", 3, True), ("australia", 2, False),
                          ("europe", 3, False), ("europe", 2, False), ("usa", 4, True)])
def test_nothing_reachable_from_any_view_is_a_game_state_generator_or_seed(
        edition_id: str, n_players: int, variant: bool) -> None:
    """Every player's view at every decision of a whole game, bots of every kind playing."""
    state = Game(load_edition(edition_id), n_players, SEED, variant).new_initial_state()
    bots = [HardBot(seed=1, samples=2), ExpertBot(seed=2, simulations=20), make_bot("easy", 3), make_bot("normal", 4)]
    seen: dict[int, object] = {}  # each object is walked once, the edition's tables included
    seen_in_worlds: dict[int, object] = {}
    while True:
        views = state.views()
        for view in views:
            assert leaks(view, forbidden, seen) == []
        assert leaks(state.all_legal_actions(), forbidden, seen) == []  # what a random bot is given
        world = views[0].determinized(random.Random(len(state.history)))
        assert world.game.seed is None and world.rng.getstate() != state.rng.getstate()
        assert leaks(world, not_the_real_game(state), seen_in_worlds) == []
        if state.is_terminal():
            break
        state.apply_joint([bot.act(view) for bot, view in zip(bots, views, strict=False)])


@settings(max_examples=40, deadline=None)
@given(edition_id=st.sampled_from(["australia", "europe", "usa"]), n_players=st.integers(2, 4),
       seed=st.integers(0, 10_000), steps=st.integers(0, 30), variant=st.booleans(), pending=st.integers(0, 3))
def test_views_of_states_differing_only_in_what_is_hidden_are_equal(
        edition_id: str, n_players: int, seed: int, steps: int, variant: bool, pending: int) -> None:
    state = advance(n_players, seed, steps, variant and n_players >= 3, edition_id, pending)
    player = seed % n_players
    other = rearrange_hidden(state, player, seed)
    assert other.game.seed != state.game.seed and other.rng.getstate() != state.rng.getstate()
    assert_same_view(state.view(player), other.view(player))


def test_a_bot_given_only_its_legal_actions_decides_as_it_does_on_its_view() -> None:
    """`play` hands bots that read nothing but their legal actions just those (`Bot.choose`)."""
    game = Game(AUSTRALIA, 4, 5)
    given_actions = play(game, [make_bot("easy", p) for p in range(4)])
    state, bots = game.new_initial_state(), [make_bot("easy", p) for p in range(4)]
    while not state.is_terminal():
        state.apply_joint([bot.act(view) for bot, view in zip(bots, state.views(), strict=True)])
    assert state.round_log == given_actions.round_log


def test_the_walk_finds_every_way_a_view_could_leak() -> None:
    """The checks above are not vacuous: each way of handing a bot the game, or a hidden card, is found."""
    state = Game(AUSTRALIA, 4, SEED).new_initial_state()
    state.apply_joint([state.legal_actions(p)[0] for p in range(4)])  # Throws, then one pass
    view = state.view(0)

    class OldView:
        """The view bots used to get: the state behind a slot."""

        __slots__ = ("_state", "player")

        def __init__(self, inner: State, player: int) -> None:
            self._state, self.player = inner, player

    class Lazy:
        """A view computing what it shows from the state it captured."""

        def __init__(self, fetch) -> None:
            self._fetch = fetch

        @property
        def hand(self):
            return self._fetch()

    ways = {
        "the state in a field": view._replace(public=(view.public, state)),
        "the state behind a slot": OldView(state, 0),
        "the game in a dict": view._replace(actions=({"game": state.game},)),
        "a closure over the state": view._replace(actions=(lambda: state.hands[0],)),
        "a method bound to the state": view._replace(actions=(state.legal_actions,)),
        "the real generator's method": view._replace(actions=(state.rng.random,)),
        "the seed": view._replace(player=SEED),
        "a partial holding the game": view._replace(actions=(functools.partial(len, state.game),)),
        "a property over a closure": Lazy(lambda: state.hands[0]),
    }
    assert leaks(view, forbidden) == []
    for way, leaky in ways.items():
        assert leaks(leaky, forbidden), f"the walk missed {way}"
    # a copy of other players' hands is no forbidden object, but comparing views of two states that
    # differ only in hidden cards finds it
    other = rearrange_hidden(state, 0, 5)
    assert canonical(state.view(0)) == canonical(other.view(0))

    def peeking(s: State):
        return s.view(0)._replace(held_hands=tuple(map(tuple, s.hands)))

    assert canonical(peeking(state)) != canonical(peeking(other))
    assert canonical(state.view(0)) != canonical(state.view(1))


# --- Race Around Europe -------------------------------------------------------------------------------------

def race_advance(n_players: int, seed: int, moves: int) -> RaceState:
    state = RaceGame(n_players, seed, first_player=seed % n_players, turn_cap=400).new_initial_state()
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(state.current, rng.choice(state.legal_actions(state.current)))
    return state


def rearrange_hidden_race(state: RaceState, player: int, seed: int) -> RaceState:
    """The same state as `player` sees it, with another seed and generator and every tile the player
    cannot see (other holders, the draw pile, buried discards, a tile drawn blind) moved around."""
    other = state.clone()
    game = state.game
    other.game = RaceGame(game.n_players, SEED + 1, game.board, game.first_player, game.turn_cap)
    other.rng = random.Random(seed + 99)
    places: list[tuple[list, int]] = [(other.holders[q], s) for q in range(game.n_players) if q != player
                                      for s, t in enumerate(other.holders[q]) if t is not None]
    places += [(other.draw_pile, i) for i in range(len(other.draw_pile))]
    places += [(pile, i) for pile in other.discards for i in range(len(pile) - 1)]
    blind = [other.in_hand] if other.in_hand is not None and other.current != player and other.took_from < 0 else []
    tiles = [where[i] for where, i in places] + blind
    random.Random(seed).shuffle(tiles)
    for (where, i), tile in zip(places, tiles, strict=False):
        where[i] = tile
    if blind:
        other.in_hand = tiles[-1]
    return other


@pytest.mark.parametrize(("n_players", "seed", "moves"),
                         [(2, 1, 0), (2, 2, 3), (2, 3, 12), (3, 4, 9), (3, 5, 40), (4, 6, 25), (4, 7, 81)])
def test_race_views_of_states_differing_only_in_what_is_hidden_are_equal(
        n_players: int, seed: int, moves: int) -> None:
    state = race_advance(n_players, seed, moves)
    for player in range(n_players):
        other = rearrange_hidden_race(state, player, seed)
        assert other.holders != state.holders or other.draw_pile != state.draw_pile
        view, other_view = state.view(player), other.view(player)
        assert_same_view(view, other_view)
        if player == state.current_player():
            for name in RACE_BOTS:
                assert make_race_bot(name, 3).act(view) == make_race_bot(name, 3).act(other_view), name


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_nothing_reachable_from_any_race_view_is_a_game_state_generator_or_seed(n_players: int) -> None:
    state = RaceGame(n_players, SEED, turn_cap=24).new_initial_state()
    bots = [make_race_bot(name, p) for p, name in enumerate(["search", "normal", "easy", "normal"])]
    seen: dict[int, object] = {}
    seen_in_worlds: dict[int, object] = {}
    while True:
        for p in range(n_players):
            assert leaks(state.view(p), forbidden, seen) == []
        if state.is_terminal():
            break
        p = state.current
        world = state.view(p).determinized(random.Random(state.turn))
        assert world.game.seed is None and world.rng.getstate() != state.rng.getstate()
        assert leaks(world, not_the_real_game(state), seen_in_worlds) == []
        state.apply_action(p, bots[p].act(state.view(p)))
    assert state.phase == RacePhase.GAME_OVER
