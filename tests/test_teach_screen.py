"""The app's "Teach tourpad your cards" screens with a real Flet session and no client: the editions, one
edition's four photos, the letters confirmed before anything is learned, refusals that change nothing,
Forget, French, and the way there and back from a round's keypad."""

from __future__ import annotations

import sys

import flet as ft
import pytest
from eventually import drawn, until
from flet.controls.base_control import BaseControl
from test_pad_screens import run_session, start_at, top

from benchmarks.scan_publisher_photos import deck_style, teaching_photo
from scorer.packs import resolve_edition
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.ui.main import make_main
from scorer.ui.teach import TeachPanel


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="module")
def first_photo() -> bytes:
    australia = resolve_edition("australia")
    return teaching_photo(australia, deck_style(5), "ABCDEFG")


def walk(control):
    """Every control under `control`, list tiles' titles and subtitles too."""
    yield control
    for attr in ("controls", "content", "actions", "leading", "title", "subtitle", "appbar", "icon", "_b"):
        value = getattr(control, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, BaseControl):
                yield from walk(child)


def texts(page) -> list[str]:
    return [c.value for c in walk(top(page)) if isinstance(c, ft.Text) and c.value]


def panel_of(page) -> TeachPanel:
    return next(c.data for c in walk(top(page)) if isinstance(getattr(c, "data", None), TeachPanel))


async def click(session, page, label: str) -> None:
    """Tap the button (filled, outlined, tonal or text) that says `label`, and wait until the screen shows what
    the tap did (the teaching screen is a component: it re-renders after the tap)."""
    button = next(c for c in walk(top(page)) if getattr(c, "on_click", None) is not None
                  and getattr(c, "content", None) == label)
    await session.dispatch_event(button._i, "click", None)
    await until(lambda: drawn(page), "the screen redrawn")


def test_teaching_a_photo_after_confirming_its_letters(store, isolated_data_dir, first_photo):
    async def run():
        session, page, _conn = await start_at(make_main(lambda: store), "/teach")
        shown = texts(page)
        assert "Teach your cards" in shown
        assert {"Boomerang: Australia", "Boomerang: Europe", "Boomerang: USA"} <= set(shown)
        assert shown.count("0 of 28 cards learned") == 3
        page.data.go("teach_edition", edition="australia")
        shown = texts(page)
        assert "Photo 1 of 4: ABCDEFG" in shown and "Photo 4 of 4: VWXYZ@#" in shown
        assert "0 of 28 cards learned" in shown
        panel = panel_of(page)
        assert panel.photos.buttons, "Photo file (and Camera on the web) to take the photo"

        await panel.got_photo(first_photo)
        await until(lambda: drawn(page) and panel.letters_field is not None, "the letters to confirm")
        assert panel.letters_field.value == "ABCDEFG"  # the cards the step asked for, to confirm or correct
        panel.letters = "ABCDEFA"  # the player corrects them
        await click(session, page, "Learn these 7 cards")
        assert "A is given twice: each card of the photo once, left to right" in texts(page)
        assert not list((isolated_data_dir / "scan-templates").glob("*.npz"))  # nothing learned

        panel.letters = "abcdefg"
        await click(session, page, "Learn these 7 cards")
        await until(lambda: "7 of 28 cards learned" in texts(page), "the photo taught")  # on a worker thread
        assert "Learned ABCDEFG. Next: photo 2 of 4." in texts(page)
        assert panel.step == 1 and panel.photo is None

        await panel.got_photo(b"these bytes are no photo")
        await until(lambda: drawn(page), "the letters to confirm")
        await click(session, page, "Learn these 7 cards")
        await until(lambda: any(t.startswith("Nothing was learned from this photo: ") for t in texts(page)),
                    "the photo refused")
        assert "7 of 28 cards learned" in texts(page)  # unchanged

        page.data.go("teach")
        assert "7 of 28 cards learned" in texts(page) and texts(page).count("0 of 28 cards learned") == 2

        page.data.go("teach_edition", edition="australia")
        await click(session, page, "Forget what tourpad learned")
        assert ("Forget the 7 learned cards of Boomerang: Australia? Scanning then reads their letters less "
                "surely until you teach them again.") in texts(page)
        await click(session, page, "Forget")
        assert "Forgot 7 learned cards of Boomerang: Australia." in texts(page)
        assert "0 of 28 cards learned" in texts(page)

    run_session(run)


def test_the_teach_screen_in_french(store, isolated_data_dir):
    async def run():
        _session, page, _conn = await start_at(make_main(lambda: store), "/teach/usa")
        page.data.set_language("fr")
        shown = texts(page)
        assert "Apprendre vos cartes" in shown and "Boomerang\u00a0: USA" in shown
        assert "0 carte apprise sur 28" in shown and "Photo 1 sur 4\u00a0: ABCDEFG" in shown
        assert "Fichier photo" in [getattr(b, "content", None) for b in walk(top(page)) if getattr(b, "on_click", None)]

    run_session(run)


def test_from_a_round_s_keypad_and_back(store, isolated_data_dir):
    async def run():
        game = GameSession.new(store, "europe", ["Ann", "Bob"])
        entry = f"/game/{game.game_id}/round/1/player/1"
        session, page, _conn = await start_at(make_main(lambda: store), entry)
        await click(session, page, "Scan")  # the keypad's ways to scan, in a sheet
        sheet = page._dialogs.controls[-1]
        assert isinstance(sheet, ft.BottomSheet) and sheet.open
        teach = next(c for c in walk(sheet) if getattr(c, "content", None) == "Teach tourpad your cards")
        await session.dispatch_event(teach._i, "click", None)
        assert not sheet.open  # closed on the way
        assert page.data.path == "/teach/europe"
        assert "Boomerang: Europe" in texts(page)
        await click(session, page, "Back to the round")
        assert page.data.path == entry
        page.data.go("home")
        await click(session, page, "Teach tourpad your cards")
        assert page.data.path == "/teach"

    run_session(run)


def test_an_unknown_edition_is_not_found(store, isolated_data_dir):
    async def run():
        _session, page, _conn = await start_at(make_main(lambda: store), "/teach/narnia")
        assert "Not found" in texts(page)
        assert any("unknown edition 'narnia'" in t for t in texts(page))

    run_session(run)


def test_without_opencv_the_screen_says_so_instead_of_offering_photos(store, isolated_data_dir, monkeypatch):
    import scorer.scan.faces  # noqa: F401  (loaded, so that delitem below has something to take out)

    monkeypatch.setitem(sys.modules, "cv2", None)  # importing it now fails, as where it is missing
    monkeypatch.delitem(sys.modules, "scorer.scan.faces")

    async def run():
        _session, page, _conn = await start_at(make_main(lambda: store), "/teach/australia")
        shown = texts(page)
        assert any(t.startswith("Reading the publisher's cards needs OpenCV, which is not installed here")
                   for t in shown), shown
        assert "Photo 1 of 4: ABCDEFG" not in shown

    run_session(run)


def test_the_browser_only_app_points_to_the_host(store, isolated_data_dir, monkeypatch):
    monkeypatch.setattr("scorer.ui.teach.IN_BROWSER", True)  # the published web app: no OpenCV in Pyodide

    async def run():
        _session, page, _conn = await start_at(make_main(lambda: store), "/teach")
        assert any(t.startswith("Teaching tourpad your cards needs a computer at the table running tourpad")
                   for t in texts(page)), texts(page)

    run_session(run)


def test_the_browser_only_keypad_reads_tourpad_cards_and_says_the_printed_ones_are_typed(store, isolated_data_dir,
                                                                                         monkeypatch):
    monkeypatch.setattr("scorer.ui.scan_entry.IN_BROWSER", True)  # the published web app: the page reads the codes
    game = GameSession.new(store, "australia", ["Ann", "Bob"])

    async def run():
        session, page, _conn = await start_at(make_main(lambda: store), f"/game/{game.game_id}/round/1/player/1")
        await click(session, page, "Scan")  # the keypad's ways to scan, in a sheet
        sheet = page._dialogs.controls[-1]
        shown = [c.value for c in walk(sheet) if isinstance(c, ft.Text)]
        buttons = [c.content for c in walk(sheet) if isinstance(c, ft.OutlinedButton)]
        assert buttons == ["Camera", "Photo file"], shown
        assert any("The publisher's printed cards cannot be read on the phone alone" in (t or "") for t in shown), shown
        assert not [c for c in walk(sheet) if isinstance(c, ft.TextButton) and c.content == "Teach tourpad your cards"]
        assert not [t for t in shown if "tourpad host" in (t or "") or "`" in (t or "")]  # no command for a phone user

    run_session(run)


def test_a_tap_on_the_teaching_screen_patches_it_in_place(store, isolated_data_dir):
    """The teaching screen's body is a component: a photo's card opened re-renders it alone, and the other
    cards keep their identity (a second tap on its way still reaches them)."""
    from test_deck_editor import node

    async def run():
        session, page, _conn = await start_at(make_main(lambda: store), "/teach/australia")
        screen, third = page.views[-1], node(page, "teach-step-3").content._i
        await session.dispatch_event(node(page, "teach-step-2").content._i, "click", None)
        await until(lambda: drawn(page) and panel_of(page).step == 1, "photo 2 open")
        assert page.views[-1] is screen and node(page, "teach-step-3").content._i == third
        assert "Lay out these 7 cards face up in this order, left to right, upright and a finger's width apart on " \
               "a plain table; photograph them from above, the row filling the picture." in texts(page)

    run_session(run)
