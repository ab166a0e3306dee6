"""The web app's scan (the published site, Python in the browser): the page reads every QR code in the photo
(zxing-wasm, `scorer/web/client/code-reader.js`) and opens the camera (`camera.js`); the codes with their
corners come back here and go through the same row logic as `tourpad scan` (`scorer.scan.rows`).

Only Pyodide has `js` and `pyodide.ffi`: they are imported inside the calls. What the page answers is
checked here (`ReaderAnswer`) before anything is made of it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import replace

from pydantic import BaseModel, Field, ValidationError

from rules.edition import Edition
from scorer.locale import N_, _
from scorer.scan.rows import ROW_LENGTH, FoundCode, ScanResult, row_of_codes

#: Said where a photo shows no card code: the publisher's printed cards are read on the host only (issue 42).
PRINTED_CARDS_NOT_HERE = N_("the publisher's printed cards (without tourpad's codes) cannot be read on the phone "
                            "alone: tap their letters on the keypad, or scan them with the hosted app "
                            "(tourpad host)")


class PhotoError(ValueError):
    """The photo cannot be read (not an image, no camera, the reader did not load); the message says so."""


class ReadCode(BaseModel):
    text: str = Field(max_length=2000)
    corners: list[tuple[float, float]] = Field(min_length=4, max_length=4)


class ReaderAnswer(BaseModel):
    """What code-reader.js returns: the upright photo's size and every code read, corners top-left first."""

    width: int = Field(gt=0)
    height: int = Field(gt=0)
    codes: list[ReadCode] = Field(max_length=500)


def codes_of(answer: str) -> tuple[list[FoundCode], tuple[int, int]]:
    """The codes the page's reader answered (its JSON text), and the photo's size; PhotoError if malformed."""
    try:
        read = ReaderAnswer.model_validate_json(answer)
    except ValidationError as err:
        raise PhotoError(_("the code reader answered something unexpected: {error}").format(
            error=err.errors()[0]["msg"])) from err
    return [FoundCode.from_corners(code.text, code.corners) for code in read.codes], (read.width, read.height)


def result_of(answer: str, edition: Edition, taken: Mapping[str, str] | Iterable[str] = (),
              row_length: int = ROW_LENGTH, seconds: float = 0.0) -> ScanResult:
    """The row the page's reader saw, as `tourpad scan` would say it. The page cannot tell how detailed the
    photo is beyond the codes read, so where cards are missing at the row's ends their place is not guessed
    (`guess_ends=False`): no letter is shown at a position it may not hold."""
    codes, size = codes_of(answer)
    result = row_of_codes(codes, edition, size, taken, row_length, seconds=seconds, guess_ends=False)
    if not result.codes:
        result = replace(result, problems=(*result.problems, _(PRINTED_CARDS_NOT_HERE)))
    return result


async def scan_photo(data: bytes, edition: Edition, taken: Mapping[str, str] | Iterable[str] = (),
                     row_length: int = ROW_LENGTH) -> ScanResult:
    """Read a photo of one player's row in the page; PhotoError for a file that is not an image."""
    import js
    from pyodide.ffi import JsException, to_js

    started = time.perf_counter()
    try:
        answer = await js.tourpadCodeReader.read(to_js(bytes(data)))
    except JsException as err:
        if "NotAnImage" in str(err):
            raise PhotoError(_("the file is not an image we can read (JPEG, PNG, WebP, …)")) from err
        raise PhotoError(_("the code reader did not start ({error}); type the letters in").format(error=err)) from err
    return result_of(str(answer), edition, taken, row_length, time.perf_counter() - started)


async def take_photo(title: str) -> bytes | None:
    """A photo from the page's camera view (rear camera, a frame to fill, a shutter); None when cancelled,
    PhotoError when there is no camera or the browser refuses it."""
    import js
    from pyodide.ffi import to_js

    labels = {"title": title, "shutter": _("Take photo"), "cancel": _("Cancel"),
              "hint": _("Fill the frame with your row of cards, codes uncovered"),
              "noCamera": _("No camera here: use Photo file instead")}
    answer = await js.tourpadCodeReader.photo(to_js(labels, dict_converter=js.Object.fromEntries))
    if answer.bytes:
        return bytes(answer.bytes.to_py())
    if answer.error and answer.error != "cancelled":
        raise PhotoError(str(answer.error))
    return None
