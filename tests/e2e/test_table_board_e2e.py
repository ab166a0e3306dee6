"""The table's big-screen board in the browser: a 1920×1080 screen beside a phone seat, live.

The board opens with the join code alone, shows who is still entering, and follows every committed change:
the phone's submission that closes a round, then a round whose shared bonuses (a region, the passport) the
engine settles. Screenshots at 1920×1080 and at tablet size (1024×768) go to the helpers' folder.
"""

from __future__ import annotations

import httpx
import pytest
from test_pad_e2e import tap_cards
from test_table_e2e import open_keypad, take_seat

from benchmarks.table import host_auth

pytestmark = pytest.mark.e2e


def put(host: str, code: str, round_no: int, seat: int, cards: str, token: str) -> None:
    response = httpx.put(f"{host}/api/tables/{code}/rounds/{round_no}/seats/{seat}",
                         json={"game": 1, "cards": cards, "choice": None, "replaces_revision": 0},
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def standings_total(standings: str, name: str) -> str:
    """`name`'s total in the board's standings ("Standings 1. Ann 12 2. Bob 9 …")."""
    words = standings.split()
    return words[words.index(name) + 1]


def test_the_board_follows_the_table_live_on_a_big_screen(host, tmp_path, new_context, open_app):
    created = httpx.post(f"{host}/api/tables", json={"edition": "europe", "seats": 3},
                         headers=host_auth(tmp_path)).json()
    code, host_token = created["code"], created["host_token"]
    tokens = {seat: httpx.post(f"{host}/api/tables/{code}/seats/{seat}/claim", json={"name": name}).json()[
        "seat_token"] for seat, name in ((1, "Ann"), (3, "Cat"))}
    bob = open_app(new_context(viewport={"width": 390, "height": 844}), host)
    take_seat(bob, code, 2, "Bob")

    board = open_app(new_context(viewport={"width": 1920, "height": 1080}), f"{host}/table/{code}/board")
    board.wait_text("board-status", r"^Round 1 · still entering: Ann, Bob, Cat$", timeout=40000)
    put(host, code, 1, 1, "ABCFJNQ", tokens[1])  # Ann completes the British Isles (A, B)
    put(host, code, 1, 3, "EHLPSXY", tokens[3])
    board.wait_text("board-status", r"still entering: Bob$", timeout=40000)
    assert "entered" in board.text("board-sheet-1")  # her letters, not yet scored: the round is open
    assert "British Isles +2" in board.text("board-regions-open")

    open_keypad(bob, "Bob")
    tap_cards(bob, "DGKORVW")
    bob.tap_ident("choice-none")  # no activity, on purpose
    bob.tap_ident("save")  # the last seat: this closes round 1
    board.wait_text("board-status", r"^Round 2 · still entering: Ann, Bob, Cat$", timeout=40000)
    board.wait_text("board-sheet-2", "DGKORVW", timeout=40000)
    board.wait_text("board-regions-taken", r"British Isles \+2: Ann \(round 1\)", timeout=40000)
    assert "British Isles" not in board.text("board-regions-open")
    board.wait_text("board-route", "Passport: next 7, 3 then 1 points", timeout=40000)

    bob.wait_text("summary-title", "^Round 1 closed$", timeout=40000)
    bob.tap_until(lambda: bob.tap("Start round 2"),
                  lambda ms: bob.ident("summary-title").wait_for(state="detached", timeout=ms))

    # round 2: Ann's passport (a country of every region) scores the first tier; the host enters Bob's round
    put(host, code, 2, 1, "VZGHIKL", tokens[1])
    put(host, code, 2, 3, "NOPQRST", tokens[3])
    put(host, code, 2, 2, "ABCDEFM", host_token)
    board.wait_text("board-route", r"Passport: next 3 then 1 points[\s\S]*\+7: Ann \(round 2\)", timeout=40000)
    standings = board.wait_text("board-standings", r"^Standings\s+1\.\s+Ann", timeout=40000)
    assert standings.split()[:3] == ["Standings", "1.", "Ann"]
    bob.wait_text("summary-title", "^Round 2 closed$", timeout=40000)  # the phone seat follows too
    assert bob.text("summary-total-2") == f"= {standings_total(standings, 'Bob')}"
    board.shot("table-board-1920x1080")
    board.page.set_viewport_size({"width": 1024, "height": 768})
    board.wait_text("board-status", "^Round 3", timeout=40000)
    board.shot("table-board-1024x768")
