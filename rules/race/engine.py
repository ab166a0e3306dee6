"""The Race Around Europe game engine: a `RaceGame` holds the parameters, a `RaceState` plays it out.

Same shape as the Boomerang engine (`rules.engine`): `current_players()`, `legal_actions(p)`,
`apply_action(p, a)`, `is_terminal()`, `returns()`, `observation(p)` / `view(p)`, `clone()`. It is a
turn-based game, so exactly one player acts at a time.

Flow (see rules/CLARIFICATIONS.md, "Race Around Europe"):
- SETUP: in seat order from the first player, each player draws the top tile and places it in any open
  slot of their holder, until every holder is full; then the next three tiles start the discard piles.
- A turn is two decisions: DRAW (the draw pile, or the top of a discard pile), then PLACE (replace one
  slot, the replaced tile going onto a discard pile, or discard the drawn tile). If the drawn tile emptied
  a discard pile, that pile gets this turn's discard. When the draw pile has run out, at the end of the turn
  all discards but the three top tiles are shuffled into a new draw pile.
- The first player whose holder is a complete journey wins. After `turn_cap` turns without a winner the
  game is a draw (two bots that never finish would otherwise play for ever).

Actions are small ints: `DRAW_PILE`, `take_discard(j)`, `replace(slot, j)`, `discard(j)`, `place(slot)`;
an illegal one raises the Boomerang engine's `IllegalAction` with the rule in its message.
Tiles are physical tile ids (indices into `Board.tiles`); holders, piles and observations show their kinds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from rules.engine import IllegalAction
from rules.locale import N_, _
from rules.race.board import Board, load_board
from rules.race.journey import JOURNEY_LENGTH, broken_links

SLOTS = JOURNEY_LENGTH
PILES = 3
DRAW_PILE = 0
_TAKE = 1
_REPLACE = _TAKE + PILES
_DISCARD = _REPLACE + SLOTS * PILES
_PLACE = _DISCARD + PILES
N_ACTIONS = _PLACE + SLOTS
#: Turns (after setup, all players together) before an unfinished game is called a draw.
DEFAULT_TURN_CAP = 2000


def take_discard(pile: int) -> int:
    return _TAKE + pile


def replace(slot: int, pile: int) -> int:
    """Put the drawn tile in `slot`; the tile that was there goes onto discard pile `pile`."""
    return _REPLACE + slot * PILES + pile


def discard(pile: int) -> int:
    return _DISCARD + pile


def place(slot: int) -> int:
    """Setup: put the drawn tile into this open slot."""
    return _PLACE + slot


def decode(action: int) -> tuple[str, int, int]:
    """(kind, slot, pile): ("draw", -1, -1), ("take", -1, j), ("replace", s, j), ("discard", -1, j),
    ("place", s, -1)."""
    if action == DRAW_PILE:
        return "draw", -1, -1
    if _TAKE <= action < _REPLACE:
        return "take", -1, action - _TAKE
    if _REPLACE <= action < _DISCARD:
        slot, pile = divmod(action - _REPLACE, PILES)
        return "replace", slot, pile
    if _DISCARD <= action < _PLACE:
        return "discard", -1, action - _DISCARD
    if _PLACE <= action < N_ACTIONS:
        return "place", action - _PLACE, -1
    raise ValueError(f"{action} is not a Race Around Europe action")


class RacePhase(IntEnum):
    SETUP = 0
    DRAW = 1
    PLACE = 2
    GAME_OVER = 3


#: Each phase as a refusal names it ("… now (draw step)").
STEP_NAMES = {RacePhase.SETUP: N_("setup"), RacePhase.DRAW: N_("draw"), RacePhase.PLACE: N_("place"),
              RacePhase.GAME_OVER: N_("game over")}


@dataclass(frozen=True, slots=True)
class RaceGame:
    n_players: int
    seed: int | None = None
    board: Board | None = None
    #: Seat that places first in setup and takes the first turn ("select a player").
    first_player: int = 0
    turn_cap: int = DEFAULT_TURN_CAP

    def __post_init__(self) -> None:
        if not 2 <= self.n_players <= 4:
            raise ValueError(_("Race Around Europe is for 2 to 4 players, not {n}").format(n=self.n_players))
        if not 0 <= self.first_player < self.n_players:
            raise ValueError(_("first player must be a seat 0..{last}").format(last=self.n_players - 1))
        if self.board is None:
            object.__setattr__(self, "board", load_board())

    def new_initial_state(self) -> RaceState:
        return RaceState(self)


class RaceState:
    """A game in progress. Mutable for speed; `clone()` gives an independent copy."""

    __slots__ = ("board", "current", "discards", "draw_pile", "game", "history", "holders", "in_hand",
                 "phase", "rng", "took_from", "turn", "winner")

    def __init__(self, game: RaceGame, _blank: bool = False) -> None:
        self.game = game
        self.board: Board = game.board  # type: ignore[assignment]
        if _blank:
            return
        self.rng = random.Random(game.seed)
        pile = list(range(len(self.board.tiles)))
        self.rng.shuffle(pile)
        #: The top of every pile is its last element.
        self.draw_pile: list[int] = pile
        self.discards: list[list[int]] = [[] for _ in range(PILES)]
        self.holders: list[list[int | None]] = [[None] * SLOTS for _ in range(game.n_players)]
        self.current = game.first_player
        self.phase = RacePhase.SETUP
        #: The tile the current player has drawn and not yet placed (None between turns).
        self.in_hand: int | None = self.draw_pile.pop()
        #: Where the tile in hand came from: -1 the draw pile, 0..2 a discard pile.
        self.took_from = -1
        self.turn = 0
        self.winner: int | None = None
        #: Public record: (player, action) for every action after setup.
        self.history: list[tuple[int, int]] = []

    # --- queries --------------------------------------------------------------------------------------------

    def current_players(self) -> range:
        return range(0) if self.phase == RacePhase.GAME_OVER else range(self.current, self.current + 1)

    def current_player(self) -> int:
        return -1 if self.phase == RacePhase.GAME_OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == RacePhase.GAME_OVER

    def returns(self) -> list[float]:
        """1 for the winner, 0 for everyone else (and for all in a game called a draw at the turn cap)."""
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.n_players)]

    def kinds(self, player: int) -> tuple[int | None, ...]:
        tiles = self.board.tiles
        return tuple(None if t is None else tiles[t] for t in self.holders[player])

    def is_complete(self, player: int) -> bool:
        holder = self.holders[player]
        if any(t is None for t in holder):
            return False
        tiles = self.board.tiles
        return broken_links(self.board, [tiles[t] for t in holder]) == 0  # type: ignore[index]

    def legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        if self.phase == RacePhase.SETUP:
            return [place(s) for s, t in enumerate(self.holders[player]) if t is None]
        if self.phase == RacePhase.DRAW:
            actions = [DRAW_PILE] if self.draw_pile else []
            return actions + [take_discard(j) for j in range(PILES) if self.discards[j]]
        # PLACE: an emptied discard pile must take this turn's discard
        emptied = self.took_from >= 0 and not self.discards[self.took_from]
        piles = [self.took_from] if emptied else range(PILES)
        return [replace(s, j) for s in range(SLOTS) for j in piles] + [discard(j) for j in piles]

    def action_to_string(self, action: int) -> str:
        kind, slot, pile = decode(action)
        if kind == "draw":
            return _("draw from the draw pile")
        if kind == "take":
            top = self.discards[pile][-1] if self.discards[pile] else None
            what = self.board.kind_label(self.board.tiles[top]) if top is not None else _("nothing")
            return _("take {tile} from discard pile {pile}").format(tile=what, pile=pile + 1)
        if kind == "replace":
            return _("replace trip {trip}, discarding onto pile {pile}").format(trip=slot + 1, pile=pile + 1)
        if kind == "discard":
            return _("discard onto pile {pile}").format(pile=pile + 1)
        return _("place in trip {trip}").format(trip=slot + 1)

    # --- moves ----------------------------------------------------------------------------------------------

    def apply_action(self, player: int, action: int) -> None:
        if self.phase == RacePhase.GAME_OVER:
            raise IllegalAction(_("the game is over"))
        if player != self.current:
            raise IllegalAction(_("it is player {current}'s turn, not player {player}'s").format(
                current=self.current + 1, player=player + 1))
        if action not in self.legal_actions(player):
            raise IllegalAction(_("player {player} cannot {action} now ({step} step)").format(
                player=player + 1, action=self._describe(action), step=_(STEP_NAMES[self.phase])))
        kind, slot, pile = decode(action)
        if self.phase == RacePhase.SETUP:
            self.holders[player][slot] = self.in_hand
            self._next_setup_step()
            return
        self.history.append((player, action))
        if self.phase == RacePhase.DRAW:
            if kind == "draw":
                self.in_hand, self.took_from = self.draw_pile.pop(), -1
            else:
                self.in_hand, self.took_from = self.discards[pile].pop(), pile
            self.phase = RacePhase.PLACE
            return
        drawn = self.in_hand
        if kind == "replace":
            holder = self.holders[player]
            self.discards[pile].append(holder[slot])  # type: ignore[arg-type]
            holder[slot] = drawn
        else:
            self.discards[pile].append(drawn)  # type: ignore[arg-type]
        self.in_hand, self.took_from = None, -1
        self.turn += 1
        if kind == "replace" and self.is_complete(player):
            self._finish(player)
            return
        if not self.draw_pile:
            self._reshuffle()
        if self.turn >= self.game.turn_cap:
            self._finish(None)
            return
        self.current = (player + 1) % self.game.n_players
        self.phase = RacePhase.DRAW

    def _describe(self, action: int) -> str:
        try:
            return self.action_to_string(action)
        except ValueError:
            return _("take action {action}").format(action=action)

    def _next_setup_step(self) -> None:
        n = self.game.n_players
        self.in_hand = None
        self.current = (self.current + 1) % n
        if any(t is None for t in self.holders[self.current]):
            self.in_hand = self.draw_pile.pop()
            return
        # every holder is full: three tiles start the discard piles, then the first player's turn
        for j in range(PILES):
            self.discards[j].append(self.draw_pile.pop())
        self.current = self.game.first_player
        self.phase = RacePhase.DRAW
        for k in range(n):  # a journey complete straight from setup wins, first in turn order
            p = (self.game.first_player + k) % n
            if self.is_complete(p):
                self._finish(p)
                return

    def _reshuffle(self) -> None:
        """All discards except the top of each pile become the new draw pile, shuffled."""
        pile: list[int] = []
        for j in range(PILES):
            pile.extend(self.discards[j][:-1])
            del self.discards[j][:-1]
        self.rng.shuffle(pile)
        self.draw_pile = pile

    def _finish(self, winner: int | None) -> None:
        self.winner = winner
        self.phase = RacePhase.GAME_OVER
        self.in_hand = None

    # --- views ----------------------------------------------------------------------------------------------

    def all_tiles(self) -> list[int]:
        """Every tile's id wherever it is (holders, piles, hand): the conservation check of the fuzz test."""
        tiles = [t for h in self.holders for t in h if t is not None]
        tiles += self.draw_pile + [t for pile in self.discards for t in pile]
        if self.in_hand is not None:
            tiles.append(self.in_hand)
        return tiles

    def view(self, player: int) -> RaceView:
        """What `player` may see now, as a frozen snapshot: all a bot is ever given."""
        game, tiles_hidden = self.game, self.in_hand is not None and self.current != player and self.took_from < 0
        return RaceView(
            player=player, board=self.board, n_players=game.n_players, first_player=game.first_player,
            turn_cap=game.turn_cap, phase=self.phase, current_player=self.current_player(), turn=self.turn,
            winner=self.winner, holder=tuple(self.holders[player]),
            in_hand=None if tiles_hidden else self.in_hand, hidden_in_hand=tiles_hidden,
            took_from=self.took_from, discard_tops=tuple(d[-1] if d else None for d in self.discards),
            discard_sizes=tuple(map(len, self.discards)), draw_pile_size=len(self.draw_pile),
            placed=tuple(sum(t is not None for t in h) for h in self.holders),
            actions=tuple(self.legal_actions(player)))

    def observation(self, player: int) -> RaceObservation:
        return self.view(player).observation()

    def clone(self) -> RaceState:
        other = RaceState(self.game, _blank=True)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.draw_pile = self.draw_pile[:]
        other.discards = [d[:] for d in self.discards]
        other.holders = [h[:] for h in self.holders]
        other.current = self.current
        other.phase = self.phase
        other.in_hand = self.in_hand
        other.took_from = self.took_from
        other.turn = self.turn
        other.winner = self.winner
        other.history = self.history[:]
        return other

    def __str__(self) -> str:
        name = self.board.kind_name
        phase = self.phase.name.lower()
        lines = [f"Race Around Europe, turn {self.turn}, {phase}, player {self.current + 1}"]
        for p in range(self.game.n_players):
            trips = " | ".join("-" if k is None else name(k) for k in self.kinds(p))
            lines.append(f"  P{p + 1}: {trips}")
        tops = ", ".join(name(self.board.tiles[d[-1]]) if d else "-" for d in self.discards)
        lines.append(f"  discard tops: {tops}; draw pile {len(self.draw_pile)}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class RaceObservation:
    """Everything one player may know: never another player's holder, the draw pile, or buried discards."""

    player: int
    n_players: int
    phase: RacePhase
    current_player: int
    turn: int
    #: This player's own holder (tile kinds; None = open slot during setup).
    holder: tuple[int | None, ...]
    #: The tile this player has drawn and not placed yet (only when it is theirs to place).
    in_hand: int | None
    took_from: int
    discard_tops: tuple[int | None, ...]
    discard_sizes: tuple[int, ...]
    draw_pile_size: int
    #: How many tiles each player has placed (setup progress); the tiles themselves stay hidden.
    placed: tuple[int, ...]
    winner: int | None
    legal_actions: tuple[int, ...]


class RaceView(NamedTuple):
    """Everything a Race Around Europe bot is given: a frozen snapshot the engine makes (`RaceState.view`)
    of what one player sees and what is public, with `observation`, `legal_actions` and `determinized`.
    It holds no `RaceGame` (its seed replays every shuffle), no state and no random generator; the unseen
    tiles are known as a set (every tile not seen), never by where they are."""

    player: int
    board: Board
    n_players: int
    first_player: int
    turn_cap: int
    phase: RacePhase
    current_player: int
    turn: int
    winner: int | None
    #: This player's holder (tile ids; None = open slot during setup).
    holder: tuple[int | None, ...]
    #: The tile being placed when this player may know it: their own draw, or a discard top someone took.
    in_hand: int | None
    #: Whether someone else holds a tile drawn blind from the draw pile.
    hidden_in_hand: bool
    #: Where the tile in hand came from (taking a discard is done in the open): -1 the draw pile or none.
    took_from: int
    discard_tops: tuple[int | None, ...]
    discard_sizes: tuple[int, ...]
    draw_pile_size: int
    placed: tuple[int, ...]
    actions: tuple[int, ...]

    def legal_actions(self) -> list[int]:
        return list(self.actions)

    def observation(self) -> RaceObservation:
        tiles = self.board.tiles
        mine = self.current_player == self.player and self.in_hand is not None
        return RaceObservation(
            player=self.player, n_players=self.n_players, phase=self.phase, current_player=self.current_player,
            turn=self.turn, holder=tuple(None if t is None else tiles[t] for t in self.holder),
            in_hand=tiles[self.in_hand] if mine else None,  # type: ignore[index]
            took_from=self.took_from if mine else -1,
            discard_tops=tuple(None if t is None else tiles[t] for t in self.discard_tops),
            discard_sizes=self.discard_sizes, draw_pile_size=self.draw_pile_size, placed=self.placed,
            winner=self.winner, legal_actions=self.actions)

    def hidden_tiles(self) -> list[int]:
        """Tiles whose place this player cannot see (other holders, the draw pile, buried discards, a tile
        another player drew blind), in id order: every tile not seen."""
        seen = {t for t in self.holder if t is not None} | {t for t in self.discard_tops if t is not None}
        if self.in_hand is not None:
            seen.add(self.in_hand)
        return [t for t in range(len(self.board.tiles)) if t not in seen]

    def determinized(self, rng: random.Random) -> RaceState:
        """A state agreeing with this view in which every tile the player cannot see is dealt at random
        among the hidden places (same pile sizes; other holders filled slot by slot, as many as each has
        placed). Its `RaceGame` has no seed and its future shuffles come from `rng`, the bot's generator;
        its history starts empty (playing on does not need it)."""
        p = self.player
        world = RaceState(RaceGame(self.n_players, None, self.board, self.first_player, self.turn_cap),
                          _blank=True)
        world.rng = random.Random(rng.random())
        hidden = self.hidden_tiles()
        rng.shuffle(hidden)
        deal = iter(hidden)
        world.holders = [list(self.holder) if q == p else
                         [next(deal) if s < self.placed[q] else None for s in range(SLOTS)]
                         for q in range(self.n_players)]
        world.draw_pile = [next(deal) for _ in range(self.draw_pile_size)]
        world.discards = [[next(deal) for _ in range(size - 1)] + [top] if top is not None else []
                          for top, size in zip(self.discard_tops, self.discard_sizes, strict=True)]
        world.in_hand = next(deal) if self.hidden_in_hand else self.in_hand
        world.current = self.current_player
        world.phase = self.phase
        world.took_from = self.took_from
        world.turn = self.turn
        world.winner = self.winner
        world.history = []
        return world
