"""The expert bot: legal whole games in every edition, replays for a seed, its budget and CPU cap, what its
later-round outlook counts, and picks a strong player makes (small budgets: the real strength
measurement is `tourpad sim`, in docs/bots.md)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import rules.bots.hard as hard_module
from rules.bots import bot_names, make_bot, play
from rules.bots.expert import (
    BAR_OUTLOOK_SHARE,
    COLLECTION_TOTALS,
    EXPERT_PICK_TEMPERATURE,
    LAST_ROUND_SPREAD,
    MIN_WORLDS,
    ROUND_END_VALUE,
    ExpertBot,
    LaterRounds,
    _LookaheadRollout,
    collection_outlook,
    expert_pick_temperature,
    later_rounds,
    round_end_terms,
    round_end_value,
    win_reward,
)
from rules.bots.greedy import GreedyBot
from rules.bots.hard import HardBot, choice_outlook
from rules.bots.heuristics import row_value
from rules.editions import load_edition
from rules.engine import ROUNDS, Game, Phase, PlayerView, State
from rules.scoring import ScoreState

AUSTRALIA = load_edition("australia")


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(seed=seed, simulations=40)


def test_expert_is_a_registered_difficulty() -> None:
    assert "expert" in bot_names()
    assert isinstance(make_bot("expert", 3), ExpertBot)


@pytest.mark.parametrize(("edition_id", "players", "variant"),
                         [("australia", 2, False), ("australia", 4, False), ("europe", 3, True), ("europe", 2, False),
                          ("usa", 4, True), ("usa", 3, False)])
def test_expert_plays_whole_games_legally_in_every_edition(edition_id: str, players: int, variant: bool) -> None:
    # play() applies joint actions, which refuse any illegal one
    bots = [small_expert(1), HardBot(seed=2, samples=3), GreedyBot(3), small_expert(4)][:players]
    state = play(Game(load_edition(edition_id), players, 17, variant), bots)
    assert state.is_terminal() and len(state.round_log) == ROUNDS


def test_a_seeded_expert_replays_a_game_identically() -> None:
    def history(bot_seed: int) -> list[tuple[int, ...]]:
        bots = [ExpertBot(seed=bot_seed, simulations=30), GreedyBot(1)]
        return play(Game(AUSTRALIA, 2, 5), bots).history

    assert history(8) == history(8)
    # the bot's own generator drives its search: another seed searches other worlds
    view = Game(AUSTRALIA, 4, 5).new_initial_state().view(0)
    one, other = (ExpertBot(seed=s, simulations=60).action_values(view) for s in (1, 2))
    assert one != other


def test_the_budget_is_whole_worlds_over_the_legal_actions_and_the_cpu_cap_stops_at_the_minimum() -> None:
    view = Game(AUSTRALIA, 4, 9).new_initial_state().view(2)
    legal = view.legal_actions()
    capped = ExpertBot(seed=3, simulations=10**9, cpu_seconds=0.0).action_values(view)
    assert set(capped) == set(legal)
    # stopped by the cap after the fewest worlds allowed: the same search as a budget of exactly that many
    assert capped == ExpertBot(seed=3, simulations=MIN_WORLDS * len(legal)).action_values(view)


def test_round_end_choice_is_the_exact_one_hard_makes() -> None:
    state = Game(AUSTRALIA, 3, 5).new_initial_state()
    bots = [GreedyBot(p) for p in range(3)]
    while state.phase != Phase.CHOICE:
        state.apply_joint([b.act(state.view(p)) for p, b in enumerate(bots)])
    view = state.view(1)
    assert ExpertBot(seed=4).action_values(view) == HardBot(seed=9).action_values(view)


def test_region_outlook_values_progress_towards_unclaimed_regions() -> None:
    outlook = later_rounds(AUSTRALIA, 4)
    assert outlook is later_rounds(AUSTRALIA, 4)  # measured once per edition and player count
    chance = outlook.chance
    for left in range(1, ROUNDS):
        # fewer sites missing, or more rounds left, never makes the bonus less likely
        assert all(chance[j][left] >= chance[j + 1][left] for j in range(1, len(chance) - 1))
        assert 0 < chance[1][left] < 1
    assert all(chance[j][2] >= chance[j][1] for j in range(1, len(chance)))
    region = AUSTRALIA.regions[0]
    almost = region.mask & ~(region.mask & -region.mask)  # every site of the region but its lowest one
    score = ScoreState(4, [almost, 0, 0, 0], [0] * 4, [0] * 4, 0, 0, 0)
    near, far = outlook.value(AUSTRALIA, score, 0, 2), outlook.value(AUSTRALIA, score, 1, 2)
    assert near - far == pytest.approx(region.bonus * (chance[1][2] - chance[4][2]))
    # no later rounds, or the region taken by someone: nothing more to expect from it
    assert outlook.value(AUSTRALIA, score, 0, 0) == 0
    taken = ScoreState(4, [almost, 0, 0, 0], [0] * 4, [0] * 4, 1 << region.index, 0, 0)
    assert outlook.value(AUSTRALIA, taken, 0, 2) == pytest.approx(far - region.bonus * chance[4][2])


def test_later_rounds_are_seeded() -> None:
    first, again = LaterRounds(AUSTRALIA, 2, games=20), LaterRounds(AUSTRALIA, 2, games=20)
    assert (first.chance, first.spread) == (again.chance, again.spread)


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_a_lead_moves_further_the_more_rounds_are_left(edition_id: str) -> None:
    spread = later_rounds(load_edition(edition_id), 4).spread
    assert spread[0] == LAST_ROUND_SPREAD
    # a round of scoring moves a lead by several points, and rounds add up (about as independent steps)
    assert 4 < spread[1] < spread[2] < spread[3] < 2.5 * spread[1]
    assert later_rounds(load_edition(edition_id), 4).points_per_chance(4, 1) == pytest.approx(
        spread[1] * math.sqrt(2 * math.pi) * 3)


def test_the_reward_is_the_chance_of_finishing_first() -> None:
    # an even table: each player wins as often as any other
    for players in (2, 3, 4):
        assert win_reward([100] * players, 0, 10, 0) == pytest.approx(1 / players, abs=0.002)
    # the chances of a table add up to one (the leads all move from the same scores)
    standings = [104, 100, 97, 111]
    assert sum(win_reward(standings, p, 8, 0) for p in range(4)) == pytest.approx(1, abs=0.005)
    # against a direct simulation of the scores moving on: each player's own move normal, so that a lead
    # moves with the spread's standard deviation
    rng = random.Random(5)
    own = 8 / math.sqrt(2)
    trials = 40_000
    won = 0
    for _ in range(trials):
        mine = 104 + rng.gauss(0, own)  # the bot's own move, the same against every other player
        won += all(mine > theirs + rng.gauss(0, own) for theirs in (100, 97, 111))
    assert win_reward(standings, 0, 8, 0) == pytest.approx(won / trials, abs=0.01)
    # two players: exactly the chance that the lead holds
    assert win_reward([110, 100], 0, 10, 0) == pytest.approx(0.5 * (1 + math.erf(10 / (10 * math.sqrt(2)))))
    # in the last round (a small spread) a sure win is a whole game and a sure loss nothing, by any margin
    assert win_reward([130, 100, 110, 120], 0, LAST_ROUND_SPREAD, 0) == pytest.approx(1)
    assert win_reward([100, 120, 90, 90], 0, LAST_ROUND_SPREAD, 0) == pytest.approx(0, abs=1e-6)
    # one point behind the leader is worth far more to close than ten points ahead of the last to widen
    behind = [100, 101, 80, 70]
    closer = win_reward([102, 101, 80, 70], 0, 3, 0) - win_reward(behind, 0, 3, 0)
    wider = win_reward([100, 101, 70, 70], 0, 3, 0) - win_reward(behind, 0, 3, 0)
    assert closer > 0.2 and wider < 0.01
    # with rounds to come the same lead is less sure
    assert win_reward([110, 100], 0, 12, 0) < win_reward([110, 100], 0, 3, 0) < 1
    # the lead's share tells apart two games that are won (or lost) alike
    assert win_reward([130, 100], 0, LAST_ROUND_SPREAD, 0.01) > win_reward([120, 100], 0, LAST_ROUND_SPREAD, 0.01)
    assert win_reward([60, 100, 90], 0, LAST_ROUND_SPREAD, 0.01) < win_reward([70, 100, 90], 0, LAST_ROUND_SPREAD, 0.01)


def test_expert_values_are_chances_of_winning() -> None:
    state = Game(AUSTRALIA, 4, 3).new_initial_state()
    view = state.view(0)
    values = ExpertBot(seed=1, simulations=20 * len(view.actions)).action_values(view)
    assert all(0 < v < 1 for v in values.values())


def state_after_passes(edition_id: str, players: int, passes: int, seed: int = 4) -> State:
    state = Game(load_edition(edition_id), players, seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(passes):
        state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(players)])
    return state


@pytest.mark.parametrize(("edition_id", "players"), [("australia", 4), ("usa", 2), ("europe", 3)])
def test_the_player_passing_the_next_hand_is_predicted_once_their_hand_is_known(edition_id: str,
                                                                                 players: int) -> None:
    for passes in range(6):
        state = state_after_passes(edition_id, players, passes)
        for player in range(players):
            view = state.view(player)
            passer = (player - (1 if view.public.pass_left else -1)) % players
            assert view.passer == passer
            predicted = ExpertBot(seed=1).predicted_picks(view)
            # the passer's hand is the one this player held players - 1 passes ago
            assert set(predicted) == ({passer} if passes >= players - 1 else set())
            assert all(card in view.known_hands()[passer] for card in predicted.values())
            assert predicted == ExpertBot(seed=1).predicted_picks(view)  # seeded
            assert ExpertBot(seed=1, predict_samples=0).predicted_picks(view) == {}


def others_first_picks_searched(bot: ExpertBot, view: PlayerView) -> list[list[int]]:
    """The other players' first picks in every rollout of `bot`'s search of `view`."""
    seen: list[list[int]] = []
    simulate = bot._simulate

    def recording(rollout, action, others_first, *rest):
        seen.append(others_first[:])
        return simulate(rollout, action, others_first, *rest)

    bot._simulate = recording  # type: ignore[method-assign]
    bot.action_values(view)
    return seen


def test_every_world_of_the_search_gives_a_predicted_opponent_that_pick() -> None:
    view = state_after_passes("australia", 4, 3).view(2)
    predicted = ExpertBot(seed=5).predicted_picks(view)
    assert len(predicted) == 1  # after three passes the passer's hand has come round
    searched = others_first_picks_searched(ExpertBot(seed=5, simulations=80), view)
    assert searched and all(picks[q] == card for picks in searched for q, card in predicted.items())
    # without predictions the rollout policy guesses, and not always the same card
    guessed = others_first_picks_searched(ExpertBot(seed=5, simulations=80, predict_samples=0), view)
    assert len({tuple(picks) for picks in guessed}) > 1


def last_pick_positions(edition_id: str, players: int, wanted: int) -> list[tuple[State, int, int]]:
    """Seeded positions of random play at a round's last pick (two cards in hand) where one card completes
    a region nobody has claimed and is worth at least 4 points more now than the other, which completes no
    region on the sheet and face-up row of the player it is passed to, and leaves the player further ahead
    whatever the others take now: (state, player, that card)."""
    edition = load_edition(edition_id)
    found = []
    seed = 0
    while len(found) < wanted:
        rng = random.Random(seed)
        state = Game(edition, players, seed).new_initial_state()
        seed += 1
        while not state.is_terminal():
            if state.phase == Phase.DRAFT and len(state.hands[0]) == 2:
                found.extend((state.clone(), p, good) for p, good in region_completions(state, edition, players))
            state.apply_joint([rng.choice(state.legal_actions(p)) for p in range(players)])
    return found[:wanted]


def region_completions(state: State, edition, players: int) -> list[tuple[int, int]]:
    out = []
    for player in range(players):
        view = state.view(player)
        obs = view.observation()
        unclaimed = [r for r in edition.regions if not obs.regions_claimed >> r.index & 1]
        mine = obs.visited[player] | 1 << obs.throw
        for card in obs.face_up[player]:
            mine |= 1 << card
        completes = [card for card in view.legal_actions()
                     if any(mine & r.mask != r.mask and (mine | 1 << card) & r.mask == r.mask for r in unclaimed)]
        if len(completes) != 1:
            continue
        good = completes[0]
        other = next(card for card in view.legal_actions() if card != good)
        receiver = (player + (1 if obs.pass_left else -1)) % players
        theirs = obs.visited[receiver] | 1 << other
        for card in obs.face_up[receiver]:
            theirs |= 1 << card
        if any(theirs & r.mask == r.mask for r in unclaimed):
            continue
        row = [*obs.face_up[player], obs.throw]
        if (row_value(edition, obs, [*row, good]) - row_value(edition, obs, [*row, other]) >= 4
                and leads_whatever_the_others_pick(state, player, good, other)):
            out.append((player, good))
    return out


def leads_whatever_the_others_pick(state: State, player: int, good: int, other: int) -> bool:
    """Whether, whichever card each other player takes now, the round played out (every round-end choice
    `hard`'s exact one) leaves `player` further ahead of the best other total with `good` than with `other`:
    the card the receiver gets with `good` taken must not be worth more to them than the region is to us."""
    others = [q for q in range(state.game.n_players) if q != player]

    def lead_after(mine: int, theirs: tuple[int, ...]) -> int:
        world = state.clone()
        picks = [0] * state.game.n_players
        picks[player] = mine
        for q, card in zip(others, theirs, strict=True):
            picks[q] = card
        world.apply_joint(picks)
        while world.phase == Phase.DRAFT:
            world.apply_joint([world.legal_actions(q)[0] for q in range(world.game.n_players)])
        world.apply_joint([HardBot(0).act(world.view(q)) for q in range(world.game.n_players)])
        totals = world.totals()
        return totals[player] - max(totals[q] for q in others)

    return all(lead_after(good, theirs) > lead_after(other, theirs)
               for theirs in itertools.product(*(state.legal_actions(q) for q in others)))


@pytest.mark.parametrize("players", [2, 4])
def test_expert_takes_the_card_that_completes_a_region_when_it_wins_points(players: int) -> None:
    positions = last_pick_positions("australia", players, 3)
    assert len(positions) == 3
    for state, player, good in positions:
        assert ExpertBot(seed=player, simulations=60).act(state.view(player)) == good


def lookahead_rollout(edition_id: str, players: int, passes: int, player: int = 0) -> _LookaheadRollout:
    state = state_after_passes(edition_id, players, passes)
    edition = state.game.edition
    return _LookaheadRollout(state, player, choice_outlook(edition, players), 0.1, later_rounds(edition, players))


def test_the_other_players_rollout_picks_are_drawn_with_the_fitted_models_chances() -> None:
    """With three or more players the expert's rollouts draw another player's card with a chance ∝
    exp(value ÷ temperature) under the fitted weights (no random ε picks); its own picks stay the favourite
    card with ε random ones, exactly as with no temperature."""
    rollout = lookahead_rollout("usa", 4, 2)
    assert rollout.temperature == EXPERT_PICK_TEMPERATURE["usa"] > 0
    _, _, masks, collections = rollout.round_start()
    q = 2
    hand = rollout.world.hands[q]
    values = [sum(w * t for w, t in zip(rollout.weights, terms, strict=True))
              for terms in rollout.pick_features(q, hand, masks[q], collections[q], False)]
    weights = [math.exp(v / rollout.temperature) for v in values]
    expected = {c: w / sum(weights) for c, w in zip(hand, weights, strict=True)}
    rng = random.Random(8)
    draws = 8000
    counts = dict.fromkeys(hand, 0)
    for _ in range(draws):
        counts[rollout._pick(q, hand, masks[q], collections[q], False, rng)] += 1
    for card in hand:
        assert abs(counts[card] / draws - expected[card]) < 0.02, (card, counts, expected)
    # the bot's own picks ignore the temperature
    me = rollout.player
    own = [rollout._pick(me, rollout.world.hands[me], masks[me], collections[me], False, random.Random(s))
           for s in range(50)]
    rollout.temperature = 0.0
    assert own == [rollout._pick(me, rollout.world.hands[me], masks[me], collections[me], False, random.Random(s))
                   for s in range(50)]


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_two_player_rollouts_keep_hards_model_and_the_last_round_its_exact_totals(edition_id: str) -> None:
    """The fitted temperature and round-end value come with the fitted pick model, from three players on:
    2-player games (whose strength records meet their goal) are played as before."""
    edition = load_edition(edition_id)
    assert expert_pick_temperature(edition, 2) == 0.0
    assert all(round_end_value(edition, 2, left) is None for left in range(ROUNDS))
    for players in (3, 4):
        assert expert_pick_temperature(edition, players) == EXPERT_PICK_TEMPERATURE[edition_id]
        assert round_end_value(edition, players, 0) is None  # the last round: the totals are the game's
        assert [round_end_value(edition, players, left) for left in (1, 2, 3)] == list(ROUND_END_VALUE[edition_id])
    rollout = lookahead_rollout(edition_id, 2, 1)
    assert rollout.temperature == 0.0 and rollout.round_end is None


def test_a_rollouts_standings_count_what_each_sheet_is_worth_beyond_its_points() -> None:
    rollout = lookahead_rollout("usa", 4, 1)
    assert rollout.rounds_left == ROUNDS - 1
    worth = rollout.round_end
    assert worth == ROUND_END_VALUE["usa"][ROUNDS - 2]
    score = ScoreState(4, visited=[0b111, 0b1111111, 0, 1], previous_collection=[12, 0, 5, 30], route_done=0b0010)
    outlook = rollout.bar_outlook
    assert outlook == collection_outlook(load_edition("usa"), 4, ROUNDS - 1)
    with_worth = rollout._later_rounds([100.0, 90.0, 80.0, 70.0], score)
    rollout.round_end = None
    without_worth = rollout._later_rounds([100.0, 90.0, 80.0, 70.0], score)
    rollout.bar_outlook = None
    points_alone = rollout._later_rounds([100.0, 90.0, 80.0, 70.0], score)
    for q, (sites, collection, route) in enumerate([(3, 12, 0), (7, 0, 1), (0, 5, 0), (1, 30, 0)]):
        assert round_end_terms(score, q) == (collection, route, sites)
        assert with_worth[q] - without_worth[q] == pytest.approx(
            worth.collection * collection + worth.route * route + worth.sites * sites)
        # the bar this round sets: a bar of 30, above every total measured, reads the outlook's last entry
        assert without_worth[q] - points_alone[q] == pytest.approx(outlook[min(collection, len(outlook) - 1)])


def test_usas_americana_to_beat_and_a_route_already_scored_cost_a_sheet_points() -> None:
    """What the fit found in USA, as the rules say it should be: a route bonus scored is one the others may still
    score, so it is worth less than its points; a high Americana score must be beaten next round, so the higher the
    bar, the fewer points the rounds left hold (the bar's outlook replaces the fit's point-by-point worth)."""
    usa = load_edition("usa")
    for left, value in enumerate(ROUND_END_VALUE["usa"], start=1):
        assert value.route < 0 and value.collection == 0.0
        outlook = collection_outlook(usa, 4, left)
        assert all(low >= high for low, high in itertools.pairwise(outlook)) and outlook[0] > outlook[-1]
    # a bar above every total measured is one no total beats: one round left, nothing to expect
    assert collection_outlook(usa, 4, 1)[-1] == 0.0


def test_the_bars_outlook_is_the_rules_expected_collection_points_over_the_rounds_left(monkeypatch) -> None:
    """Totals of 0 and 4, evenly likely, against USA's rule (score the total only above the last score, which
    becomes the bar; after a 0 any total scores). One round left: a bar below 4 expects 2, a bar of 4 nothing. Two
    rounds left from a bar of 0: a 0 (then 2 more) or a 4 (then nothing, the bar being 4): 0.5 × 2 + 0.5 × 4 = 3;
    from a bar of 4, nothing scores now and the bar falls to 0: 2."""
    monkeypatch.setitem(COLLECTION_TOTALS, "usa", (5, 0, 0, 0, 5))
    monkeypatch.setattr(hard_module, "_PER_EDITION", {})  # outlooks are cached per edition: measure afresh
    usa, share = load_edition("usa"), BAR_OUTLOOK_SHARE
    assert collection_outlook(usa, 4, 1) == pytest.approx([2 * share] * 4 + [0.0])
    assert collection_outlook(usa, 4, 2)[0] == pytest.approx(3 * share)
    assert collection_outlook(usa, 4, 2)[4] == pytest.approx(2 * share)


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_only_a_rule_that_reads_the_last_score_gives_the_bar_an_outlook(edition_id: str) -> None:
    """Australia's and Europe's collection rules score a round on its own: their rollouts are as before (their
    4-player records stand); USA's has an outlook from three players on, and none in the last round."""
    edition = load_edition(edition_id)
    assert collection_outlook(edition, 2, 1) is None and collection_outlook(edition, 4, 0) is None
    assert (collection_outlook(edition, 4, 1) is not None) == (edition_id == "usa")
    with pytest.MonkeyPatch.context() as patch:  # even with totals measured, a rule that ignores the bar gets none
        patch.setitem(COLLECTION_TOTALS, edition.base, (1, 2, 3))
        patch.setattr(hard_module, "_PER_EDITION", {})
        assert (collection_outlook(edition, 4, 1) is not None) == (edition.collection.rule == "must_beat_previous")
