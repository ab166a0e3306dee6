"""A table starts in one step: `tourpad host --edition europe --seats 3` prints the link of that table's host
screen, which opens ready on the host's computer, naming the edition and its three seats; the host link
opens the same host screen on a second host device."""

from __future__ import annotations

import pytest

from benchmarks.table import printed, start_host, stop_host
from scorer.ports import free_port

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}}


@pytest.fixture
def europe_host(tmp_path):
    port = free_port("127.0.0.1")
    proc = start_host(tmp_path, port, extra=("--edition", "europe", "--seats", "3"))
    yield proc
    stop_host(proc)


def test_one_command_reaches_the_host_screen_of_that_table(europe_host, new_context, open_app):
    code = printed(europe_host, "Join code:")
    host = open_app(new_context(**PHONE), printed(europe_host, "Host screen:"))
    host.wait_text("join-code", f"^{code}$", timeout=40000)  # no code typed, no token pasted
    assert host.text("table-game") == "Boomerang: Europe · 3 players"
    host.wait_text("roster", r"^1: seat 1[\s\S]*3: seat 3 · 0 pts")
    assert host.ident("roster-4").count() == 0
    host.shot("table-start-host-screen")

    # a second host device opens the host link: the same table's host screen
    second = open_app(new_context(**PHONE), printed(europe_host, "Host link:"))
    second.wait_text("join-code", f"^{code}$", timeout=40000)
    assert second.text("table-game") == "Boomerang: Europe · 3 players"

    # a player's seat picker names the edition too
    player = open_app(new_context(**PHONE), printed(europe_host, "Join URL:").rstrip("/") + f"/join/{code}")
    player.wait_text("table-game", "^Boomerang: Europe · 3 players$", timeout=40000)
