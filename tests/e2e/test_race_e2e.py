"""End to end: Race Around Europe in the app at phone size — tap a journey into the checker, play solo,
kill the server and find the solo game where it was."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.e2e

EXAMPLE = ["Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece", "Mediterranean ship",
           "Turkey", "Ukraine"]


def test_checker_explains_the_rulebook_example(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.tap("Journey checker")
    pad.wait_text("race-headline", "^0 of 10 tiles entered")
    for i, name in enumerate(EXAMPLE, start=1):
        pad.button(name).last.click()
        pad.wait_text(f"trip-{i}", f"^{re.escape(name)}$")
    pad.wait_text("race-headline", "Not complete: 8 of 9 links connect")
    assert pad.page.get_by_text("Norway and Greece do not border", exact=False).count() == 1
    assert pad.text("fix-0").startswith("replace trip 5 with ")
    pad.shot("race-checker")


def test_typing_narrows_the_palette_and_a_tap_places_the_match(server, phone, open_app):
    """Typing in "Find a tile" keeps the focus keystroke by keystroke; tapping the match fills the trip.
    (On a fresh checker: after a long entry the scrolled page's semantics rectangles lag the drawing.)"""
    pad = open_app(phone, server.url)
    pad.tap("Journey checker")
    pad.wait_text("race-headline", "^0 of 10 tiles entered")
    pad.page.get_by_text("Choose trip 1:").wait_for()
    assert pad.focus_field("Find a tile")
    pad.page.keyboard.type("bulg", delay=120)
    pad.page.wait_for_function("() => !document.querySelector('[role=button][aria-label=\"Albania\"]')"
                               " && ![...document.querySelectorAll('[role=button]')]"
                               ".some(e => e.innerText === 'Albania')", timeout=10000)
    pad.tap_until(lambda: pad.button("Bulgaria").last.click(),  # the palette redraws as it narrows
                  lambda ms: pad.wait_text("trip-1", "^Bulgaria$", timeout=ms), timeout=5000)
    pad.wait_text("race-headline", "^1 of 10 tiles entered")


def test_solo_game_survives_a_restart(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.button("Solo game vs a bot").wait_for()
    pad.page.wait_for_timeout(1500)  # the first frame can lag behind the semantics tree
    pad.shot("race-home")
    pad.tap("Solo game vs a bot")
    pad.wait_text("solo-status", "^Setup: place ")
    for slot in range(1, 11):
        pad.tap_ident(f"solo-trip-{slot}")
        pad.wait_text(f"solo-trip-{slot}", "^(?!empty|tap to place)")
    pad.wait_text("solo-status", "^Your turn: draw")
    pad.tap(re.compile("^Draw from the draw pile"))
    drawn = pad.wait_text("solo-status", "^You drew ")
    pad.shot("race-solo")
    server.kill()
    server.start()
    pad = open_app(phone, server.url)
    pad.tap("Solo game vs a bot")
    assert pad.wait_text("solo-status", "^You drew ") == drawn
