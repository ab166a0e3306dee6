"""The Boomerang game engine (every edition): a `Game` holds the parameters, a `State` plays it out.

Modelled on OpenSpiel's simultaneous-move games: at each decision point `current_players()` must act,
`legal_actions(p)` lists their options, and the round advances once every one of them has acted. Picks are
collected hidden and revealed together (TAG), whether they arrive one at a time (`apply_action`, as from a
person at the table) or all at once (`apply_joint`, as in the simulator).

Actions are small ints: 0..27 pick the card with that index; `choice_action(i)` scores choice icon i
(an activity or a National Treasure) at round end, and `CHOICE_NONE` scores none.

Hidden information: a player sees their own hand and Throw card, every face-up drafted card, the hands
they have held earlier this round (minus the public picks since), and all sheets. Other Throw cards, hands
they have not held, the undealt cards and the shuffle are hidden. A bot is given only its `PlayerView`
(`State.view`), a frozen snapshot of what it may see; `PlayerView.determinized` deals exactly the hidden
cards anew for search bots.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import chain, filterfalse, islice, repeat, starmap
from math import floor
from typing import NamedTuple

from rules.edition import Edition
from rules.locale import _
from rules.scoring import (
    NO_CHOICE,
    RoundScore,
    ScoreState,
    rank_players,
    round_score_fields,
    round_tables,
    row_mask,
    score_round,
)

ROUNDS = 4
HAND_SIZE = 7
CHOICE_NONE = 28
_CHOICE_BASE = 29


def choice_action(icon: int) -> int:
    return _CHOICE_BASE + icon


def action_choice(action: int) -> int:
    """The choice icon an action scores, or NO_CHOICE."""
    return NO_CHOICE if action == CHOICE_NONE else action - _CHOICE_BASE


class Phase(IntEnum):
    THROW = 0
    DRAFT = 1
    CHOICE = 2
    GAME_OVER = 3


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says which rule."""


@dataclass(frozen=True, slots=True)
class Game:
    edition: Edition
    n_players: int
    seed: int | None = None
    direction_variant: bool = False

    def __init__(self, edition: Edition, n_players: int, seed: int | None = None,
                 direction_variant: bool = False) -> None:
        # The dataclass's own __init__ would set each field through object.__setattr__ (it is frozen); setting
        # them through their slots' descriptors costs half as much, and a simulation makes a Game per game.
        if not 2 <= n_players <= 4:
            raise ValueError(_("Boomerang is for 2 to 4 players, not {n}").format(n=n_players))
        _set_edition(self, edition)
        _set_n_players(self, n_players)
        _set_seed(self, seed)
        _set_direction_variant(self, direction_variant)

    def new_initial_state(self) -> State:
        return State(self)

    def pass_left(self, round_index: int) -> bool:
        return passes_left(round_index, self.n_players, self.direction_variant)


def passes_left(round_index: int, n_players: int, direction_variant: bool) -> bool:
    """Standard play passes left; the direction variant passes right in rounds 2 and 4 (3–4 players)."""
    return not (direction_variant and n_players >= 3 and round_index % 2 == 1)


_set_edition, _set_n_players, _set_seed, _set_direction_variant = (
    Game.edition.__set__, Game.n_players.__set__, Game.seed.__set__, Game.direction_variant.__set__)  # type: ignore[attr-defined]
_AFTER_THROW = operator.itemgetter(slice(1, None))
#: Phases as module constants: an enum class's attribute lookup costs more in a hot path (about as much as
#: twenty simple steps of the interpreter).
_THROW, _DRAFT, _GAME_OVER = Phase.THROW, Phase.DRAFT, Phase.GAME_OVER
_FIRST = operator.itemgetter(0)
_NO_ROWS = {n: ((),) * n for n in range(2, 5)}
_NO_THROWS = {n: (None,) * n for n in range(2, 5)}
#: (players, passes made up to players - 1, pass direction) → per observer, the slice of every hand twice
#: over that picks the hands they have held this round: own, then the one that reached the next player in
#: the pass direction, and so on (see `State.has_held`).
_HELD = {(n, passes, d): tuple(slice(p, p + passes + 1) if d == 1 else slice(p + n, p + n - passes - 1, -1)
                               for p in range(n))
         for n in range(2, 5) for passes in range(n) for d in (1, -1)}
#: Builds a NamedTuple from a tuple of its fields in order, without its keyword-taking __new__ (hot path).
_new_view = tuple.__new__
#: The hand size at each of a round's picks (the 7th card is passed on as the Catch card, with no decision).
_PICK_SIZES = tuple(range(HAND_SIZE, 1, -1))
_PICKS = len(_PICK_SIZES)
#: Players → the hand each pick is taken from (hand h, dealt to player h, 6 times; hand after hand), and
#: the sizes picked from (as floats: the draw × size product is the same, without converting an int each time).
_HAND_PER_PICK = {n: operator.itemgetter(*(h for h in range(n) for _ in range(_PICKS))) for n in range(2, 5)}
_SIZES_PER_PICK = {n: tuple(map(float, _PICK_SIZES)) * n for n in range(2, 5)}
#: (direction variant, players) → each round's pass direction (1 left, -1 right), as `Game.pass_left` says.
_DIRECTIONS: dict[tuple[bool, int], tuple[int, ...]] = {}
#: Players → the slices of a deck that deal each player's hand (round robin, 7 each).
_DEAL_SLICES = {n: tuple(slice(p, HAND_SIZE * n, n) for p in range(n)) for n in range(2, 5)}


def _draw_getters(n: int, direction: int, rounds: int, rounds_left: int) -> tuple[Callable, Callable]:
    """Whole-round play (`State.play_out_uniform`) draws every player's numbers for the rest of the game
    (`rounds` rounds) at its start, player after player, 7 a round each (their 6 picks, then the round-end
    choice: each bot's generator is read in the order it decides), then plays the rounds hand by hand: at
    pick k, hand h (dealt to player h) is with player h + k steps in the pass direction. For the round with
    `rounds_left` to play: the draws that pick from each hand, hand after hand, and the players' choice
    draws."""
    at = HAND_SIZE * (rounds - rounds_left)
    per_player = HAND_SIZE * rounds
    return (operator.itemgetter(*(((h + k * direction) % n) * per_player + at + k
                                  for h in range(n) for k in range(_PICKS))),
            operator.itemgetter(*(p * per_player + at + _PICKS for p in range(n))))


#: (players, direction) → per player, the positions of their row's cards, in draft order, among the cards
#: taken (hand after hand, pick after pick), then the hands' last cards (the Catch cards).
_ROW_CARDS = {(n, d): tuple((*(((p - k * d) % n) * _PICKS + k for k in range(_PICKS)),
                             n * _PICKS + (p - _PICKS * d) % n)
                            for p in range(n))
              for n in range(2, 5) for d in (1, -1)}
@cache
def _round_plans(n: int, directions: tuple[int, ...], rounds_left: int) -> tuple[tuple, ...]:
    """Per round whole-round play has still to play (the last `rounds_left`; `directions` has every round's
    pass direction): its draw getters (`_draw_getters`) and its rows' positions (`_ROW_CARDS`), looked up
    once per kind of table."""
    return tuple((*_draw_getters(n, directions[r], rounds_left, ROUNDS - r), _ROW_CARDS[n, directions[r]])
                 for r in range(ROUNDS - rounds_left, ROUNDS))


#: Card → its bit.
_CARD_BITS = tuple(1 << c for c in range(64))
#: Per choice icon (NO_CHOICE last, at index -1): the action that scores it.
_CHOICE_ACTION = (*range(_CHOICE_BASE, _CHOICE_BASE + 32), CHOICE_NONE)
#: Per list length, `random.shuffle`'s steps: each position i from the last down to 1, with the bit length
#: of its `randbelow(i + 1)` bound (see `_shuffle`).
_SHUFFLE_STEPS = tuple(tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1)) for size in range(65))


def _shuffle(rng: random.Random, cards: list[int]) -> None:
    """Exactly `rng.shuffle(cards)` — the same draws from `rng`, the same order — without its per-card calls
    (`random.shuffle` calls `_randbelow` per card: a quarter of a simulated game). The draw is CPython's
    Fisher-Yates with `_randbelow_with_getrandbits` (unchanged since 3.2); `tests/test_engine.py` checks
    every deal length against `random.shuffle`, so a change there is caught rather than silently dealt."""
    getrandbits = rng.getrandbits
    for i, k in _SHUFFLE_STEPS[len(cards)]:
        while (j := getrandbits(k)) > i:
            pass
        cards[i], cards[j] = cards[j], cards[i]


class State:
    """A game in progress. Mutable for speed; `clone()` gives an independent copy."""

    __slots__ = ("_direction", "_history", "_history_behind", "_pending", "_plain_scores", "_public", "_round_scores",
                 "_totals",
                 "choices", "game", "hands", "masks", "passes", "phase", "previous_set_aside", "rng", "round_index",
                 "round_log", "rows", "score", "set_aside", "used_cards")

    def __init__(self, game: Game, _blank: bool = False) -> None:
        self.game = game
        #: The current round's `PublicRecord`, made when a view first asks for it.
        self._public: PublicRecord | None = None
        #: Per player, the points of the rounds in `_round_scores`, kept as they are scored (None: add them up
        #: when asked for, as after `round_scores` is set).
        self._totals: list[int] | None = None
        if _blank:
            return
        n = game.n_players
        self.rng = random.Random(game.seed)
        self.round_index = 0
        self.phase = _THROW
        self.score = ScoreState(n, [0] * n, [-1] * n, [0] * n)
        #: Per player, per finished round: the RoundScore (or, from whole-round play, its fields as a plain
        #: tuple, made a RoundScore when `round_scores` is read).
        # (empty lists made by one C-level map: a comprehension costs a frame; here and in `_deal`, per game)
        self._round_scores: list[list[RoundScore | tuple[int, ...]]] = list(map(list, _NO_ROWS[n]))
        self._plain_scores = False
        self._totals = [0] * n
        #: Per finished round: every player's row (draft order) and choice — the game record.
        self.round_log: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = []
        self._history: list[tuple[int, ...]] = []
        #: How many of the last finished rounds (in `round_log`) whole-round play left out of `_history`.
        self._history_behind = 0
        self.set_aside: list[int] = []
        self.previous_set_aside: list[int] = []
        self.used_cards: list[int] = list(range(len(game.edition.cards)))
        self._deal()

    @property
    def history(self) -> list[tuple[int, ...]]:
        """Every joint action so far, step after step (a round's six picks, then its round-end choices).

        Whole-round play (`play_out_uniform`) records its rounds in `round_log` alone; their steps are
        written out here from the log when first asked for (the simulator never asks)."""
        if self._history_behind:
            history = self._history
            for rows, choices in self.round_log[len(self.round_log) - self._history_behind:]:
                history.extend(islice(zip(*rows, strict=True), _PICKS))
                history.append(tuple(map(_CHOICE_ACTION.__getitem__, choices)))
            self._history_behind = 0
        return self._history

    @history.setter
    def history(self, steps: list[tuple[int, ...]]) -> None:
        self._history, self._history_behind = steps, 0

    @property
    def round_scores(self) -> list[list[RoundScore]]:
        """Per player, every finished round's RoundScore.

        Whole-round play keeps its scores as plain tuples of the same fields (a NamedTuple costs more to
        make); they are made RoundScores here when first asked for (the simulator asks for `totals` alone)."""
        if self._plain_scores:
            for rounds in self._round_scores:
                rounds[:] = map(_new_view, repeat(RoundScore), rounds)
            self._plain_scores = False
        return self._round_scores  # type: ignore[return-value]

    @round_scores.setter
    def round_scores(self, scores: list[list[RoundScore]]) -> None:
        self._round_scores, self._plain_scores, self._totals = scores, False, None

    # --- the round's flow -----------------------------------------------------------------------------------

    def _deal(self) -> None:
        """Cards set aside last round come first; the used cards are shuffled and go below them."""
        n = self.game.n_players
        used = self.used_cards
        _shuffle(self.rng, used)
        deck = self.set_aside + used
        dealt = HAND_SIZE * n
        self.hands = list(map(deck.__getitem__, _DEAL_SLICES[n]))
        self.previous_set_aside = self.set_aside
        self.set_aside = deck[dealt:]
        self.rows: list[list[int]] = list(map(list, _NO_ROWS[n]))
        #: Per player, the bitmask of the row's cards (kept alongside the row for the scoring tables).
        self.masks = [0] * n
        #: Passes made this round; with the direction it tells who has held which hand (no per-pass tracking).
        self.passes = 0
        self._direction = 1 if self.game.pass_left(self.round_index) else -1
        self.choices = [NO_CHOICE] * n
        self._pending: list[int | None] = [None] * n
        self.phase = _THROW

    def hand_origin(self, player: int) -> int:
        """The player the hand now held by `player` was dealt to this round."""
        return (player - self.passes * self._direction) % self.game.n_players

    def has_held(self, observer: int, player: int) -> bool:
        """Whether `observer` held, earlier this round, the hand `player` holds now (so knows its cards)."""
        steps = ((observer - self.hand_origin(player)) * self._direction) % self.game.n_players
        return steps <= self.passes

    def apply_joint(self, actions: Sequence[int]) -> None:
        """Apply one action per player (all players act at every decision point)."""
        hands = self.hands
        if len(actions) != len(hands):
            raise IllegalAction(f"expected {len(hands)} actions, one per player, got {len(actions)}")
        if self.phase > Phase.DRAFT:
            self._apply_choices(actions)
            return
        for p, card in enumerate(actions):
            if card not in hands[p]:
                raise IllegalAction(_("player {n} cannot pick card {card}: it is not in their hand").format(
                    n=p + 1, card=card))
        rows, masks = self.rows, self.masks
        for p, card in enumerate(actions):
            hands[p].remove(card)
            rows[p].append(card)
            masks[p] |= 1 << card
        self.history.append(tuple(actions))
        hands = self.hands = [hands[-1], *hands[:-1]] if self._direction == 1 else [*hands[1:], hands[0]]
        self.passes += 1
        if len(hands[0]) > 1:
            self.phase = Phase.DRAFT
            return
        # the last card is passed on and becomes each player's Catch card, with no decision
        for p, hand in enumerate(hands):
            card = hand.pop()
            rows[p].append(card)
            masks[p] |= 1 << card
        self.phase = Phase.CHOICE

    def _apply_choices(self, actions: Sequence[int]) -> None:
        if self.phase == Phase.GAME_OVER:
            raise IllegalAction(_("the game is over"))
        for p, action in enumerate(actions):
            self._check_choice(p, action)
        self.choices = [action_choice(a) for a in actions]
        self.history.append(tuple(actions))
        self._end_round()

    def apply_action(self, player: int, action: int) -> bool:
        """Record one player's hidden pick; returns True when it completed the step and the picks were revealed."""
        if player not in self.current_players():
            raise IllegalAction(_("player {n} has nothing to decide now").format(n=player + 1))
        if self._pending[player] is not None:
            raise IllegalAction(_("player {n} has already chosen this step").format(n=player + 1))
        if action not in self.legal_actions(player):
            raise IllegalAction(_("player {n} cannot take action {action} now").format(
                n=player + 1, action=self.action_to_string(action)))
        self._pending[player] = action
        if any(a is None for a in self._pending):
            return False
        actions = self._pending
        self._pending = [None] * self.game.n_players
        self.apply_joint(actions)  # type: ignore[arg-type]
        return True

    def pending_players(self) -> list[int]:
        """Players who still have to choose in the current step (with `apply_action`)."""
        return [p for p in self.current_players() if self._pending[p] is None]

    def _check_choice(self, player: int, action: int) -> None:
        if action == CHOICE_NONE:
            return
        icon = action_choice(action)
        family = self.game.edition.choice
        if not 0 <= icon < len(family.icons):
            raise IllegalAction(_("player {n}: {action} is not a {family} choice").format(
                n=player + 1, action=action, family=family.label))
        name = family.icons[icon].label
        if self.score.choices_used[player] >> icon & 1:
            raise IllegalAction(_("player {n} has already scored {icon} this game").format(n=player + 1, icon=name))
        if not self.masks[player] & family.icons[icon].mask:
            raise IllegalAction(_("player {n} has no {icon} icon this round").format(n=player + 1, icon=name))

    def _end_round(self) -> None:
        scores = score_round(self.game.edition, self.score, self.rows, self.choices, self.masks)
        self.round_log.append((tuple(map(tuple, self.rows)), tuple(self.choices)))
        for rounds, s in zip(self._round_scores, scores, strict=True):
            rounds.append(s)
        if self._totals is not None:
            self._totals = [total + s.total for total, s in zip(self._totals, scores, strict=True)]
        self.round_index += 1
        if self.round_index == ROUNDS:
            self.phase = Phase.GAME_OVER
            return
        set_aside = row_mask(self.set_aside)
        self.used_cards = [c for c in range(len(self.game.edition.cards)) if not set_aside >> c & 1]
        self._deal()

    def play_out_uniform(self, uniforms: Sequence[Callable[[], float]]) -> None:
        """Play to the game's end with every player taking a uniformly random legal action: player p takes
        `actions[int(uniforms[p]() * len(actions))]` of `actions = legal_actions(p)` at each step — what the
        random bot decides step by step, with the same draws — whole rounds at a time, without building the
        action lists or checking picks that are legal by construction. The state ends as step-by-step play
        (`apply_joint`) leaves it: history, rows, sheets and the deal generator alike."""
        n = self.game.n_players
        if len(uniforms) != n:
            raise IllegalAction(f"expected {n} random sources, one per player, got {len(uniforms)}")
        if self._pending.count(None) != n:
            raise IllegalAction("some players have already chosen this step; play it out with apply_action")
        while self.phase != _GAME_OVER and (self.phase != _THROW or self.passes):
            # a round already under way: finish it step by step
            self.apply_joint([actions[int(uniform() * len(actions))]
                              for uniform, actions in zip(uniforms, self.all_legal_actions(), strict=True)])
        if self.phase != _GAME_OVER:
            self._play_rounds_uniform(uniforms)

    def _play_rounds_uniform(self, uniforms: Sequence[Callable[[], float]]) -> None:
        """The rest of `play_out_uniform`, from a fresh deal: every round on local lists, the state written
        back once at the end (nothing can look at it in between)."""
        game = self.game
        edition, n = game.edition, game.n_players
        all_cards = tuple(range(len(edition.cards)))
        tables = round_tables(edition)
        # per card: its bit and its tally, as tuples (a tuple read by an int index is one of the interpreter's
        # cheapest steps; a C-level map over a lookup costs several times more per card)
        bits, tally = _CARD_BITS, tables.card_tallies
        pair_bits, pair_tallies = tables.card_pair_bits, tables.card_pair_tallies
        score, round_log, round_scores = self.score, self.round_log, self._round_scores
        if self._totals is None:  # (the running totals, from the rounds so far)
            self._totals = self.totals()
        totals = self._totals
        rng = self.rng
        dealt = HAND_SIZE * n
        hands, set_aside, previous_set_aside = self.hands, self.set_aside, self.previous_set_aside
        round_index, used = self.round_index, self.used_cards
        rounds_left = ROUNDS - round_index
        # every draw the bots make in the rest of the game, bot after bot (see `_draw_getters`)
        draws = []
        for uniform in uniforms:
            draws += starmap(uniform, repeat((), HAND_SIZE * rounds_left))
        hand_per_pick, deal_slices = _HAND_PER_PICK[n], _DEAL_SLICES[n]
        sizes_per_pick = _SIZES_PER_PICK[n]
        directions = _DIRECTIONS.get((game.direction_variant, n))
        if directions is None:  # each round's pass direction, from the rule (`Game.pass_left`), once per table
            directions = _DIRECTIONS[game.direction_variant, n] = tuple(1 if game.pass_left(r) else -1
                                                                       for r in range(ROUNDS))
        for hand_draws, choice_draws, row_positions in _round_plans(n, directions, rounds_left):
            # each picker's card: hand.pop(int(draw * cards in the hand)), as the random bot picks it (floor is
            # int for these non-negative products, and a plain function call costs less than a type call)
            taken = list(map(list.pop, hand_per_pick(hands),
                             map(floor, map(operator.mul, hand_draws(draws), sizes_per_pick))))
            taken.extend(map(list.pop, hands))
            # per player: the row, its mask and tally (its seven cards added up: a row holds a hand's 7 cards,
            # see `HAND_SIZE`), and the round-end choice: legal_actions(p) is "none", then each unused icon
            # held, in icon order
            rows, masks, tallies, choices = [], [], [], []
            for t0, t1, t2, t3, t4, t5, t6 in row_positions:
                # the row's cards, read from `taken` at their positions (quick list reads; an itemgetter call
                # costs more)
                row = a, b, c, d, e, f, g = taken[t0], taken[t1], taken[t2], taken[t3], taken[t4], taken[t5], taken[t6]
                rows.append(row)
                # (the cards' bits and tallies added two at a time from per-pair tables: fewer additions)
                masks.append(pair_bits[a][b] + pair_bits[c][d] + pair_bits[e][f] + bits[g])
                tallies.append(pair_tallies[a][b] + pair_tallies[c][d] + pair_tallies[e][f] + tally[g])
            # the round's end, as `_end_round` and `_deal` play it; the round-end choices are drawn where the rows
            # are scored (`round_score_fields`, with the bots' draws; positional arguments: keywords cost more)
            scores = round_score_fields(edition, score, rows, choices, masks, None, tallies, tables,
                                        choice_draws(draws), totals)
            round_log.append((tuple(rows), tuple(choices)))
            for p, rounds in enumerate(round_scores):
                rounds.append(scores[p])
            round_index += 1
            if round_index == ROUNDS:
                break
            # the cards this round used, in card order: shuffled, they go below the cards set aside
            used = list(filterfalse(set(set_aside).__contains__, all_cards)) if set_aside else list(all_cards)
            _shuffle(rng, used)
            deck = set_aside + used if set_aside else used
            hands = list(map(deck.__getitem__, deal_slices))
            previous_set_aside, set_aside = set_aside, deck[dealt:]
        self.round_index, self.phase = round_index, _GAME_OVER
        # the rounds played are in the log alone: their steps are written out from it when asked for, and their
        # RoundScores made from the plain tuples when asked for
        self._history_behind += round_index - (ROUNDS - rounds_left)
        self._plain_scores = True
        self.hands, self.rows, self.masks, self.choices = hands, list(map(list, rows)), masks, choices
        self.passes, self._direction = HAND_SIZE - 1, directions[-1]
        self.set_aside, self.previous_set_aside, self.used_cards = set_aside, previous_set_aside, used

    # --- queries --------------------------------------------------------------------------------------------

    def current_players(self) -> range:
        return range(0) if self.phase == Phase.GAME_OVER else range(self.game.n_players)

    def is_terminal(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def legal_actions(self, player: int) -> list[int]:
        if self.phase <= Phase.DRAFT:
            return self.hands[player][:]
        if self.phase == Phase.CHOICE:
            family = self.game.edition.choice
            mask = self.masks[player]
            used = self.score.choices_used[player]
            return [CHOICE_NONE] + [choice_action(i) for i, icon in enumerate(family.icons)
                                    if not used >> i & 1 and mask & icon.mask]
        return []

    def action_to_string(self, action: int) -> str:
        edition = self.game.edition
        if 0 <= action < len(edition.cards):
            return edition.cards[action].letter
        if action == CHOICE_NONE:
            return _("no {family}").format(family=edition.choice.label)
        icon = action_choice(action)
        return edition.choice.icons[icon].label if 0 <= icon < len(edition.choice.icons) else f"?{action}"

    def totals(self) -> list[int]:
        if self._totals is not None:  # kept as the rounds were scored
            return self._totals[:]
        # a RoundScore's total is the sum of its fields: every field of a player's rounds summed in one C-level
        # sum (not through the `total` property)
        return list(map(sum, map(chain.from_iterable, self._round_scores)))

    def returns(self) -> list[int]:
        """Each player's final score (OpenSpiel's name), valid at any time as the score so far."""
        return self.totals()

    def ranks(self) -> list[int]:
        return rank_players(self.game.edition, self.round_scores)

    def view(self, player: int) -> PlayerView:
        """What `player` may see now, as a frozen snapshot: all a bot is ever given."""
        return self.views()[player]

    def views(self) -> list[PlayerView]:
        """Every player's view of this decision point (the shared parts are built once).

        On the simulator's hot path, so every copy is made by C-level `map`s, slices and `zip`.
        """
        public = self._public
        if public is None or public.round_index != self.round_index:
            public = self._public = self._public_record()
        phase, passes, hands, rows = self.phase, self.passes, self.hands, self.rows
        n = len(hands)
        hands_now = tuple(map(tuple, hands))
        sizes = (len(hands[0]),) * n  # every hand holds as many cards (the engine deals and passes them so)
        if phase >= Phase.CHOICE:
            face_up = tuple(map(tuple, rows))
            actions = [tuple(self.legal_actions(p)) for p in range(n)]
        else:
            face_up = tuple(map(tuple, map(_AFTER_THROW, rows))) if passes else _NO_ROWS[n]
            actions = hands_now
        throws = map(_FIRST, rows) if rows[0] else _NO_THROWS[n]
        held_hands = map((hands_now + hands_now).__getitem__, _HELD[n, min(passes, n - 1), self._direction])
        return list(map(_new_view, repeat(PlayerView, n), zip(
            range(n), repeat(public), repeat(phase), repeat(passes), repeat(face_up), repeat(sizes), hands_now,
            throws, held_hands, actions)))

    def all_legal_actions(self) -> list[tuple[int, ...]]:
        """Every player's legal actions and nothing else: all a bot that reads nothing else is given
        (like OpenSpiel's observation types, no more than it reads; on the simulator's hot path)."""
        if self.phase <= _DRAFT:
            return list(map(tuple, self.hands))
        return [tuple(self.legal_actions(p)) for p in range(self.game.n_players)]

    def _public_record(self) -> PublicRecord:
        game, score = self.game, self.score
        finished = self.history if self.phase == Phase.GAME_OVER else self.history[:len(self.history) - self.passes]
        # positional, in the fields' order: keyword arguments cost more than the copies (once a round)
        return _new_view(PublicRecord, (
            game.edition, game.n_players, game.direction_variant, self.round_index,
            game.pass_left(self.round_index), tuple(score.visited), tuple(score.choices_used),
            tuple(score.previous_collection), score.regions_claimed, score.route_done, score.route_next_tier,
            tuple(map(tuple, self.round_scores)), tuple(self.round_log), tuple(finished),
            row_mask(self.previous_set_aside)))

    def observation(self, player: int) -> Observation:
        return self.view(player).observation()

    def clone(self) -> State:
        other = State(self.game, _blank=True)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.round_index = self.round_index
        other.phase = self.phase
        other.score = self.score.copy()
        other._round_scores, other._plain_scores = [r[:] for r in self._round_scores], self._plain_scores
        other._totals = None if self._totals is None else self._totals[:]
        other.round_log = self.round_log[:]
        other._history, other._history_behind = self._history[:], self._history_behind
        other.set_aside = self.set_aside[:]
        other.previous_set_aside = self.previous_set_aside[:]
        other.used_cards = self.used_cards[:]
        other.hands = [h[:] for h in self.hands]
        other.passes = self.passes
        other._direction = self._direction
        other.rows = [r[:] for r in self.rows]
        other.masks = self.masks[:]
        other.choices = self.choices[:]
        other._pending = self._pending[:]
        return other

    def __str__(self) -> str:
        ed = self.game.edition
        lines = [f"{ed.name}, round {min(self.round_index + 1, ROUNDS)}, {self.phase.name.lower()}"]
        for p in range(self.game.n_players):
            row = "".join(ed.cards[c].letter for c in self.rows[p])
            hand = "".join(ed.cards[c].letter for c in self.hands[p])
            lines.append(f"  P{p + 1}: row {row or '-'}  hand {hand or '-'}  total {self.totals()[p]}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one player may know. Other players' Throw cards and unseen hands are never in it."""

    player: int
    n_players: int
    round_index: int
    phase: Phase
    pass_left: bool
    hand: tuple[int, ...]
    #: Own Throw card (None before it is chosen).
    throw: int | None
    #: Every player's face-up drafted cards in order (Throw cards excluded until the round is revealed).
    face_up: tuple[tuple[int, ...], ...]
    #: All Throw cards, once the round is revealed (choice phase); None for hidden ones.
    throws: tuple[int | None, ...]
    #: Other players' current hands where this player held that hand earlier in the round, else None.
    known_hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    visited: tuple[int, ...]
    choices_used: tuple[int, ...]
    previous_collection: tuple[int, ...]
    regions_claimed: int
    route_done: int
    route_next_tier: int
    round_scores: tuple[tuple[RoundScore, ...], ...]
    legal_actions: tuple[int, ...]


class PublicRecord(NamedTuple):
    """What every player knows for the whole round: the table's parameters, the score sheets, the finished
    rounds. Built once per round by the engine and shared by every player's view (it holds no hidden card)."""

    edition: Edition
    n_players: int
    direction_variant: bool
    round_index: int
    pass_left: bool
    visited: tuple[int, ...]
    choices_used: tuple[int, ...]
    previous_collection: tuple[int, ...]
    regions_claimed: int
    route_done: int
    route_next_tier: int
    round_scores: tuple[tuple[RoundScore, ...], ...]
    #: Per finished round: every row and choice (revealed at the round's end).
    round_log: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]
    #: The joint actions of the finished rounds.
    history: tuple[tuple[int, ...], ...]
    #: Cards set aside last round (the cards no row held), which this round's deal always includes.
    previous_set_aside: int


class PlayerView(NamedTuple):
    """Everything a bot is given: one player's observation, legal actions, and a sampler of the worlds
    consistent with them (`determinized`). A frozen snapshot made by the engine (`State.view`): it holds
    copies of what the player sees and public facts, never the state, the `Game` (its seed replays every
    deal), the game's random generator, or where an unseen card is — only which cards are unseen.

    The Observation is assembled on request, so a bot that needs only its legal actions pays for nothing
    else (the random bot in the simulator's hot loop).
    """

    player: int
    public: PublicRecord
    phase: Phase
    #: Passes made this round (with the pass direction it tells whose hands this player has held).
    passes: int
    #: Every row's face-up cards; once the round is revealed (choice phase), the whole rows, Throws first.
    face_up: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    hand: tuple[int, ...]
    throw: int | None
    #: The hands this player has held this round, as they are now: own first, then the one held a pass
    #: earlier (now with the next player in the pass direction), and so on.
    held_hands: tuple[tuple[int, ...], ...]
    actions: tuple[int, ...]

    @property
    def edition(self) -> Edition:
        return self.public.edition

    @property
    def n_players(self) -> int:
        return self.public.n_players

    def legal_actions(self) -> list[int]:
        return list(self.actions)

    @property
    def passer(self) -> int:
        """The player who passes this player its next hand this round."""
        return (self.player - (1 if self.public.pass_left else -1)) % self.public.n_players

    def known_hands(self) -> tuple[tuple[int, ...] | None, ...]:
        """Per player, their current hand where this player held it earlier this round, else None."""
        n, p = self.public.n_players, self.player
        step = 1 if self.public.pass_left else -1
        known: list[tuple[int, ...] | None] = [None] * n
        for m, hand in enumerate(self.held_hands):
            known[(p + m * step) % n] = hand
        return tuple(known)

    def observation(self) -> Observation:
        p, pub = self.player, self.public
        revealed = self.phase >= Phase.CHOICE
        if revealed:
            throws = tuple(row[0] if row else None for row in self.face_up)
        else:
            throws = tuple(self.throw if q == p else None for q in range(pub.n_players))
        return Observation(
            player=p, n_players=pub.n_players, round_index=pub.round_index, phase=self.phase,
            pass_left=pub.pass_left, hand=() if revealed else self.hand, throw=self.throw,
            face_up=self.face_up, throws=throws, known_hands=self.known_hands(), hand_sizes=self.hand_sizes,
            visited=pub.visited, choices_used=pub.choices_used, previous_collection=pub.previous_collection,
            regions_claimed=pub.regions_claimed, route_done=pub.route_done,
            route_next_tier=pub.route_next_tier, round_scores=pub.round_scores, legal_actions=self.actions)

    def _seen_mask(self) -> int:
        mask = 0
        for row in self.face_up:
            for card in row:
                mask |= 1 << card
        if self.phase >= Phase.CHOICE:
            return mask
        if self.throw is not None:
            mask |= 1 << self.throw
        for hand in self.held_hands:
            for card in hand:
                mask |= 1 << card
        return mask

    def hidden_cards(self) -> list[int]:
        """The cards this player cannot place (others' Throw cards, hands not held, the undealt cards), in
        card order: which cards they are is known (every card not seen), where each one is is not."""
        seen = self._seen_mask()
        return [c for c in range(len(self.public.edition.cards)) if not seen >> c & 1]

    def determinized(self, rng: random.Random) -> State:
        """A state agreeing with this view in which every card the player cannot see is dealt at random.

        It holds the same own cards, face-up rows, known hands and hand sizes, and follows what is public
        about the deal: cards set aside last round are always dealt this round. Its `Game` has no seed and
        its future shuffles come from `rng` (the bot's generator), never from the real game's.
        """
        pub, p, n = self.public, self.player, self.public.n_players
        world = State(Game(pub.edition, n, None, pub.direction_variant), _blank=True)
        world.rng = random.Random(rng.random())
        hidden = self.hidden_cards()
        rows = [list(row) for row in self.face_up]
        known = self.known_hands()
        hands = [list(hand) if hand is not None else [] for hand in known]
        if self.phase < Phase.CHOICE:
            if self.throw is not None:
                rows[p].insert(0, self.throw)
            # slots: (kind, player) for each hidden in-play position; the rest of `hidden` is set aside
            slots: list[tuple[str, int]] = []
            for q in range(n):
                if q == p:
                    continue
                if self.passes:
                    slots.append(("throw", q))
                if known[q] is None:
                    slots.extend(("hand", q) for _ in range(self.hand_sizes[q]))
            # `hidden` is in card order, so the re-deal depends on which cards are unseen, never on where
            previous = pub.previous_set_aside
            must_be_dealt = [c for c in hidden if previous >> c & 1]
            free = [c for c in hidden if not previous >> c & 1]
            rng.shuffle(slots)
            rng.shuffle(free)
            placed = must_be_dealt + free[: len(slots) - len(must_be_dealt)]
            rng.shuffle(placed)
            set_aside = free[len(slots) - len(must_be_dealt):]
            for (kind, q), card in zip(slots, placed, strict=True):
                if kind == "throw":
                    rows[q].insert(0, card)
                else:
                    hands[q].append(card)
        else:
            set_aside = hidden
            rng.shuffle(set_aside)
        world.round_index = pub.round_index
        world.phase = self.phase
        world.score = ScoreState(n, list(pub.visited), list(pub.previous_collection), list(pub.choices_used),
                                 pub.regions_claimed, pub.route_done, pub.route_next_tier)
        world.round_scores = [list(r) for r in pub.round_scores]
        world.round_log = list(pub.round_log)
        world.history = list(pub.history)
        if self.phase != Phase.GAME_OVER:
            world.history.extend(tuple(row[k] for row in rows) for k in range(self.passes))
        world.set_aside = set_aside
        world.previous_set_aside = [c for c in range(len(pub.edition.cards)) if pub.previous_set_aside >> c & 1]
        in_set_aside = set(set_aside)
        world.used_cards = [c for c in range(len(pub.edition.cards)) if c not in in_set_aside]
        world.hands = hands
        world.rows = rows
        world.masks = [row_mask(row) for row in rows]
        world.passes = self.passes
        world._direction = 1 if pub.pass_left else -1
        world.choices = list(pub.round_log[-1][1]) if self.phase == Phase.GAME_OVER else [NO_CHOICE] * n
        world._pending = [None] * n
        return world
