"""Bots: every bot answers the same decision interface a person does — given its `PlayerView`, an action.

A bot is given only its view, a frozen snapshot the engine makes at each decision: the observation, its
legal actions, and — for search — determinized copies in which everything it cannot see is re-dealt from
the bot's own random generator. The view holds no `Game`, seed or state, so no bot can cheat.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Protocol

from rules.engine import Game, PlayerView, State
from rules.locale import _


class Bot(Protocol):
    """`act(view)` decides on a `PlayerView`. A bot that reads nothing but its legal actions may also offer
    `choose(actions: tuple[int, ...]) -> int`, with `act(view) == choose(view.actions)`: `play` then hands
    it just its legal actions, so the engine builds no view for it. A bot whose every decision is a
    uniformly random legal action may also offer `uniform`, the random() of its generator, with
    `choose(actions) == actions[int(uniform() * len(actions))]`: when every seat offers it, `play` lets the
    engine play the game out in one go (`State.play_out_uniform`), drawing from those same generators."""

    name: str

    def act(self, view: PlayerView) -> int: ...


#: Every bot by name, as the module and class that make it (`factory(seed, **options)`; the options are its own
#: keyword arguments, a search budget). A bot's module is imported when the bot is first made, and no bot module
#: imports this registry, so the two never import each other.
BOTS: dict[str, tuple[str, str]] = {
    "greedy": ("rules.bots.greedy", "GreedyBot"),
    "hard": ("rules.bots.hard", "HardBot"),
    "expert": ("rules.bots.expert", "ExpertBot"),
    "random": ("rules.bots.random_bot", "RandomBot"),
    # the app's difficulty names
    "easy": ("rules.bots.random_bot", "RandomBot"),
    "normal": ("rules.bots.greedy", "GreedyBot"),
}


def bot_names() -> tuple[str, ...]:
    return tuple(BOTS)


def make_bot(name: str, seed: int = 0, **options) -> Bot:
    """The bot named `name`, seeded; `options` go to its constructor (`simulations=` for expert)."""
    if name not in BOTS:
        raise KeyError(_("unknown bot {name}; choose one of {bots}").format(name=repr(name), bots=", ".join(BOTS)))
    module, factory = BOTS[name]
    return getattr(import_module(module), factory)(seed, **options)


def play(game: Game, bots: Sequence[Bot], state: State | None = None) -> State:
    """Play to the end: at every decision point each player's bot acts on its own view."""
    state = state or game.new_initial_state()
    uniforms = [getattr(bot, "uniform", None) for bot in bots]
    # whole-game play reads each seat's generator on its own: a bot seated twice goes step by step (a bound
    # method is equal to another of the same function and object; `all` finds a missing one, None)
    if all(uniforms) and len(set(uniforms)) == len(uniforms):
        state.play_out_uniform(uniforms)
        return state
    if all(hasattr(bot, "choose") for bot in bots):
        decide, given = [bot.choose for bot in bots], state.all_legal_actions
    else:
        decide, given = [bot.act for bot in bots], state.views
    while not state.is_terminal():
        # one per player by construction (and apply_joint refuses a wrong count): a strict zip costs more
        state.apply_joint([act(seen) for act, seen in zip(decide, given(), strict=False)])
    return state
