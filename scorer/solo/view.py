"""What the solo screens show, as plain Python (no Flet): saving and resuming a solo game in the score
pad's event store, the status and step lines, the Hint's lines. The round summaries and the final ranking
are the score pad's, drawn from `SoloGame.pad_state()`.

A solo game lives in the same SQLite event log as the score pad's games, under its own statuses
(`solo` while playing, `solo-finished` after), so the score pad's "Resume" and "History" never list it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import HAND_SIZE
from rules.i18n import format_number
from scorer.locale import N_, _
from scorer.pad.store import EventStore, summary_text
from scorer.solo.game import SoloGame

PLAYING = "solo"
FINISHED = "solo-finished"

PHASE_PROMPTS = {
    "throw": N_("Round {round} of {rounds}: choose your Throw card (it stays face down until the round ends)"),
    "draft": N_("Round {round} of {rounds}: choose a card to keep; the rest pass {direction}"),
    "choice": N_("Round {round} of {rounds}: the Catch has arrived: choose what to score"),
}
#: Which way the hand passes, as the draft prompt says it.
DIRECTIONS = {"left": N_("left"), "right": N_("right")}
#: The phase a saved game is in, as the home screen's line says it.
def summary_of(game: SoloGame) -> str:
    """The short line the home screen shows for a saved game."""
    if game.state.is_terminal():
        top = game.ranking()[0]
        return summary_text(winner=top["name"], points=top["total"])
    screen = game.screen()
    return summary_text(round=screen["round"], rounds=screen["rounds"], phase=screen["phase"])


def start(store: EventStore, game: SoloGame) -> int:
    """Save a new game's first event; returns its id in the store."""
    first = game.events[0]
    return store.create_game(game.edition.id, game.setup.players, (first["kind"], first["payload"]),
                             summary=summary_of(game), status=PLAYING)


def new_game(store: EventStore, edition: str, bots: list[str], direction_variant: bool,
             seed: int | None = None) -> tuple[int, SoloGame]:
    game = SoloGame.new(edition, bots, direction_variant, seed, player_name=_("You"))
    return start(store, game), game


def load(store: EventStore, game_id: int) -> SoloGame:
    """Replay a saved game; bot answers a crash left unsaved are computed again and saved now."""
    game = SoloGame.resume(store.events(game_id))
    saved = len(store.events(game_id))
    save(store, game_id, game, game.events[saved:])
    return game


def save(store: EventStore, game_id: int, game: SoloGame, events: list[dict]) -> None:
    """Persist new events (each commits before the next); the last one carries the game's status."""
    for i, event in enumerate(events):
        last = i == len(events) - 1
        store.append(game_id, event["kind"], event["payload"],
                     status=(FINISHED if game.state.is_terminal() else PLAYING) if last else None,
                     summary=summary_of(game) if last else None)


def unfinished(store: EventStore) -> list:
    """Saved solo games not yet over, most recent first."""
    return store.games(PLAYING)


def status_line(screen: dict) -> str:
    """'Round 2 of 4: choose a card to keep; the rest pass right' and the like."""
    if screen["phase"] == "game_over":
        return _("Game over")
    prompt, direction = PHASE_PROMPTS[screen["phase"]], DIRECTIONS[screen["pass"]]
    return _(prompt).format(round=screen["round"], rounds=screen["rounds"], direction=_(direction))


def step_line(screen: dict) -> str:
    """Where the person is in the round: the card they are choosing (the Throw is card 1; the last one is
    the Catch, passed in), then the round-end choice. Empty once the game is over."""
    if screen["phase"] == "game_over":
        return ""
    if screen["phase"] == "choice":
        return _("Card {n} of {cards}: the Catch").format(n=HAND_SIZE, cards=HAND_SIZE)
    return _("Card {n} of {cards}").format(n=HAND_SIZE - len(screen["hand"]) + 1, cards=HAND_SIZE)


@dataclass(frozen=True, slots=True)
class HintLine:
    label: str
    value: str
    best: bool


def one_decimal(value: float) -> str:
    """`value` to one decimal as the language writes it ("2.0", "2,0"): Babel drops a whole number's ".0",
    so it is put back with the language's own decimal sign (the one Babel writes in "0.5")."""
    rounded = round(value, 1)
    text = format_number(rounded)
    if rounded == int(rounded):
        text += format_number(0.5)[1] + "0"
    return text


def hint_lines(hint: dict) -> list[HintLine]:
    """The Hint as lines, best first: how far each option is behind the bot's pick (its own value is an
    expected lead over the field, negative whenever the person is behind, which reads as every option being
    bad), or the expert's chance of winning; for a pick, what the card adds to the row now."""
    out = []
    for option in hint["options"]:
        if hint.get("unit") == "percent to win":
            value = _("{percent}% to win").format(percent=one_decimal(option["value"]))
        elif option["behind_best"] <= 0:
            value = _("best")
        else:
            value = _("{points} pts behind").format(points=one_decimal(option["behind_best"]))
        if "adds_now" in option:
            added = option["adds_now"]
            value = _("{value} · adds {points} pts now").format(
                value=value, points=("+" if added >= 0 else "") + one_decimal(added))
        out.append(HintLine(option["label"], value, option["action"] == hint["best"]))
    return out
