"""One tap from a one-phone game's final ranking to the next game: Rematch starts a new game with the same
players, edition and variant, on its round 1, and the finished game stays in History."""

from __future__ import annotations

import re

import pytest

from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e

# Europe with three players and the direction variant: none of it is the new-game form's default
PLAYERS = ["Ann", "Bob", "Cy"]
ROWS = [("ABCDEFG", "HIJKLMN", "OPQRSTU"), ("ABCDIJK", "EFGHLMN", "OPQRSTU"),
        ("ABCDEFG", "HIJKLMN", "OPQRSTU"), ("ABCDIJK", "EFGHLMN", "OPQRSTU")]


def finished_game(data_dir) -> int:
    """A finished Europe game on the phone's store (played as the engine checks it, no screen involved)."""
    store = EventStore(data_dir / "games.sqlite3")
    try:
        game = GameSession.new(store, "europe", PLAYERS, direction_variant=True)
        for rows in ROWS:
            for p, cards in enumerate(rows):
                game.enter_letters(p, cards, None)
        assert game.state.finished
        return game.game_id
    finally:
        store.close()


def test_rematch_starts_the_same_game_again_in_one_tap(server, phone, open_app):
    game_id = finished_game(server.data_dir)
    pad = open_app(phone, f"{server.url}game/{game_id}/end")
    pad.wait_text("winner", "wins|Shared", timeout=40000)
    pad.page.wait_for_timeout(1500)  # a page opened at its URL draws its first frame under Flet's splash
    pad.shot("rematch-end-screen")
    pad.tap_until(lambda: pad.tap_ident("rematch"),
                  lambda ms: pad.wait_text("round-status", r"^Round 1 of 4", timeout=ms))
    # the address bar follows the drawn screen: Flet sends the new route to the page after the view
    pad.page.wait_for_url(re.compile(rf"/game/{game_id + 1}/?$"), timeout=10000)
    for p, name in enumerate(PLAYERS, start=1):
        assert pad.text(f"tab-{p}") == name  # the same players, in order, nothing scored yet
    store = EventStore(server.data_dir / "games.sqlite3")
    try:
        again = GameSession(store, game_id + 1).state.setup
        assert (again.edition, list(again.players), again.direction_variant) == ("europe", PLAYERS, True)
        assert store.game(game_id).status == "finished"  # the game before stays in History
    finally:
        store.close()
