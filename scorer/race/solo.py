"""Solo Race Around Europe: you (seat 1) against bots, persisted move by move.

A game is its seed, the bots and your actions: the engine and the bots are deterministic, so the saved
file (`race-solo.json` in the user data folder) replays to exactly the same position. Every accepted
action is written (atomically) before it is acknowledged, so closing the app loses nothing.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules.race.board import Board
from rules.race.bots import RACE_BOTS, make_race_bot
from rules.race.engine import (
    DRAW_PILE,
    IllegalAction,
    RaceGame,
    RacePhase,
    RaceState,
    decode,
    discard,
    place,
    replace,
    take_discard,
)
from rules.race.journey import LINKS, connected_links, link_reason, link_states
from scorer.locale import N_, _

HUMAN = 0
#: The bots' levels as a person reads them (the key stays in saved games).
BOT_LABELS = {"easy": N_("easy"), "normal": N_("normal"), "search": N_("search")}


def bot_label(level: str) -> str:
    """A bot's level in the language of the moment."""
    label = BOT_LABELS.get(level)
    return _(label) if label else level


def seat_name(bots: Sequence[str], p: int) -> str:
    """Seat `p`'s name in a game against `bots` (their levels), in the language of the moment."""
    if p == HUMAN:
        return _("You")
    return _("Bot {n} ({level})").format(n=p, level=bot_label(bots[p - 1]))


class SoloError(ValueError):
    """A move or a saved game tourpad cannot take; the message says why and nothing was changed."""


@dataclass(frozen=True, slots=True)
class SoloView:
    """What the solo screen shows: only what seat 1 may see, plus the public log of the bots' moves."""

    phase: str
    your_turn: bool
    holder: tuple[str | None, ...]
    links: tuple[str, ...]
    #: Per link: why it is broken, or None.
    reasons: tuple[str | None, ...]
    in_hand: str | None
    took_from: int
    discard_tops: tuple[str | None, ...]
    draw_pile_size: int
    log: tuple[str, ...]
    winner: str | None
    finished: bool
    #: Once the game is over, every bot's journey as it stands: (player, tiles, link states, reasons).
    opponents: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str | None, ...]], ...] = ()
    #: Your holder and the tile in hand as tile kinds (for the map), None where empty.
    journey: tuple[int | None, ...] = ()
    in_hand_kind: int | None = None


class SoloRace:
    def __init__(self, board: Board, bots: tuple[str, ...] = ("normal",), seed: int = 1,
                 path: Path | None = None, turn_cap: int = 2000, bot_seed: int | None = None,
                 started_at: float | None = None) -> None:
        """`seed` shuffles the tiles; `bot_seed` (drawn at random when not given) seeds the bots apart from
        it, so a bot's seed tells it nothing about the piles. `started_at` (now when not given) names the game
        in History once it is over (`scorer.race.history`)."""
        for name in bots:
            if name not in RACE_BOTS:
                raise SoloError(_("unknown bot {name!r}; choose from {bots}").format(name=name,
                                                                                    bots=", ".join(RACE_BOTS)))
        if not 1 <= len(bots) <= 3:
            raise SoloError(_("Race Around Europe is for 2 to 4 players: choose 1 to 3 bots"))
        self.board = board
        self.bots_names = tuple(bots)
        self.seed = seed
        self.bot_seed = random.SystemRandom().randrange(1 << 30) if bot_seed is None else bot_seed
        self.path = path
        self.started_at = time.time() if started_at is None else started_at
        self.game = RaceGame(1 + len(bots), seed, board, first_player=0, turn_cap=turn_cap)
        self.state: RaceState = self.game.new_initial_state()
        self.bots = [make_race_bot(name, self.bot_seed * 8 + i + 1) for i, name in enumerate(bots)]
        self.actions: list[int] = []
        #: What happened, each line said in the language of the moment it is read (a bot's move, the result).
        self._log: list[Callable[[], str]] = []
        self._run_bots()

    # --- persistence ------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {"game": "race-around-europe", "board": self.board.id, "seed": self.seed,
                "bots": list(self.bots_names), "actions": self.actions, "turn_cap": self.game.turn_cap,
                "bot_seed": self.bot_seed, "started_at": self.started_at}

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_dict()), encoding="utf-8")
        os.replace(tmp, self.path)

    @classmethod
    def load(cls, path: Path, board: Board | None = None) -> SoloRace:
        """Replay a saved game; without `board`, the board it was played on (tourpad's or a board pack)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if board is None:
                from scorer.packs import resolve_board

                board = resolve_board(data.get("board", "tourpad"))
            # games saved before the bots had a seed of their own seeded them from the tiles' seed; before
            # they had a start time, the file's last change stands for it (a finished game's file stays put)
            started_at = data.get("started_at")
            solo = cls(board, tuple(data["bots"]), int(data["seed"]), None, int(data.get("turn_cap", 2000)),
                       int(data.get("bot_seed", data["seed"])),
                       float(started_at) if started_at is not None else path.stat().st_mtime)
            for action in data["actions"]:
                solo._apply_human(int(action))
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise SoloError(_("cannot resume the solo game in {path}: {error}").format(path=path, error=err)) from None
        solo.path = path
        return solo

    # --- your moves -------------------------------------------------------------------------------------

    def place(self, slot: int) -> None:
        self.act(place(slot))

    def draw(self) -> None:
        self.act(DRAW_PILE)

    def take(self, pile: int) -> None:
        self.act(take_discard(pile))

    def replace(self, slot: int, pile: int) -> None:
        self.act(replace(slot, pile))

    def discard(self, pile: int) -> None:
        self.act(discard(pile))

    def act(self, action: int) -> None:
        """Apply your action (refused with the rule's message if illegal), save, then let the bots play."""
        if self.state.is_terminal():
            raise SoloError(_("the game is over; start a new one"))
        if self.state.current != HUMAN:
            raise SoloError(_("it is not your turn"))
        try:
            self._apply_human(action)
        except IllegalAction as err:
            raise SoloError(str(err)) from None
        self.save()

    def _apply_human(self, action: int) -> None:
        before = self._describe(HUMAN, action) if self.state.phase != RacePhase.SETUP else None
        self.state.apply_action(HUMAN, action)
        self.actions.append(action)
        if before:
            self._log.append(before)
        self._run_bots()

    def _run_bots(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current != HUMAN:
            p = state.current
            action = self.bots[p - 1].act(state.view(p))
            if state.phase != RacePhase.SETUP:
                self._log.append(self._describe(p, action))
            state.apply_action(p, action)
        if state.is_terminal():
            self._log.append(self._result())

    # --- what you see -----------------------------------------------------------------------------------

    @property
    def log(self) -> list[str]:
        """What happened so far, oldest first, in the language of the moment."""
        return [line() for line in self._log]

    def player_name(self, p: int) -> str:
        return seat_name(self.bots_names, p)

    def _describe(self, p: int, action: int) -> Callable[[], str]:
        """The public side of a move: what was taken from a discard pile and what was discarded (the tile
        is known now; it and the sentence are worded when read)."""
        s, name = self.state, self.board.kind_label
        kind, _slot, pile = decode(action)
        if kind == "draw":
            return lambda: _("{player}: drew from the draw pile").format(player=self.player_name(p))
        if kind == "take":
            tile = s.board.tiles[s.discards[pile][-1]]
            return lambda: _("{player}: took {tile} from discard pile {pile}").format(
                player=self.player_name(p), tile=name(tile), pile=pile + 1)
        if kind == "replace":
            tile = s.board.tiles[s.holders[p][_slot]]
            if p == HUMAN:
                placed = s.board.tiles[s.in_hand]
                return lambda: _("{player}: trip {trip}, placed {placed}, discarded {tile} onto pile {pile}").format(
                    player=self.player_name(p), trip=_slot + 1, placed=name(placed), tile=name(tile), pile=pile + 1)
            # a bot's holder faces away from you: you see where it swapped and what it threw away
            return lambda: _("{player}: trip {trip}, put a tile in, discarded {tile} onto pile {pile}").format(
                player=self.player_name(p), trip=_slot + 1, tile=name(tile), pile=pile + 1)
        tile = s.board.tiles[s.in_hand]
        return lambda: _("{player}: discarded {tile} onto pile {pile}").format(
            player=self.player_name(p), tile=name(tile), pile=pile + 1)

    def _result(self) -> Callable[[], str]:
        winner = self.state.winner
        if winner is None:
            return lambda: _("No one completed a journey in {n} turns: a draw.").format(n=self.game.turn_cap)
        if winner == HUMAN:
            return lambda: _("You completed your journey and win!")
        return lambda: _("{player} completed a journey and wins.").format(player=self.player_name(winner))

    def view(self) -> SoloView:
        obs = self.state.observation(HUMAN)
        name = self.board.kind_label  # what a person reads; `tile_look` and `kind_of` take it back
        return SoloView(
            phase=obs.phase.name.lower(), your_turn=obs.current_player == HUMAN,
            holder=tuple(None if k is None else name(k) for k in obs.holder),
            links=link_states(self.board, obs.holder),
            reasons=tuple(link_reason(self.board, obs.holder, i) for i in range(len(obs.holder) - 1)),
            in_hand=None if obs.in_hand is None else name(obs.in_hand),
            took_from=obs.took_from, discard_tops=tuple(None if k is None else name(k) for k in obs.discard_tops),
            draw_pile_size=obs.draw_pile_size, log=tuple(line() for line in self._log[-12:]),
            winner=None if obs.winner is None else self.player_name(obs.winner),
            finished=obs.phase == RacePhase.GAME_OVER, opponents=self._revealed(),
            journey=tuple(obs.holder), in_hand_kind=obs.in_hand)

    def _revealed(self) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str | None, ...]], ...]:
        """The bots' holders, turned round once the game is over (the winner's first)."""
        if not self.state.is_terminal():
            return ()
        seats = sorted(range(1, len(self.bots) + 1), key=lambda p: p != self.state.winner)
        shown = []
        for p in seats:
            kinds = self.state.kinds(p)
            shown.append((self.player_name(p), tuple(self.board.kind_label(k) for k in kinds if k is not None),
                          link_states(self.board, kinds),
                          tuple(link_reason(self.board, kinds, i) for i in range(len(kinds) - 1))))
        return tuple(shown)

    @property
    def running(self) -> bool:
        """A game a new one would throw away: begun and not over."""
        return bool(self.actions) and not self.state.is_terminal()

    def hint(self) -> str | None:
        """What the normal bot would do in your place (for a hint button)."""
        if self.state.is_terminal() or self.state.current != HUMAN:
            return None
        action = make_race_bot("normal", len(self.actions)).act(self.state.view(HUMAN))
        kind, slot, pile = decode(action)
        if kind == "replace":
            holder = [k for k in self.state.kinds(HUMAN) if k is not None]
            swapped = [*holder[:slot], self.board.tiles[self.state.in_hand], *holder[slot + 1:]]
            if connected_links(self.board, swapped) <= connected_links(self.board, holder):
                action = discard(pile)  # a swap that gains nothing is no advice
        return f"{self.state.action_to_string(action)} — {self._hint_reason(action)}"

    def _hint_reason(self, action: int) -> str:
        """Why the hint's move: the links it makes, counted on your holder as it would stand."""
        s, board = self.state, self.board
        holder = [k for k in s.kinds(HUMAN) if k is not None]
        now = connected_links(board, holder)
        kind, slot, pile = decode(action)
        if kind == "take":
            tile = board.tiles[s.discards[pile][-1]]
            best = max(connected_links(board, [*holder[:i], tile, *holder[i + 1:]]) for i in range(len(holder)))
            return _("it would connect {after} of {links} links instead of {now}").format(
                after=best, now=now, links=LINKS)
        if kind == "draw":
            return _("no discard pile's top would connect more than the {now} links you have").format(now=now)
        in_hand = board.tiles[s.in_hand]
        if kind == "replace":
            after = connected_links(board, [*holder[:slot], in_hand, *holder[slot + 1:]])
            return _("{tile} there connects {after} of {links} links instead of {now}").format(
                tile=board.kind_label(in_hand), after=after, now=now, links=LINKS)
        return _("{tile} adds no link anywhere in your holder").format(tile=board.kind_label(in_hand))
