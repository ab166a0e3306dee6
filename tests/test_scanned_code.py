"""What a scanned QR code (or a typed link) points to, and reading any QR code in a photo on the host: the
"Scan a code" entries of Your decks and of the web app's table screen (issue 40, item 4)."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
import segno
from test_pad_screens import run_session

from scorer import runtime
from scorer.pad.scanned_code import deck_code_in, table_link_in
from scorer.routes import board_link, deck_link, host_link, join_link, parse, seat_link
from scorer.scan.any_code import CodePhotoError, code_texts
from scorer.ui.decks import share_link

DECK_CODE = "eJyrVkrOz0nNTVKyUkpUqgUAKJAFPw"


@pytest.mark.parametrize("text", [deck_link("https://tourpad.example.org/app", DECK_CODE),
                                  deck_link("http://192.168.1.20:8550", DECK_CODE) + "/",
                                  f"https://me.github.io/tourpad/#/deck/{DECK_CODE}", f"  {DECK_CODE}\n"])
def test_a_deck_link_or_bare_code_gives_its_share_code(text):
    assert deck_code_in(text) == DECK_CODE


@pytest.mark.parametrize(("page_url", "link"), [
    # the published web app on a static host: the page's address, its screen after `#`
    ("https://me.github.io/tourpad/", f"https://me.github.io/tourpad/#/deck/{DECK_CODE}"),
    ("https://me.github.io/tourpad/#/decks", f"https://me.github.io/tourpad/#/deck/{DECK_CODE}"),
    ("https://me.github.io/tourpad/index.html?v=2#/decks", f"https://me.github.io/tourpad/#/deck/{DECK_CODE}"),
    ("https://tourpad.example.org#/decks", f"https://tourpad.example.org/#/deck/{DECK_CODE}"),
    # the published app as `tourpad host --site` serves it, under /app/
    ("http://192.168.1.20:8550/app/#/decks", f"http://192.168.1.20:8550/app/#/deck/{DECK_CODE}")])
def test_the_published_apps_share_link_opens_its_deck_after_the_hash(monkeypatch, page_url, link):
    monkeypatch.setattr(runtime, "IN_BROWSER", True)
    shared = share_link(page_url, DECK_CODE)
    assert shared == link
    parts = urlsplit(shared)
    assert parse(parts.fragment) == ("deck_link", {"deck_code": DECK_CODE}) and deck_code_in(shared) == DECK_CODE


@pytest.mark.parametrize(("page_url", "link"), [
    # `tourpad app` / `tourpad host`: the session reports its socket's address; the server serves /deck/…
    ("ws://192.168.1.20:8550/ws", f"http://192.168.1.20:8550/deck/{DECK_CODE}"),
    ("wss://table.local:8443/ws", f"https://table.local:8443/deck/{DECK_CODE}")])
def test_a_served_apps_share_link_opens_its_deck_by_path(monkeypatch, page_url, link):
    monkeypatch.setattr(runtime, "IN_BROWSER", False)
    shared = share_link(page_url, DECK_CODE)
    assert shared == link
    assert parse(urlsplit(shared).path) == ("deck_link", {"deck_code": DECK_CODE})


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
