"""Race Around Europe bots: `act(view) -> action`, given only their `RaceView` (a frozen snapshot of what
the player sees, with samples of the unseen tiles), so no bot can cheat.

- `easy`: a beginner (`BeginnerRaceBot`): draws blind, places the tile where it makes the most links, and
  now and then lets a useful tile go. (`RandomRaceBot`, a uniformly random legal action, is no level: it
  practically never completes a journey.)
- `normal`: greedy on the number of connected links — takes a discard top only when it improves the
  journey, replaces the slot that improves it most, otherwise discards where it hurts least.
- `search`: determinized lookahead — the draw pile's top is unknown, so it samples re-deals of the
  hidden tiles and values each draw choice by the best placement it would allow on average, and values
  holders by how many single replacements (among tiles it has not seen placed) would improve them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from rules.locale import _
from rules.race.board import Board
from rules.race.engine import (
    DRAW_PILE,
    PILES,
    SLOTS,
    RaceGame,
    RacePhase,
    RaceState,
    RaceView,
    decode,
    discard,
    place,
    replace,
    take_discard,
)
from rules.race.journey import LINKS, broken_links

#: Smaller differences are tie-breaking noise, not a gain.
SIGNIFICANT = 0.01


def _broken_between(board: Board, kinds: Sequence[int], first: int, last: int) -> int:
    """How many of links first..last-1 are broken: `broken_links` restricted to them (same rules)."""
    c = board.n_countries
    neighbours, touch = board.neighbours, board.touch
    n = len(kinds)
    count = 0
    for i in range(first, last):
        a = kinds[i]
        b = kinds[i + 1]
        if a < c:
            if b < c:
                if not neighbours[a] >> b & 1:
                    count += 1
            elif not touch[b] >> a & 1 or i + 2 >= n:
                count += 1
        elif b >= c or not touch[a] >> b & 1 or i == 0 or kinds[i - 1] == b:
            count += 1
    return count


class RaceBot(Protocol):
    name: str

    def act(self, view: RaceView) -> int: ...


def connected(board: Board, kinds: Sequence[int]) -> int:
    return LINKS - broken_links(board, kinds).bit_count()


def partial_value(board: Board, kinds: Sequence[int | None]) -> float:
    """Setup: how promising a half-filled holder is — links already made, transports not at the ends."""
    c = board.n_countries
    touch, neighbours = board.touch, board.neighbours
    value = 0.0
    for i in (0, SLOTS - 1):
        if kinds[i] is not None and kinds[i] >= c:  # type: ignore[operator]
            value -= 2
    for i in range(SLOTS - 1):
        a, b = kinds[i], kinds[i + 1]
        if a is None or b is None:
            continue
        if a < c and b < c:
            value += 1 if neighbours[a] >> b & 1 else 0
        elif a >= c and b >= c:
            value -= 1
        elif a < c:
            value += 0.5 if touch[b] >> a & 1 else -0.5
        else:
            value += 0.5 if touch[a] >> b & 1 else -0.5
    return value


class RandomRaceBot:
    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: RaceView) -> int:
        return self.rng.choice(view.legal_actions())


class BeginnerRaceBot:
    """Plays like someone in their first games: places each tile where it makes the most links, but only
    looks at the draw pile, misses a useful tile now and then, and never plans past the tile in hand.

    Not random: every move it makes is one a person might make. `lapse` is how often it lets a useful
    drawn tile go (a beginner does not see every link on the map).
    """

    name = "easy"

    def __init__(self, seed: int = 0, lapse: float = 0.1) -> None:
        self.rng = random.Random(seed)
        self.lapse = lapse
        self._greedy = GreedyRaceBot(seed)
        self._greedy.rng = self.rng

    def act(self, view: RaceView) -> int:
        obs = view.observation()
        board = view.board
        if obs.phase == RacePhase.SETUP:
            return self._greedy._setup(board, obs)
        if obs.phase == RacePhase.DRAW:
            return DRAW_PILE if DRAW_PILE in obs.legal_actions else self.rng.choice(obs.legal_actions)
        holder: list[int] = list(obs.holder)  # type: ignore[arg-type]
        legal = [a for a in obs.legal_actions if decode(a)[0] == "discard"]
        pile = decode(self.rng.choice(legal))[2]
        _value, slot = self._greedy.best_placement(board, holder, obs.in_hand)  # type: ignore[arg-type]
        if slot < 0 or self.rng.random() < self.lapse:
            return discard(pile)
        return replace(slot, pile)


class GreedyRaceBot:
    """Improves the connected-links count; ties broken at random (sideways moves escape dead ends)."""

    name = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def value(self, board: Board, kinds: Sequence[int]) -> float:
        return connected(board, kinds)

    def best_placement(self, board: Board, holder: Sequence[int], kind: int) -> tuple[float, int]:
        """(value, slot) of the best replacement with `kind`; slot -1 = keep the holder as it is."""
        best, best_slot = self.value(board, holder), -1
        trial = list(holder)
        for slot in range(SLOTS):
            old = trial[slot]
            if old == kind:
                continue
            trial[slot] = kind
            v = self.value(board, trial) + self.rng.random() * 1e-3
            trial[slot] = old
            if v > best:
                best, best_slot = v, slot
        return best, best_slot

    def act(self, view: RaceView) -> int:
        obs = view.observation()
        board = view.board
        if obs.phase == RacePhase.SETUP:
            return self._setup(board, obs)
        holder: list[int] = list(obs.holder)  # type: ignore[arg-type]
        if obs.phase == RacePhase.DRAW:
            return self.choose_draw(view, board, holder, obs)
        legal = set(obs.legal_actions)
        _value, slot = self.best_placement(board, holder, obs.in_hand)  # type: ignore[arg-type]
        pile = self._pile_to_cover(board, holder, obs, legal)
        return replace(slot, pile) if slot >= 0 else discard(pile)

    def choose_draw(self, view: RaceView, board: Board, holder: list[int], obs) -> int:
        now = self.value(board, holder)
        best, action = now, DRAW_PILE if DRAW_PILE in obs.legal_actions else None
        for j, top in enumerate(obs.discard_tops):
            if top is None or take_discard(j) not in obs.legal_actions:
                continue
            v, slot = self.best_placement(board, holder, top)
            # a real gain only: taking a tile that is merely as good just swaps tiles with the piles
            if slot >= 0 and v > best + SIGNIFICANT:
                best, action = v, take_discard(j)
        return action if action is not None else self.rng.choice(obs.legal_actions)

    def _pile_to_cover(self, board: Board, holder: list[int], obs, legal: set[int]) -> int:
        """Discard onto the pile whose top is least useful to us (keep useful tops in reach)."""
        piles = [j for j in range(PILES) if discard(j) in legal]
        now = self.value(board, holder)

        def usefulness(j: int) -> float:
            top = obs.discard_tops[j]
            if top is None:
                return -1.0
            return self.best_placement(board, holder, top)[0] - now

        return min(piles, key=lambda j: (usefulness(j), self.rng.random()))

    def _setup(self, board: Board, obs) -> int:
        holder = list(obs.holder)
        best, choice = None, None
        for action in obs.legal_actions:
            slot = decode(action)[1]
            holder[slot] = obs.in_hand
            v = partial_value(board, holder) + self.rng.random() * 1e-3
            holder[slot] = None
            if best is None or v > best:
                best, choice = v, action
        return choice  # type: ignore[return-value]


class SearchRaceBot(GreedyRaceBot):
    """Greedy placement with a one-step lookahead value, and draw choices judged on determinized samples."""

    name = "search"

    def __init__(self, seed: int = 0, samples: int = 6) -> None:
        super().__init__(seed)
        self.samples = samples
        self._unseen: list[int] = []
        self._unseen_counts: Counter[int] = Counter()
        self._unseen_kinds: tuple[int, ...] = ()
        self._values: dict[tuple[int, ...], float] = {}

    def value(self, board: Board, kinds: Sequence[int]) -> float:
        """Connected links, plus the chance that a tile drawn blind would connect one more link."""
        key = tuple(kinds)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        value = self._value(board, kinds)
        self._values[key] = value
        return value

    def _value(self, board: Board, kinds: Sequence[int]) -> float:
        base = connected(board, kinds)
        if base == LINKS:
            return 100.0
        trial = list(kinds)
        helps = [False] * board.n_kinds
        for slot in range(SLOTS):
            old = trial[slot]
            # a tile at `slot` can change links slot-1, slot and slot+1 only (a transport's far side looks
            # one tile back), so only those are counted again: the same answer as `connected`, faster
            first, last = max(0, slot - 1), min(LINKS, slot + 2)
            broken_near = (broken_links(board, trial) >> first & ((1 << (last - first)) - 1)).bit_count()
            for kind in self._unseen_kinds:
                if kind == old or helps[kind]:
                    continue
                trial[slot] = kind
                if _broken_between(board, trial, first, last) < broken_near:
                    helps[kind] = True
            trial[slot] = old
        # the chance that a tile drawn blind would add a link (weighted by how many such tiles are unseen)
        chance = sum(k for kind, k in self._unseen_counts.items() if helps[kind]) / max(1, len(self._unseen))
        return base + 0.9 * chance

    def act(self, view: RaceView) -> int:
        if view.phase != RacePhase.SETUP:
            board = view.board
            tiles = board.tiles
            self._unseen = [tiles[t] for t in view.hidden_tiles()]
            self._unseen_counts = Counter(self._unseen)
            self._unseen_kinds = tuple(self._unseen_counts)
            self._values = {}  # what is unseen changed: values computed for the last decision are stale
        return super().act(view)

    def choose_draw(self, view: RaceView, board: Board, holder: list[int], obs) -> int:
        now = self.value(board, holder)
        options: dict[int, float] = {}
        for j, top in enumerate(obs.discard_tops):
            if top is not None and take_discard(j) in obs.legal_actions:
                options[take_discard(j)] = self.best_placement(board, holder, top)[0]
        if DRAW_PILE in obs.legal_actions:
            total = 0.0
            for _sample in range(self.samples):
                sample: RaceState = view.determinized(self.rng)
                top = board.tiles[sample.draw_pile[-1]]
                total += max(now, self.best_placement(board, holder, top)[0])
            options[DRAW_PILE] = total / self.samples
        if not options:
            return self.rng.choice(obs.legal_actions)
        return max(options, key=lambda a: (options[a], a == DRAW_PILE))


RACE_BOTS: dict[str, Callable[[int], RaceBot]] = {
    "easy": BeginnerRaceBot, "normal": GreedyRaceBot, "search": SearchRaceBot}


def make_race_bot(name: str, seed: int = 0) -> RaceBot:
    if name not in RACE_BOTS:
        raise KeyError(_("unknown Race Around Europe bot {name}; choose one of {bots}").format(
            name=repr(name), bots=", ".join(RACE_BOTS)))
    return RACE_BOTS[name](seed)


def play_race(game: RaceGame, bots: Sequence[RaceBot], state: RaceState | None = None) -> RaceState:
    """Play to the end (a win, or a draw at the turn cap): the current player's bot acts on its view."""
    state = state or game.new_initial_state()
    while not state.is_terminal():
        p = state.current
        state.apply_action(p, bots[p].act(state.view(p)))
    return state


__all__ = ["RACE_BOTS", "BeginnerRaceBot", "GreedyRaceBot", "RandomRaceBot", "SearchRaceBot", "make_race_bot", "place",
           "play_race"]
