"""`tourpad bench bots`: how long a bot takes per decision, in real 4-player games.

The measured bot plays seat 1 against `normal` bots; every one of its decisions (Throw, drafts, the
round-end choice) is timed on its own, in wall-clock and in the process's CPU time (on a shared machine the
two differ by the time other processes took). Goal for `hard` and `expert`: median ≤ 1 s, p95 ≤ 2 s on
the target machine.
"""

from __future__ import annotations

import math
import statistics
import time

from rules.bots import make_bot
from rules.edition import Edition
from rules.engine import Game, Phase


def percentile(sorted_values: list[float], share: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(share * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def run(edition: Edition, games: int = 5, bot: str = "hard", opponents: str = "normal",
        seed: int = 1) -> dict:
    by_phase: dict[str, list[float]] = {"throw": [], "draft": [], "choice": []}
    cpu_times: list[float] = []
    for g in range(games):
        game = Game(edition, 4, seed + g)
        state = game.new_initial_state()
        bots = [make_bot(bot, seed + g)] + [make_bot(opponents, seed + g + p) for p in range(1, 4)]
        while not state.is_terminal():
            phase = state.phase
            views = state.views()
            start, cpu_start = time.perf_counter(), time.process_time()
            first = bots[0].act(views[0])
            elapsed = time.perf_counter() - start
            cpu_times.append(time.process_time() - cpu_start)
            by_phase[{Phase.THROW: "throw", Phase.DRAFT: "draft"}.get(phase, "choice")].append(elapsed)
            state.apply_joint([first] + [b.act(v) for b, v in zip(bots[1:], views[1:], strict=True)])
    times = sorted(t for values in by_phase.values() for t in values)
    result = {
        "edition": edition.id, "bot": bot, "games": games, "decisions": len(times),
        "median_seconds": round(statistics.median(times), 4),
        "p95_seconds": round(percentile(times, 0.95), 4),
        "max_seconds": round(times[-1], 4),
        "cpu_median_seconds": round(statistics.median(cpu_times), 4),
        "cpu_p95_seconds": round(percentile(sorted(cpu_times), 0.95), 4),
        "goal": "median <= 1 s, p95 <= 2 s",
    }
    for phase, values in by_phase.items():
        if values:
            result[f"{phase}_median_seconds"] = round(statistics.median(values), 4)
    result["meets_goal"] = result["median_seconds"] <= 1.0 and result["p95_seconds"] <= 2.0
    return result


def run_each(edition: Edition, games: int, bots: list[str], opponents: str = "normal", seed: int = 1) -> dict:
    """`run` for each bot in turn, on the same deals."""
    return {"edition": edition.id, "games": games, "opponents": opponents,
            "runs": [run(edition, games, bot, opponents, seed) for bot in bots]}
