"""The game engine: round flow, dealing, passing, hidden picks, observations, and random-play invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.bots import make_bot, play
from rules.editions import bundled_ids, load_edition
from rules.engine import CHOICE_NONE, ROUNDS, Game, IllegalAction, Phase, State, _shuffle, action_choice, choice_action
from rules.scoring import NO_CHOICE, RoundScore

EDITIONS = bundled_ids()


def random_game(edition_id: str, players: int, seed: int, variant: bool = False):
    game = Game(load_edition(edition_id), players, seed, variant)
    return play(game, [make_bot("random", seed * 10 + p) for p in range(players)])


def test_same_seed_and_actions_give_the_same_game(australia):
    a = random_game("australia", 4, 7)
    b = random_game("australia", 4, 7)
    assert a.history == b.history and a.round_log == b.round_log and a.totals() == b.totals()
    # replaying the recorded actions on a fresh state reproduces it exactly
    replay = Game(australia, 4, 7).new_initial_state()
    for actions in a.history:
        replay.apply_joint(actions)
    assert replay.round_log == a.round_log and replay.totals() == a.totals()
    assert random_game("australia", 4, 8).round_log != a.round_log


def test_round_flow_throw_six_picks_catch_choice(australia):
    state = Game(australia, 4, 3).new_initial_state()
    assert state.phase == Phase.THROW and all(len(h) == 7 for h in state.hands)
    for step in range(6):
        assert state.phase == (Phase.THROW if step == 0 else Phase.DRAFT)
        state.apply_joint([state.legal_actions(p)[0] for p in range(4)])
    # the 7th card arrived by itself as the Catch card
    assert state.phase == Phase.CHOICE and all(len(r) == 7 for r in state.rows)
    assert all(not h for h in state.hands)
    state.apply_joint([CHOICE_NONE] * 4)
    assert state.round_index == 1 and state.phase == Phase.THROW and len(state.round_log) == 1


def test_hands_pass_left_and_the_direction_variant_alternates(australia):
    def receiver_of_first_hand(variant: bool, round_index: int) -> int:
        state = Game(australia, 4, 5, variant).new_initial_state()
        for _ in range(round_index):
            while state.phase != Phase.CHOICE:
                state.apply_joint([state.legal_actions(p)[0] for p in range(4)])
            state.apply_joint([CHOICE_NONE] * 4)
        remaining = state.hands[0][1:]  # player 1 throws their first card and passes the rest
        state.apply_joint([state.legal_actions(p)[0] for p in range(4)])
        return next(p for p in range(4) if state.hands[p] == remaining)

    assert [receiver_of_first_hand(False, r) for r in range(4)] == [1, 1, 1, 1]
    assert [receiver_of_first_hand(True, r) for r in range(4)] == [1, 3, 1, 3]


def test_direction_variant_needs_three_players(australia):
    assert Game(australia, 2, 1, True).pass_left(1)  # no effect with 2 (left and right are the same player)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Game(australia, 5)


@pytest.mark.parametrize("players", [2, 3])
def test_set_aside_cards_are_dealt_first(australia, players):
    state = Game(australia, players, 11).new_initial_state()
    set_aside = set(state.set_aside)
    assert len(set_aside) == 28 - 7 * players
    while state.round_index == 0:
        legal = [state.legal_actions(p) for p in range(players)]
        state.apply_joint([a[0] for a in legal])
    dealt = {c for hand in state.hands for c in hand}
    assert set_aside <= dealt  # "the cards that were not dealt last round will definitely be in the next"


def test_picks_stay_hidden_until_everyone_has_chosen(australia):
    state = Game(australia, 3, 2).new_initial_state()
    first = state.legal_actions(0)[0]
    assert state.apply_action(0, first) is False
    assert state.rows[0] == [] and state.pending_players() == [1, 2]
    with pytest.raises(IllegalAction, match="already chosen"):
        state.apply_action(0, state.legal_actions(0)[1])
    state.apply_action(1, state.legal_actions(1)[0])
    assert state.apply_action(2, state.legal_actions(2)[0]) is True
    assert state.rows[0] == [first] and state.phase == Phase.DRAFT


def test_illegal_picks_are_refused_and_change_nothing(australia):
    state = Game(australia, 2, 4).new_initial_state()
    before = (state.hands[0][:], state.rows[0][:], state.history[:])
    not_in_hand = next(c for c in range(28) if c not in state.hands[0])
    with pytest.raises(IllegalAction, match="player 1 cannot take action"):
        state.apply_action(0, not_in_hand)
    with pytest.raises(IllegalAction, match="not in their hand"):
        state.apply_joint([not_in_hand, state.hands[1][0]])
    assert (state.hands[0], state.rows[0], state.history) == before


def test_round_end_choice_rules(australia):
    state = Game(australia, 2, 9).new_initial_state()
    while state.phase != Phase.CHOICE:
        state.apply_joint([state.legal_actions(p)[0] for p in range(2)])
    family = australia.choice
    legal = state.legal_actions(0)
    assert legal[0] == CHOICE_NONE
    held = {action_choice(a) for a in legal[1:]}
    mask = state.masks[0]
    assert held == {i for i, icon in enumerate(family.icons) if mask & icon.mask}
    missing = next((i for i, icon in enumerate(family.icons) if not mask & icon.mask), None)
    if missing is not None:
        with pytest.raises(IllegalAction, match="has no"):
            state.apply_joint([choice_action(missing), CHOICE_NONE])
    chosen = action_choice(legal[1])
    state.apply_joint([legal[1], CHOICE_NONE])
    # the same activity can never be scored again this game
    while state.phase != Phase.CHOICE:
        state.apply_joint([state.legal_actions(p)[0] for p in range(2)])
    assert choice_action(chosen) not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="already scored"):
        state.apply_joint([choice_action(chosen), CHOICE_NONE])


def test_observation_hides_other_throws_and_unseen_hands(australia):
    state = Game(australia, 4, 21).new_initial_state()
    state.apply_joint([state.legal_actions(p)[0] for p in range(4)])  # throws, then pass left
    obs = state.observation(0)
    assert obs.throw == state.rows[0][0]
    assert obs.throws == (state.rows[0][0], None, None, None)
    assert obs.face_up == ((), (), (), ())
    # player 1 passed their hand to player 2 (left), so knows it; players 3 and 4 hold hands never seen
    assert obs.known_hands[0] == tuple(state.hands[0])
    assert obs.known_hands[1] == tuple(state.hands[1])
    assert obs.known_hands[2] is None and obs.known_hands[3] is None
    state.apply_joint([state.legal_actions(p)[0] for p in range(4)])
    obs = state.observation(0)
    assert obs.known_hands[2] == tuple(state.hands[2]) and obs.known_hands[3] is None
    assert all(len(f) == 1 for f in obs.face_up)


def test_observation_reveals_the_round_at_the_choice(australia):
    state = Game(australia, 2, 21).new_initial_state()
    while state.phase != Phase.CHOICE:
        state.apply_joint([state.legal_actions(p)[0] for p in range(2)])
    obs = state.observation(1)
    assert obs.throws == (state.rows[0][0], state.rows[1][0])
    assert obs.face_up == (tuple(state.rows[0]), tuple(state.rows[1]))


# --- random play: invariants at every step (OpenSpiel's random-sim test, in spirit) ---------------------------

def check_invariants(state) -> None:
    edition = state.game.edition
    n = state.game.n_players
    if state.phase in (Phase.THROW, Phase.DRAFT):
        places = [c for hand in state.hands for c in hand] + [c for row in state.rows for c in row] + state.set_aside
        # every card is dealt exactly once per round: in one hand, one row, or set aside
        assert sorted(places) == list(range(len(edition.cards)))
        hand_sets = [set(h) for h in state.hands]
        assert sum(len(h) for h in hand_sets) == len(set().union(*hand_sets))  # hands never overlap
        assert len({len(h) for h in state.hands}) == 1
        for p in range(n):
            view = state.view(p)
            obs = view.observation()
            hidden = set(view.hidden_cards())
            shown = set(obs.hand) | {c for row in obs.face_up for c in row} | (
                {obs.throw} if obs.throw is not None else set())
            shown |= {c for hand in obs.known_hands if hand for c in hand}
            assert not hidden & shown
            for q in range(n):
                if q != p and state.rows[q]:
                    assert obs.throws[q] is None and state.rows[q][0] not in obs.face_up[q]
    for p in range(n):
        for score in state.round_scores[p]:
            assert min(score) >= 0
    assert state.totals() == [sum(r.total for r in rounds) for rounds in state.round_scores]


@given(edition=st.sampled_from(EDITIONS), players=st.integers(2, 4), seed=st.integers(0, 2**32),
       variant=st.booleans())
def test_random_play_keeps_every_invariant(edition, players, seed, variant):
    game = Game(load_edition(edition), players, seed, variant and players >= 3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state)
        state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(players)])
    check_invariants(state)
    assert len(state.round_log) == ROUNDS and all(len(r) == ROUNDS for r in state.round_scores)
    # totals equal the sum of every category and bonus, and ranks follow the edition's key
    for p in range(players):
        assert state.totals()[p] == sum(sum(score) for score in state.round_scores[p])
    assert sorted(state.ranks())[0] == 1


@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 27))
def test_determinized_copies_agree_with_the_observation(australia, players, seed, steps):
    """A search bot's copy re-deals only what it cannot see, and deals every card exactly once."""
    state = Game(australia, players, seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(players)])
    for p in range(players):
        view = state.view(p)
        copy = view.determinized(random.Random(seed + p))
        assert copy.observation(p) == view.observation()
        check_invariants(copy)
        if copy.phase in (Phase.THROW, Phase.DRAFT) and state.previous_set_aside:
            dealt = {c for h in copy.hands for c in h} | {c for r in copy.rows for c in r}
            assert set(state.previous_set_aside) <= dealt


def test_choices_are_recorded_in_the_round_log(australia):
    state = random_game("australia", 3, 5)
    for rows, choices in state.round_log:
        assert len(rows) == 3 and all(len(r) == 7 for r in rows)
        assert all(c == NO_CHOICE or 0 <= c < len(australia.choice.icons) for c in choices)


def test_greedy_beats_random_bots(australia):
    wins = 0
    for seed in range(60):
        state = play(Game(australia, 4, seed), [make_bot("greedy", seed)] +
                     [make_bot("random", seed * 4 + p) for p in range(3)])
        wins += state.ranks()[0] == 1
    assert wins >= 36  # measured: greedy wins ~80% against three random bots (chance: 25%)


def step_by_step(state, bots) -> None:
    """Random bots deciding one step at a time through the public API (what `play` does for other bots)."""
    while not state.is_terminal():
        state.apply_joint([bot.choose(tuple(state.legal_actions(p))) for p, bot in enumerate(bots)])


def state_fields(state) -> dict:
    # the history as a caller reads it (whole-round play writes its rounds' steps out when first asked)
    # and the scores as a caller reads them (whole-round play makes its RoundScores when first asked)
    fields = {name: getattr(state, name) for name in State.__slots__
              if name not in ("_public", "game", "rng", "_history", "_history_behind", "_round_scores",
                              "_plain_scores")}
    scores = state.round_scores
    assert all(type(score) is RoundScore for rounds in scores for score in rounds)
    return {**fields, "history": state.history, "round_scores": scores, "rng": state.rng.getstate()}


@given(edition=st.sampled_from(EDITIONS), players=st.integers(2, 4), seed=st.integers(0, 2**32),
       variant=st.booleans(), steps_first=st.integers(0, 30))
def test_whole_round_random_play_ends_as_step_by_step_play(edition, players, seed, variant, steps_first):
    """`play_out_uniform` (the random bots' fast path) leaves every field as step-by-step play does, from
    a fresh game or from any step of one, and the bots' generators in the same state."""
    game = Game(load_edition(edition), players, seed, variant and players >= 3)
    fast, slow = game.new_initial_state(), game.new_initial_state()
    fast_bots = [make_bot("random", seed + p) for p in range(players)]
    slow_bots = [make_bot("random", seed + p) for p in range(players)]
    for _ in range(steps_first):
        if fast.is_terminal():
            break
        actions = [bot.choose(tuple(fast.legal_actions(p))) for p, bot in enumerate(fast_bots)]
        fast.apply_joint(actions)
        slow.apply_joint([bot.choose(tuple(slow.legal_actions(p))) for p, bot in enumerate(slow_bots)])
    fast.play_out_uniform([bot.uniform for bot in fast_bots])
    step_by_step(slow, slow_bots)
    assert state_fields(fast) == state_fields(slow)
    assert [bot.rng.getstate() for bot in fast_bots] == [bot.rng.getstate() for bot in slow_bots]
    assert fast.view(0) == slow.view(0)
    # the totals, kept as the rounds are scored either way, are the rounds' points added up (and so are a
    # copy's, and a state's whose rounds are set anew)
    added_up = [sum(score.total for score in rounds) for rounds in slow.round_scores]
    assert fast.totals() == slow.totals() == fast.clone().totals() == added_up
    slow.round_scores = [rounds[:1] for rounds in slow.round_scores]
    assert slow.totals() == [rounds[0].total for rounds in slow.round_scores]


def test_whole_round_play_refuses_a_step_half_chosen(australia):
    state = Game(australia, 2, 1).new_initial_state()
    state.apply_action(0, state.legal_actions(0)[0])
    with pytest.raises(IllegalAction, match="already chosen this step"):
        state.play_out_uniform([random.Random(1).random, random.Random(2).random])
    with pytest.raises(IllegalAction, match="one per player"):
        Game(australia, 2, 1).new_initial_state().play_out_uniform([random.random])


@pytest.mark.parametrize("length", range(65))
def test_the_inlined_shuffle_deals_as_random_shuffle(length):
    for seed in range(20):
        expected, cards = list(range(length)), list(range(length))
        reference, rng = random.Random(seed), random.Random(seed)
        reference.shuffle(expected)
        _shuffle(rng, cards)
        assert cards == expected and rng.getstate() == reference.getstate()


def test_a_whole_round_games_history_is_written_out_when_asked(australia):
    """Whole-round play leaves its rounds' steps in the round log; a clone, and the game itself, give the
    history step-by-step play records, and a view's public record holds it."""
    game = Game(australia, 3, 9)
    fast, slow = game.new_initial_state(), game.new_initial_state()
    fast.play_out_uniform([make_bot("random", p).uniform for p in range(3)])
    step_by_step(slow, [make_bot("random", p) for p in range(3)])
    copy = fast.clone()
    assert copy.history == slow.history and len(slow.history) == ROUNDS * 7
    assert fast.history == slow.history and fast.view(1).public.history == tuple(slow.history)
    assert copy.history is not fast.history


def test_a_random_bot_seated_twice_plays_step_by_step(australia):
    """Whole-game play reads each seat's generator on its own; one bot in two seats shares one generator,
    read seat after seat at every step, so `play` takes that game step by step."""
    shared = make_bot("random", 5)
    played = play(Game(australia, 3, 2), [shared, make_bot("random", 6), shared])
    shared, other = make_bot("random", 5), make_bot("random", 6)
    stepped = Game(australia, 3, 2).new_initial_state()
    step_by_step(stepped, [shared, other, shared])
    assert played.history == stepped.history and played.totals() == stepped.totals()


def test_a_game_is_a_frozen_record_of_its_parameters(australia):
    """`Game` sets its fields itself (through their slots, for speed): it stays a frozen dataclass that refuses
    a player count outside 2–4 and compares by its fields."""
    import dataclasses

    game = Game(australia, 3, 7, direction_variant=True)
    assert (game.edition, game.n_players, game.seed, game.direction_variant) == (australia, 3, 7, True)
    assert Game(australia, 4).seed is None and not Game(australia, 4).direction_variant
    assert game == Game(australia, 3, 7, True) and game != Game(australia, 3, 8, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.seed = 8
    for players in (1, 5):
        with pytest.raises(ValueError, match=str(players)):
            Game(australia, players)
