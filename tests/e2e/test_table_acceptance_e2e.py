"""Issue 13's acceptance: three phones and the big-screen board play a whole USA game at one table.

Ann, Bob and Cy take their seats by join code on 390×844 pages; a 1920×1080 page shows the table's board. Every
round is entered on the phones' letter keypads (round 1 a tap per card, rounds 2–4 typed; the activity's
button), in the game of
tests/data/table_usa_acceptance.json: in round 3 Ann and Bob reach coast to coast together and share Great
Plains; in round 4 Cy is second coast to coast and Ann and Cy share California & Nevada. As each round closes,
every phone shows the round summary naming who took which shared bonus (the rules' own sentences) with the
running totals, and each page is photographed (table-usa-r<round>-<who>.png). Cy's phone reloads mid-round
with three cards tapped and comes back to its keypad with them. At the end every phone's final ranking and the
board show the totals `tourpad score` gives for the record the table exports.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from itertools import accumulate
from pathlib import Path

import httpx
import pytest
from conftest import attach
from test_pad_e2e import choose_and_save, type_letters
from test_table_e2e import open_keypad, take_seat

from benchmarks.table import host_auth
from rules.editions import load_edition
from rules.record import GameRecord, parse_record, round_summaries, score_record

pytestmark = pytest.mark.e2e

GAME_FILE = Path(__file__).parent.parent / "data" / "table_usa_acceptance.json"
PHONE = {"viewport": {"width": 390, "height": 844}}
BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}}
# Cy's phone reloads in round 2 with 3 cards tapped (Ann and Bob have entered: their letters show as taken)
RELOADED, RELOAD_ROUND, RELOAD_AFTER = "Cy", 2, 3
# Round 1 is tapped card by card (and Cy's reloaded round 2); from round 2 each phone types its row in the
# keypad's field (the same screen and save, 56 taps fewer: the keypad's taps have their own tests,
# tests/e2e/test_taps_e2e.py)
TYPED_FROM = 2


def open_pages(new_context, urls: dict[str, tuple[dict, str]]) -> dict:
    """Each page of `urls` (who → context options, URL) loading at once, then each attached: the app's
    start-up in Chromium overlaps instead of adding up."""
    pages = {}
    for who, (options, url) in urls.items():
        context = new_context(**options)
        context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
        pages[who] = context.new_page()
        pages[who].goto(url, wait_until="commit")
    return {who: attach(page) for who, page in pages.items()}


def tap_letters(pad, letters: str, done: str = "") -> None:
    """Tap each card after the `done` ones; tap again if the keypad does not show it (a tap during a redraw
    can miss; a repeated tap of a card already in the row is refused, so nothing doubles)."""
    for i in range(len(done), len(letters)):
        shown = re.escape(letters[:i + 1])
        pad.tap_until(lambda i=i: pad.tap(letters[i]),
                      lambda ms, shown=shown: pad.wait_text("entry-cards", rf"^Cards: {shown} ", timeout=ms),
                      timeout=5000)


def leave_summary(pad, button: str) -> None:
    """Tap the summary's way on until the summary is gone (a tap during a redraw can miss; the summary's
    leaving is the sign that it landed)."""
    pad.tap_until(lambda: pad.tap(button),
                  lambda ms: pad.ident("summary-title").wait_for(state="detached", timeout=ms))


def expected_game() -> tuple[dict, list[list[str]], list[list[int]], list[int]]:
    """The game's record, the rules' bonus sentences per round, running totals per player, final totals."""
    data = json.loads(GAME_FILE.read_text())
    record = GameRecord(**data)
    usa = load_edition("usa")
    parsed, _warnings = parse_record(record, usa)
    sentences = round_summaries(usa, parsed, list(record.players))
    report = score_record(record, usa)
    running = [list(accumulate(score.total for score in rounds)) for rounds in report.rounds]
    return data, sentences, running, list(report.totals)


@pytest.mark.minutes(2)
def test_three_phones_and_the_board_play_a_whole_usa_game(host, tmp_path, new_context):
    data, sentences, running, totals = expected_game()
    names = data["players"]
    # the shared bonuses this game is chosen for: two seats coast to coast and a shared region in round 3
    assert "Ann and Bob both reached coast to coast this round: first place, +7 each" in sentences[2]
    assert "Ann and Bob both completed Great Plains this round: +3 each" in sentences[2]
    assert "Cy was second coast to coast: +3" in sentences[3]

    code = httpx.post(f"{host}/api/tables", json={"edition": "usa", "seats": 3},
                      headers=host_auth(tmp_path)).json()["code"]
    pages = open_pages(new_context, {**{name: (PHONE, host) for name in names},
                                     "board": (BIG_SCREEN, f"{host}/table/{code}/board")})
    board, phones = pages.pop("board"), pages
    for seat, name in enumerate(names, start=1):
        take_seat(phones[name], code, seat, name)
    board.wait_text("board-status", r"^Round 1 · still entering: Ann, Bob, Cy$", timeout=40000)

    for r, entries in enumerate(data["rounds"], start=1):
        for seat, name in enumerate(names, start=1):
            pad, cards, choice = phones[name], entries[name]["cards"], entries[name].get("activity")
            # the seats before this one have entered: this phone shows it (its sheet is redrawn by then)
            for earlier in names[:seat - 1]:
                pad.wait_text(f"entering-{names.index(earlier) + 1}", f"^{earlier}: entered", timeout=40000)
            open_keypad(pad, name)
            if r == RELOAD_ROUND and name == RELOADED:
                # Cy's phone reloads (dropped off the Wi-Fi, a swipe) with three cards tapped, not saved
                tap_letters(pad, cards[:RELOAD_AFTER])
                pad.reload()
                pad.wait_text("entry-cards", rf"^Cards: {re.escape(cards[:RELOAD_AFTER])} \({RELOAD_AFTER} of 7\)",
                              timeout=40000)
                pad.shot(f"table-usa-r{r}-cy-reloaded")
                tap_letters(pad, cards, done=cards[:RELOAD_AFTER])
            elif r >= TYPED_FROM:
                type_letters(pad, cards)
            else:
                tap_letters(pad, cards)
            pad.wait_text("entry-subtotal", "points so far")
            choose_and_save(pad, choice)

        # the last seat's save closed the round: every phone shows its summary, the board the next round
        closed = f"Round {r} closed"
        for name in names:
            pad = phones[name]
            pad.wait_text("summary-title", closed, timeout=40000)
            said = pad.text("summary-bonuses")
            for sentence in sentences[r - 1] or ["Nobody took a shared bonus this round."]:
                assert sentence in said, f"{name}'s round {r} summary lacks {sentence!r}: {said!r}"
            for p in range(len(names)):
                assert pad.text(f"summary-total-{p + 1}") == f"= {running[p][r - 1]}"
        board.wait_text("board-status", r"^Game over$" if r == 4 else rf"^Round {r + 1} · ", timeout=40000)
        for name in names:
            phones[name].shot(f"table-usa-r{r}-{name.lower()}")
        board.shot(f"table-usa-r{r}-board")
        for name in names:
            leave_summary(phones[name], "Final ranking" if r == 4 else f"Start round {r + 1}")
            if r == 4:
                phones[name].wait_text("winner", "wins|Shared")

    # the record the table exports is the game played, and `tourpad score` on it agrees with every screen
    record = httpx.get(f"{host}/api/tables/{code}/record").json()
    assert [[(rnd[n]["cards"], rnd[n].get("activity")) for n in names] for rnd in record["rounds"]] == \
        [[(rnd[n]["cards"], rnd[n].get("activity")) for n in names] for rnd in data["rounds"]]
    exported = tmp_path / "table-usa.json"
    exported.write_text(json.dumps(record))
    scored = subprocess.run([sys.executable, "-m", "scorer.cli", "score", str(exported), "--json"],
                            capture_output=True, text=True, check=True)
    report = {p["name"]: p for p in json.loads(scored.stdout)["players"]}
    assert [report[n]["total"] for n in names] == totals
    for name in names:
        pad = phones[name]
        for p, player in enumerate(names, start=1):
            assert pad.text(f"final-total-{p}") == str(report[player]["total"])
            assert pad.text(f"rank-{p}") == f"#{report[player]['rank']} {player}"
        pad.shot(f"table-usa-final-{name.lower()}")
    standings = board.text("board-standings").split()
    by_rank = sorted(names, key=lambda n: report[n]["rank"])
    assert standings == ["Standings", *(w for rank, n in enumerate(by_rank, start=1)
                                        for w in (f"{rank}.", n, str(report[n]["total"])))]
    for p, player in enumerate(names, start=1):
        assert board.text(f"board-sheet-{p}").split()[:3] == [player, str(report[player]["total"]), "pts"]
    board.shot("table-usa-final-board")
