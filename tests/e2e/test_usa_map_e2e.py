"""USA in the browser: the sheet's town map (before and after a round) and the pictograms on the
entry screen's choice buttons, with screenshots at phone size."""

from __future__ import annotations

import re

import pytest

from rules.editions import load_edition
from rules.scoring import drawn_pathways
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore

pytestmark = pytest.mark.e2e


def round_one(edition) -> tuple[str, str]:
    """Ann takes two towns joined by a pathway and five more; Bob seven others."""
    a, b = edition.route.edges[0]
    rest = [c.letter for c in edition.cards if c.index not in (a, b)]
    return edition.cards[a].letter + edition.cards[b].letter + "".join(rest[:5]), "".join(rest[5:12])


@pytest.fixture
def prepared(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    usa = load_edition("usa")
    fresh = GameSession.new(store, "usa", ["Eve", "Fay"])
    played = GameSession.new(store, "usa", ["Ann", "Bob"])
    ann, bob = round_one(usa)
    played.enter_letters(0, ann, None)
    played.enter_letters(1, bob, None)
    visited = played.state.visited(0)
    store.close()
    return {"fresh": fresh.game_id, "drawn": len(drawn_pathways(usa, visited))}


def map_label(pad) -> str:
    node = pad.ident("town-map-1")
    return (node.get_attribute("aria-label") or "") + node.inner_text()


def test_usa_town_map_and_choice_pictograms(prepared, server, browser, phone, open_app):
    pad = open_app(phone, server.url)
    pad.wait_text("resume-info", "round 2 of 4")
    pad.tap(re.compile("^Resume: Ann"), exact=False)
    pad.wait_text("round-status", "^Round 2 of 4")
    pad.ident("town-map-1").wait_for(state="attached")
    assert f"{prepared['drawn']} pathways drawn" in map_label(pad)
    pad.shot("usa-sheet-after-round-1")
    pad.toggle_theme()
    pad.ident("town-map-1").wait_for(state="attached")
    pad.shot("usa-sheet-dark")
    pad.toggle_theme()
    pad.tap_ident("back")
    pad.button(re.compile("Eve · Fay")).first.click()
    pad.wait_text("round-status", "^Round 1 of 4")
    assert "0 pathways drawn" in map_label(pad)
    pad.shot("usa-sheet-start")
    pad.ident("pictogram-mail-box").wait_for(state="attached")  # the sheet's icon reference
    pad.page.mouse.move(4, 600)  # off the towns: hovering one shows its name as a tooltip
    pad.page.mouse.wheel(0, 1500)
    pad.shot("usa-sheet-reference")
    pad.page.mouse.wheel(0, -2000)
    pad.tap("Enter Eve")
    for i, letter in enumerate("ABCDEFG"):  # wait for each card: a tap during a redraw can miss
        pad.tap(letter)
        pad.wait_text("entry-cards", rf"^Cards: {'ABCDEFG'[:i + 1]} ")
    choice = pad.ident("pictogram-sightseeing")
    choice.wait_for(state="attached")
    pad.page.mouse.wheel(0, 1000)  # Flutter scrolls its own canvas: wheel down to the choice buttons
    pad.shot("usa-entry-choices")
