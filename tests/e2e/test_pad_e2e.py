"""End to end: the score pad in Chromium at phone size, entered by letters, killed and restarted."""

from __future__ import annotations

import re

import pytest
from conftest import phone_options

from rules.editions import load_edition
from rules.record import GameRecord, PlayerRound, score_record

pytestmark = pytest.mark.e2e

AUS = load_edition("australia")
PLAYERS = ["Ann", "Bob"]
# (Ann's cards, Ann's activity, Bob's cards, Bob's activity) per round, Throw first.
GAME = [("ABCDEFG", "Indigenous Culture", "HIJKLMN", "Bushwalking"),
        ("OPQRSTU", "Sightseeing", "VWXYZ@#", None),
        ("ABCDIJK", "Bushwalking", "EFGHLMN", "Swimming"),
        ("UVWXYZ@", "Swimming", "OPQRST#", "Sightseeing")]


def check_final_ranking(pad):
    """The final screen shows every player's total and rank exactly as the engine scores GAME; returns
    the engine's report."""
    report = expected_report()
    pad.wait_text("winner", "wins|Shared")
    for p, name in enumerate(PLAYERS):
        assert pad.text(f"final-total-{p + 1}") == str(report.totals[p])
        assert pad.text(f"rank-{p + 1}") == f"#{report.ranks[p]} {name}"
    return report


def expected_report(rounds=GAME):
    record = GameRecord(edition="australia", players=PLAYERS, rounds=[
        {"Ann": PlayerRound(cards=a, activity=ca), "Bob": PlayerRound(cards=b, activity=cb)}
        for a, ca, b, cb in rounds])
    return score_record(record, AUS)


def start_game(pad) -> None:
    pad.tap("New game")
    pad.type_into("Player 1", "Ann")
    pad.type_into("Player 2", "Bob")
    pad.tap_until(lambda: pad.tap_ident("start"),  # the app bar's Start: always on screen
                  lambda ms: pad.wait_text("round-status", r"^Round 1 of 4", timeout=ms))


def tap_cards(pad, letters: str) -> None:
    """Tap each card and wait until the keypad shows it (taps during a redraw can miss)."""
    for i, letter in enumerate(letters):
        pad.tap(letter)
        pad.wait_text("entry-cards", rf"^Cards: {re.escape(letters[:i + 1])} ")


def choose_and_save(pad, choice: str | None) -> None:
    if choice:
        pad.tap_until(  # the subtotal says what is chosen
            lambda: pad.button(re.compile("^" + re.escape(choice) + " · ")).first.click(),
            lambda ms: pad.wait_text("entry-subtotal", f"points so far with {re.escape(choice)} ", timeout=ms))
    else:
        pad.tap_ident("choice-none")  # no activity, on purpose: one tap
    pad.tap_ident("save")  # the app bar's Save: always on screen


def enter_by_keypad(pad, letters: str, choice: str | None) -> None:
    tap_cards(pad, letters)
    pad.wait_text("entry-subtotal", r"points so far")
    choose_and_save(pad, choice)


def type_letters(pad, letters: str) -> None:
    """Type a row's letters until the server shows them: on a loaded machine a fill that lands while the page
    redraws (a refusal's toast coming in) can be undone by the browser's text field before it reaches the
    server, so it is filled again, as a missed tap is tapped again."""
    pad.tap_until(lambda: pad.type_into("Type the letters", letters),
                  lambda ms: pad.wait_text("entry-cards", rf"^Cards: {re.escape(letters)} \({len(letters)} of 7\)",
                                           timeout=ms))


def enter_by_typing(pad, letters: str, choice: str | None) -> None:
    type_letters(pad, letters)
    choose_and_save(pad, choice)


def play_round(pad, number: int, shots: bool = False, ann_types: bool = False) -> None:
    """Round `number` of GAME: Ann's row by the keypad's taps (typed with `ann_types`), Bob's typed."""
    a, ca, b, cb = GAME[number - 1]
    pad.wait_text("round-status", rf"^Round {number} of 4")
    pad.tap("Enter Ann")
    (enter_by_typing if ann_types else enter_by_keypad)(pad, a, ca)
    # saving Ann's round moves straight on to Bob's keypad
    pad.wait_text("entry-subtotal", r"^0 points so far")
    if number == 1:
        pad.tap(a[2])  # one of Ann's cards: refused on the spot, naming the problem
        pad.wait_text("entry-message", rf"{a[2]} is already in Ann's cards this round")
        if shots:
            pad.shot("04-entry-refused-duplicate")
        pad.tap("Clear")
        type_letters(pad, b[:6])
        pad.tap_ident("save")  # six cards: refused, and the six stay on the keypad to be fixed
        pad.wait_text("toast", r"6 cards \(" + b[:6] + r"\); a round's row has exactly 7")
        pad.wait_text("entry-cards", rf"^Cards: {b[:6]} \(6 of 7\)")
    enter_by_typing(pad, b, cb)
    pad.wait_text("summary-title", rf"Round {number} closed")
    if shots and number == 1:
        pad.shot("05-round-summary")
    pad.tap("Final ranking" if number == 4 else f"Start round {number + 1}")


@pytest.mark.minutes
def test_full_australia_game_by_letters(server, phone, open_app):
    pad = open_app(phone, server.url)
    pad.button("New game").wait_for()
    pad.shot("01-home-empty")
    pad.tap("New game")
    pad.type_into("Player 1", "Ann")
    pad.type_into("Player 2", "Bob")
    pad.shot("02-new-game")
    pad.tap_until(lambda: pad.tap_ident("start"),  # the app bar's Start: always on screen
                  lambda ms: pad.wait_text("round-status", r"^Round 1 of 4", timeout=ms))
    pad.shot("03-sheet-start")
    pad.tap("Enter Ann")
    tap_cards(pad, GAME[0][0][:5])
    pad.wait_text("entry-subtotal", r"points so far")
    pad.shot("03b-entry-partial")
    pad.tap("Clear")
    pad.tap_ident("back")
    pad.wait_text("round-status", r"^Round 1 of 4")
    play_round(pad, 1, shots=True)
    pad.wait_text("round-status", r"^Round 2 of 4")
    pad.shot("06-sheet-round2")
    for number in (2, 3, 4):
        # Ann taps round 1 card by card and types the others (the keypad's taps have their own tests)
        play_round(pad, number, ann_types=True)
    report = check_final_ranking(pad)
    pad.shot("07-final-ranking")
    pad.page.mouse.wheel(0, 900)
    pad.shot("08-final-chart")
    pad.tap("Score sheet")
    pad.wait_text("sheet-total-1", rf"^{report.totals[0]}$")
    pad.shot("09-sheet-final")


def test_kill_and_restart_resumes_with_nothing_lost(server, phone, browser, open_app):
    pad = open_app(phone, server.url)
    start_game(pad)
    play_round(pad, 1, ann_types=True)  # typed: what is tested here is the kill, not the keypad's taps
    pad.wait_text("round-status", r"^Round 2 of 4")
    pad.tap("Enter Ann")
    enter_by_typing(pad, GAME[1][0], GAME[1][1])
    pad.wait_text("entry-subtotal", r"^0 points so far")  # Bob's keypad: Ann's round 2 is committed

    server.kill()
    server.start()
    ctx = browser.new_context(**phone_options())
    try:
        pad = open_app(ctx, server.url)
        pad.wait_text("resume-info", r"round 2 of 4")
        pad.shot("10-home-resume")
        pad.tap("Resume: Ann · Bob")
        pad.wait_text("round-status", r"^Round 2 of 4")
        assert pad.text("history-r2-p1") == f"{GAME[1][0]} · {GAME[1][1]}"
        assert pad.text("history-r1-p2") == f"{GAME[0][2]} · {GAME[0][3]}"
        after_one = expected_report(GAME[:1])
        assert pad.text("sheet-total-1") == str(after_one.totals[0])
        # finish round 2 for Bob and check the round closes with the recorded scores
        pad.tap("Enter Bob")
        enter_by_typing(pad, GAME[1][2], GAME[1][3])
        pad.wait_text("summary-title", "Round 2 closed")
        after_two = expected_report(GAME[:2])
        gain = after_two.totals[1] - after_one.totals[1]
        assert pad.text("summary-gain-2") == f"+{gain}"
        # undo says what it undoes and asks; it reopens the round, exactly as before Bob's entry
        pad.tap_ident("undo")
        pad.wait_text("undo-question", rf"^Undo Bob's round 2 \({re.escape(GAME[1][2])}, No activity\)\?$")
        pad.tap_ident("undo-question-yes")
        pad.wait_text("round-status", r"^Round 2 of 4")
        assert pad.button("Enter Bob").count() == 1
    finally:
        ctx.close()
