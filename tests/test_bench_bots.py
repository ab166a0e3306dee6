"""`tourpad bench bots`: what it counts (its timings are reported, never asserted)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from benchmarks.bots import percentile, run
from rules.editions import load_edition
from scorer.cli import app


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


def test_the_command_times_each_named_bot_and_refuses_an_unknown_one() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["bench", "bots", "--bot", "easy,normal", "--opponents", "easy", "--games", "1",
                              "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert [run["bot"] for run in result["runs"]] == ["easy", "normal"]
    assert all(run["decisions"] == 28 and run["cpu_median_seconds"] <= run["cpu_p95_seconds"]
               for run in result["runs"])
    out = runner.invoke(app, ["bench", "bots", "--bot", "hard,grandmaster", "--games", "1"])
    assert out.exit_code == 2 and "unknown bot 'grandmaster'" in out.output
