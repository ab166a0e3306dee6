"""`tourpad bench taps` runs its cheapest case (the served app, one speed, one row) and reports its fields."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e


def test_the_served_case_reports_letters_registered_and_tap_to_drawn():
    # A process of its own: the bench drives Chromium with Playwright's sync API, which refuses to start where
    # the browser tests' session-wide Playwright already runs its event loop (the same xdist worker).
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "bench", "taps", "--case", "served", "--speed", "150",
                          "--repeats", "1", "--json"], capture_output=True, text=True, timeout=400)
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    [run] = result["runs"]
    assert run["case"] == "served" and run["interval_ms"] == 150 and run["sent"] == 7
    assert 0 <= run["registered"] <= run["sent"] and isinstance(run["in_order"], bool)
    for field in ("tap_to_drawn_p50_ms", "tap_to_drawn_p95_ms", "tap_to_answer_p50_ms"):
        assert field in run
    assert isinstance(result["meets_goal"], bool)
