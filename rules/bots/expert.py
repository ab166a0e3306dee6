"""`expert`: the hard bot's determinized search, many times wider, planning its own later picks with UCT.

For every pick the bot samples worlds with `PlayerView.determinized` (every card it cannot see re-dealt
from its own generator), as `hard` does, and in each world plays every legal action out to the end of the
round, all actions of a world on the same random stream (common random numbers) and with the other
players' first picks shared (picks are simultaneous). These things make it stronger than `hard`:

- **Width**: `simulations` rollouts per decision (1,000 by default against `hard`'s 24 worlds × the hand
  size), so the value differences between cards are no longer lost in sampling noise.
- **Its own later picks are searched, not guessed**: below each root action the bot's own picks for the
  rest of the round are chosen by UCT (information-set MCTS over the bot's own moves). A node is the bot's
  own pick sequence so far; which cards it holds there differs from world to world (the hands it will be
  passed are hidden now), so a card's UCB exploration counts the visits in which it was *available*, as
  single-observer ISMCTS does. Unvisited cards are tried in the rollout policy's order of preference;
  below the tree the rollout policy plays on. The other players always follow the rollout policy: it is a
  model of them, whose picks depend only on what they hold.
- **A model of how players pick**: the rollout policy weighs the same terms as `hard`'s greedy one, with
  weights fitted to the picks `hard` really makes (`EXPERT_PICK`), so the hands that come round, and the
  rows the others end with, are the likely ones. With three or more players, another player's card is
  drawn with the chance that fit gives it (`EXPERT_PICK_TEMPERATURE`), where `hard` models everyone as
  taking their favourite card (and ε random ones).
- **The next hand, predicted**: once the bot has held the hand of the player who passes to it, that
  player is predicted to take what `hard`'s search takes on their view (`predicted_picks`), in every world,
  where the rollout policy would guess; that pick decides the hand the bot is passed next, which its own
  later picks are planned on.

Each rollout ends with the round scored exactly (`resolve_round`) and later rounds valued through the
activities / treasures still unused (`ChoiceOutlook`), the region bonuses still to come (`LaterRounds`)
and, with three or more players, what a sheet at a round's end is worth beyond its points as the winners of
seeded games show it (`ROUND_END_VALUE`: a route already scored, the sites visited) and, for a collection that
must beat the last round's score (USA's Americana), the points that bar leaves the rounds to come
(`collection_outlook`).
The reward is not `hard`'s standing (points ahead of the field) but the bot's **chance of winning the
game** from there (`win_reward`): every player's score moving on normally in the rounds left, with the
spread of a lead measured from seeded games (`LaterRounds.spread`), the chance that none of the others
ends ahead; plus a small share of the lead so that a lost or won game still prefers the wider margin.
Behind, it takes the card that could catch the leader; ahead, the card that keeps the lead, where a
margin-maximizer takes the card worth more on average (`docs/bots-expert.md`). The round-end choice is `hard`'s
exact one.

The budget is a deterministic count of rollouts from a seeded generator, so a game replays identically on
any machine; a CPU-time cap (`cpu_seconds`, far above the calibrated budget) only stops a search that a
badly overloaded machine would otherwise let run on.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import NamedTuple

from rules.bots.greedy import GreedyBot
from rules.bots.hard import (
    GREEDY_PICK,
    ChoiceOutlook,
    HardBot,
    PickWeights,
    _per_edition,
    _Rollout,
    choice_outlook,
    mean_over_worlds,
)
from rules.edition import Edition
from rules.engine import ROUNDS, Game, Phase, PlayerView, State
from rules.scoring import COLLECTION_RULES, ScoreState

#: Rollouts per decision, shared out as whole worlds over the legal actions. Playing for the win, 3,000
#: won no more games against three `hard` bots than 1,000 in the probes of `docs/bots.md` (nor did seeing
#: the real hands), so the bot takes about a tenth of a second a decision (the goal allows a median of 1 s).
SIMULATIONS = 1000
#: Fewest worlds a decision samples, whatever the budget or the CPU cap.
MIN_WORLDS = 4
#: CPU seconds after which a search stops at its next world (a safety net, not the budget).
CPU_SECONDS = 3.0
#: UCB's exploration constant, in points of lead near an even game: small, as the other cards of a world
#: differ by a few points while worlds differ by ten or more (a larger one spends the budget on poor own
#: picks). The search's rewards are chances, so it is converted by `points_per_chance`.
EXPLORATION = 1.0
#: The spread of a lead at the game's end when the round searched is the last: the final totals are exact,
#: so this only smooths a tie and a near miss (a step would value a one-point win like a twenty-point one).
LAST_ROUND_SPREAD = 1.5
#: The share of the mean lead (in points, divided by `points_per_chance`) added to the chance of winning,
#: so that when every action wins (or loses) alike the wider margin is still preferred.
LEAD_SHARE = 0.05
#: The expert's model of a pick, per edition (a pack uses its base edition's): the rollout policy of the
#: other players, and of its own picks below the search tree. `hard`'s rollout policy weighs what a card adds
#: by hand (`GREEDY_PICK`) and names `hard`'s actual pick about half the time; these weights are fitted to
#: `hard`'s picks in seeded games and name it more often: `tourpad bench imitate --edition E --games 100` prints
#: them (60-62% of `hard`'s picks named on held-out games, against 44-52% for `hard`'s own weights).
#: Rollouts played the way the other players really play made the expert win about ten points more of a
#: probe's 258 4-player games against three `hard` bots (`docs/bots.md` has the probe and the longer runs).
#: Fitted on 4-player games, they also name more of `hard`'s 3-player picks (53% against 46-48%), but not
#: its 2-player ones: there a player soon knows both hands and `hard` picks to deny (its fit weighs a new
#: site negatively and names 42%), so with fewer than `FITTED_PICK_MIN_PLAYERS` the rollouts keep
#: `hard`'s own weights.
EXPERT_PICK: dict[str, PickWeights] = {
    "australia": PickWeights(collection=0.663, pair_completed=1.018, pair_started=0.984, choice_step=0.745,
                             choice_icon=1.207, new_site=1.0, bonus=1.331, region_progress=0.603, throw=1.635),
    "europe": PickWeights(collection=0.266, pair_completed=0.62, pair_started=0.712, choice_step=-0.077,
                          choice_icon=-0.077, new_site=1.0, bonus=0.412, region_progress=0.068, throw=0.746),
    "usa": PickWeights(collection=0.595, pair_completed=0.588, pair_started=0.471, choice_step=0.634,
                       choice_icon=-0.034, new_site=1.0, bonus=0.392, region_progress=0.166, throw=1.002),
}
#: The fewest players for which the rollouts use `EXPERT_PICK` (with two, `hard`'s own weights: above).
FITTED_PICK_MIN_PLAYERS = 3
#: Worlds of `hard`'s search run on an opponent's view to predict the pick that opponent is making now
#: (`ExpertBot.predicted_picks`). `hard` itself samples 24; the same number names its real pick about 3
#: times out of 4 once its hand is known (96 worlds named it as often at most hand sizes: `hard`'s own pick,
#: from 24 worlds, is that noisy; `docs/bots-expert.md`).
PREDICT_SAMPLES = 24


#: How surely `hard` takes the card the fitted weights value most: the points of value that make a pick e times
#: likelier, fitted with `EXPERT_PICK` (`tourpad bench imitate` prints it). The expert's rollouts draw the other
#: players' picks with these chances, where `hard`'s rollouts take the favourite card (and 10% random ones): the
#: fitted weights name `hard`'s pick about 60% of the time, so the favourite card every time makes the others
#: more predictable than they are.
EXPERT_PICK_TEMPERATURE: dict[str, float] = {"australia": 1.744, "europe": 1.075, "usa": 1.242}


class RoundEndValue(NamedTuple):
    """What a player's sheet at a round's end is worth beyond the points it stands at, in points, per unit of
    each of `round_end_terms`: fitted to who won seeded games (`tourpad bench round-value`)."""

    #: per point of the round's collection score (USA's Americana must beat it in the next round)
    collection: float
    #: for the route bonus already scored (the others may still score theirs)
    route: float
    #: per site visited
    sites: float

    def of(self, score: ScoreState, player: int) -> float:
        collection, route, sites = round_end_terms(score, player)
        return self.collection * collection + self.route * route + self.sites * sites


def round_end_terms(score: ScoreState, player: int) -> tuple[int, int, int]:
    """A sheet's terms that a round's end standing does not count (`RoundEndValue` weighs them): the round's
    collection score, whether the route bonus is scored, the sites visited."""
    return score.previous_collection[player], score.route_done >> player & 1, score.visited[player].bit_count()


#: `RoundEndValue` per base edition, for 1, 2 and 3 rounds left (`tourpad bench round-value --edition E` fits
#: and prints them, from 1,200 games of four `hard` bots). At a rollout's end each player's standing counts
#: what its sheet is worth beyond its points, as the winners of those games show it.
ROUND_END_VALUE: dict[str, tuple[RoundEndValue, RoundEndValue, RoundEndValue]] = {
    "australia": (RoundEndValue(collection=0.001, route=0.0, sites=-0.594),
                  RoundEndValue(collection=-0.01, route=0.0, sites=-1.265),
                  RoundEndValue(collection=0.0, route=0.0, sites=0.0)),
    "europe": (RoundEndValue(collection=0.028, route=-0.722, sites=-0.406),
               RoundEndValue(collection=-0.172, route=-2.327, sites=-0.69),
               RoundEndValue(collection=0.0, route=0.0, sites=0.0)),
    # USA's collection score is valued by `collection_outlook` (the fit's point-by-point worth, −0.418 / −0.311 /
    # −0.108, took a bar of 11 to cost no more than one of 8 does, and the first round's bar nearly nothing)
    "usa": (RoundEndValue(collection=0.0, route=-1.759, sites=-0.033),
            RoundEndValue(collection=0.0, route=-2.034, sites=0.031),
            RoundEndValue(collection=0.0, route=-2.034, sites=0.0)),
}


#: How many times each collection total (0, 1, 2, …) was collected in a round where every total scores (the first),
#: per base edition whose collection rule reads the score to beat (USA's Americana): the 4,432 sheets of the 1,108
#: games of four `hard` bots that `tourpad bench round-value --edition usa` plays (seed 13; it prints them). How
#: much a bar left for the next rounds costs is read from them (`collection_outlook`).
COLLECTION_TOTALS: dict[str, tuple[int, ...]] = {
    "usa": (29, 111, 192, 332, 451, 522, 547, 521, 459, 405, 302, 238, 166, 94, 39, 18, 5, 1),
}
#: The share of `collection_outlook`'s points a rollout counts. The outlook assumes a player collects as in a first
#: round whatever the bar; a player facing a high one collects less of it and takes other points instead, so a bar
#: costs less than that: the winners of the same games, fitted with the bar in bands one round before the last
#: (held-out log-likelihood −0.986 → −0.966 against a point-by-point worth), put a bar of 11–13 at −5.5 points
#: against the outlook's −6 to −7. A probe at three quarters won more of USA's 4-player deals (`docs/bots.md`).
BAR_OUTLOOK_SHARE = 0.75


def collection_outlook(edition: Edition, n_players: int, rounds_left: int) -> tuple[float, ...] | None:
    """The collection points a player can still expect in the `rounds_left` rounds after this one, by the score it
    scored this round (the bar a rule like USA's Americana sets: indexed by it, the last entry for any higher one),
    times `BAR_OUTLOOK_SHARE`; or None where the bar changes nothing: no round left, fewer than
    `FITTED_PICK_MIN_PLAYERS` players (the totals come from 4-player games), no measured totals, or a rule that
    does not read the last score."""
    if not rounds_left or n_players < FITTED_PICK_MIN_PLAYERS or edition.base not in COLLECTION_TOTALS:
        return None
    return _per_edition(edition, "collection outlook", 0, lambda: _collection_outlooks(edition))[rounds_left - 1]


def _collection_outlooks(edition: Edition) -> tuple[tuple[float, ...] | None, ...]:
    """`collection_outlook` for 1, 2, 3 rounds left: each round's total drawn from `COLLECTION_TOTALS`, scored by
    the edition's own rule against the bar, which becomes the score (a dynamic programme over the rounds left)."""
    counts = COLLECTION_TOTALS[edition.base]
    sheets = sum(counts)
    chances = [(total, count / sheets) for total, count in enumerate(counts) if count]
    score = COLLECTION_RULES[edition.collection.rule]
    highest = len(counts) - 1  # a bar above every total measured scores as the highest does

    def expected_from(bar: int, later: list[float]) -> float:
        """The points a round scored against `bar` brings, and `later` (by the bar it leaves) after it."""
        points_expected = 0.0
        for total, chance in chances:
            points = score(total, bar)
            points_expected += chance * (points + later[min(points, highest)])
        return points_expected

    expected = [0.0] * len(counts)
    outlooks: list[tuple[float, ...]] = []
    for _ in range(1, ROUNDS):
        expected = [expected_from(bar, expected) for bar in range(len(counts))]
        outlooks.append(tuple(BAR_OUTLOOK_SHARE * points for points in expected))
    if all(len(set(outlook)) == 1 for outlook in outlooks):  # the rule does not read the bar
        return (None,) * len(outlooks)
    return tuple(outlooks)


def expert_pick_weights(edition: Edition, n_players: int) -> PickWeights:
    """The expert's rollout policy for this edition and player count: its base edition's fitted weights,
    else (two players, or a base edition without a fit) `hard`'s."""
    if n_players < FITTED_PICK_MIN_PLAYERS:
        return GREEDY_PICK
    return EXPERT_PICK.get(edition.base, GREEDY_PICK)


def expert_pick_temperature(edition: Edition, n_players: int) -> float:
    """The temperature the other players' rollout picks are drawn with (`EXPERT_PICK_TEMPERATURE`), or 0 (their
    favourite card, as `hard` models them) where the fitted weights are not used."""
    if n_players < FITTED_PICK_MIN_PLAYERS:
        return 0.0
    return EXPERT_PICK_TEMPERATURE.get(edition.base, 0.0)


def round_end_value(edition: Edition, n_players: int, rounds_left: int) -> RoundEndValue | None:
    """The worth of a sheet's `round_end_terms` after a round with `rounds_left` rounds to come, or None: in the
    last round (the totals are then the game's), with fewer than `FITTED_PICK_MIN_PLAYERS` players (fitted on
    4-player games, as the pick model is), or for an edition without a fit."""
    fitted = ROUND_END_VALUE.get(edition.base)
    if not rounds_left or n_players < FITTED_PICK_MIN_PLAYERS or fitted is None:
        return None
    return fitted[rounds_left - 1]


class LaterRounds:
    """What the rounds after the one searched hold, measured once per edition and player count from seeded
    games of `normal` bots (a few hundred milliseconds):

    - `chance[j][r]`: the chance that a player still missing `j` sites of a region nobody has claimed gets
      its bonus in the `r` rounds left, so the search values progress towards a region it cannot finish
      this round (what `hard` sees only when a region is completed inside its rollout);
    - `spread[r]`: how far one player's lead over another moves in the `r` rounds left (the standard
      deviation of that change from a round's end to the game's), so a lead at this round's end can be read
      as a chance of still being ahead at the game's end; `spread[0]` is `LAST_ROUND_SPREAD`.
    """

    def __init__(self, edition: Edition, n_players: int, games: int = 200, seed: int = 11) -> None:
        largest = max((region.mask.bit_count() for region in edition.regions), default=0)
        tries = [[0] * ROUNDS for _ in range(largest + 1)]
        wins = [[0] * ROUNDS for _ in range(largest + 1)]
        moves: list[list[int]] = [[] for _ in range(ROUNDS)]
        for g in range(games):
            state = Game(edition, n_players, seed * 100_003 + g).new_initial_state()
            bots = [GreedyBot(g * n_players + p) for p in range(n_players)]
            # (missing sites, rounds left, player, region) at each round's end, and who took each region
            pending: list[tuple[int, int, int, int]] = []
            owners: dict[int, set[int]] = {}
            totals_at: list[tuple[int, list[int]]] = []  # (rounds left, every player's total) at a round's end
            while not state.is_terminal():
                rounds_done = len(state.round_log)
                claimed_before = state.score.regions_claimed
                state.apply_joint([bot.act(view) for bot, view in zip(bots, state.views(), strict=True)])
                if len(state.round_log) > rounds_done:
                    self._round_ended(edition, state, claimed_before, pending, owners)
                    totals_at.append((ROUNDS - len(state.round_log), state.totals()))
            for missing, left, player, region in pending:
                tries[missing][left] += 1
                wins[missing][left] += player in owners.get(region, ())
            final = state.totals()
            for left, totals in totals_at:
                moves[left].extend((final[q] - final[0]) - (totals[q] - totals[0]) for q in range(1, n_players))
        self.chance = tuple(tuple(w / t if t else 0.0 for w, t in zip(won, tried, strict=True))
                            for won, tried in zip(wins, tries, strict=True))
        self.spread = (LAST_ROUND_SPREAD,
                       *(max(LAST_ROUND_SPREAD, statistics.pstdev(moved)) for moved in moves[1:]))

    @staticmethod
    def _round_ended(edition: Edition, state: State, claimed_before: int,
                     pending: list[tuple[int, int, int, int]], owners: dict[int, set[int]]) -> None:
        score = state.score
        left = ROUNDS - len(state.round_log)
        for region in edition.regions:
            bit = 1 << region.index
            if score.regions_claimed & bit:
                if not claimed_before & bit:
                    owners[region.index] = {q for q, seen in enumerate(score.visited)
                                            if seen & region.mask == region.mask}
            elif left:
                for q, seen in enumerate(score.visited):
                    pending.append(((region.mask & ~seen).bit_count(), left, q, region.index))

    def value(self, edition: Edition, score: ScoreState, player: int, rounds_left: int) -> float:
        """The region bonuses `player` can still expect in the `rounds_left` rounds after this one."""
        if not rounds_left:
            return 0.0
        seen, claimed, chance = score.visited[player], score.regions_claimed, self.chance
        return sum(region.bonus * chance[(region.mask & ~seen).bit_count()][rounds_left]
                   for region in edition.regions if not claimed >> region.index & 1)

    def points_per_chance(self, n_players: int, rounds_left: int) -> float:
        """The points of lead a whole chance of winning is worth, to convert UCT's exploration constant and
        the lead's share: exactly so for two players near an even game (the slope of Φ(lead ÷ spread) is
        the normal density at 0 ÷ spread), and (players − 1) times that for more, as each other player's
        lead counts."""
        return self.spread[rounds_left] * math.sqrt(2 * math.pi) * (n_players - 1)


def later_rounds(edition: Edition, n_players: int) -> LaterRounds:
    return _per_edition(edition, "later rounds", n_players, lambda: LaterRounds(edition, n_players))


class _LookaheadRollout(_Rollout):
    """`hard`'s rollout, with the expert's model of a pick (`EXPERT_PICK`), whose standings also count each
    player's expected region bonuses in later rounds and whose reward is the bot's chance of winning the game
    (with a small share of its lead)."""

    __slots__ = ("bar_outlook", "later", "lead_share", "round_end", "spread")

    def __init__(self, world: State, player: int, outlook: ChoiceOutlook, epsilon: float,
                 later: LaterRounds) -> None:
        super().__init__(world, player, outlook, epsilon)
        self.later = later
        self.weights = expert_pick_weights(self.edition, self.n)
        self.temperature = expert_pick_temperature(self.edition, self.n)
        self.round_end = round_end_value(self.edition, self.n, self.rounds_left)
        self.bar_outlook = collection_outlook(self.edition, self.n, self.rounds_left)
        self.spread = later.spread[self.rounds_left]
        self.lead_share = LEAD_SHARE / later.points_per_chance(self.n, self.rounds_left)

    def _later_rounds(self, standing: list[float], score: ScoreState) -> list[float]:
        value, edition, left, worth, bar_outlook = (self.later.value, self.edition, self.rounds_left, self.round_end,
                                                    self.bar_outlook)
        if bar_outlook is not None:  # USA's Americana: what the bar this round sets costs the rounds left
            highest = len(bar_outlook) - 1
            return [points + value(edition, score, q, left) + bar_outlook[min(score.previous_collection[q], highest)]
                    + (0.0 if worth is None else worth.of(score, q)) for q, points in enumerate(standing)]
        if worth is None:
            return [points + value(edition, score, q, left) for q, points in enumerate(standing)]
        return [points + value(edition, score, q, left) + worth.of(score, q) for q, points in enumerate(standing)]

    def _standing(self, rows: list[list[int]]) -> float:
        return win_reward(self._standings(rows), self.player, self.spread, self.lead_share)


#: Where `win_reward` reads the bot's own score change over the rounds left (standard normal z, its weight):
#: nine points three quarters apart, weights the normal density's, normalized. The integrand is smooth, so
#: these points put the chance within a fraction of a percent of an exact integral.
_OWN_CHANGE = tuple((z, math.exp(-z * z / 2)) for z in (0.75 * k for k in range(-4, 5)))
_OWN_CHANGE = tuple((z, w / sum(w for _, w in _OWN_CHANGE)) for z, w in _OWN_CHANGE)


def win_reward(standings: list[float], me: int, spread: float, lead_share: float) -> float:
    """`me`'s chance of finishing ahead of every other player, plus `lead_share` × its mean lead.

    Each player's score moves independently in the rounds left, normally, so that one player's lead over
    another moves with standard deviation `spread`. The leads over the others all share the bot's own
    move, so they are not independent: the chance is the mean, over the bot's own move, of the product of
    the chances that each other player's move stays below it. (An even table of four is then a chance of
    1/4, where multiplying three even duels would say 1/8.)"""
    mine = standings[me]
    if len(standings) == 2:  # two players: the lead's own chance, exactly
        lead = mine - standings[1 - me]
        return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2)))) + lead_share * lead
    own = spread / math.sqrt(2)  # one player's own move; a lead is the difference of two of them
    others = [(mine - theirs) / own for q, theirs in enumerate(standings) if q != me]
    lead = (mine * len(others) - (sum(standings) - mine)) / len(others)
    erf = math.erf
    root_half = math.sqrt(0.5)
    chance = 0.0
    for z, weight in _OWN_CHANGE:
        beaten = weight
        for ahead in others:
            beaten *= 0.5 * (1.0 + erf((ahead + z) * root_half))
        chance += beaten
    return chance + lead_share * lead


class ExpertBot:
    """Determinized rollouts of every action, many worlds wide, with UCT over the bot's own later picks."""

    name = "expert"

    def __init__(self, seed: int = 0, simulations: int = SIMULATIONS, epsilon: float = 0.1,
                 exploration: float = EXPLORATION, cpu_seconds: float = CPU_SECONDS,
                 predict_samples: int = PREDICT_SAMPLES) -> None:
        self.seed = seed
        self.simulations = simulations
        self.epsilon = epsilon
        self.exploration = exploration
        self.cpu_seconds = cpu_seconds
        self.predict_samples = predict_samples
        self.rng = random.Random(seed)
        # the predictions draw from their own stream, so a search's worlds are the same whether or not it
        # predicted a pick
        self._predict_rng = random.Random(seed ^ 0x5EED)
        # the round-end choice is exact (points now + the value of the icons kept) and draws no random number
        self._choice = HardBot(seed)

    def act(self, view: PlayerView) -> int:
        values = self.action_values(view)
        return max(values, key=lambda a: (values[a], -a))

    def action_values(self, view: PlayerView) -> dict[int, float]:
        """Each legal action's mean reward over the worlds searched: about its chance of winning the game,
        0 to 1, plus a small share of its lead (the higher, the better). The round-end choice is valued in
        points, as `hard` values it.

        Depends only on the bot's view and its random stream, unless the CPU cap cut the search short.
        """
        if view.phase == Phase.CHOICE:
            return self._choice.action_values(view)
        legal = list(view.actions)
        outlook = choice_outlook(view.edition, view.n_players)
        later = later_rounds(view.edition, view.n_players)
        exploration = self.exploration / later.points_per_chance(view.n_players, ROUNDS - 1 - view.public.round_index)
        #: per root action, the bot's own later pick sequences → {card: [visits, reward sum, times available]}
        trees: dict[int, dict[tuple[int, ...], dict[int, list[float]]]] = {a: {} for a in legal}
        predicted = self.predicted_picks(view)
        cpu_limit = time.process_time() + self.cpu_seconds
        worlds = max(MIN_WORLDS, math.ceil(self.simulations / len(legal)))

        def play_out(rollout: _Rollout, action: int, others_first: list[int], stream: random.Random) -> float:
            for q, card in predicted.items():
                others_first[q] = card
            return self._simulate(rollout, action, others_first, trees[action], exploration, stream)

        return mean_over_worlds(
            view, self.rng, legal, worlds, MIN_WORLDS, lambda: time.process_time() > cpu_limit,
            lambda world: _LookaheadRollout(world, view.player, outlook, self.epsilon, later), play_out)

    def predicted_picks(self, view: PlayerView) -> dict[int, int]:
        """{player: card} for the player who passes this bot its next hand, once this bot has held the hand
        that player holds now (from the second pick with two players, the fourth with four): the card
        `hard`'s search takes on that player's view, in one world consistent with this one. The search gives
        that pick to every world, where the rollout policy would guess.

        That pick decides the hand the bot is passed next, which its own later picks are planned on. The
        rollout policy names `hard`'s real pick about a third of the time while hands are large (its search,
        not a greedy weighing, decides there), `hard`'s own search three times out of four. Predicting the
        other players' picks too (whose hands reach this bot only after others have picked from them) made
        no difference a probe could see, and took nearly twice the bot's time before any prediction (USA: a
        CPU median of 177 ms a decision against 94 ms; 130 ms with the passer's alone; `docs/bots-expert.md`)."""
        if view.phase == Phase.CHOICE or not self.predict_samples:
            return {}
        passer = view.passer
        if view.known_hands()[passer] is None:
            return {}
        world = view.determinized(self._predict_rng)
        predictor = HardBot(self._predict_rng.getrandbits(32), samples=self.predict_samples)
        return {passer: predictor.act(world.view(passer))}

    def _simulate(self, rollout: _Rollout, action: int, others_first: list[int],
                  tree: dict[tuple[int, ...], dict[int, list[float]]], exploration: float,
                  rng: random.Random) -> float:
        """One rollout of the round with the bot taking `action` now, its own next picks chosen down `tree`
        while the tree reaches, then by the rollout policy; updates the tree and returns the reward."""
        n, me = rollout.n, rollout.player
        hands, rows, masks, collections = rollout.round_start()
        picks = others_first[:]
        picks[me] = action
        pick = rollout._pick
        path: tuple[int, ...] = ()
        walked: list[tuple[dict[int, list[float]], int, list[int]]] = []
        in_tree = True
        while (hands := rollout.take(picks, hands, rows, masks, collections)) is not None:
            for q in range(n):
                if q != me:
                    picks[q] = pick(q, hands[q], masks[q], collections[q], False, rng)
            hand = hands[me]
            if in_tree:
                node = tree.get(path)
                if node is None:
                    node = tree[path] = {}
                card, expanded = self._select(node, hand, rollout, masks[me], collections[me], exploration, rng)
                walked.append((node, card, hand[:]))
                path += (card,)
                in_tree = not expanded
            else:
                card = pick(me, hand, masks[me], collections[me], False, rng)
            picks[me] = card
        reward = rollout._standing(rows)
        for node, card, available in walked:
            for c in available:
                stats = node.get(c)
                if stats is None:
                    stats = node[c] = [0, 0.0, 0]
                stats[2] += 1
            stats = node[card]
            stats[0] += 1
            stats[1] += reward
        return reward

    @staticmethod
    def _select(node: dict[int, list[float]], hand: list[int], rollout: _Rollout, mask: int,
                collection: int, c_explore: float, rng: random.Random) -> tuple[int, bool]:
        """The card to pick at a tree node: an untried one first (the rollout policy's favourite among
        them), else the highest upper confidence bound. Returns (card, whether it was untried)."""
        untried = [c for c in hand if c not in node or not node[c][0]]
        if untried:
            return rollout._pick(rollout.player, untried, mask, collection, False, rng), True
        best, best_bound = hand[0], -math.inf
        for c in hand:
            visits, total, available = node[c]
            bound = total / visits + c_explore * math.sqrt(math.log(available) / visits)
            if bound > best_bound:
                best, best_bound = c, bound
        return best, False
