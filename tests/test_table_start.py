"""`tourpad host --edition E --seats N` starts that table, even when another would be resumed, and says so
on the console; without them the host's last table is resumed as before."""

from __future__ import annotations

import re
import time

import pytest

from benchmarks.table import log_tail, start_host, stop_host
from scorer.ports import free_port


def run_host(data_dir, *options: str) -> str:
    """What `tourpad host --api-only OPTIONS` printed once it was ready (then it is stopped)."""
    proc = start_host(data_dir, free_port("127.0.0.1"), extra=("--api-only", *options))
    try:
        deadline = time.monotonic() + 30
        while "Tables:" not in log_tail(proc, 100_000) and time.monotonic() < deadline:
            time.sleep(0.05)
        return log_tail(proc, 100_000)
    finally:
        stop_host(proc)
        proc.log_path.unlink()  # the next run's output only


def printed(output: str, label: str) -> str:
    found = re.findall(rf"^{label}\s+(.+)$", output, re.MULTILINE)
    assert found, output
    return found[-1]


@pytest.mark.slow
def test_an_explicit_edition_or_seat_count_starts_that_table_and_says_why(tmp_path):
    first = run_host(tmp_path, "--edition", "europe", "--seats", "3")
    europe = printed(first, "Join code:")
    assert printed(first, "Table:") == f"{europe} · Boomerang: Europe · 3 players" and "New table:" not in first

    usa = run_host(tmp_path, "--edition", "usa")
    code = printed(usa, "Join code:")
    assert code != europe
    assert printed(usa, "New table:") == f"{code} (table {europe} was not resumed: it plays Boomerang: Europe)"
    assert printed(usa, "Table:") == f"{code} · Boomerang: USA · 3 players"  # the seats it was not asked to change

    resumed = run_host(tmp_path)  # nothing asked: the last table goes on
    assert printed(resumed, "Join code:") == code and "New table:" not in resumed
    assert printed(run_host(tmp_path, "--seats", "3"), "Join code:") == code  # what it already is
