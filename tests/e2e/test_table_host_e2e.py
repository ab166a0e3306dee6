"""The host runs the table from the app: closes joining (a new phone's seat claim is refused with the
reason), removes a seat nobody took, ends the game and starts the next one with the same seats (the phones
stay seated and show round 1 of the new game, live)."""

from __future__ import annotations

import pytest
from test_pad_e2e import tap_cards
from test_table_e2e import open_keypad, pick_seat

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 390, "height": 844}}


def open_seat_form(pad, code: str, seat: int, name: str) -> None:
    pad.type_into("Join code", code.lower())
    pad.tap_until(lambda: pad.tap("Join"),  # a tap while the field redraws can miss: tap until the seat form shows
                  lambda ms: pad.page.get_by_role("textbox", name=f"Your name (seat {seat})").wait_for(timeout=ms))
    pad.type_into(f"Your name (seat {seat})", name)


def test_the_host_closes_joining_and_plays_again_with_the_same_seats(host, new_context, open_app):
    table = open_app(new_context(**PHONE), host)  # the host's own device (loopback) hosts
    table.tap("Host a table")
    code = table.wait_text("join-code", r"^\w{4}-\w{4}$", timeout=40000)
    ann, bob = open_app(new_context(**PHONE), host), open_app(new_context(**PHONE), host)
    open_seat_form(ann, code, 1, "Ann")
    ann.tap("Take seat 1")
    ann.wait_text("round-status", "^Round 1 of 4", timeout=40000)

    # seat 4 never played: the host removes it, and every phone sees a table of three. (First: once a tap
    # on a button further down has scrolled the host's screen, a tap on the seat picker opens no menu in
    # the headless browser, whose semantics tree then sits 220 px off the drawn screen.)
    pick_seat(table, "4: seat 4")
    table.tap("Remove seat")
    table.wait_text("message", "Seat 4 .* is removed", timeout=40000)
    ann.wait_text("waiting-for", "^Waiting for Ann, seat 2, seat 3$", timeout=40000)

    table.tap("Close joining")
    table.wait_text("message", "closed to new players", timeout=40000)
    open_seat_form(bob, code, 2, "Bob")
    bob.tap("Take seat 2")
    bob.wait_text("message", "the host has closed this table to new players", timeout=40000)
    bob.shot("table-joining-closed")
    table.tap("Open joining")
    table.wait_text("message", "can join again", timeout=40000)
    bob.tap("Take seat 2")
    bob.wait_text("round-status", "^Round 1 of 4", timeout=40000)

    ann.wait_text("waiting-for", "^Waiting for Ann, Bob, seat 3$", timeout=40000)  # a table of three
    assert ann.ident("entering-4").count() == 0
    table.wait_text("roster", r"^1: Ann[\s\S]*3: seat 3 · 0 pts · entering… · no phone yet$")

    open_keypad(ann, "Ann")
    tap_cards(ann, "ABCDEFG")
    ann.tap_ident("choice-none")  # no activity, on purpose
    ann.tap_ident("save")
    bob.wait_text("entering-1", "^Ann: entered", timeout=40000)
    table.tap("End game")
    ended = "The host ended this game: the sheets stay readable, no more entries."
    bob.page.get_by_text(ended).wait_for(timeout=40000)
    assert bob.ident("enter-2").count() == 0  # no keypad any more: Bob's own button is gone
    table.tap("Play again")
    for pad in (ann, bob):  # the phones stay seated and show round 1 of game 2, live
        pad.wait_text("sheet-status", r"^Table \S+ · game 2 · your seat", timeout=40000)
        pad.wait_text("waiting-for", "^Waiting for Ann, Bob, seat 3$", timeout=40000)
        assert pad.text("round-status").startswith("Round 1 of 4")
    assert ann.ident("history-r1-p1").count() == 0  # game 1's round is not on game 2's sheet
    ann.shot("table-play-again")
    # the phones are still seated: Bob enters round 1 of the new game
    open_keypad(bob, "Bob")
    tap_cards(bob, "HIJKLMN")
    bob.tap_ident("choice-none")  # no activity, on purpose
    bob.tap_ident("save")
    ann.wait_text("entering-2", "^Bob: entered", timeout=40000)
    table.tap("Export record")
    table.wait_text("record", f"/api/tables/{code}/record", timeout=40000)
    table.tap("Save to History")
    table.wait_text("message", "^Saved to History as game", timeout=40000)
