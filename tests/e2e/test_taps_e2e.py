"""End to end: quick taps on the letter keypad all count, in order, on the app `tourpad app` serves and on a
table's phone; and the keypad screen fits a 390×844 phone: the seven slots, the keypad, the choice row and
Save on screen without scrolling, the scan actions behind one Scan button."""

from __future__ import annotations

import httpx
import pytest
from conftest import phone_options
from test_pad_e2e import start_game
from test_table_e2e import open_keypad, take_seat

from benchmarks.table import host_auth
from benchmarks.tapping import tap_quickly

pytestmark = pytest.mark.e2e

ROW = "ABCDEHJ"
PHONE_HEIGHT = 844


def open_anns_keypad(pad) -> None:
    start_game(pad)
    pad.tap_until(lambda: pad.tap("Enter Ann"),
                  lambda ms: pad.wait_text("entry-cards", r"^Cards: none ", timeout=ms))
    pad.settle()


def test_taps_80_ms_apart_on_the_served_app_all_count_in_order(server, phone, open_app):
    pad = open_app(phone, server.url)
    open_anns_keypad(pad)
    run = tap_quickly(pad.page, ROW, interval_ms=80)
    assert run.shown == ROW, f"tapped {ROW} 80 ms apart, the keypad shows {run.shown!r}"
    pad.wait_text("entry-subtotal", "points so far")


def test_taps_80_ms_apart_on_a_table_phone_all_count_in_order(host, tmp_path, phone, open_app):
    code = httpx.post(f"{host}/api/tables", json={"seats": 2}, headers=host_auth(tmp_path)).json()["code"]
    ann = open_app(phone, host)
    take_seat(ann, code, 1, "Ann")
    open_keypad(ann, "Ann")
    ann.settle()
    run = tap_quickly(ann.page, ROW, interval_ms=80)
    assert run.shown == ROW, f"tapped {ROW} 80 ms apart, the seat's keypad shows {run.shown!r}"


def on_screen(locator) -> bool:
    """Drawn within the phone's screen as it first shows (nothing scrolled)."""
    if locator.count() == 0:
        return False
    box = locator.first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE_HEIGHT


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_keypad_screen_fits_a_phone_without_scrolling(server, new_context, open_app, language):
    context = new_context(**phone_options(viewport={"width": 390, "height": PHONE_HEIGHT},
                                          locale={"en": "en-GB", "fr": "fr-FR"}[language]))
    pad = open_app(context, server.url)
    if language == "fr":
        pad.wait_any("language")
        pad.button("Nouvelle partie").wait_for(timeout=30000)
        pad.tap("Nouvelle partie")
        pad.type_into("Joueur 1", "Ann")
        pad.type_into("Joueur 2", "Bob")
        pad.tap_until(lambda: pad.tap_ident("start"), lambda ms: pad.wait_text("round-status", "^Manche 1",
                                                                               timeout=ms))
        pad.tap_until(lambda: pad.tap("Saisir Ann"),
                      lambda ms: pad.wait_text("entry-cards", r"^Cartes", timeout=ms))
        save = "Enregistrer la manche"
    else:
        open_anns_keypad(pad)
        save = "Save round"
    pad.settle()
    assert on_screen(pad.ident("choice-none")), "the choice row is not on screen"
    assert on_screen(pad.button(save)), "Save round is not on screen"
    for letter in "A@#":  # the first key, and the last region's
        assert on_screen(pad.button(letter)), f"key {letter} is not on screen"
    for slot in range(1, 8):
        assert on_screen(pad.ident(f"slot-{slot}")), f"slot {slot} is not on screen"
    assert on_screen(pad.ident("scan-menu")), "the Scan button is not on screen"
    pad.shot(f"keypad-{language}")
