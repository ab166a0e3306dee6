"""What a scanned QR code (or a typed link) points to, and reading any QR code in a photo on the host: the
"Scan a code" entries of Your decks and of the web app's table screen (issue 40, item 4)."""

from __future__ import annotations

import io

import pytest
import segno
from test_pad_screens import run_session

from scorer.pad.scanned_code import deck_code_in, table_link_in
from scorer.routes import board_link, deck_link, host_link, join_link, seat_link
from scorer.scan.any_code import CodePhotoError, code_texts

DECK_CODE = "eJyrVkrOz0nNTVKyUkpUqgUAKJAFPw"


@pytest.mark.parametrize("text", [deck_link("https://tourpad.example.org/app", DECK_CODE),
                                  deck_link("http://192.168.1.20:8550", DECK_CODE) + "/",
                                  f"https://me.github.io/tourpad/#/deck/{DECK_CODE}", f"  {DECK_CODE}\n"])
def test_a_deck_link_or_bare_code_gives_its_share_code(text):
    assert deck_code_in(text) == DECK_CODE


@pytest.mark.parametrize("text", [join_link("http://192.168.1.20:8550", "ABCD-EFGH"), "https://example.org/",
                                  "short", f"https://x.org/decks/{DECK_CODE}", "a deck code with spaces", ""])
def test_anything_else_is_no_deck(text):
    assert deck_code_in(text) is None


@pytest.mark.parametrize("link", [join_link("http://192.168.1.20:8550", "ABCD-EFGH"),
                                  seat_link("https://table.local", "ABCD-EFGH", "t" * 24),
                                  host_link("http://10.0.0.2:8550", "c" * 32),
                                  board_link("http://10.0.0.2:8550", "ABCD-EFGH"),
                                  "http://10.0.0.2:8550/#/join/ABCD-EFGH"])
def test_a_tables_links_are_opened_as_they_are(link):
    assert table_link_in(f" {link} ") == link


@pytest.mark.parametrize("text", ["ABCD-EFGH", "javascript:alert(1)//join/ABCD-EFGH", "http:///join/ABCD-EFGH",
                                  deck_link("http://10.0.0.2:8550", DECK_CODE), "http://10.0.0.2:8550/game/3",
                                  "ftp://10.0.0.2/join/ABCD-EFGH"])
def test_anything_else_is_no_table(text):
    assert table_link_in(text) is None


def test_the_host_reads_every_qr_code_in_a_photo_and_refuses_a_file_that_is_none():
    out = io.BytesIO()
    segno.make(join_link("http://10.0.0.2:8550", "ABCD-EFGH"), error="m").save(out, kind="png", scale=6, border=4)
    assert run_session(lambda: code_texts(out.getvalue())) == ["http://10.0.0.2:8550/join/ABCD-EFGH"]
    with pytest.raises(CodePhotoError):
        run_session(lambda: code_texts(b"not a photo"))
