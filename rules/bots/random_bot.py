"""`random` (the app's "easy"): a uniformly random legal action."""

from __future__ import annotations

import random

from rules.engine import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        #: Every decision is `actions[int(uniform() * len(actions))]` (see `rules.bots.Bot`).
        self.uniform = self.rng.random

    def act(self, view: PlayerView) -> int:
        return self.choose(view.actions)

    def choose(self, actions: tuple[int, ...]) -> int:
        """The decision from the legal actions alone (all this bot reads; see `rules.bots.Bot`)."""
        # random() is C-level; uniform over at most 8 options (float bias is far below 1e-15)
        return actions[int(self.uniform() * len(actions))]
