"""The web app's scan (the published site, Python in the browser): the page reads every QR code in the photo
(zxing-wasm, `scorer/web/client/code-reader.js`) and opens the camera (`camera.js`); the codes with their
corners come back here and go through the same row logic as `tourpad scan` (`scorer.scan.rows`).

Only Pyodide has `js` and `pyodide.ffi`: they are imported inside the calls. What the page answers is
checked here (`ReaderAnswer`) before anything is made of it.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace

from pydantic import BaseModel, Field, ValidationError

from rules.edition import Edition
from scorer.locale import N_, _
from scorer.scan.known import known_codes_json
from scorer.scan.rows import (
    ROW_LENGTH,
    FoundCode,
    ScanResult,
    arrange,
    expected_spots,
    is_card_code,
    neighbours,
    row_of_codes,
)

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


#: At most this many close looks at one photo (each a few tens of ms in the page).
CLOSE_LOOKS = 10


#: A code's top edge and left edge as vectors: (rx, ry, dx, dy).
Edges = tuple[float, float, float, float]
Place = tuple[tuple[float, float], float, float, Edges]


def code_edges(code: FoundCode) -> Edges:
    """The code's top edge and left edge (as `scorer.scan.codes`), from its corners; square along its `right`
    where they are not known."""
    if len(code.corners) != 4:
        rx, ry = code.right[0] * code.size, code.right[1] * code.size
        return rx, ry, -ry, rx
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = code.corners
    return ((x1 - x0 + x2 - x3) / 2, (y1 - y0 + y2 - y3) / 2, (x3 - x0 + x2 - x1) / 2, (y3 - y0 + y2 - y1) / 2)


def edges_at(shapes: Mapping[int, Edges], k: int) -> Edges:
    """A code's edges at draft position k, followed from its read neighbours' as `rows.spot` follows centres:
    perspective skews the codes along the row, and a code too soft to decode is searched for in this shape."""
    pair = neighbours(shapes, k)
    if pair is None:
        return next(iter(shapes.values()))
    a, b = pair
    t = (k - a) / (b - a)
    (rx0, ry0, dx0, dy0), (rx1, ry1, dx1, dy1) = shapes[a], shapes[b]
    return rx0 + t * (rx1 - rx0), ry0 + t * (ry1 - ry0), dx0 + t * (dx1 - dx0), dy0 + t * (dy1 - dy0)


class CloseLooks:
    """Where the page should look again, closely, for the cards its first pass missed: the places the row's
    read codes say a card lies (`rows.expected_spots`), one at a time, re-planned after every find, as
    `tourpad scan` does (`scorer.scan.codes.read_codes`). The page crops, sharpens, enlarges and reads
    there, and searches for a code shaped as the neighbours' edges say (code-reader.js `readAround`)."""

    def __init__(self, codes: list[FoundCode], image_size: tuple[int, int], row_length: int = ROW_LENGTH) -> None:
        self.codes = list(codes)
        self.image_size = image_size
        self.row_length = row_length
        self.looks = 0
        self._tried: list[tuple[tuple[float, float], float, float]] = []

    def next(self) -> Place | None:
        """(centre, code size, doubt, edges) of the next place to look at; None when the row is read or no
        place is left worth a look."""
        cards = [code for code in self.codes if is_card_code(code.text)]
        if not cards or len(cards) >= self.row_length or self.looks >= CLOSE_LOOKS:
            return None
        row = arrange(cards, self.image_size, self.row_length)
        shapes = {position: code_edges(code) for code, position in zip(row.codes, row.positions, strict=True)}
        for centre, size, doubt, position in expected_spots(cards, self.image_size, self.row_length):
            if all(math.dist(centre, seen) > 0.3 * size or doubt < seen_doubt - 0.2 * size
                   or abs(size - seen_size) > 0.15 * size for seen, seen_size, seen_doubt in self._tried):
                return centre, size, doubt, edges_at(shapes, position)
        return None

    def add(self, place: Place, found: list[FoundCode]) -> None:
        """What the look at `place` read; a place that gave nothing new is not looked at again as it was."""
        self.looks += 1
        added = 0
        for code in found:
            if all(math.dist(code.centre, seen.centre) > 0.5 * max(code.size, seen.size) for seen in self.codes):
                self.codes.append(code)
                added += 1
        if not added:
            self._tried.append(place[:3])


def result_of(answer: str, edition: Edition, taken: Mapping[str, str] | Iterable[str] = (),
              row_length: int = ROW_LENGTH, seconds: float = 0.0) -> ScanResult:
    """The row the page's reader saw, as `tourpad scan` would say it. The page cannot tell how detailed the
    photo is beyond the codes read, so where cards are missing at the row's ends their place is not guessed
    (`guess_ends=False`): no letter is shown at a position it may not hold."""
    codes, size = codes_of(answer)
    return result_of_codes(codes, size, edition, taken, row_length, seconds)


def result_of_codes(codes: list[FoundCode], size: tuple[int, int], edition: Edition,
                    taken: Mapping[str, str] | Iterable[str] = (), row_length: int = ROW_LENGTH,
                    seconds: float = 0.0) -> ScanResult:
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
    reader = js.tourpadCodeReader
    try:
        answer = await reader.read(to_js(bytes(data)), known_codes_json(edition))
        codes, size = codes_of(str(answer))
        looks = CloseLooks(codes, size, row_length)
        while (place := looks.next()) is not None:
            (x, y), code_size, doubt, edges = place
            more, _size = codes_of(str(await reader.readAround(x, y, code_size, doubt, json.dumps(edges))))
            looks.add(place, more)
    except JsException as err:
        if "NotAnImage" in str(err):
            raise PhotoError(_("the file is not an image we can read (JPEG, PNG, WebP, …)")) from err
        raise PhotoError(_("the code reader did not start ({error}); type the letters in").format(error=err)) from err
    return result_of_codes(looks.codes, size, edition, taken, row_length, time.perf_counter() - started)


async def take_photo(title: str, hint: str | None = None) -> bytes | None:
    """A photo from the page's camera view (rear camera, a frame to fill, a shutter; `hint` says what to fill
    it with, by default a row of cards); None when cancelled, PhotoError when there is no camera or the
    browser refuses it."""
    import js
    from pyodide.ffi import to_js

    labels = {"title": title, "shutter": _("Take photo"), "cancel": _("Cancel"),
              "hint": hint or _("Fill the frame with your row of cards, codes uncovered"),
              "noCamera": _("No camera here: use Photo file instead")}
    answer = await js.tourpadCodeReader.photo(to_js(labels, dict_converter=js.Object.fromEntries))
    if answer.bytes:
        return bytes(answer.bytes.to_py())
    if answer.error and answer.error != "cancelled":
        raise PhotoError(str(answer.error))
    return None
