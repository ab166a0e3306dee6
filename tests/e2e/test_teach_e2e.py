"""End to end: a player teaches tourpad their own printing of the cards with four uploaded photos on the "Teach
tourpad your cards" screen, then photos of rows on the round's keypad fill in their letters: a row as played
(a doubted card is a hole, filled by tapping its card) and a row laid out as for teaching (all 7 read)."""

from __future__ import annotations

import re

import pytest
from conftest import phone_options
from test_scan_e2e import start_and_open_entry, upload

from benchmarks.scan_publisher_photos import deck_style, row_photo, teaching_photo, teaching_rows
from rules.editions import load_edition

pytestmark = pytest.mark.e2e

ANN = "KSHN@LQ"  # Ann's row as played, Throw card first: taught cards, none where its teaching photo had it
BOB = "ABCDEFG"  # Bob's row, laid out as the first teaching photo asked
STYLE = 4  # one printing of the deck (font, colours, corner marks) for the teaching and the rows alike


def upload_to_teach(pad, path) -> None:
    with pad.page.expect_file_chooser(timeout=15000) as chooser:
        pad.tap_ident("teach-scan-button")
    chooser.value.set_files(str(path))


def test_four_teaching_photos_then_row_photos_fill_the_letters(server, phone, open_app, tmp_path):
    australia = load_edition("australia")
    style = deck_style(STYLE)
    pad = open_app(phone, server.url)
    pad.shot("teach-home")
    pad.tap("Teach tourpad your cards")
    pad.wait_text("teach-australia", "0 of 28 cards learned")
    pad.shot("teach-00-editions")
    pad.tap_until(lambda: pad.tap_ident("teach-australia"),
                  lambda ms: pad.wait_text("teach-progress", r"^0 of 28 cards learned", timeout=ms))
    pad.shot("teach-01-start")
    for n, letters in enumerate(teaching_rows(australia), start=1):
        photo = tmp_path / f"teach-{n}.jpg"
        photo.write_bytes(teaching_photo(australia, style, letters))
        upload_to_teach(pad, photo)
        pad.ident("teach-learn").wait_for(timeout=30000)  # the letters to confirm: nothing learned yet
        assert pad.text("teach-progress").startswith(f"{7 * (n - 1)} of 28 cards learned")
        if n == 1:
            pad.shot("teach-02-confirm")
        pad.tap("Learn these 7 cards")
        pad.wait_text("teach-progress", rf"^{7 * n} of 28 cards learned", timeout=60000)
    assert "tourpad knows every card of your deck" in pad.text("teach-status")
    pad.shot("teach-03-learned")

    pad.tap_ident("back")  # the editions
    pad.wait_text("teach-australia", "28 of 28 cards learned")
    pad.tap_ident("back")  # home
    start_and_open_entry(pad)
    played = tmp_path / "ann.jpg"
    played.write_bytes(row_photo(australia, style, ANN))  # touching, tilted, under a lamp, as at the table
    upload(pad, played)
    pad.wait_text("scan-status", "save the round|Tap the card at position", timeout=60000)
    pad.shot("teach-04-played-row")
    # A position the reader doubts would be a hole the player fills by tapping its card, never a guess
    # (docs/scanning.md says how many rows read whole); this one may read whole, or leave a hole to tap.
    for _tap in range(len(ANN)):
        if pad.text("entry-cards").startswith(f"Cards: {ANN} (7 of 7)"):
            break
        holes = re.findall(r"tap the card at position (\d)", pad.text("scan-status"), re.IGNORECASE)
        assert holes, f"no hole to fill and the row is not {ANN}: {pad.text('scan-status')}"
        assert pad.text("entry-cards").startswith("Cards: none")  # nothing entered while the row has holes
        pad.tap(ANN[int(holes[-1]) - 1])
        pad.wait_text("scan-status", rf"position {holes[-1]}: {re.escape(ANN[int(holes[-1]) - 1])}|complete")
    pad.wait_text("entry-cards", rf"^Cards: {re.escape(ANN)} \(7 of 7\)")
    pad.tap_ident("choice-none")  # no activity, on purpose
    pad.tap("Save round")  # Ann's confirmation: only now is the round entered
    pad.wait_text("entry-subtotal", r"^0 points so far")  # on to Bob's keypad

    laid_out = tmp_path / "bob.jpg"
    laid_out.write_bytes(teaching_photo(australia, style, BOB, seed=1))
    upload(pad, laid_out)
    pad.wait_text("entry-cards", rf"^Cards: {BOB} \(7 of 7\)", timeout=60000)  # every card read: no tap
    assert "save the round" in pad.text("scan-status")  # filled in for Bob to check: not entered yet
    pad.shot("teach-05-row-read")


def test_with_nothing_taught_a_row_photo_is_read_by_its_corners(server, phone, open_app, tmp_path):
    """Issue 42: a family that never taught its deck photographs a row of the publisher's cards on the keypad's
    Photo file (the Camera button hands the page's own shot to the same reader): the corner letters and numbers
    fill the row in, for the player to check before saving."""
    australia = load_edition("australia")
    pad = open_app(phone, server.url)
    start_and_open_entry(pad)
    played = tmp_path / "untaught.jpg"
    played.write_bytes(row_photo(australia, deck_style(STYLE), ANN))
    upload(pad, played)
    pad.wait_text("entry-cards", rf"^Cards: {re.escape(ANN)} \(7 of 7\)", timeout=60000)
    assert "save the round" in pad.text("scan-status")  # filled in for the player to check: not entered yet
    pad.shot("teach-06-untaught-row")


def test_a_french_phone_teaches_in_french(server, new_context, open_app, tmp_path):
    """Opened from a link (the route survives a reload); a wrong letter is refused and nothing is learned."""
    australia = load_edition("australia")
    french_phone = new_context(**phone_options(locale="fr-FR"))
    pad = open_app(french_phone, f"{server.url}teach/australia")
    pad.wait_text("teach-progress", r"^0 carte apprise sur 28")
    assert not pad.english_left(["Boomerang", "Australie", "tourpad"]), pad.english_left(["tourpad"])
    pad.shot("teach-fr-01-start")
    photo = tmp_path / "teach-1.jpg"
    photo.write_bytes(teaching_photo(australia, deck_style(STYLE), teaching_rows(australia)[0]))
    upload_to_teach(pad, photo)
    pad.ident("teach-learn").wait_for(timeout=30000)
    pad.type_into("Les cartes de cette photo, de gauche à droite", "ABCDEFA")
    pad.tap("Apprendre ces 7 cartes")
    pad.wait_text("teach-status", "La lettre A est donnée deux fois")
    assert pad.text("teach-progress").startswith("0 carte apprise sur 28")
    pad.shot("teach-fr-02-refused")
    pad.reload()
    pad.wait_text("teach-progress", r"^0 carte apprise sur 28")
