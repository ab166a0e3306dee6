"""Finished Race Around Europe games kept in History, one game of the event store (`scorer.pad.store`) each.

The solo game being played lives in its own file (`scorer.race.solo`), which the next new game replaces.
Once a game is over it is copied into the event store, where it stays with the score pad's games: "Export
all games" carries it, and the Stats screen counts it (`scorer.stats.race_figures`). A game is known by its
start time, so keeping it again (the app reopened on a finished game, a second tap) adds nothing.

The stored event holds the whole game (seed, bots, your moves: it replays) and the two facts the figures
read, the winner and the number of turns, so that counting needs no replay of the bots.
"""

from __future__ import annotations

import time

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from scorer.locale import ngettext
from scorer.pad.store import EventStore, GameRow, summary_text
from scorer.race.solo import HUMAN, SoloRace, seat_name

#: The store's edition column for a Race Around Europe game, and its statuses' own (History and Resume list
#: the score pad's statuses only).
RACE_GAME = "race-around-europe"
FINISHED = "race-finished"
EVENT = "race_finished"


class KeptRace(BaseModel):
    """A finished game as stored: what replays it, and what the figures count."""

    model_config = ConfigDict(extra="ignore")
    board: str = Field(min_length=1)
    seed: int
    bots: list[str] = Field(min_length=1, max_length=3)
    actions: list[int]
    turn_cap: int = Field(gt=0)
    bot_seed: int
    started_at: float
    #: The winner's seat (0: the person), None for a game called a draw at the turn cap.
    winner: int | None
    #: Turns played, every player's counted.
    turns: int = Field(ge=0)

    @model_validator(mode="after")
    def _seated_winner(self) -> KeptRace:
        if self.winner is not None and not 0 <= self.winner <= len(self.bots):
            raise ValueError(f"winner {self.winner} is no seat of a game with {len(self.bots)} bots")
        return self

    @property
    def won(self) -> bool:
        return self.winner == HUMAN


def keep(store: EventStore, solo: SoloRace) -> int | None:
    """Keep a finished game in History, once: its id in the store (the one kept before, if any); None
    while the game is not over."""
    if not solo.state.is_terminal():
        return None
    for row in store.games(FINISHED):
        if row.created_at == solo.started_at:
            return row.id
    state = solo.state
    payload = {**solo.to_dict(), "winner": state.winner, "turns": state.turn}
    players = [solo.player_name(p) for p in range(solo.game.n_players)]
    now = time.time()
    return store.restore_game(solo.started_at, now, RACE_GAME, players, FINISHED,
                              summary_text(winner_seat=state.winner, turns=state.turn), [(EVENT, payload, now)])


def kept_races(store: EventStore) -> list[KeptRace]:
    """The finished games in History, oldest first; a stored game that does not read as one (an edited
    file's import) is left out, as History leaves out a game it cannot replay."""
    return [race for _row, race in reversed(kept_rows(store))]


def kept_rows(store: EventStore) -> list[tuple[GameRow, KeptRace]]:
    """The finished games with their rows in the store (the date History shows), most recent first; as
    `kept_races`, a game that does not read as one is left out."""
    kept = []
    for row in store.games(FINISHED):
        events = store.events(row.id)
        if not events or events[0].kind != EVENT:
            continue
        try:
            kept.append((row, KeptRace.model_validate(events[0].payload)))
        except ValidationError:
            continue
    return kept


def result_line(race: KeptRace) -> str:
    """How the game ended, in the language of the moment: "You won in 42 turns"."""
    if race.winner is None:
        return ngettext("draw at the turn limit ({n} turn)", "draw at the turn limit ({n} turns)",
                        race.turns).format(n=race.turns)
    if race.won:
        return ngettext("You won in {n} turn", "You won in {n} turns", race.turns).format(n=race.turns)
    return ngettext("{player} won in {n} turn", "{player} won in {n} turns", race.turns).format(
        player=seat_name(race.bots, race.winner), n=race.turns)


def player_names(race: KeptRace) -> list[str]:
    """You and the bots, as the game named them, in the language of the moment."""
    return [seat_name(race.bots, p) for p in range(len(race.bots) + 1)]
