"""`tourpad bench bots`: what it counts (its timings are reported, never asserted)."""

from __future__ import annotations

from benchmarks.bots import percentile, run
from rules.editions import load_edition


def test_percentile_is_nearest_rank() -> None:
    values = sorted(range(1, 21))
    assert percentile(values, 0.95) == 19
    assert percentile(values, 0.5) == 10
    assert percentile([7.0], 0.95) == 7.0
    assert percentile([], 0.5) == 0.0


def test_every_decision_of_the_measured_bot_is_timed() -> None:
    result = run(load_edition("australia"), games=1, bot="normal", opponents="easy")
    # 4 rounds × (6 picks + the round-end choice)
    assert result["decisions"] == 28
    assert result["median_seconds"] <= result["p95_seconds"] <= result["max_seconds"]
    assert {"throw_median_seconds", "draft_median_seconds", "choice_median_seconds"} <= set(result)
