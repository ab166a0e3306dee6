"""`tourpad bench taps`: how it reads what the page drew, and its refusals (its timings are reported, never
asserted; tests/e2e/test_bench_taps_e2e.py runs it)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchmarks.tapping import letters_of, tap_to_answer, tap_to_drawn
from scorer.cli import app


def test_the_keypad_line_is_read_in_either_language() -> None:
    assert letters_of("Cards: AB@ (3 of 7)") == "AB@"
    assert letters_of("Cards: none (0 of 7)") == ""
    assert letters_of("Cartes\u00a0: ABCDEHJ (7 sur 7)") == "ABCDEHJ"
    assert letters_of("Cartes\u00a0: aucune (0 sur 7)") == ""


def test_each_letter_is_timed_from_its_tap_to_the_first_frame_showing_it() -> None:
    downs = [0.0, 100.0, 200.0]
    drawn = [[50.0, "Cards: A (1 of 7)"], [260.0, "Cards: ABC (3 of 7)"]]
    # B and C show together; a letter that never shows has no time (C here, had it been lost)
    assert tap_to_drawn("ABC", downs, drawn) == [50.0, 160.0, 60.0]
    assert tap_to_drawn("ABD", downs, drawn) == [50.0, 160.0]


def test_each_tap_is_timed_until_the_server_answers_what_the_page_sent_after_it() -> None:
    assert tap_to_answer([0.0, 100.0], sent=[5.0, 104.0], received=[3.0, 40.0, 150.0]) == [40.0, 50.0]
    assert tap_to_answer([0.0], sent=[], received=[10.0]) == []  # the published app: no socket


@pytest.mark.parametrize("args, message", [
    (["--case", "desktop"], "--case is one of served, table-1x4, table-8x4, web, not 'desktop'"),
    (["--speed", "0"], "--speed must be at least 1 ms"),
])
def test_bad_options_are_refused_before_any_browser_starts(args, message) -> None:
    result = CliRunner().invoke(app, ["bench", "taps", *args])
    assert result.exit_code == 2 and message in " ".join(result.output.split())
