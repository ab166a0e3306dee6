"""A full USA game in Chromium with the browser's language set to French (`locale="fr-FR"`): the sheet,
the keypad, each round's summary and the final ranking speak French, at phone width, with screenshots
(`fr-sheet-*.png`). The totals and ranks are the engine's, as in English."""

from __future__ import annotations

import re

import pytest
from conftest import phone_options
from test_french_screens import data_names

from rules.editions import load_edition
from rules.record import GameRecord, PlayerRound, score_record
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e

USA = load_edition("usa")
PLAYERS = ["Ann", "Bob"]
NBSP = "\u00a0"  # French puts a no-break space before « : »
#: What may stay as it is on a French screen: the players' names and the edition data's (French) names.
NAMES = data_names(USA) + PLAYERS
PHONE = {"viewport": {"width": 390, "height": 844}}
# (Ann's cards, Bob's cards) per round, Throw first; no activity chosen (its names are the rules' words).
GAME = [("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"), ("UVWXYZ@", "OPQRST#")]


@pytest.fixture
def game_id(tmp_path):
    """A new USA game in the server's data folder (the home screen that starts one is another screen)."""
    store = EventStore(tmp_path / "games.sqlite3")
    game = GameSession.new(store, "usa", PLAYERS)
    store.close()
    return game.game_id


@pytest.fixture
def french_phone(new_context):
    """A 390×844 phone whose browser says French."""
    return new_context(**phone_options(locale="fr-FR"))


def expected_report():
    record = GameRecord(edition="usa", players=PLAYERS, rounds=[
        {"Ann": PlayerRound(cards=a), "Bob": PlayerRound(cards=b)} for a, b in GAME])
    return score_record(record, USA)


def enter_by_typing(pad, letters: str) -> None:
    pad.type_into("Tapez les lettres", letters)
    pad.wait_text("entry-cards", rf"^Cartes{NBSP}: {re.escape(letters)} \(7 sur 7\)")
    pad.tap_ident("choice-none")  # no activity, on purpose
    pad.tap_ident("save")  # the app bar's Save: always on screen


@pytest.mark.minutes
def test_a_full_usa_game_sheet_and_final_ranking_in_french(game_id, server, french_phone, open_app):
    pad = open_app(french_phone, f"{server.url}game/{game_id}")
    pad.wait_text("round-status", "^Manche 1 sur 4$", timeout=40000)
    assert pad.text("waiting-for") == "On attend Ann, Bob"
    pad.ident("town-map-1").wait_for(state="attached")
    label = (pad.ident("town-map-1").get_attribute("aria-label") or "") + pad.ident("town-map-1").inner_text()
    assert f"Carte des villes{NBSP}: 0 chemin tracé" in label
    pad.button("Saisir Ann").wait_for()
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-sheet-start")
    pad.page.mouse.move(4, 600)
    pad.page.mouse.wheel(0, 700)
    pad.shot("fr-sheet-table")
    pad.page.mouse.wheel(0, -2000)

    for number, (ann, bob) in enumerate(GAME, start=1):
        pad.wait_text("round-status", rf"^Manche {number} sur 4$")
        pad.tap("Saisir Ann")
        if number == 1:
            pad.wait_text("entry-subtotal", "^0 point pour l'instant")
            pad.tap(ann[0])
            pad.wait_text("entry-cards", rf"^Cartes{NBSP}: {ann[0]} \(1 sur 7\)")
            pad.shot("fr-sheet-entry")
            pad.tap("Effacer")
        enter_by_typing(pad, ann)
        # saving Ann's round opens Bob's keypad (one phone passed around)
        pad.wait_text("entry-subtotal", "^0 point pour l'instant")
        if number == 1:
            pad.tap(ann[2])  # one of Ann's cards: refused on the spot, in French
            pad.wait_text("entry-message", f"{ann[2]} est déjà dans les cartes de Ann à cette manche")
            pad.shot("fr-sheet-entry-refused")
        enter_by_typing(pad, bob)
        pad.wait_text("summary-title", f"^Manche {number} close$")
        if number == 1:
            assert not pad.english_left(NAMES), pad.english_left(NAMES)
            pad.shot("fr-sheet-round-summary")
        pad.tap("Classement final" if number == 4 else f"Commencer la manche {number + 1}")

    report = expected_report()
    pad.wait_text("final-total-1", rf"^{report.totals[0]}$")
    for p, name in enumerate(PLAYERS):
        assert pad.text(f"final-total-{p + 1}") == str(report.totals[p])
        assert pad.text(f"rank-{p + 1}") == f"#{report.ranks[p]} {name}"
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-sheet-final-ranking")

    pad.goto(f"{server.url}game/{game_id}")  # the finished sheet
    pad.button("Classement final").wait_for(timeout=40000)
    pad.wait_text("sheet-total-1", rf"^{report.totals[0]}$")
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-sheet-final")
    pad.page.mouse.move(4, 600)
    pad.page.mouse.wheel(0, 700)
    pad.shot("fr-sheet-final-table")
    pad.page.mouse.wheel(0, 1200)
    pad.shot("fr-sheet-final-rounds")


def test_a_table_in_french_beside_a_phone_in_english(host, new_context, open_app):
    """The host's screen and Ann's phone in French, Bob's in English: the same table, the same sheets."""
    table = open_app(new_context(**PHONE, locale="fr-FR"), host)  # the host's own device (loopback) hosts
    table.tap_until(lambda: table.tap("Héberger une table"),
                    lambda ms: table.wait_text("join-code", r"^\w{4}-\w{4}$", timeout=ms), timeout=40000)
    code = table.text("join-code")
    table.wait_text("status", "^Manche 1 · on attend place 1, place 2, place 3, place 4$")
    table.shot("fr-table-host")
    ann = open_app(new_context(**PHONE, locale="fr-FR"), host)
    bob = open_app(new_context(**PHONE), host)
    for pad, field, join, name, take in ((ann, "Code de la table", "Rejoindre", "Votre nom (place 1)",
                                          "Prendre la place 1"),
                                         (bob, "Join code", "Join", "Your name (seat 2)", "Take seat 2")):
        pad.type_into(field, code.lower())
        pad.tap_until(lambda pad=pad, join=join: pad.tap(join),
                      lambda ms, pad=pad, name=name: pad.page.get_by_role("textbox", name=name).wait_for(timeout=ms))
        if pad is ann:
            ann.shot("fr-table-seats")
        pad.type_into(name, "Ann" if pad is ann else "Bob")
        pad.tap(take)
    ann.wait_text("round-status", "^Manche 1 sur 4$", timeout=40000)
    bob.wait_text("round-status", "^Round 1 of 4$", timeout=40000)
    ann.wait_text("waiting-for", "^On attend Ann, Bob, place 3, place 4$", timeout=40000)
    bob.wait_text("waiting-for", "^Waiting for Ann, Bob, seat 3, seat 4$", timeout=40000)
    assert ann.text("sheet-status") == f"Table {code} · votre place{NBSP}: 1"
    ann.shot("fr-table-seat-sheet")

    ann.tap_until(lambda: ann.tap("Saisir Ann"),
                  lambda ms: ann.wait_text("entry-cards", rf"^Cartes{NBSP}: aucune ", timeout=ms))
    enter_by_typing(ann, "ABCDEFG")
    bob.wait_text("entering-1", "^Ann: entered", timeout=40000)
    ann.wait_text("entering-2", f"^Bob{NBSP}: saisie en cours…", timeout=40000)
    table.wait_text("roster", f"^1{NBSP}: Ann · 0 pt[\\s\\S]*2{NBSP}: Bob · 0 pt · saisie en cours…")
    table.shot("fr-table-host-roster")
