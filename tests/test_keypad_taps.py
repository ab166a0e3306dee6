"""The letter keypad keeps the controls a tap can aim at: a tap is sent naming the key the phone shows, and a
quick thumb's next tap is often sent before the last tap's redraw has reached the phone. Run with a real Flet
session and no client (tests/test_pad_screens.py's harness); the browser tests are tests/e2e/test_taps_e2e.py."""

from __future__ import annotations

import flet as ft
import pytest
from test_pad_screens import find_button, run_session, start_at, texts, top, walk

from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.ui.main import make_main


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def tappable_ids(page) -> list[int]:
    return [c._i for c in walk(top(page))
            if isinstance(c, ft.Button | ft.OutlinedButton) or (isinstance(c, ft.Container) and c.on_click)]


def test_taps_aimed_at_the_keys_as_first_drawn_all_count_in_order(store, isolated_data_dir):
    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, _conn = await start_at(make_main(lambda: store), f"/game/{game.game_id}/round/1/player/1")
        drawn = tappable_ids(page)
        aimed = {letter: find_button(page, letter)._i for letter in "ABCDEHJ"}  # the screen before any tap
        for letter in "ABCDEHJ":
            await session.dispatch_event(aimed[letter], "click", None)
        assert "Cards: ABCDEHJ (7 of 7)" in texts(page)
        assert tappable_ids(page) == drawn  # every key and choice button is the one first drawn
        await session.dispatch_event(aimed["J"], "click", None)  # a repeat is still refused by name
        assert "J is already your card #7 this round" in texts(page)

    run_session(run)


def test_a_tap_is_answered_in_one_message(store, isolated_data_dir):
    """The phone draws a frame as soon as a first message arrives; a tap answered in several would be drawn in
    several frames, the card line only in a later one (tourpad bench taps measures what that costs)."""
    from flet.messaging.protocol import MessageAction

    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, conn = await start_at(make_main(lambda: store), f"/game/{game.game_id}/round/1/player/1")
        sent = []
        send = conn.send_message
        conn.send_message = lambda message: (sent.append(message.action), send(message))
        for letter in "ABCDEHJ":
            sent.clear()
            await session.dispatch_event(find_button(page, letter)._i, "click", None)
            assert sent.count(MessageAction.PATCH_CONTROL) == 1, letter
        assert "Cards: ABCDEHJ (7 of 7)" in texts(page)

    run_session(run)


def test_a_scanned_rows_holes_are_filled_by_keypad_taps(store, isolated_data_dir):
    """A photo read with a hole: the next key tapped fills it, the row then goes to the keypad's slots and
    the scan's status says so; the keys are still the ones first drawn."""
    from scorer.pad.scan import RowProposal

    def scan_status(page) -> str:
        return next(c.content.value for c in walk(top(page)) if getattr(c, "identifier", None) == "scan-status")

    async def run():
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        session, page, _conn = await start_at(make_main(lambda: store), f"/game/{game.game_id}/round/1/player/1")
        drawn = tappable_ids(page)
        # the keypad's component renders over its entry (the draft, the scan): as a photo read with a hole
        keypad = next(c.args[-1] for c in walk(top(page)) if getattr(c, "args", None) and hasattr(c.args[-1], "scan"))
        keypad.scan.proposal = RowProposal(["A", "B", None, "D", "E", "H", "J"], {})
        await session.dispatch_event(find_button(page, "B")._i, "click", None)  # a repeat: refused, said so
        assert "B is already your card at position 2" in scan_status(page)
        await session.dispatch_event(find_button(page, "C")._i, "click", None)
        assert scan_status(page) == "ABCDEHJ: complete. Check the points, then save the round."
        assert "Cards: ABCDEHJ (7 of 7)" in texts(page)
        assert tappable_ids(page) == drawn

    run_session(run)
