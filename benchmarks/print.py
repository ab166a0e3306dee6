"""`tourpad bench print`: how long a 50-sheet score pad takes to render and how big it is.

Goal (issue 4): under 2 s and small — the sheet is one PDF form reused on every page, drawn in vectors,
with the fonts embedded as subsets. Measured, never asserted in tests.
"""

from __future__ import annotations

import io
import re
import time

from printables.cards import render_cards
from printables.scorepad import PadOptions, render_scorepad
from rules.edition import Edition

_FONT_NAME = re.compile(rb"/BaseFont\s*/([A-Za-z0-9+_-]+)")


def embedded_fonts(pdf: bytes) -> list[str]:
    """Base font names in the file; a subset carries a six-letter tag, e.g. 'AAAAAA+DejaVuSans'."""
    return sorted({m.decode() for m in _FONT_NAME.findall(pdf)})


def _timed(render) -> tuple[float, float, bytes]:
    """(first run, best of three, the PDF). The first run is what a user waits for: it loads the fonts
    and lays out the map, which later runs in the same process reuse."""
    times, data = [], b""
    for _ in range(3):
        buffer = io.BytesIO()
        start = time.perf_counter()
        render(buffer)
        times.append(time.perf_counter() - start)
        data = buffer.getvalue()
    return times[0], min(times), data


def run(edition: Edition, sheets: int = 50, paper: str = "a4") -> dict:
    pad_first, pad_s, pad = _timed(lambda out: render_scorepad(edition, out, PadOptions(sheets=sheets, paper=paper)))
    _, compact_s, compact = _timed(lambda out: render_scorepad(
        edition, out, PadOptions(sheets=sheets, paper=paper, compact=True)))
    _, cards_s, cards = _timed(lambda out: render_cards(edition, out, paper=paper, backs=True))
    fonts = embedded_fonts(pad)
    return {
        "edition": edition.id,
        "pad_sheets": sheets,
        "pad_seconds_first_run": round(pad_first, 3),
        "pad_seconds_best_of_3": round(pad_s, 3),
        "pad_goal_seconds": 2.0,
        "pad_meets_goal": pad_first < 2.0,
        "pad_bytes": len(pad),
        "pad_kib_per_sheet": round(len(pad) / 1024 / sheets, 2),
        "compact_pad_seconds": round(compact_s, 3),
        "compact_pad_bytes": len(compact),
        "cards_with_backs_seconds": round(cards_s, 3),
        "cards_with_backs_bytes": len(cards),
        "pad_fonts": ", ".join(fonts),
        "fonts_all_subset": all("+" in f for f in fonts),
    }
