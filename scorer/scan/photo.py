"""Scan one photo of a player's row (`tourpad scan`, the hosted app): tourpad's own cards by their QR codes
(`scorer.scan.codes`), and, when the photo shows no tourpad code, the publisher's printed cards by their
corners and faces (`scorer.scan.faces`, OpenCV, loaded only then). What the codes say of the row is
`scorer.scan.rows`, which the web app's reader shares.

Pure (no UI, no files): image bytes or a PIL image in, a `ScanResult` out. The result holds what the photo
shows; the player confirms it before anything is entered (the app and `tourpad scan` show the problems).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import replace

from rules.edition import Edition
from scorer.locale import _
from scorer.scan.codes import DEFAULT_BUDGET, Detail, first_look, load_image, read_codes
from scorer.scan.image import ScanImageError as ScanImageError  # re-exported: callers catch it here
from scorer.scan.rows import (
    ROW_LENGTH,
    TOO_MANY_CARDS,
    ScanResult,
    is_card_code,
    letter_problems,
    row_of_codes,
)


class _NoPrintedCardReader(Exception):
    """OpenCV cannot be imported here (the browser build)."""


def _publisher_result(source, edition: Edition, taken, row_length: int, started: float) -> ScanResult | None:
    """The publisher's printed cards read from the photo (no QR code); None when no card was found. OpenCV
    loads here, on the first such photo, never on import; _NoPrintedCardReader where it is missing."""
    try:
        from scorer.scan import faces
    except ImportError as err:
        raise _NoPrintedCardReader from err
    read = faces.read_row(source, edition)
    if not read.cards:
        return None
    found = len(read.cards)
    # With a card too few or too many, which position each letter read belongs to is not known: none is shown.
    slots: list[str | None] = ([reading.letter for reading in read.readings] if found == row_length
                               else [None] * row_length)
    problems: list[str] = []
    if found < row_length:
        problems.append(_("found {n} cards; a row has {size}: is a card covered, or outside the photo?").format(
            n=found, size=row_length))
    elif found > row_length:
        problems.append(_(TOO_MANY_CARDS).format(
            n=found, size=row_length))
    problems += [_("position {position}: {why}").format(position=i + 1, why=reading.problem)
                 for i, reading in enumerate(read.readings) if reading.problem]
    problems += letter_problems(((i, letter) for i, letter in enumerate(slots) if letter), taken)
    return ScanResult(edition.id, tuple(slots), tuple(problems), "row", (), time.perf_counter() - started)


def scan_row(source, edition: Edition, taken: Mapping[str, str] | Iterable[str] = (),
             row_length: int = ROW_LENGTH, budget: float = DEFAULT_BUDGET) -> ScanResult:
    """Decode a photo of one player's row for `edition`: tourpad's own cards by their QR codes, and, when the
    first look finds no tourpad code, the publisher's printed cards by their corner number and letter.

    `taken` holds the letters other players already have this round (a mapping letter → player name lets the
    message name who). Raises ScanImageError for a file that is not an image; everything else is reported
    in the result.
    """
    started = time.perf_counter()
    image = load_image(source)
    first = first_look(image)
    publisher: ScanResult | None = None
    no_printed_reader = False
    if not any(is_card_code(code.text) for code in first):
        # Most likely the publisher's cards, which carry no code. Unless their reader is sure of a letter,
        # the codes still get the long look below (a blurred tourpad row reads no code at first sight).
        try:
            publisher = _publisher_result(source, edition, taken, row_length, started)
        except _NoPrintedCardReader:
            no_printed_reader = True
        if publisher is not None and any(publisher.slots):
            return publisher
    detail = Detail(image)
    codes = read_codes(image, row_length, budget, detail, edition, first)
    if publisher is not None and not any(is_card_code(code.text) for code in codes):
        return replace(publisher, seconds=time.perf_counter() - started)
    return row_of_codes(codes, edition, image.size, taken, row_length, detail, time.perf_counter() - started,
                        no_printed_reader)
