"""Nothing a player taps is lost (issue #34, items 2-8), at phone size in Chromium: a round is never saved
with its choice silently missing, drafts survive Back and an edit's Clear, Undo asks and Redo restores, and a
Europe table's first entry says its treasure points are only so far. Screenshots (English and French) of the
missing-choice and undo questions go to $TOURPAD_SHOTS."""

from __future__ import annotations

import re

import httpx
import pytest
from conftest import phone_options
from test_french_e2e import _names
from test_pad_e2e import tap_cards
from test_table_e2e import take_seat

from benchmarks.table import host_auth
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e

# USA, Ann and Bob: Ann scores three of the four activities in rounds 1-3; Dining (B G N R U V) is her last,
# worth 15 with six Dining icons in round 4 (BGNRUVA).
USA_ROUNDS = [[("EKLMZ@A", "Sightseeing"), ("BCDFGHI", None)],
              [("FQSTW#A", "Sporting Events"), ("BCDEGHI", None)],
              [("ACHIJXB", "Hiking"), ("DEFGKLM", None)]]


def game_on_device(server, edition: str, players: list[str], rounds: list) -> int:
    """A game on the app server's device with these entries, as if typed earlier (same store file)."""
    store = EventStore(server.data_dir / "games.sqlite3")
    try:
        session = GameSession.new(store, edition, players)
        for row in rounds:
            for p, (cards, choice) in enumerate(row):
                if cards:
                    session.enter_letters(p, cards, choice)
        return session.game_id
    finally:
        store.close()


def saved_entries(server, game_id: int) -> list[dict]:
    store = EventStore(server.data_dir / "games.sqlite3")
    try:
        return GameSession(store, game_id).state.entries
    finally:
        store.close()


def open_keypad_at(open_app, phone, server, game_id: int, round_number: int, player: int):
    pad = open_app(phone, f"{server.url}game/{game_id}/round/{round_number}/player/{player}")
    pad.wait_text("entry-cards", r"^Cards: ")
    return pad


def type_row(pad, typed: str) -> None:
    pad.tap_until(lambda: pad.type_into("Type the letters", typed),
                  lambda ms: pad.wait_text("entry-cards", rf"^Cards: {re.escape(typed.upper())} \(7 of 7\)",
                                           timeout=ms))


def choose(pad, label: str) -> None:
    pad.tap_until(lambda: pad.button(re.compile("^" + re.escape(label) + " · ")).first.click(),
                  lambda ms: pad.wait_text("entry-subtotal", f"with {re.escape(label)} ", timeout=ms))


def test_enter_with_no_activity_moves_to_the_choice_instead_of_saving(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob", "Cy"], [])
    pad = open_keypad_at(open_app, phone, server, game, 1, 1)
    type_row(pad, "abcdehj")
    pad.page.keyboard.press("Enter")  # the phone keyboard's Go, the caret still in the letters
    pad.wait_text("choice-prompt", "^Choose an activity to score this round, or No activity$")
    assert saved_entries(server, game)[0] == {}  # nothing saved: the choice is still to make
    pad.wait_text("entry-cards", r"^Cards: ABCDEHJ \(7 of 7\)")
    choose(pad, "Hiking")
    pad.tap_ident("save")
    pad.wait_text("entry-cards", r"^Cards: none")  # on to Bob's keypad
    assert saved_entries(server, game)[0][0] == {"cards": "ABCDEHJ", "choice": "Hiking"}


def test_saving_with_dining_left_on_none_asks_with_its_15_points(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"], USA_ROUNDS)
    pad = open_keypad_at(open_app, phone, server, game, 4, 1)
    type_row(pad, "BGNRUVA")
    pad.tap_ident("save")
    assert pad.wait_text("choice-question", "15") == "Dining would score 15 — save with no activity?"
    pad.shot("entry-flow-choice-question-en")
    assert saved_entries(server, game)[3] == {}  # asked, not saved
    pad.tap_ident("choice-question-no")  # Choose: back to the choice row, which says what is missing
    pad.wait_text("choice-prompt", "Choose an activity")
    choose(pad, "Dining")
    pad.tap_ident("save")
    pad.wait_text("entry-cards", r"^Cards: none")  # on to Bob's keypad, Ann's round saved with Dining
    assert saved_entries(server, game)[3][0] == {"cards": "BGNRUVA", "choice": "Dining"}


def test_no_activity_on_purpose_is_one_tap_and_saves_without_a_question(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"], USA_ROUNDS)
    pad = open_keypad_at(open_app, phone, server, game, 4, 1)
    type_row(pad, "BGNRUVA")
    pad.tap_ident("choice-none")
    pad.tap_ident("save")
    pad.wait_text("entry-cards", r"^Cards: none")
    assert saved_entries(server, game)[3][0] == {"cards": "BGNRUVA", "choice": None}


def test_back_keeps_a_complete_unsaved_entry(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"], [])
    pad = open_keypad_at(open_app, phone, server, game, 1, 1)
    type_row(pad, "ABCDEHJ")
    choose(pad, "Hiking")
    pad.tap_ident("back")
    pad.wait_text("round-status", r"^Round 1 of 4")
    pad.tap("Enter Ann")
    pad.wait_text("entry-cards", r"^Cards: ABCDEHJ \(7 of 7\)")
    pad.wait_text("entry-subtotal", "with Hiking ")


def test_editing_a_past_round_keeps_its_activity_through_clear(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"], USA_ROUNDS[2:])
    pad = open_keypad_at(open_app, phone, server, game, 1, 1)
    pad.wait_text("entry-subtotal", "with Hiking ")
    pad.tap("Clear")
    pad.wait_text("entry-cards", r"^Cards: none")
    type_row(pad, "ACHIJXN")  # retyped, one card changed
    pad.wait_text("entry-subtotal", "with Hiking ")
    pad.tap_ident("save")
    pad.wait_text("history-r1-p1", "ACHIJXN")
    assert saved_entries(server, game)[0][0] == {"cards": "ACHIJXN", "choice": "Hiking"}


def test_undo_asks_naming_the_entry_and_redo_restores_it(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"], [[("ACHIJXB", "Hiking"), ("", None)]])
    pad = open_app(phone, f"{server.url}game/{game}")
    pad.wait_text("waiting-for", "^Waiting for Bob$")
    pad.tap_ident("undo")
    pad.wait_text("undo-question", r"^Undo Ann's round 1 \(ACHIJXB, Hiking\)\?$")
    pad.shot("entry-flow-undo-question-en", splash_ms=3000)
    assert saved_entries(server, game)[0] == {0: {"cards": "ACHIJXB", "choice": "Hiking"}}  # asked first
    pad.tap_ident("undo-question-yes")
    pad.wait_text("waiting-for", "^Waiting for Ann, Bob$")
    assert saved_entries(server, game)[0] == {}
    pad.tap("Enter Ann")  # the undone entry waits on Ann's keypad
    pad.wait_text("entry-cards", r"^Cards: ACHIJXB \(7 of 7\)")
    pad.wait_text("entry-subtotal", "with Hiking ")
    pad.tap_ident("back")
    pad.wait_text("round-status", r"^Round 1 of 4")
    pad.tap_ident("redo")
    pad.wait_text("waiting-for", "^Waiting for Bob$")
    assert saved_entries(server, game)[0] == {0: {"cards": "ACHIJXB", "choice": "Hiking"}}


def test_a_finished_game_offers_edit_round_not_undo(server, phone, open_app):
    game = game_on_device(server, "usa", ["Ann", "Bob"],
                          [*USA_ROUNDS, [("BGNRUVA", "Dining"), ("CDEFHIJ", None)]])
    pad = open_app(phone, f"{server.url}game/{game}")
    pad.wait_any("edit-round")
    assert pad.ident("undo").count() == 0
    pad.tap_ident("edit-r4-p1")
    pad.wait_text("entry-cards", r"^Cards: BGNRUVA ")


def test_the_question_and_undo_speak_french(server, new_context, open_app):
    french = new_context(**phone_options(locale="fr-FR"))
    game = game_on_device(server, "usa", ["Ann", "Bob"], USA_ROUNDS)
    pad = open_app(french, f"{server.url}game/{game}/round/4/player/1")
    pad.wait_text("entry-cards", r"^Cartes")
    pad.tap_until(lambda: pad.type_into("Tapez les lettres", "BGNRUVA"),
                  lambda ms: pad.wait_text("entry-cards", r"BGNRUVA \(7 sur 7\)", timeout=ms))
    pad.tap_ident("save")
    question = pad.wait_text("choice-question", "15")
    assert "Restaurant" in question
    pad.shot("entry-flow-choice-question-fr")
    assert pad.english_left([*_names(), "Ann", "Bob"]) == []
    pad.tap_ident("choice-question-yes")  # save with no activity
    pad.wait_text("entry-cards", r"^Cartes.*aucune")  # Bob's keypad: Ann's round is saved
    pad.goto(f"{server.url}game/{game}")  # the sheet, where Undo is
    pad.wait_text("waiting-for", "Bob$")
    pad.tap_ident("undo")
    pad.wait_text("undo-question", "BGNRUVA")
    pad.shot("entry-flow-undo-question-fr")
    assert pad.english_left([*_names(), "Ann", "Bob"]) == []


def test_a_europe_tables_first_entry_says_its_treasure_may_rise(host, tmp_path, new_context, open_app):
    code = httpx.post(f"{host}/api/tables", json={"seats": 3, "edition": "europe"},
                      headers=host_auth(tmp_path)).json()["code"]
    ann = open_app(new_context(viewport={"width": 390, "height": 844}), host)
    take_seat(ann, code, 1, "Ann")
    ann.tap_until(lambda: ann.tap("Enter Ann"), lambda ms: ann.wait_text("entry-cards", "^Cards: none", timeout=ms))
    tap_cards(ann, "DABCEGH")  # one Art card; nobody else has entered
    ann.button("Art · 0 pts so far").wait_for()
    ann.wait_text("choice-note", "points so far — others' cards may raise them")
    ann.page.mouse.wheel(0, 700)  # the choice row, for the screenshot
    ann.shot("entry-flow-europe-first-treasure")
