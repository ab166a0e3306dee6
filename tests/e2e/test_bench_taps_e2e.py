"""`tourpad bench taps` runs its cheapest case (the served app, one speed, one row) and reports its fields."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from scorer.cli import app

pytestmark = pytest.mark.e2e


def test_the_served_case_reports_letters_registered_and_tap_to_drawn():
    out = CliRunner().invoke(app, ["bench", "taps", "--case", "served", "--speed", "150", "--repeats", "1",
                                   "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    [run] = result["runs"]
    assert run["case"] == "served" and run["interval_ms"] == 150 and run["sent"] == 7
    assert 0 <= run["registered"] <= run["sent"] and isinstance(run["in_order"], bool)
    for field in ("tap_to_drawn_p50_ms", "tap_to_drawn_p95_ms", "tap_to_answer_p50_ms"):
        assert field in run
    assert isinstance(result["meets_goal"], bool)
