"""`random` (the app's "easy"): a uniformly random legal action."""

from __future__ import annotations

import random

from rules.bots import register
from rules.engine import PlayerView


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_actions())


register("random", RandomBot)
