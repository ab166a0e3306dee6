"""End to end: a whole solo Australia game against three easy bots, played by tapping cards at phone
size, to the final ranking; the game is left mid-round and resumed from home on the way."""

from __future__ import annotations

import re

import pytest
from conftest import POLL_MS, SLOW

pytestmark = pytest.mark.e2e


def step(pad) -> str:
    return pad.text("solo-step")


def test_whole_solo_game_against_easy_bots(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.button("Play solo").wait_for(timeout=SLOW)
    pad.page.wait_for_timeout(1000)  # the first frame can lag behind the semantics tree
    pad.tap("Play solo")
    pad.ident("bots-3").wait_for(timeout=SLOW)
    for bot in (1, 2, 3):
        pad.tap_ident(f"bot-{bot}-easy")
        pad.page.wait_for_timeout(300)
    pad.tap_ident("solo-start")
    pad.wait_text("solo-status", "^Round 1 of 4: choose your Throw card", timeout=SLOW)
    pad.shot("solo-hand")
    shots = {"draft": False, "choice": False, "summary": False}
    resumed = False
    while True:
        # something to tap: between two steps the bots play and the hand is not on the screen yet
        pad.wait_any("hand-0", "choice-0", "summary-title", "winner", timeout=SLOW)
        if pad.ident("winner").count():
            break
        if pad.ident("summary-title").count():
            if not shots["summary"]:
                pad.shot("solo-round-summary")
                shots["summary"] = True
            title = pad.text("summary-title")
            pad.tap(re.compile(r"^(Start round \d|Final ranking)$"))
            pad.page.wait_for_function(
                "t => { const e = document.querySelector('[flt-semantics-identifier=\"summary-title\"]');"
                " return !e || e.innerText !== t; }", arg=title, timeout=SLOW, polling=POLL_MS)
            continue
        status, before = pad.text("solo-status"), step(pad)
        if "Catch has arrived" in status:
            if not shots["choice"]:
                pad.shot("solo-choice")
                shots["choice"] = True
            pad.tap_ident("choice-0")
        else:
            if "keep" in status and not shots["draft"]:
                pad.shot("solo-draft")
                shots["draft"] = True
                if not resumed:  # leave mid-round and come back through home
                    pad.tap_ident("back")
                    pad.button("Resume solo game").wait_for(timeout=SLOW)
                    pad.tap("Resume solo game")
                    assert pad.wait_text("solo-step", f"^{before}$", timeout=SLOW) == before
                    resumed = True
                pad.tap_ident("solo-hint-button")
                pad.wait_text("solo-hint", "^Hint: the hard bot would choose ", timeout=SLOW)
                pad.shot("solo-hint")
            pad.tap_ident("hand-0")
        pad.page.wait_for_function(
            "s => { const e = document.querySelector('[flt-semantics-identifier=\"solo-step\"]');"
            " return !e || e.innerText !== s; }", arg=before, timeout=SLOW, polling=POLL_MS)
    assert re.match(r"^(You|Bot \d \(easy\)) wins!$|^Shared victory!$", pad.text("winner"))
    assert any(re.match(r"^#1 ", pad.text(f"rank-{seat}")) for seat in range(1, 5))
    assert all(shots.values()) and resumed
    pad.shot("solo-end")
