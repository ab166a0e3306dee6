"""`greedy` (the app's "normal"): picks the card that most improves its round score estimate.

The Throw card adds its expected Throw & Catch points; at round end it scores the best activity /
treasure when that is worth enough for this stage of the game, else keeps the icon for later.
"""

from __future__ import annotations

import random

from rules.bots.heuristics import choice_threshold, row_value, throw_value
from rules.engine import CHOICE_NONE, Phase, PlayerView, action_choice
from rules.scoring import choice_option_points


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> int:
        return max(self.action_values(view).items(), key=lambda kv: (kv[1], self.rng.random()))[0]

    def action_values(self, view: PlayerView) -> dict[int, float]:
        """Estimated value of each legal action (also shown as the app's hint for this bot)."""
        obs = view.observation()
        edition = view.edition
        if obs.phase == Phase.CHOICE:
            return self._choice_values(view, obs)
        own_row = ([obs.throw] if obs.throw is not None else []) + list(obs.face_up[obs.player])
        base = row_value(edition, obs, own_row)
        values = {}
        unknown = None
        if obs.phase == Phase.THROW:
            seen = set(obs.hand)
            unknown = [c for c in range(len(edition.cards)) if c not in seen]
        for card in obs.legal_actions:
            gain = row_value(edition, obs, [*own_row, card]) - base
            if unknown is not None:
                gain += throw_value(edition, card, unknown)
            values[card] = gain
        return values

    def _choice_values(self, view: PlayerView, obs) -> dict[int, float]:
        edition = view.edition
        # in the choice phase the round is revealed: `face_up` rows include the Throw cards
        rows = [tuple(r) for r in obs.face_up]
        points = dict(choice_option_points(edition, rows, obs.player))
        threshold = choice_threshold(obs.round_index)
        values = {CHOICE_NONE: threshold - 0.5}
        for action in obs.legal_actions:
            if action != CHOICE_NONE:
                values[action] = points.get(action_choice(action), 0)
        return values
