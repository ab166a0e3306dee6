"""A tour of the screens not on the main path (history, dark theme, by-category entry, desktop width),
with a screenshot of each; games are prepared through the same GameSession the app uses."""

from __future__ import annotations

import re

import pytest

from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e

GAME = [("ABCDEFG", "Indigenous Culture", "HIJKLMN", "Bushwalking"),
        ("OPQRSTU", "Sightseeing", "VWXYZ@#", None),
        ("ABCDIJK", "Bushwalking", "EFGHLMN", "Swimming"),
        ("UVWXYZ@", "Swimming", "OPQRST#", "Sightseeing")]


@pytest.fixture
def prepared(tmp_path):
    """A finished game, a game in round 3, and a by-category game, in the server's data folder."""
    store = EventStore(tmp_path / "games.sqlite3")
    done = GameSession.new(store, "australia", ["Ann", "Bob"])
    for a, ca, b, cb in GAME:
        done.enter_letters(0, a, ca)
        done.enter_letters(1, b, cb)
    by_category = GameSession.new(store, "australia", ["Cy", "Di", "Ed"], mode=CATEGORIES_MODE)
    playing = GameSession.new(store, "australia", ["Ann", "Bob", "Cat"], direction_variant=True)
    for (a, ca, b, cb), c in zip(GAME[:2], ("OPQRSTU", "ABCDEFG"), strict=True):
        playing.enter_letters(0, a, ca)
        playing.enter_letters(1, b, cb)
        playing.enter_letters(2, c, None)
    store.close()
    return {"done": done.game_id, "category": by_category.game_id, "playing": playing.game_id}


def test_history_dark_theme_category_entry_and_desktop(prepared, server, browser, phone, open_app):
    try:
        pad = open_app(phone, server.url)
        pad.wait_text("resume-info", "round 3 of 4")  # the most recently touched unfinished game
        pad.shot("11-home-resume")
        pad.tap("History (1)")
        assert re.search(r"Bob \d+, Ann \d+", pad.wait_text("history-game-1", "Ann"))
        pad.shot("12-history")
        pad.tap_ident("history-game-1")
        pad.wait_text("winner", "wins")
        pad.toggle_theme()
        pad.shot("13-final-dark")
        pad.tap("Home")
        pad.button(re.compile("Cy · Di · Ed")).first.click()
        pad.wait_text("round-status", "^Round 1 of 4")
        pad.tap("Enter Cy")
        pad.type_into("Throw card number", "3")
        pad.type_into("Catch card number", "9")
        pad.page.keyboard.press("Enter")  # Enter in a field saves, like the Save button
        pad.wait_text("entry-message", "Catch card's number must be 1 to 7, not 9")
        pad.shot("14-category-entry-refused")

        desk = browser.new_context(viewport={"width": 1280, "height": 800})
        pad = open_app(desk, server.url)
        pad.tap("Resume: Ann · Bob · Cat")
        pad.wait_text("round-status", r"^Round 3 of 4 · pass left")
        pad.shot("15-desktop-sheet")
        pad.tap("Enter Cat")
        pad.wait_text("entry-subtotal", "points so far")
        pad.shot("16-desktop-entry")
        desk.close()
    finally:
        server.stop()  # the fixture stops it again harmlessly; stop early so a failure frees the port
