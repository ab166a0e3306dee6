"""End to end at phone size: New game names the cards a Europe or USA game is scored with, offers the
owner's own deck, and a game started with it keeps that deck (its record names it, version and all)."""

from __future__ import annotations

import sqlite3
import tomllib
from pathlib import Path

import pytest
import tomli_w
from conftest import phone_options

from rules.editions import deck_version

pytestmark = pytest.mark.e2e

SLOW = 30000
USA_TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "deck-pack-template-usa.toml"


def install_usa_deck(data_dir: Path, monkeypatch):
    """The owner's USA deck (the template, id usa-mine), installed in the app server's data folder."""
    from scorer.packs import pack_from_data, save_deck

    monkeypatch.setenv("TOURPAD_DATA_DIR", str(data_dir))
    doc = tomllib.loads(USA_TEMPLATE.read_text(encoding="utf-8"))
    return save_deck(pack_from_data(tomli_w.dumps(doc).encode("utf-8"), "usa-mine.toml"))


def test_new_game_names_the_deck_and_a_game_keeps_the_owners_deck(server, phone, open_app, monkeypatch):
    mine = install_usa_deck(server.data_dir, monkeypatch)
    pad = open_app(phone, server.url)
    pad.tap("New game")
    pad.button("Start game").wait_for(timeout=SLOW)
    assert pad.ident("deck-line").count() == 0  # Australia: the publisher's own card list, nothing to say
    pad.tap("USA")
    pad.wait_text("deck-line", r"^Cards: tourpad's print-and-play cards")
    pad.ident("set-up-deck").wait_for(timeout=SLOW)
    pad.shot("new-game-usa")
    pad.tap_until(lambda: pad.tap_ident("deck-usa-mine"),
                  lambda ms: pad.wait_text("deck-line", r"^Your deck: My Boomerang: USA$", timeout=ms))
    pad.shot("new-game-usa-own-deck")
    pad.tap("Europe")  # another edition: its own line, tourpad's cards again
    pad.wait_text("deck-line", r"^Cards: tourpad's print-and-play cards")
    pad.tap("USA")
    pad.tap_until(lambda: pad.tap_ident("deck-usa-mine"),
                  lambda ms: pad.wait_text("deck-line", r"^Your deck: My Boomerang: USA$", timeout=ms))
    pad.type_into("Player 1", "Ann")
    pad.type_into("Player 2", "Bob")
    pad.tap_until(lambda: pad.tap_ident("start"),
                  lambda ms: pad.wait_text("round-status", r"^Round 1 of 4", timeout=ms))
    with sqlite3.connect(server.data_dir / "games.sqlite3") as db:
        edition, payload = db.execute("SELECT g.edition, e.payload FROM games g JOIN events e ON e.game_id = g.id "
                                      "WHERE e.seq = 1").fetchone()
    import json

    started = json.loads(payload)
    assert edition == "usa-mine" and started["deck"]["name"] == "My Boomerang: USA"
    from rules.editions import edition_as_saved

    assert deck_version(edition_as_saved(started["deck"])) == deck_version(mine)


def test_french_new_game_names_the_deck(server, new_context, open_app):
    phone = new_context(**phone_options(locale="fr-FR"))
    pad = open_app(phone, server.url)
    pad.button("Nouvelle partie").wait_for(timeout=SLOW)
    pad.tap("Nouvelle partie")
    pad.button("Commencer la partie").wait_for(timeout=SLOW)
    pad.tap("USA")
    pad.wait_text("deck-line", r"^Cartes : celles à imprimer de tourpad")
    pad.shot("fr-new-game-usa")


def test_solo_names_the_deck_and_plays_with_the_owners(server, phone, open_app, monkeypatch):
    install_usa_deck(server.data_dir, monkeypatch)
    pad = open_app(phone, server.url)
    pad.button("Play solo").wait_for(timeout=SLOW)
    pad.tap("Play solo")
    pad.ident("solo-start").wait_for(timeout=SLOW)
    pad.tap("USA")
    pad.wait_text("deck-line", r"^Cards: tourpad's print-and-play cards")
    pad.tap_until(lambda: pad.tap_ident("deck-usa-mine"),
                  lambda ms: pad.wait_text("deck-line", r"^Your deck: My Boomerang: USA$", timeout=ms))
    pad.shot("solo-setup-own-deck")
    pad.tap_ident("solo-start")
    pad.page.wait_for_url("**/solo/1", timeout=SLOW)
    with sqlite3.connect(server.data_dir / "games.sqlite3") as db:
        (edition,) = db.execute("SELECT edition FROM games").fetchone()
    assert edition == "usa-mine"


def test_the_table_host_form_names_the_deck(host, tmp_path, phone, open_app, monkeypatch):
    install_usa_deck(tmp_path, monkeypatch)  # the host's data folder
    pad = open_app(phone, host + "/table")
    pad.button("Host a table").first.wait_for(timeout=SLOW)
    pad.settle()
    # the edition menu is drawn without a semantics node of its own: it sits just above the form's button
    box = pad.button("Host a table").last.bounding_box()
    pad.page.mouse.click(box["x"] + 110, box["y"] - 50)
    pad.button("Usa").wait_for(timeout=SLOW)
    pad.tap("Usa")
    pad.wait_text("deck-line", r"^Cards: tourpad's print-and-play cards")
    pad.shot("table-host-usa")
    pad.tap_until(lambda: pad.tap_ident("deck-usa-mine"),
                  lambda ms: pad.wait_text("deck-line", r"^Your deck: My Boomerang: USA$", timeout=ms))
    pad.button("Host a table").last.click()  # the table is the host's deck's: its host screen says so
    pad.wait_text("table-deck", r"^Your deck: My Boomerang: USA$")
    pad.shot("table-host-screen-own-deck")


def test_the_editor_names_a_broken_rule_and_a_reload_keeps_the_draft(server, phone, open_app, monkeypatch):
    from scorer.packs import duplicate_deck

    monkeypatch.setenv("TOURPAD_DATA_DIR", str(server.data_dir))
    mine = duplicate_deck("usa")
    number = next(c.number for c in mine.spec.cards if c.letter == "A")
    pad = open_app(phone, server.url + f"decks/{mine.id}")
    pad.ident("deck-ok").wait_for(timeout=SLOW)
    pad.button("Next card").wait_for(timeout=SLOW)
    pad.shot("editor-cards", splash_ms=3000)  # a deep link's first frame: the loading screen still fading out
    pad.tap_until(lambda: pad.tap_ident(f"number-{number % 7 + 1}"),
                  lambda ms: pad.wait_text("deck-problem", rf"^number {number}: must be on exactly 4 cards; found on",
                                           timeout=ms))
    problem = pad.text("deck-problem")
    pad.shot("editor-broken-rule")
    pad.tap_ident("deck-save")
    pad.ident("toast").wait_for(timeout=SLOW)
    assert pad.text("toast").startswith("Not saved: number")
    pad.reload()
    pad.wait_text("deck-problem", "^" + problem.replace("(", r"\(").replace(")", r"\)") + "$")
    pad.tap_ident("back")
    pad.ident(f"own-deck-{mine.id}").wait_for(timeout=SLOW)
    pad.tap_ident(f"edit-{mine.id}")
    pad.wait_text("deck-problem", rf"^number {number}: ")
    pad.tap_until(lambda: pad.tap_ident("tab-map"), lambda ms: pad.ident("town-A").wait_for(timeout=ms))
    pad.tap_ident("town-A")
    pad.wait_text("map-hint", "^Town A chosen")
    pad.shot("editor-map")


def test_the_editor_in_french(server, new_context, open_app, monkeypatch):
    from scorer.packs import duplicate_deck

    monkeypatch.setenv("TOURPAD_DATA_DIR", str(server.data_dir))
    mine = duplicate_deck("usa")
    phone = new_context(**phone_options(locale="fr-FR"))
    pad = open_app(phone, server.url + f"decks/{mine.id}")
    pad.wait_text("deck-ok", "^Toutes les règles")
    pad.button("Carte suivante").wait_for(timeout=SLOW)
    pad.shot("fr-editor-cards")
    pad.tap_until(lambda: pad.tap_ident("tab-map"), lambda ms: pad.ident("town-A").wait_for(timeout=ms))
    pad.wait_text("map-hint", "^Touchez deux villes")
    pad.shot("fr-editor-map")


def test_a_deck_shared_by_link_installs_on_another_phone_with_the_same_scores(server, phone, new_context, open_app,
                                                                             monkeypatch):
    """The owner shares a deck (its QR code carries the link); another phone (its own browser, its own data
    folder: a second app server) opens the link and installs it; both score a game alike."""
    from deck_helpers import parsed_rounds

    from rules.bots import make_bot, play
    from rules.engine import Game
    from rules.record import record_from_rounds, score_record
    from scorer.packs import duplicate_deck, resolve_edition

    monkeypatch.setenv("TOURPAD_DATA_DIR", str(server.data_dir))
    mine = duplicate_deck("usa")
    pad = open_app(phone, server.url + "decks")
    pad.ident(f"share-{mine.id}").wait_for(timeout=SLOW)
    pad.tap_ident(f"share-{mine.id}")
    pad.ident("deck-qr").wait_for(timeout=SLOW)
    link = pad.page.evaluate("""() => { const e = document.querySelector('[flt-semantics-identifier="deck-qr"]');
        return [e, ...e.querySelectorAll('*')].map(n => n.getAttribute('aria-label') || '').join(' '); }""").strip()
    pad.shot("share-deck")
    assert link.startswith(server.url + "deck/"), link
    other_dir = server.data_dir / "other-phone"
    other_dir.mkdir()
    from conftest import AppServer

    other = AppServer(other_dir)
    other.start()
    try:
        second = open_app(new_context(**phone_options()),
                          other.url + "deck/" + link.rpartition("/deck/")[2])
        second.wait_text("shared-deck-name", r"^Boomerang: USA \(copy\)$")
        second.shot("shared-deck-link")
        second.tap_until(lambda: second.tap_ident("install-shared-deck"),
                         lambda ms: second.wait_text("deck-line", "^Your deck: Boomerang: USA \\(copy\\)$", timeout=ms))
    finally:
        other.stop()
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(other_dir))
    received = resolve_edition(mine.id)
    state = play(Game(mine, 2, seed=4), [make_bot("greedy", 1), make_bot("random", 2)])
    record = record_from_rounds(mine, ["Ann", "Bob"], parsed_rounds(state))
    assert score_record(record, received).totals == score_record(record, mine).totals
    assert received.spec == mine.spec
