"""End to end: Race Around Europe in the app at phone size — tap a journey into the checker, play solo,
kill the server and find the solo game where it was."""

from __future__ import annotations

import re

import pytest
from conftest import POLL_MS

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
                               ".some(e => e.innerText === 'Albania')", timeout=10000, polling=POLL_MS)
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


def saved_game(data_dir, seed: int = 3, until_the_bot_is_one_turn_from_winning: bool = False) -> dict:
    """A solo game as the app saves it, past setup and at your draw: the player meets it on opening "Solo
    game vs a bot". With `until_the_bot_is_one_turn_from_winning`, your next draw and discard let the normal
    bot complete its journey (you only ever drew and discarded)."""
    import json

    from rules.race.board import load_board
    from scorer.race.solo import SoloRace

    solo = SoloRace(load_board(), ("normal",), seed=seed, bot_seed=11, turn_cap=400)
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    if until_the_bot_is_one_turn_from_winning:
        while not solo.view().finished:
            before = list(solo.actions)
            solo.draw()
            solo.discard(0)
        assert solo.state.winner == 1
        solo = SoloRace(load_board(), ("normal",), seed=seed, bot_seed=11, turn_cap=400)
        for action in before:
            solo._apply_human(action)
    solo.path = data_dir / "race-solo.json"
    solo.save()
    return json.loads(solo.path.read_text())


def scroll_to(pad, locator, steps: int = 15):
    """Swipe the screen up until the control is drawn (Flutter builds no semantics for what is far below)."""
    pad.page.mouse.move(195, 500)
    for _ in range(steps):
        pad.settle()
        box = locator.first.bounding_box() if locator.count() else None
        if box and box["y"] >= 0 and box["y"] + box["height"] <= 844:  # on the phone's screen, not just built
            return locator.first
        pad.page.mouse.wheel(0, 500)
    raise AssertionError(f"never scrolled into view: {locator}")


def open_solo(pad, phase: str = "^Your turn: draw") -> None:
    pad.tap("Solo game vs a bot")
    pad.wait_text("solo-status", phase)


def test_a_new_game_during_a_game_asks_first(server, phone, open_app):
    saved_game(server.data_dir)
    pad = open_app(phone, server.url)
    open_solo(pad)
    holder = pad.text("solo-trip-1")
    scroll_to(pad, pad.button("easy")).click()
    pad.wait_text("confirm-question", "This game is not over: it will be lost")
    pad.shot("race-new-game-asks")
    pad.tap("Keep playing")
    scroll_to(pad, pad.button("easy"))
    assert pad.ident("confirm-new").count() == 0
    pad.button("easy").click()
    pad.tap_until(lambda: pad.button("Start a new game").click(),
                  lambda ms: pad.ident("confirm-new").wait_for(state="detached", timeout=ms))
    pad.page.mouse.wheel(0, -20000)
    pad.wait_text("solo-status", "^Setup: place ")
    assert holder != "empty"


def test_when_the_bot_wins_its_journey_is_shown_link_by_link(server, phone, open_app):
    saved_game(server.data_dir, until_the_bot_is_one_turn_from_winning=True)
    pad = open_app(phone, server.url)
    open_solo(pad)
    pad.tap(re.compile("^Draw from the draw pile"))
    pad.wait_text("solo-status", "^You drew ")
    pad.tap(re.compile("^Discard onto pile 1"))
    pad.wait_text("solo-status", "completed a journey and wins")
    journey = scroll_to(pad, pad.ident("bot-journey")).inner_text()
    pad.shot("race-bot-journey")
    assert journey.startswith("Bot 1 (normal)'s journey")
    assert "Trip 10" in journey


def test_a_plane_at_trip_1_is_explained_by_the_missing_country_first(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.tap("Journey checker")
    pad.wait_text("race-headline", "^0 of 10 tiles entered")
    for i, name in enumerate(["yellow aeroplane", "Croatia"], start=1):
        pad.button(name).last.click()
        pad.wait_text(f"trip-{i}", f"^{re.escape(name)}$")
    pad.page.get_by_text("the yellow aeroplane at trip 1 has no country before it").wait_for()
    assert pad.page.get_by_text("Croatia is blue, not yellow", exact=False).count() == 0


def test_discard_piles_do_what_their_help_says(server, phone, open_app):
    saved_game(server.data_dir)
    pad = open_app(phone, server.url)
    open_solo(pad)
    pad.tap_ident("pile-1")  # each pile starts with one tile: taking it empties pile 1
    pad.wait_text("solo-status", "^You drew ")
    pad.wait_text("pile-help", "^You took the last tile of pile 1: the rules say an emptied pile takes")
    pad.tap_ident("pile-2")
    pad.wait_text("race-message", "^Pile 2 cannot take this turn's discard: pile 1, which you emptied, must be "
                                  "refilled first")
    assert pad.button(re.compile("^Discard onto pile 1")).count() == 1
    pad.shot("race-pile-refill")
