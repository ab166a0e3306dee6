"""End to end: the keypad's scan in the published web app (`tourpad publish`, Python in the browser, no host).
The page reads the codes (zxing-wasm, served from the site) and the row logic is `tourpad scan`'s: a photo
file and Chromium's fake camera, fed a photo of a row of our printed cards, fill the keypad with the 7
letters in order; a card of another edition is refused by name; nothing is requested from another host.
"""

from __future__ import annotations

import io

import pytest
import test_publish_e2e as published
from conftest import POLL_MS
from PIL import Image
from test_publish_e2e import START, offline_context, open_site
from test_scan_e2e import ANN, open_scan_menu, row_photo, start_and_open_entry, upload, y4m_of

from benchmarks import scan_photos
from benchmarks.chromium import CHROME_ARGS, CHROMIUM

pytestmark = pytest.mark.e2e
# The published site and its static server, as the web app's other tests have them (built once a session).
site = published.site
static = published.static

#: The first scan loads the reader (its .wasm compiles) in the worker: on two busy cores, some seconds.
READ = 90000


def test_a_photo_file_and_the_camera_fill_the_keypad_in_the_web_app(static, browser, tmp_path):
    """One phone (Python starts once): a photo file fills the keypad, then the camera does, then a row with a
    card of another edition is refused by name."""
    photo = scan_photos.photo(12, 0, "australia", tuple(ANN), scale=1.45, blur=0.0)
    frame = Image.open(io.BytesIO(photo.jpeg)).convert("RGB").resize((1920, 1440), Image.LANCZOS)
    video = y4m_of(frame, tmp_path / "row.y4m")
    # A browser of its own (same Playwright): the fake camera is a launch flag the shared one lacks.
    camera_browser = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *CHROME_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}"])
    pad = None
    try:
        phone = offline_context(lambda **options: camera_browser.new_context(**options, permissions=["camera"]))
        requested: list[str] = []
        phone.on("request", lambda request: requested.append(request.url))
        pad = open_site(phone, static.url)
        pad.button("New game").wait_for(timeout=START)
        start_and_open_entry(pad)
        open_scan_menu(pad)
        assert "cannot be read on the phone alone" in pad.text("scan-how")  # the publisher's cards: typed here
        pad.shot("web-scan-00-menu")
        # closed as a phone closes it: a tap on the dimmed screen above the sheet (Escape needs the sheet to
        # have the keyboard's focus, which in one CI run it never got). The tap lands on the app bar's title:
        # if the sheet had gone already, it does nothing.
        pad.tap_until(lambda: pad.page.mouse.click(195, 24),
                      lambda ms: pad.ident("scan-how").wait_for(state="detached", timeout=ms), timeout=5000)
        upload(pad, row_photo(tmp_path / "ann.jpg", ANN))
        pad.wait_text("entry-cards", rf"^Cards: {ANN} \(7 of 7\)", timeout=READ)
        assert "save the round" in pad.text("scan-status")
        pad.shot("web-scan-01-filled")

        pad.tap("Clear")
        pad.wait_text("entry-cards", r"^Cards: none")
        open_scan_menu(pad)
        pad.tap_ident("camera-button")
        shutter = pad.page.locator("#tourpad-camera-shutter")
        shutter.wait_for(timeout=READ)
        pad.page.wait_for_function("() => document.querySelector('#tourpad-camera video').videoWidth > 0",
                                   timeout=READ, polling=POLL_MS)
        pad.shot("web-scan-03-camera")
        shutter.click()
        pad.wait_text("entry-cards", rf"^Cards: {ANN} \(7 of 7\)", timeout=READ)
        assert not pad.page.locator("#tourpad-camera").count()  # the camera's view is gone, the camera off
        pad.shot("web-scan-04-camera-filled")

        # A row with a Europe card in it: refused by name, its position left for the keypad.
        mixed = scan_photos.photo(11, 0, "australia", tuple(ANN), scale=1.1, blur=0.5,
                                  extra_faces={2: scan_photos.card_face("europe", "H")})
        (tmp_path / "mixed.jpg").write_bytes(mixed.jpeg)
        upload(pad, tmp_path / "mixed.jpg")
        pad.wait_text("scan-status", r"position 3: card H of edition 'europe' is not a card of this game",
                      timeout=READ)
        pad.shot("web-scan-02-other-edition")
        assert phone.outside == []
        assert any(url.startswith(static.url) and url.endswith("/zxing/zxing_reader.wasm") for url in requested)
    except Exception:
        if pad is not None:  # a browser of its own, so the fixtures' failure screenshots miss it
            pad.failure_shot("test_a_photo_file_and_the_camera_fill_the_keypad_in_the_web_app")
        raise
    finally:
        camera_browser.close()


def test_the_bench_sets_the_web_reader_beside_tourpad_scan(browser, tmp_path):
    """`tourpad bench scan --reader web` on two photos: the page's reader in Chromium and tourpad scan read the
    same photos; both report rows read, wrong letters and time per photo."""
    from benchmarks import scan_web
    from scorer.packs import resolve_edition

    report = scan_web.run(resolve_edition("australia"), photos=2, seed=3, cache_dir=tmp_path, browser=browser)
    assert report["photos"] == 2
    for reader in ("web_reader", "tourpad_scan"):
        assert report[reader]["wrong_letters"] == 0
        assert report[reader]["median_ms_per_photo"] > 0
    # the cases come in turn: the first photo is an everyday one, which both read whole
    for reader in ("web_reader", "tourpad_scan"):
        assert not [f for f in report[reader]["failures"] if f.startswith("0000.jpg")], report
    assert report["same_letters_both"] in ("50.0%", "100.0%")


def test_the_page_tells_codes_no_binarizer_decodes_by_their_look(browser, tmp_path):
    """Photo 9 of the bench set: a far, dim, blurred row (0.61 scale, a third of the light, blur 1.5 px). The
    page's zxing located its codes but decoded not one: each is told by its module greys among the game's
    card codes (`matchKnownCode`, the host's `match_known_code`), and the row reads whole, in order."""
    from benchmarks import scan_web
    from scorer.packs import resolve_edition
    from scorer.scan.browser import result_of_codes

    australia = resolve_edition("australia")
    photo = scan_photos.photo(2026, 9, "australia", all_letters=australia.letters, case="dim")
    assert "scale=0.61 blur=1.49 exposure=0.35" in photo.description
    (tmp_path / "dim.jpg").write_bytes(photo.jpeg)
    with scan_web.reader_page(tmp_path, browser) as page:
        codes, size, _ms = scan_web.read_in_page(page, tmp_path / "dim.jpg", australia)
    result = result_of_codes(codes, size, australia)
    assert result.letters == "".join(photo.letters) and result.complete
