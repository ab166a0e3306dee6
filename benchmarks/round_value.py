"""`tourpad bench round-value`: fit what a sheet at a round's end is worth beyond the standing it reaches.

The expert's rollouts stop at the round's end and read each player's *standing* there: the total, the value
of the activities / treasures kept (`ChoiceOutlook`) and of the region bonuses still to come (`LaterRounds`).
Some of what a sheet holds is not in those points: USA's Americana must beat this round's collection score in
the next round, so a high one now costs later; a route bonus already scored is one the others can still score.

Here seeded games of four `hard` bots are played; at each of the first three rounds' end every player's
standing and `round_end_terms` are recorded, with who won the game. A conditional logit per number of rounds
left (`benchmarks.logit`: the chance that a player wins ∝ exp(w · terms)) is fitted on the games' first four
fifths, and each term's worth in points is its weight over the standing's. The held-out fifth measures whether
the terms say more about who wins than the standing alone; where they do not, none is shipped. The shipped values are
`rules.bots.expert.ROUND_END_VALUE`, used from three players on as the fitted pick model is. Where the collection
rule reads the score to beat (USA's Americana), the collection score is valued by the bar's outlook instead
(`rules.bots.expert.collection_outlook`), read from the collection totals of these games' first rounds, printed
too (`COLLECTION_TOTALS`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from benchmarks import logit
from rules.bots.expert import RoundEndValue, collection_outlook, later_rounds, round_end_terms, round_end_value
from rules.bots.hard import HardBot, choice_outlook
from rules.edition import Edition
from rules.engine import ROUNDS, Game

#: One round's end of one game: every player's (standing, *round_end_terms), and the winner's seat.
RoundEnd = tuple[list[tuple[float, ...]], int]
#: A term seen (non-zero) fewer times than this at some number of rounds left is too rare to fit there; it
#: takes its worth from the nearest number of rounds left where it is seen often enough (or 0).
MIN_SEEN = 100
#: Worlds per decision of the `hard` bots playing the games: fewer than `hard`'s 24, so that 1,200 games take
#: minutes; the sheets they reach are `hard`'s kind of sheets.
SAMPLES = 8


def collect(edition: Edition, players: int, games: int, seed: int = 13) -> list[dict[int, RoundEnd]]:
    """Per game, {rounds left: that round's end} for 1 to 3 rounds left; a game with a shared win is left
    out (it names no one winner)."""
    outlook = choice_outlook(edition, players)
    later = later_rounds(edition, players)
    recorded = []
    for g in range(games):
        state = Game(edition, players, seed * 100_003 + g).new_initial_state()
        bots = [HardBot(g * players + p, samples=SAMPLES) for p in range(players)]
        ends: dict[int, list[tuple[float, ...]]] = {}
        while not state.is_terminal():
            rounds_done = len(state.round_log)
            state.apply_joint([bot.act(view) for bot, view in zip(bots, state.views(), strict=True)])
            left = ROUNDS - len(state.round_log)
            if len(state.round_log) > rounds_done and left:
                score, totals = state.score, state.totals()
                ends[left] = [(totals[q] + outlook.future(score.choices_used[q], left)
                               + later.value(edition, score, q, left), *round_end_terms(score, q))
                              for q in range(players)]
        final = state.totals()
        best = max(final)
        if final.count(best) == 1:
            recorded.append({left: (sheets, final.index(best)) for left, sheets in ends.items()})
    return recorded


class FitError(ValueError):
    """The games do not support a fit (the message says why): too few of them, or a degenerate draw."""


def worth(weights: Sequence[float]) -> tuple[float, ...]:
    """Each term's worth in points of standing: its weight over the standing's (the first)."""
    if weights[0] <= 0:
        raise FitError(f"the standing's fitted weight is {weights[0]:.4f}: a higher standing should win more")
    return tuple(float(w / weights[0]) for w in weights[1:])


def shipped_values(fitted: dict[int, tuple[float, ...]], seen: dict[int, list[int]],
                   helps: dict[int, bool]) -> list[RoundEndValue]:
    """The `RoundEndValue` for 1, 2, 3 rounds left from each one's fitted worths (`fitted[left]`), how often
    each term was seen there (`seen[left]`) and whether the terms named the held-out games' winners better
    than the standing alone (`helps[left]`). Where they did not, the sheet is worth its standing (all 0):
    the fit there is noise. Elsewhere a term seen fewer than `MIN_SEEN` times takes its worth from the
    nearest number of rounds left where it was seen often enough and the terms helped (the fewer rounds
    left, on a tie), else 0."""
    values = []
    for left in range(1, ROUNDS):
        terms = []
        for k in range(len(RoundEndValue._fields)):
            usable = [r for r in range(1, ROUNDS) if seen[r][k] >= MIN_SEEN and helps[r]]
            nearest = min(usable, key=lambda r: (abs(r - left), r), default=None)
            terms.append(0.0 if nearest is None or not helps[left] else round(fitted[nearest][k], 3))
        values.append(RoundEndValue(*terms))
    return values


def _standing_alone(ends: list[RoundEnd]) -> list[RoundEnd]:
    """The same round's ends with each player's standing only (the fit the terms are measured against)."""
    return [([sheet[:1] for sheet in sheets], winner) for sheets, winner in ends]


def run(edition: Edition, players: int = 4, games: int = 1200, seed: int = 13) -> dict:
    recorded = collect(edition, players, games, seed)
    split = len(recorded) * 4 // 5
    fitted: dict[int, tuple[float, ...]] = {}
    seen: dict[int, list[int]] = {}
    helps: dict[int, bool] = {}
    held_out: dict[str, dict] = {}
    for left in range(1, ROUNDS):
        train = [game[left] for game in recorded[:split]]
        test = [game[left] for game in recorded[split:]]
        seen[left] = [sum(1 for sheets, _ in train for sheet in sheets if sheet[k])
                      for k in range(1, 1 + len(RoundEndValue._fields))]
        weights = logit.fit(train)
        fitted[left] = worth(weights)
        alone = logit.mean_log_likelihood(_standing_alone(test), logit.fit(_standing_alone(train)))
        with_the_terms = logit.mean_log_likelihood(test, weights)
        helps[left] = with_the_terms > alone
        held_out[str(left)] = {"standing_alone": round(alone, 4), "with_the_terms": round(with_the_terms, 4)}
        shipped = round_end_value(edition, players, left)
        if shipped is not None:
            held_out[str(left)]["shipped"] = round(logit.mean_log_likelihood(
                test, [weights[0], *(weights[0] * w for w in shipped)]), 4)
    values = shipped_values(fitted, seen, helps)
    if collection_outlook(edition, players, 1) is not None:
        # the bar's outlook values the collection score (USA's Americana); its point-by-point worth goes unused
        values = [value._replace(collection=0.0) for value in values]
    # the first round's sheets: every collection total scores there, whatever the bar (`COLLECTION_TOTALS`)
    first_round = Counter(sheet[1] for game in recorded for sheet in game[ROUNDS - 1][0])
    return {
        "edition": edition.id, "players": players, "games": games, "seed": seed,
        "games_fitted": split, "games_held_out": len(recorded) - split,
        "games_with_a_shared_win_left_out": games - len(recorded),
        "times_seen_per_rounds_left": {str(left): dict(zip(RoundEndValue._fields, counts, strict=True))
                                       for left, counts in seen.items()},
        "round_end_value": {str(left): value._asdict() for left, value in enumerate(values, start=1)},
        "held_out_mean_log_likelihood_of_the_winner": held_out,
        "collection_totals_in_the_first_round": [first_round[total]
                                                 for total in range(max(first_round, default=-1) + 1)],
    }
