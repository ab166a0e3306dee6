"""`hard`: determinized Monte Carlo search over worlds consistent with what the bot has seen.

For every decision the bot samples `samples` worlds with `PlayerView.determinized` (every card it cannot
see — other Throw cards, hands it has not held, the undealt cards — re-dealt at random), and in each world
plays every legal action out to the end of the round with a fast heuristic policy for all players (the
round-end activity / treasure included), then scores the round exactly with `resolve_round`. An action's
value is its mean, over the worlds, of the bot's *standing*: its total plus the choice icons it still
holds, minus a blend of the best and the average opponent's. Maximizing the margin over the field (not its
own round score) makes it deny contested region bonuses and cards the leader needs.

The search is depth-limited to the current round — later rounds enter only through the value of the
activities / treasures still unused (`ChoiceOutlook`) — which keeps a decision to tens of milliseconds.
Within a world the other players' picks at the root do not depend on ours (picks are simultaneous) and
every action is rolled out with the same random stream (common random numbers), so differences between
actions are not drowned by sampling noise.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from rules.bonuses import route_tier_points
from rules.edition import Edition
from rules.engine import HAND_SIZE, ROUNDS, Phase, PlayerView, State, action_choice
from rules.scoring import (
    COLLECTION_RULES,
    NO_CHOICE,
    THROW_CATCH_RULES,
    ScoreState,
    choice_option_points,
    resolve_round,
    route_achieved,
)

#: How much the strongest opponent counts against the bot (the rest is the opponents' mean).
LEADER_WEIGHT = 0.5


class PickWeights(NamedTuple):
    """The rollout policy's weights: a card's value is the sum of what it adds in each of these terms,
    each times its weight (`pick_features` lists the terms of every card of a hand)."""

    #: the points the card adds to the row's collection score
    collection: float
    #: the value of a pair the card completes
    pair_completed: float
    #: the value of a pair the card starts, times the share of the round's picks still to come
    pair_started: float
    #: the activity / treasure points the card adds if that icon were scored this round
    choice_step: float
    #: a card bearing an activity / treasure icon not yet used
    choice_icon: float
    #: a site not yet visited
    new_site: float
    #: the region bonus (or route bonus) the card completes
    bonus: float
    #: a new site in a region nobody has claimed: the region's bonus times the share of its sites visited
    region_progress: float
    #: the card's expected Throw & Catch points, when choosing the Throw card
    throw: float


#: `hard`'s hand-set policy: each card's points this round, as the paper pad counts them.
GREEDY_PICK = PickWeights(collection=1, pair_completed=1, pair_started=0, choice_step=0.6, choice_icon=0.4,
                          new_site=1, bonus=1, region_progress=0, throw=1)


@dataclass(frozen=True, slots=True)
class _Tables:
    """Per-card numbers the rollout policy reads in its inner loop."""

    collection_value: tuple[int, ...]
    pair_icon: tuple[int, ...]
    pair_mask: tuple[int, ...]
    pair_value: tuple[int, ...]
    choice_icon: tuple[int, ...]
    choice_mask: tuple[int, ...]
    region: tuple[int, ...]
    region_mask: tuple[int, ...]
    region_bonus: tuple[int, ...]
    #: Expected Throw & Catch points of each card as a Throw, the Catch being any other card.
    throw_expectation: tuple[float, ...]
    collection_rule: str
    choice_table: tuple[int, ...]


_PER_EDITION: dict[tuple[int, str, int], tuple[Edition, object]] = {}


def _per_edition(edition: Edition, kind: str, n_players: int, build):
    """Cache by edition identity: an `Edition` holds its pydantic spec, which is not hashable."""
    key = (id(edition), kind, n_players)
    entry = _PER_EDITION.get(key)
    if entry is None or entry[0] is not edition:
        entry = _PER_EDITION[key] = (edition, build())
    return entry[1]


def _tables(edition: Edition) -> _Tables:
    return _per_edition(edition, "tables", 0, lambda: _build_tables(edition))


def _build_tables(edition: Edition) -> _Tables:
    cards = edition.cards
    rule = THROW_CATCH_RULES[edition.throw_catch_rule]
    throw = []
    for card in cards:
        others = [rule(card.number, other.number) for other in cards if other is not card]
        throw.append(sum(others) / len(others))
    return _Tables(
        collection_value=edition.collection_values,
        pair_icon=tuple(c.pairs for c in cards),
        pair_mask=tuple(i.mask for i in edition.pairs.icons),
        pair_value=tuple(i.value for i in edition.pairs.icons),
        choice_icon=tuple(c.choice for c in cards),
        choice_mask=tuple(i.mask for i in edition.choice.icons),
        region=tuple(c.region for c in cards),
        region_mask=tuple(r.mask for r in edition.regions),
        region_bonus=tuple(r.bonus for r in edition.regions),
        throw_expectation=tuple(throw),
        collection_rule=edition.collection.rule,
        choice_table=edition.choice.table,
    )


class ChoiceOutlook:
    """What the unused activities / treasures are still worth in the rounds left.

    `best[s]` is the expected best score among the icon subset `s` in a round (estimated once per edition
    and player count from random rows, scaled up because players draft toward their icons). A player
    with `k` rounds left and unused icons `s` expects to score the best of `s`, then the best of what is
    left, and so on; scoring an icon now gives up the option to score it later.
    """

    #: Drafted rows hold more of the icons a player wants than random rows do.
    DRAFT_BOOST = 1.3

    def __init__(self, edition: Edition, n_players: int, samples: int = 400, seed: int = 7) -> None:
        family = edition.choice
        m = len(family.icons)
        rng = random.Random(seed)
        deck = list(range(len(edition.cards)))
        totals = [0.0] * (1 << m)
        single = [0.0] * m
        for _ in range(samples):
            rng.shuffle(deck)
            rows = [deck[7 * q: 7 * q + 7] for q in range(n_players)]
            points = [0] * m
            for icon, value in choice_option_points(edition, rows, 0):
                points[icon] = value
            for i in range(m):
                single[i] += points[i]
            for s in range(1, 1 << m):
                totals[s] += max(points[i] for i in range(m) if s >> i & 1)
        self.best = tuple(t / samples * self.DRAFT_BOOST for t in totals)
        self.single = tuple(v / samples for v in single)
        self.all_icons = (1 << m) - 1
        #: future(used, k) for every used-icon set and k = 0..ROUNDS - 1, read in the rollouts' inner loop
        self.table = tuple(tuple(self._future(used, k) for used in range(1 << m)) for k in range(ROUNDS))

    def future(self, used: int, rounds_left: int) -> float:
        return self.table[rounds_left][used]

    def _future(self, used: int, rounds_left: int) -> float:
        unused = self.all_icons & ~used
        value = 0.0
        for _ in range(rounds_left):
            if not unused:
                break
            value += self.best[unused]
            # the icon most likely to be the one scored is the one worth most on its own
            top = max((i for i in range(len(self.single)) if unused >> i & 1), key=self.single.__getitem__)
            unused &= ~(1 << top)
        return value


def choice_outlook(edition: Edition, n_players: int) -> ChoiceOutlook:
    return _per_edition(edition, "outlook", n_players, lambda: ChoiceOutlook(edition, n_players))


class HardBot:
    """Determinized Monte Carlo: `samples` worlds per decision, every action rolled out to round end."""

    name = "hard"

    def __init__(self, seed: int = 0, samples: int = 24, epsilon: float = 0.1,
                 seconds: float | None = None) -> None:
        """`samples` worlds per decision; with `seconds`, as many worlds as fit in that time instead
        (at least 4, at most `samples` × 100). A time budget makes decisions depend on the machine's speed,
        so simulations and tests use the fixed sample count."""
        self.seed = seed
        self.samples = samples
        self.epsilon = epsilon
        self.seconds = seconds
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> int:
        values = self.action_values(view)
        return max(values, key=lambda a: (values[a], -a))

    def action_values(self, view: PlayerView) -> dict[int, float]:
        """Each legal action's estimated standing (points ahead of the field, with the icons kept).

        The app's Hint shows these. The result depends only on the bot's view and its random stream.
        """
        obs = view.observation()
        edition = view.edition
        outlook = choice_outlook(edition, obs.n_players)
        if obs.phase == Phase.CHOICE:
            rounds_left = ROUNDS - 1 - obs.round_index
            rows = [tuple(r) for r in obs.face_up]
            points = dict(choice_option_points(edition, rows, obs.player))
            used = obs.choices_used[obs.player]
            values = {}
            for action in obs.legal_actions:
                icon = action_choice(action)
                now = 0 if icon == NO_CHOICE else points.get(icon, 0)
                after = used if icon == NO_CHOICE else used | 1 << icon
                values[action] = now + outlook.future(after, rounds_left)
            return values
        budget = self.samples if self.seconds is None else self.samples * 100
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        return mean_over_worlds(view, self.rng, list(obs.legal_actions), budget, 4,
                                lambda: deadline is not None and time.perf_counter() > deadline,
                                lambda world: _Rollout(world, obs.player, outlook, self.epsilon),
                                _Rollout.standing_after)


def mean_over_worlds(view: PlayerView, rng: random.Random, legal: list[int], worlds: int, min_worlds: int,
                     out_of_time: Callable[[], bool], new_rollout: Callable[[State], _Rollout],
                     play_out: Callable[[_Rollout, int, list[int], random.Random], float]) -> dict[int, float]:
    """Each legal action's mean value over up to `worlds` worlds consistent with the view (`rng` deals them):
    in each world every action is played out by `play_out(rollout, action, others' first picks, stream)`.
    After `min_worlds`, `out_of_time()` may end the search early."""
    sums = dict.fromkeys(legal, 0.0)
    stream = random.Random()
    done = 0
    while done < worlds:
        if done >= min_worlds and out_of_time():
            break
        done += 1
        rollout = new_rollout(view.determinized(rng))
        others_first = rollout.others_first_picks(rng)
        # every action's rollout in this world replays the same random stream (common random numbers)
        stream.seed(rng.getrandbits(32))
        start = stream.getstate()
        for action in legal:
            stream.setstate(start)
            sums[action] += play_out(rollout, action, others_first, stream)
    return {a: s / done for a, s in sums.items()}


class _Rollout:
    """One determinized world, played to the end of the round on plain lists."""

    __slots__ = ("choices_used", "edition", "epsilon", "hands", "n", "outlook", "pass_left", "player",
                 "rounds_left", "rows", "score", "tables", "temperature", "totals", "weights", "world")

    #: The rollout policy's weights; `expert`'s rollouts set their own.
    weights: PickWeights
    #: 0: every player takes the card of the highest value (with `epsilon` random picks). Above 0 (`expert`'s
    #: model of the other players): each other player's card is drawn with a chance ∝ exp(value ÷ temperature).
    temperature: float

    def __init__(self, world: State, player: int, outlook: ChoiceOutlook, epsilon: float) -> None:
        self.world = world
        self.edition = world.game.edition
        self.tables = _tables(self.edition)
        self.n = world.game.n_players
        self.player = player
        self.outlook = outlook
        self.epsilon = epsilon
        self.pass_left = world.game.pass_left(world.round_index)
        self.rounds_left = ROUNDS - 1 - world.round_index
        self.score = world.score
        self.totals = world.totals()
        self.weights = GREEDY_PICK
        self.temperature = 0.0

    def others_first_picks(self, rng: random.Random) -> list[int]:
        picks = []
        throw = self.world.phase == Phase.THROW
        values = self.tables.collection_value
        for q in range(self.n):
            if q == self.player:
                picks.append(-1)
                continue
            row = self.world.rows[q]
            mask = 0
            for c in row:
                mask |= 1 << c
            picks.append(self._pick(q, self.world.hands[q], mask, sum(values[c] for c in row), throw, rng))
        return picks

    def _pick_context(self, q: int, hand: list[int], mask: int, collection: int) -> tuple:
        """What a pick by player `q` is weighed against (shared by `_pick` and `pick_features`): the sites
        visited with the row so far, the collection rule and its points now, the activities / treasures
        used, the regions claimed, the activity table, the route, and the share of the round's picks to come."""
        t = self.tables
        score = self.score
        collection_rule = COLLECTION_RULES[t.collection_rule]
        previous = score.previous_collection[q]
        table = t.choice_table
        return (score.visited[q] | mask, previous, collection_rule, collection_rule(collection, previous),
                score.choices_used[q], score.regions_claimed, table, len(table) - 1, self.edition.route,
                (len(hand) - 1) / (HAND_SIZE - 1))

    def _pick(self, q: int, hand: list[int], mask: int, collection: int, throw: bool,
              rng: random.Random) -> int:
        """The rollout policy: the card of the highest value under `weights` (`PickWeights`), small random
        tie noise included, or with probability `epsilon` a random one. With a `temperature`, another
        player's card is drawn instead, each with a chance ∝ exp(value ÷ temperature) (the value plus
        temperature × Gumbel noise, maximized), and no card is random. `mask` and `collection` describe the
        row drafted so far. (`pick_features` lists the same terms; a test holds the two together.)"""
        if len(hand) == 1:
            return hand[0]
        temperature = self.temperature if q != self.player else 0.0
        if not temperature and rng.random() < self.epsilon:
            return hand[rng.randrange(len(hand))]
        log = math.log
        t = self.tables
        score = self.score
        (visited, previous, collection_rule, base_collection, used, claimed, table, top, route,
         picks_to_come) = self._pick_context(q, hand, mask, collection)
        (w_collection, w_completed, w_started, w_step, w_icon, w_site, w_bonus, w_progress,
         w_throw) = self.weights
        best, best_value = hand[0], -1e9
        for c in hand:
            bit = 1 << c
            # (`or`: random() may return 0, whose logarithm is undefined)
            value = -temperature * log(-log(rng.random() or 0.5)) if temperature else rng.random() * 0.25
            cv = t.collection_value[c]
            if cv:
                value += w_collection * (collection_rule(collection + cv, previous) - base_collection)
            icon = t.pair_icon[c]
            if icon >= 0:
                if (mask & t.pair_mask[icon]).bit_count() & 1:
                    value += w_completed * t.pair_value[icon]
                elif w_started:
                    value += w_started * t.pair_value[icon] * picks_to_come
            icon = t.choice_icon[c]
            if icon >= 0 and not used >> icon & 1:
                if table:
                    k = (mask & t.choice_mask[icon]).bit_count()
                    value += w_step * (table[min(k + 1, top)] - table[min(k, top)]) + w_icon
                else:
                    value += w_step + w_icon
            if not visited & bit:
                value += w_site
                region = t.region[c]
                region_mask = t.region_mask[region]
                if not claimed >> region & 1:
                    have = (visited | bit) & region_mask
                    if have == region_mask:
                        value += w_bonus * t.region_bonus[region]
                    elif w_progress:
                        value += (w_progress * t.region_bonus[region] * have.bit_count()
                                  / region_mask.bit_count())
                if route is not None and not score.route_done >> q & 1 and route_achieved(
                        self.edition, visited | bit):
                    value += w_bonus * route_tier_points(route, self.n, score.route_next_tier)
            if throw:
                value += w_throw * t.throw_expectation[c]
            if value > best_value:
                best, best_value = c, value
        return best

    def pick_features(self, q: int, hand: list[int], mask: int, collection: int,
                      throw: bool) -> list[PickWeights]:
        """The terms `_pick` weighs, card by card of `hand` (in `PickWeights`' order), for fitting the
        weights to observed picks (`benchmarks/imitation.py`). The rollouts' hot loop sums them inline."""
        t = self.tables
        score = self.score
        (visited, previous, collection_rule, base_collection, used, claimed, table, top, route,
         picks_to_come) = self._pick_context(q, hand, mask, collection)
        features = []
        for c in hand:
            terms = dict.fromkeys(PickWeights._fields, 0.0)
            bit = 1 << c
            cv = t.collection_value[c]
            if cv:
                terms["collection"] = collection_rule(collection + cv, previous) - base_collection
            icon = t.pair_icon[c]
            if icon >= 0:
                if (mask & t.pair_mask[icon]).bit_count() & 1:
                    terms["pair_completed"] = t.pair_value[icon]
                else:
                    terms["pair_started"] = t.pair_value[icon] * picks_to_come
            icon = t.choice_icon[c]
            if icon >= 0 and not used >> icon & 1:
                if table:
                    k = (mask & t.choice_mask[icon]).bit_count()
                    terms["choice_step"] = table[min(k + 1, top)] - table[min(k, top)]
                else:
                    terms["choice_step"] = 1.0
                terms["choice_icon"] = 1.0
            if not visited & bit:
                terms["new_site"] = 1.0
                region = t.region[c]
                region_mask = t.region_mask[region]
                if not claimed >> region & 1:
                    have = (visited | bit) & region_mask
                    if have == region_mask:
                        terms["bonus"] = t.region_bonus[region]
                    else:
                        terms["region_progress"] = t.region_bonus[region] * have.bit_count() / region_mask.bit_count()
                if route is not None and not score.route_done >> q & 1 and route_achieved(
                        self.edition, visited | bit):
                    terms["bonus"] += route_tier_points(route, self.n, score.route_next_tier)
            if throw:
                terms["throw"] = t.throw_expectation[c]
            features.append(PickWeights(**terms))
        return features

    def round_start(self) -> tuple[list[list[int]], list[list[int]], list[int], list[int]]:
        """The world's hands and rows, copied for one rollout, with each row's icon mask and collection value."""
        values = self.tables.collection_value
        hands = [h[:] for h in self.world.hands]
        rows = [r[:] for r in self.world.rows]
        masks = [0] * self.n
        collections = [0] * self.n
        for q, row in enumerate(rows):
            for c in row:
                masks[q] |= 1 << c
                collections[q] += values[c]
        return hands, rows, masks, collections

    def take(self, picks: list[int], hands: list[list[int]], rows: list[list[int]], masks: list[int],
             collections: list[int]) -> list[list[int]] | None:
        """Every player's pick joins their row and the hands pass on: the passed hands, or None once the
        round's last cards (the Catch cards) have joined the rows."""
        values = self.tables.collection_value
        for q in range(self.n):
            card = picks[q]
            hands[q].remove(card)
            rows[q].append(card)
            masks[q] |= 1 << card
            collections[q] += values[card]
        hands = [hands[-1], *hands[:-1]] if self.pass_left else [*hands[1:], hands[0]]
        if len(hands[0]) == 1:
            for q in range(self.n):
                rows[q].append(hands[q][0])
            return None
        return hands

    def standing_after(self, action: int, others_first: list[int], rng: random.Random) -> float:
        """Play the round out with the bot taking `action` now; its standing at round end."""
        n = self.n
        hands, rows, masks, collections = self.round_start()
        picks = others_first[:]
        picks[self.player] = action
        pick = self._pick
        while (hands := self.take(picks, hands, rows, masks, collections)) is not None:
            picks = [pick(q, hands[q], masks[q], collections[q], False, rng) for q in range(n)]
        return self._standing(rows)

    def _standing(self, rows: list[list[int]]) -> float:
        """Score the round exactly (each player taking their best round-end choice) and compare standings."""
        standing = self._standings(rows)
        mine = standing[self.player]
        others = standing[:self.player] + standing[self.player + 1:]
        return mine - LEADER_WEIGHT * max(others) - (1 - LEADER_WEIGHT) * sum(others) / len(others)

    def _standings(self, rows: list[list[int]]) -> list[float]:
        """Every player's total after this round plus the value of the choice icons they keep."""
        future = self.outlook.table[self.rounds_left]
        score = self.score.copy()
        masks = []
        for row in rows:
            mask = 0
            for c in row:
                mask |= 1 << c
            masks.append(mask)
        choices = []
        kept = []
        for q in range(self.n):
            used = score.choices_used[q]
            best_icon, best_value = NO_CHOICE, future[used]
            for icon, points in choice_option_points(self.edition, rows, q, masks):
                if used >> icon & 1:
                    continue
                value = points + future[used | 1 << icon]
                if value > best_value:
                    best_icon, best_value = icon, value
            choices.append(best_icon)
            kept.append(future[used if best_icon == NO_CHOICE else used | 1 << best_icon])
        scores, _ = resolve_round(self.edition, score, rows, choices, masks=masks)
        return self._later_rounds([self.totals[q] + scores[q].total + kept[q] for q in range(self.n)], score)

    def _later_rounds(self, standing: list[float], score: ScoreState) -> list[float]:
        """What a deeper search adds to the standings for the rounds after this one, given the score sheets
        at this round's end (`score`); `hard` adds nothing beyond the choice icons kept."""
        return standing
