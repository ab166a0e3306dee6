"""The host runs the table from the app: closes joining (a new phone's seat claim is refused with the
reason), removes a seat nobody took, ends the game and starts the next one with the same seats (the phones
stay seated and show round 1 of the new game, live)."""

from __future__ import annotations

import pytest

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
    ann.wait_text("status", "Round 1", timeout=40000)

    table.tap("Close joining")
    table.wait_text("message", "closed to new players", timeout=40000)
    open_seat_form(bob, code, 2, "Bob")
    bob.tap("Take seat 2")
    bob.wait_text("message", "the host has closed this table to new players", timeout=40000)
    bob.shot("table-joining-closed")
    table.tap("Open joining")
    table.wait_text("message", "can join again", timeout=40000)
    bob.tap("Take seat 2")
    bob.wait_text("status", "Round 1", timeout=40000)

    # seat 4 never played: the host removes it, and every phone sees a table of three
    table.tap_ident("seat-pick")
    table.tap("4: seat 4")
    table.tap("Remove seat")
    table.wait_text("message", "Seat 4 .* is removed", timeout=40000)
    ann.wait_text("status", "waiting for Ann, Bob, seat 3$", timeout=40000)

    ann.type_into("Your 7 cards", "ABCDEFG")
    ann.tap("Submit round 1")
    bob.wait_text("sheet-1", "R1: ABCDEFG", timeout=40000)
    table.tap("End game")
    bob.wait_text("status", "The host ended the game", timeout=40000)
    table.tap("Play again")
    ann.wait_text("status", r"^Game 2 · Round 1 · waiting for Ann, Bob, seat 3$", timeout=40000)
    bob.wait_text("status", r"^Game 2 · Round 1 · waiting for Ann, Bob, seat 3$", timeout=40000)
    assert "R1" not in ann.text("sheet-1")
    ann.shot("table-play-again")
    # the phones are still seated: Bob enters round 1 of the new game
    bob.type_into("Your 7 cards", "HIJKLMN")
    bob.tap("Submit round 1")
    ann.wait_text("sheet-2", "R1: HIJKLMN", timeout=40000)
    table.tap("Export record")
    table.wait_text("record", f"/api/tables/{code}/record", timeout=40000)
    table.tap("Save to History")
    table.wait_text("message", "^Saved to History as game", timeout=40000)
