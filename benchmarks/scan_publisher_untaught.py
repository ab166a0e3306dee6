"""Untaught readers of the publisher's cards, measured side by side on the same photos (issue 42, deliver 1).

The default untaught reader beside Tesseract (not a dependency). This compares,
on the cards `scorer.scan.find` cuts out of each photo (the corner crops every printing has):

- **corner shapes**: the reader `scorer.scan.faces.read_card` uses with nothing taught (`read_corners`,
  `scorer.scan.glyphs`: each corner character found as a shape and compared with common faces' drawings),
  looking at the corners in the photo at its own resolution;
- **tesseract**: Tesseract (Debian's tesseract-ocr data, read through the `tesserocr` binding) on each corner,
  one character, restricted to the edition's letters or digits.

A card is named only when its letter and number agree (the edition's card list gives each letter its number).
Reported per reader: rows complete and in order, cards named, letters wrong, and the median time per photo
(finding the cards included, CPU time of the one thread). Run it on the tuning photos while tuning, and on
the held-out photos only to report (it lists no row, so no one tunes on a held-out miss):

    PYTHONPATH=. .venv/bin/python -m benchmarks.scan_publisher_untaught --set tuning --photos 20

(`--seed 6161` draws another tuning sample, `--editions australia,usa,europe` all three.)

Tesseract needs `apt-get install tesseract-ocr` and `pip install tesserocr`; without them only the corner shapes
are measured.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from pathlib import Path

import numpy as np

from rules.edition import Edition

TESSDATA_DIRS = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata")
#: Tesseract's confidence (0-100) a character must have to count.
TESSERACT_MIN_CONFIDENCE = 80


#: Where each character's centre is printed (mm from the card's top-left) and the window read around it (mm):
#: the letter's badge and the inside of the number's circle, a printing's offset of a mm or so included.
LETTER_AT_MM, LETTER_WINDOW_MM = (8.5, 79), 12
NUMBER_AT_MM, NUMBER_WINDOW_MM = (8, 8), 7.5


def _glyph_window(card: np.ndarray, letter: bool) -> np.ndarray:
    """The corner crop (grey, the cut's px/mm) around the letter or the number."""
    from scorer.scan.find import PAD_MM, PX_PER_MM

    (cx, cy), size = (LETTER_AT_MM, LETTER_WINDOW_MM) if letter else (NUMBER_AT_MM, NUMBER_WINDOW_MM)
    x0, y0 = round((PAD_MM + cx - size / 2) * PX_PER_MM), round((PAD_MM + cy - size / 2) * PX_PER_MM)
    return card[y0:y0 + round(size * PX_PER_MM), x0:x0 + round(size * PX_PER_MM)]


class TesseractReader:
    """One character per corner crop, dark on light, at about 30 px a character's height."""

    def __init__(self) -> None:
        import tesserocr

        path = next((p for p in TESSDATA_DIRS if Path(p, "eng.traineddata").is_file()), None)
        if path is None:
            raise RuntimeError("tesseract-ocr's English data is not installed")
        self.api = tesserocr.PyTessBaseAPI(path=path, lang="eng", psm=tesserocr.PSM.SINGLE_CHAR)

    def read(self, crop: np.ndarray, allowed: str) -> tuple[str | None, float]:
        import cv2
        import tesserocr
        from PIL import Image

        big = cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
        _, ink = cv2.threshold(cv2.GaussianBlur(big, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        best: tuple[str | None, float] = (None, 0.0)
        self.api.SetVariable("tessedit_char_whitelist", allowed)
        for image in (ink, 255 - ink):  # light on dark and dark on light alike
            image = cv2.copyMakeBorder(image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=int(np.median(image)))
            self.api.SetImage(Image.fromarray(image))
            self.api.Recognize()
            found, level = self.api.GetIterator(), tesserocr.RIL.SYMBOL
            try:
                text = (found.GetUTF8Text(level) or "").strip() if found else ""
                confidence = float(found.Confidence(level)) if text else 0.0
            except RuntimeError:  # nothing read
                text, confidence = "", 0.0
            if len(text) == 1 and text in allowed and confidence > best[1]:
                best = (text, confidence)
        return best

    def card(self, card: np.ndarray, edition: Edition, _photo=None) -> str | None:
        number_of = dict(zip(edition.letters, edition.numbers, strict=True))
        letter, letter_confidence = self.read(_glyph_window(card, True), edition.letters)
        digits = "".join(sorted({str(n) for n in edition.numbers}))
        digit, digit_confidence = self.read(_glyph_window(card, False), digits)
        if letter is None or digit is None or min(letter_confidence, digit_confidence) < TESSERACT_MIN_CONFIDENCE:
            return None
        return letter if str(number_of[letter]) == digit else None


def _corner_shapes(card: np.ndarray, edition: Edition, photo: tuple[np.ndarray, np.ndarray] | None) -> str | None:
    from scorer.scan.faces import read_corners

    return read_corners(card, edition, photo).letter


def run(edition: Edition, photos_count: int, which: str, seed: int | None = None) -> dict:
    """The figures of every untaught reader on `photos_count` photos of `edition` from the set `which`
    ("tuning" or "held-out")."""
    import cv2

    from benchmarks import scan_publisher_held_out as held_out
    from benchmarks import scan_publisher_tuning as tuning
    from benchmarks.scan_publisher import PHOTO_SIZE, PHOTOS_PER_DECK
    from scorer.scan.find import find_cards, load_rgb

    cv2.setNumThreads(1)
    if which == "held-out":
        seed, style_of, photo_of = held_out.HELD_OUT_SEED, held_out.held_out_style, held_out.photo
    else:
        seed, style_of, photo_of = seed or tuning.TUNING_SEED, tuning.tuning_style, tuning.photo
    readers = {"corner shapes": _corner_shapes}
    with contextlib.suppress(ImportError, RuntimeError):  # not installed: the corner shapes alone
        readers["tesseract"] = TesseractReader().card
    tally = {name: {"rows": 0, "named": 0, "wrong": 0, "times": []} for name in readers}
    for index in range(photos_count):
        style = style_of(seed * 7919 + index // PHOTOS_PER_DECK)
        shot = photo_of(edition, style, seed, index, photo_size=PHOTO_SIZE)
        truth = "".join(shot.letters)
        started = time.thread_time()
        rgb = load_rgb(shot.jpeg)
        grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        row = find_cards(rgb, grey)
        finding = time.thread_time() - started
        for name, read in readers.items():
            started = time.thread_time()
            best: list[str | None] = []
            for found in (row, row.other_way):  # the way up whose cards name more letters
                if found is None:
                    continue
                letters = [read(card.image, edition, (grey, card.image_to_photo)) for card in found.cards]
                if found is row or sum(x is not None for x in letters) > sum(x is not None for x in best):
                    best = letters
            tally[name]["times"].append(finding + time.thread_time() - started)
            if len(best) == len(truth):
                tally[name]["named"] += sum(x is not None for x in best)
                tally[name]["wrong"] += sum(x is not None and x != want for x, want in zip(best, truth, strict=True))
                tally[name]["rows"] += "".join(x or "?" for x in best) == truth
            # (a row found with another number of cards shows no letter, as scan_row does: none is wrong)
    return {"edition": edition.id, "set": which, "photos": photos_count,
            **{name: {"rows_complete": f"{t['rows']} of {photos_count}", "cards_named": t["named"],
                      "wrong_letters": t["wrong"],
                      "median_ms": round(statistics.median(t["times"]) * 1000)} for name, t in tally.items()}}


def main() -> None:
    from scorer.packs import resolve_edition

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("tuning", "held-out"), default="tuning")
    parser.add_argument("--photos", type=int, default=20)
    parser.add_argument("--editions", default="australia,usa")
    parser.add_argument("--seed", type=int, help="another tuning sample than the tuning set's own seed")
    args = parser.parse_args()
    if args.seed is not None and args.set != "tuning":
        parser.error("--seed draws another tuning sample; the held-out set has its one committed seed")
    for edition_id in args.editions.split(","):
        print(json.dumps(run(resolve_edition(edition_id), args.photos, args.set, args.seed)), flush=True)


if __name__ == "__main__":
    main()
