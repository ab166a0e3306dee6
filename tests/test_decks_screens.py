"""The deck screens with a real Flet session and no client: History says which deck a game was played
with (as it was then), "Your decks" lists the owner's decks with the games played with each, and both read
in French."""

from __future__ import annotations

import tomllib
from pathlib import Path

import flet as ft
import pytest
import tomli_w
from eventually import drawn, until
from test_french_screens import data_names, english_words, shown_strings
from test_pad_screens import run_session, start, texts, walk

from rules.editions import load_edition
from scorer.packs import installed_decks, pack_from_data, rename_deck, resolve_edition, save_deck
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.ui.main import make_main

USA_TEMPLATE = Path(__file__).resolve().parent.parent / "docs" / "deck-pack-template-usa.toml"
ROUNDS = (("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"), ("UVWXYZ@", "OPQRST#"))


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def finished_game_with_own_deck(store: EventStore) -> GameSession:
    doc = tomllib.loads(USA_TEMPLATE.read_text(encoding="utf-8"))
    save_deck(pack_from_data(tomli_w.dumps(doc).encode("utf-8"), "usa-mine.toml"))
    game = GameSession.new(store, "usa-mine", ["Ann", "Bob"])
    for ann, bob in ROUNDS:
        game.enter_letters(0, ann, None)
        game.enter_letters(1, bob, None)
    return game


def test_history_and_your_decks_name_the_deck_a_game_was_played_with(store):
    finished_game_with_own_deck(store)
    rename_deck("usa-mine", "Grandma's box")  # renamed after the game

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        app = page.data
        app.go("history")
        shown = shown_strings(page)
        assert any(line.startswith("Your deck: My Boomerang: USA · ") for line in shown), shown
        app.go("decks")
        shown = shown_strings(page)
        assert "Grandma's box" in shown
        assert any("1 saved game" in line and "usa-mine" in line for line in shown), shown
        app.go("new_game")
        assert "Something went wrong" not in texts(page)

    run_session(run)


def test_the_deck_screens_read_in_french(store):
    finished_game_with_own_deck(store)
    names = [*data_names(load_edition("usa")), *data_names(resolve_edition("usa-mine")), "My Boomerang: USA",
             "usa-mine", "Ann", "Bob"]
    leaks: dict[str, list[str]] = {}

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        app = page.data
        app.set_language("fr")
        for name, params in (("decks", {}), ("history", {}), ("new_game", {}), ("solo_setup", {}),
                             ("deck_editor", {"edition": "usa-mine"})):
            app.go(name, **params)
            found = english_words(shown_strings(page), names)
            if found:
                leaks[name] = found
            if name == "decks":
                assert any("1 partie enregistrée" in line for line in shown_strings(page))

    run_session(run)
    assert not leaks, leaks


def test_a_deck_link_shows_the_deck_and_installs_it_and_a_broken_one_says_so(store, tmp_path, monkeypatch):
    from scorer.packs import deck_share_code, duplicate_deck

    code = deck_share_code(duplicate_deck("usa"))
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "other-phone"))

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        app = page.data
        app.go("deck_link", deck_code=code[:-20])
        assert any("not a tourpad deck link or code" in line for line in shown_strings(page))
        app.go("deck_link", deck_code=code)
        shown = shown_strings(page)
        assert "Boomerang: USA (copy)" in shown and any("47 pathways" in line for line in shown), shown
        from test_deck_editor import node

        await session.dispatch_event(node(page, "install-shared-deck")._i, "click", None)
        assert app.route[0] == "new_game"

    run_session(run)
    assert resolve_edition("usa-mine").provenance == "owner"


def test_a_duplicate_on_your_decks_adds_its_row_in_place_and_keeps_the_rest(store):
    """Your decks is a component over the owner's decks: a deck duplicated re-renders the list alone. The screen
    is not drawn anew, the first deck's buttons keep their identity (a tap on its way still reaches them), the
    paste field keeps what was typed in it, and the new deck has its row."""
    from test_deck_editor import node

    finished_game_with_own_deck(store)

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        app = page.data
        app.go("decks")
        screen, rename, pasted = page.views[-1], node(page, "rename-usa-mine")._i, node(page, "deck-link-field")
        pasted.value = "half a link"
        await session.dispatch_event(node(page, "duplicate-usa-mine")._i, "click", None)
        def rows() -> list[str]:
            return [c.identifier for c in walk(page.views[-1])
                    if isinstance(c, ft.Semantics) and c.identifier.startswith("own-deck-")]

        await until(lambda: drawn(page) and len(rows()) == 2, "the copy's row")
        copy = next(d.id for d in installed_decks() if d.id != "usa-mine")
        assert rows() == ["own-deck-usa-mine", f"own-deck-{copy}"]
        assert page.views[-1] is screen and node(page, "rename-usa-mine")._i == rename
        assert node(page, "deck-link-field") is pasted and pasted.value == "half a link"

    run_session(run)


def test_a_double_tap_on_duplicate_makes_one_copy_and_a_later_tap_another(store, monkeypatch):
    """A child taps Duplicate twice in a row: one copy. The list keeps its buttons when it re-renders, so the
    second tap reaches the same button; taken as the same tap, it changes nothing. A tap a moment later is a
    second request, and makes a second copy."""
    from test_deck_editor import node

    import scorer.ui.app as app_ui

    finished_game_with_own_deck(store)
    now = [100.0]
    monkeypatch.setattr(app_ui, "tap_clock", lambda: now[0])

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        page.data.go("decks")
        duplicate = node(page, "duplicate-usa-mine")._i
        await session.dispatch_event(duplicate, "click", None)
        now[0] += 0.3
        await session.dispatch_event(duplicate, "click", None)
        await until(lambda: drawn(page) and len(installed_decks()) == 2, "the copy")
        assert len(installed_decks()) == 2
        now[0] += app_ui.DOUBLE_TAP_SECONDS
        await session.dispatch_event(node(page, "duplicate-usa-mine")._i, "click", None)
        await until(lambda: len(installed_decks()) == 3, "a second copy")

    run_session(run)
