"""The taught deck's storage: what tourpad learned of a player's own publisher cards (`scorer.scan.faces`
teaches and reads them), one compressed numpy file per edition in the data folder.
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field, fields
from pathlib import Path

import cv2
import numpy as np

from rules.edition import Edition
from scorer.locale import _
from scorer.scan.image import ScanImageError
from scorer.userfile import shown


@dataclass(frozen=True)
class LearnedCard:
    """What tourpad keeps of one taught card (a rectified upright cut, CARD_PX grey)."""

    letter: np.ndarray  #: its corner letter (a template, normalised like a region)
    number: np.ndarray  #: its number's glyph (a template)
    face: np.ndarray  #: its left part, small and normalised (`_face`)
    points: np.ndarray  #: its keypoints (N × 2, in the feature image's pixels)
    descriptors: np.ndarray  #: their SIFT descriptors (N × 128)
    circle: np.ndarray  #: the inside of its number circle, centred on the circle (`_circle_inside`)
    #: the keypoints and descriptors of the same cut blurred (TAUGHT_BLUR_PX): for reading a blurred photo.
    #: Empty for a deck taught by a tourpad that kept none (it reads as before until taught again).
    blurred_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))
    blurred_descriptors: np.ndarray = field(default_factory=lambda: np.zeros((0, 128), np.float32))


#: letter → what was learned of that card from the player's deck.
Deck = dict[str, LearnedCard]
_LEARNED_FIELDS = tuple(kept.name for kept in fields(LearnedCard))  # as kept in the deck's file
#: SIFT's descriptors are whole numbers 0–255 kept in float32: the file keeps them as bytes, a quarter of
#: the size, so saving a taught deck compresses 2 MB rather than 9 MB (a second a save, on a phone too)
_BYTE_FIELDS = ("descriptors", "blurred_descriptors")


def _as_kept(name: str, values: np.ndarray) -> np.ndarray:
    if name in _BYTE_FIELDS and values.size and np.array_equal(values, values.astype(np.uint8)):
        return values.astype(np.uint8)
    return values


def _as_read(name: str, values: np.ndarray) -> np.ndarray:
    return values.astype(np.float32) if name in _BYTE_FIELDS else values


# --- Learned templates (the player's deck) ------------------------------------------------------------------

def templates_dir(create: bool = False) -> Path:
    """Where the learned decks are kept; created only to save one (reading a row writes nothing)."""
    from scorer.packs import data_subfolder

    return data_subfolder("scan-templates", create)


def deck_file(edition_id: str, create: bool = False) -> Path:
    return templates_dir(create) / f"{re.sub(r'[^A-Za-z0-9_-]', '_', edition_id)}.npz"


class DamagedDeckError(ScanImageError):
    """The file of what was learned of the player's cards cannot be read back (cut short, overwritten)."""


def load_deck(edition_id: str, damaged_is_empty: bool = False) -> Deck:
    """letter → what was learned of that card for the edition; {} when none (or taught by an older tourpad that
    kept no keypoints: teach again). A file that cannot be read back raises DamagedDeckError, naming it and
    the way out, unless `damaged_is_empty` (teaching again and forgetting start over)."""
    path = deck_file(edition_id)
    if not path.is_file():
        return {}
    stat = path.stat()
    # Read once per file as written (a save replaces the file: another inode): unpacking the 28 cards' keypoints
    # took 66 ms of each photo's reading. A copy of the dict: teaching adds to the one it is given.
    version = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    kept_before = _read_decks.get(path)
    if kept_before is not None and kept_before[0] == version:
        return dict(kept_before[1])
    try:
        with np.load(path) as data:
            letters = json.loads(str(data["letters"]))
            if letters and "descriptors_0" not in data:
                return {}
            kept = set(data.files)
            deck = {letter: LearnedCard(**{name: _as_read(name, data[f"{name}_{i}"]) for name in _LEARNED_FIELDS
                                           if f"{name}_{i}" in kept})
                    for i, letter in enumerate(letters)}
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as err:
        if damaged_is_empty:
            return {}
        raise DamagedDeckError(_("what was learned of your cards ({path}) cannot be read back; forget it "
                                 "(tourpad scan teach --forget --edition {edition}) and teach the cards "
                                 "again").format(path=shown(path), edition=edition_id)) from err
    _read_decks[path] = (version, deck)
    return dict(deck)


#: deck file → (its inode, modification time and size when read, the deck read from it)
_read_decks: dict[Path, tuple[tuple[int, int, int], Deck]] = {}


def save_deck(edition_id: str, deck: Deck) -> None:
    path = deck_file(edition_id, create=True)
    letters = sorted(deck)
    arrays = {"letters": np.array(json.dumps(letters))}
    for i, letter in enumerate(letters):
        for name in _LEARNED_FIELDS:
            arrays[f"{name}_{i}"] = _as_kept(name, getattr(deck[letter], name))
    partial = path.with_suffix(".tmp.npz")
    np.savez_compressed(partial, **arrays)
    partial.replace(path)  # all or nothing: a crash mid-write keeps the old templates


def learned(edition: Edition) -> str:
    """The letters whose cards tourpad has learned for this edition, in the edition's order (none from a file
    that cannot be read back: reading a row says so)."""
    deck = load_deck(edition.id, damaged_is_empty=True)
    return "".join(letter for letter in edition.letters if letter in deck)


def forget_deck(edition: Edition) -> int:
    """Remove what was learned for the edition; how many cards that was."""
    from scorer.scan.card_photos import forget_card_photos

    count = len(load_deck(edition.id, damaged_is_empty=True))
    deck_file(edition.id).unlink(missing_ok=True)
    forget_card_photos(edition.id)  # the cards' pictures go with what was learned of them
    return count




def learned_preview(edition: Edition) -> dict[str, bytes]:
    """letter → a small PNG of what was learned of that card (its corner letter and number side by side, as
    the reader sees them), for the app to show after teaching; {} when nothing was learned."""
    out = {}
    for letter, taught in load_deck(edition.id, damaged_is_empty=True).items():
        letter_shape, number_shape = taught.letter, taught.number
        height = max(letter_shape.shape[0], number_shape.shape[0])
        parts = [cv2.copyMakeBorder(shape, 0, height - shape.shape[0], 0, 2, cv2.BORDER_CONSTANT, value=0)
                 for shape in (number_shape, letter_shape)]
        both = np.hstack(parts)
        grey = np.clip(128 + 40 * both, 0, 255).astype(np.uint8)
        ok, png = cv2.imencode(".png", cv2.resize(grey, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        if ok:
            out[letter] = png.tobytes()
    return {letter: out[letter] for letter in edition.letters if letter in out}
