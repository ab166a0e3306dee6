"""The new-game form in Chromium at phone size: its edition and entry-mode choices (a component over a small
model) answer a tap at once, and the game starts with what was chosen."""

from __future__ import annotations

import pytest
from conftest import SLOW

pytestmark = pytest.mark.e2e


def test_the_chosen_edition_and_mode_start_the_game(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.tap("New game")
    pad.button("Start game").wait_for(timeout=SLOW)
    pad.tap("USA")
    pad.tap("By category")
    pad.type_into("Player 1", "Ann")
    pad.type_into("Player 2", "Bob")
    pad.page.wait_for_timeout(500)  # the re-rendered row drawn, for the screenshot
    pad.shot("new-game-usa-by-category")
    pad.tap("Start game")
    pad.wait_text("round-status", r"^Round 1 of 4", timeout=SLOW)
    pad.ident("pictogram-mail-box").first.wait_for(state="attached", timeout=SLOW)  # the USA's sheet
    pad.tap("Enter Ann")
    pad.page.get_by_role("textbox", name="Throw card number").wait_for(timeout=SLOW)  # by category
