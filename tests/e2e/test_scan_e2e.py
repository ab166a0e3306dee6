"""End to end: in the web app, a player uploads a photo of their row and sees the letters filled in."""

from __future__ import annotations

import pytest
from conftest import phone_options
from PIL import ImageDraw
from test_pad_e2e import start_game  # the same new game (Ann and Bob) the pad's own tests start

from benchmarks import scan_photos

pytestmark = pytest.mark.e2e

ANN = "KSHN@LQ"


def row_photo(path, letters: str, unread: int | None = None):
    """A phone-like photo of the row (12 MP JPEG); `unread` spoils that position's code."""
    faces = {}
    if unread is not None:
        face = scan_photos.card_face("australia", letters[unread]).copy()
        mm = scan_photos.FACE_PX_PER_MM
        cx, cy = (c * mm for c in scan_photos.QR_CENTRE_MM)
        half = scan_photos.QR_MM * mm / 2
        # a sticker over the top two thirds: two finder patterns and most modules (what shows of a code
        # with only a third covered is enough to name it)
        ImageDraw.Draw(face).rectangle((cx - half, cy - half, cx + half, cy + half / 3), fill="#FBF7EE")
        faces[unread] = face
    photo = scan_photos.photo(11, 0, "australia", tuple(letters), scale=1.1, blur=0.5, extra_faces=faces)
    path.write_bytes(photo.jpeg)
    return path


def start_and_open_entry(pad) -> None:
    start_game(pad)
    pad.tap("Enter Ann")
    pad.wait_text("entry-cards", r"^Cards: none")


def open_scan_menu(pad) -> None:
    """The keypad's one Scan button: a sheet with Camera, Photo file and Teach."""
    pad.tap_until(lambda: pad.tap_ident("scan-menu"),
                  lambda ms: pad.ident("scan-how").wait_for(timeout=ms))


def upload(pad, path) -> None:
    open_scan_menu(pad)
    with pad.page.expect_file_chooser(timeout=15000) as chooser:
        pad.tap_ident("scan-button")
    chooser.value.set_files(str(path))


def test_uploading_a_photo_fills_in_the_row(server, phone, open_app, tmp_path):
    pad = open_app(phone, server.url)
    start_and_open_entry(pad)
    upload(pad, row_photo(tmp_path / "ann.jpg", ANN))
    pad.wait_text("entry-cards", rf"^Cards: {ANN} \(7 of 7\)", timeout=60000)
    assert "save the round" in pad.text("scan-status")
    pad.wait_text("entry-lines", "Throw & Catch: .* \\(")
    pad.shot("scan-01-filled")
    pad.tap_ident("choice-none")  # no activity, on purpose
    pad.tap("Save round")  # the player's confirmation: only now is the round entered
    pad.wait_text("entry-subtotal", r"^0 points so far")  # on to Bob's keypad


def test_a_partly_read_photo_asks_for_the_missing_card(server, phone, open_app, tmp_path):
    pad = open_app(phone, server.url)
    start_and_open_entry(pad)
    upload(pad, row_photo(tmp_path / "ann.jpg", ANN, unread=3))
    pad.wait_text("scan-status", "Read 6 of 7 cards.\\s+Tap the card at position 4", timeout=60000)
    assert pad.text("entry-cards").startswith("Cards: none")  # nothing entered yet
    pad.shot("scan-02-partial")
    pad.tap("N")
    pad.wait_text("entry-cards", rf"^Cards: {ANN} \(7 of 7\)")
    pad.shot("scan-03-completed")


def y4m_of(image, path, frames: int = 2):
    """A video file Chromium's fake camera plays in a loop: the photo as YUV 4:2:0 frames."""
    width, height = image.size
    y, cb, cr = image.convert("YCbCr").split()
    chroma = [c.resize((width // 2, height // 2)).tobytes() for c in (cb, cr)]
    frame = b"FRAME\n" + y.tobytes() + chroma[0] + chroma[1]
    path.write_bytes(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode() + frame * frames)
    return path


def test_the_live_camera_fills_in_the_row(tmp_path, server, open_app, browser):
    """Chromium's fake camera shows the row; the in-app camera takes the picture and the letters fill in."""
    import io

    from PIL import Image

    photo = scan_photos.photo(12, 0, "australia", tuple(ANN), scale=1.45, blur=0.0)
    frame = Image.open(io.BytesIO(photo.jpeg)).convert("RGB").resize((2560, 1920), Image.LANCZOS)
    video = y4m_of(frame, tmp_path / "row.y4m")
    # A browser of its own (same Playwright): the fake camera is a launch flag the shared one lacks.
    camera_browser = browser.browser_type.launch(executable_path="/usr/bin/chromium", args=[
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}"])
    pad = None
    try:
        ctx = camera_browser.new_context(**phone_options(permissions=["camera"]))
        pad = open_app(ctx, server.url)
        start_and_open_entry(pad)
        open_scan_menu(pad)
        pad.shot("scan-00-menu")
        pad.tap_ident("camera-button")
        pad.ident("camera-shoot").wait_for(timeout=30000)
        pad.page.wait_for_timeout(2000)  # the preview starts
        pad.shot("scan-04-camera")
        pad.tap_ident("camera-shoot")
        pad.wait_text("entry-cards", rf"^Cards: {ANN} \(7 of 7\)", timeout=60000)
        pad.shot("scan-05-camera-filled")
    except Exception:
        if pad is not None:  # a browser of its own, so the fixtures' failure screenshots miss it
            pad.failure_shot("test_the_live_camera_fills_in_the_row")
        raise
    finally:
        camera_browser.close()
