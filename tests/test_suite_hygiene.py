"""Rules the test suite keeps so that it passes in any order on any machine."""
from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_test_calls_asyncio_run_itself() -> None:
    # Playwright's sync API keeps an event loop running on the main thread of whichever xdist worker random
    # ordering gives a browser test, and asyncio.run refuses to start there: `run_session` runs it on a thread
    offenders = [f"{path.relative_to(TESTS)}:{number}"
                 for path in sorted(TESTS.rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if re.search(r"(?<!`)\basyncio\.run\(", line)]  # a quoted `asyncio.run(` explains
    assert offenders == [], "call run_session (tests/test_pad_screens.py) instead of asyncio.run: " + ", ".join(
        offenders)
