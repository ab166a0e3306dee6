"""`random` (the app's "easy"): a uniformly random legal action."""

from __future__ import annotations

import random

from rules.bots import register
from rules.engine import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._random = self.rng.random

    def act(self, view: PlayerView) -> int:
        actions = view.actions
        # random() is C-level; uniform over at most 8 options (float bias is far below 1e-15)
        return actions[int(self._random() * len(actions))]


register("random", RandomBot)
