"""The round-entry keypad logic: taps, refusals, live points, choice options. No Flet client."""

from __future__ import annotations

import pytest

from rules.editions import load_edition
from rules.scoring import ScoreState, resolve_round
from scorer.pad.entry import LetterDraft, draft_for, preview
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

AUS = load_edition("australia")


@pytest.fixture
def session(tmp_path):
    store = EventStore(tmp_path / "g.sqlite3")
    yield GameSession.new(store, "australia", ["Ann", "Bob"])
    store.close()


def test_taps_refuse_repeats_other_players_cards_and_an_eighth_card():
    draft = LetterDraft(taken={"H": "Bob"})
    assert draft.tap("a") and draft.cards == "A"
    assert not draft.tap("A") and draft.message == "A is already your card #1 this round"
    assert not draft.tap("H") and draft.message == "H is already in Bob's cards this round"
    for letter in "BCDEFG":
        assert draft.tap(letter)
    assert draft.message == ""
    assert not draft.tap("I") and "already have 7 cards" in draft.message
    assert draft.cards == "ABCDEFG"
    draft.backspace()
    assert draft.cards == "ABCDEF"


def test_typed_text_keeps_the_good_letters_and_names_the_bad_one():
    draft = LetterDraft(taken={"Q": "Bob"})
    draft.set_text("ab c1q", AUS.letters)
    assert draft.cards == "ABC"
    assert draft.message == "Q is already in Bob's cards this round"
    draft.set_text("abca", AUS.letters)
    assert draft.cards == "ABC" and "A is already your card #1" in draft.message


def test_preview_matches_the_engine_once_complete(session):
    draft = draft_for(session.state, 0, 0)
    for letter in "ABCDEFG":
        draft.tap(letter)
    draft.choice = "Indigenous Culture"
    pv = preview(session.state, 0, 0, draft)
    rows = [[AUS.card_index(c) for c in "ABCDEFG"], [AUS.card_index(c) for c in "HIJKLMN"]]
    scores, notes = resolve_round(AUS, ScoreState(2), rows, [0, -1], explain=True)
    own = scores[0]
    by_name = {line.name: line for line in pv.lines}
    assert by_name["Throw & Catch"].points == own.throw_catch
    assert by_name["Collections"].points == own.collection
    assert by_name["Animals"].points == own.pairs
    assert by_name["Activities"].points == own.choice
    assert by_name["Tourist sites"].points == own.sites
    assert by_name["Collections"].explanation == notes[0][1]
    assert pv.subtotal == own.total - own.regions
    assert any("Western Australia complete" in hint for hint in pv.bonus_hints)


def test_preview_partial_row_waits_for_throw_and_catch(session):
    draft = LetterDraft()
    draft.tap("C")
    pv = preview(session.state, 0, 0, draft)
    assert pv.lines[0].points is None and "1 so far" in pv.lines[0].explanation
    assert pv.lines[1].points == 6  # Shells 3 ≤ 7, doubled


def test_choice_options_show_points_and_what_is_used_up(session):
    session.enter_letters(0, "ABCDEFG", "Indigenous Culture")
    session.enter_letters(1, "HIJKLMN", None)
    draft = draft_for(session.state, 1, 0)
    for letter in "AEJQ@VB":
        draft.tap(letter)
    options = {o.name: o for o in preview(session.state, 1, 0, draft).choices}
    assert options["Indigenous Culture"].used_in == 1 and not options["Indigenous Culture"].available
    assert options["Sightseeing"].held and options["Sightseeing"].points == 0  # one icon: table[1] = 0
    assert not options["Swimming"].held
    # editing round 1 shows the saved entry and no choice as used by itself
    edit = draft_for(session.state, 0, 0)
    assert edit.cards == "ABCDEFG" and edit.choice == "Indigenous Culture"
    options = {o.name: o for o in preview(session.state, 0, 0, edit).choices}
    assert options["Indigenous Culture"].available and options["Indigenous Culture"].points == 2


def test_preview_names_europes_sites_countries(tmp_path):
    store = EventStore(tmp_path / "eu.sqlite3")
    try:
        europe = GameSession.new(store, "europe", ["Ann", "Bob"])
        draft = draft_for(europe.state, 0, 0)
        for letter in "ABC":
            draft.tap(letter)
        names = [line.name for line in preview(europe.state, 0, 0, draft).lines]
        assert "Countries" in names and "Countrys" not in names
    finally:
        store.close()
