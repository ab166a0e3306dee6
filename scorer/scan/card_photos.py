"""Each card as a teaching photo showed it, in colour: cut out when a photo teaches tourpad the cards
(`scorer.scan.faces.teach_deck`) and kept beside what was learned, so the deck editor can show a card's
picture beside its fields and one person copies the deck from the photos, not from the cards.

No OpenCV here: the editor only reads the JPEG files back. One folder per edition in the data folder's
`scan-templates`, one file per card.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from pathlib import Path

from scorer.packs import data_subfolder


def photos_dir(edition_id: str, create: bool = False) -> Path:
    return data_subfolder("scan-templates", create) / f"{re.sub(r'[^A-Za-z0-9_-]', '_', edition_id)}-cards"


def _file(folder: Path, letter: str) -> Path:
    # '@' and '#' are kept by their code: a file name that says nothing to a shell or a URL
    return folder / f"{letter if letter.isalnum() else format(ord(letter), 'x')}.jpg"


def keep_card_photos(edition_id: str, photos: dict[str, bytes]) -> None:
    """Keep (or replace) these cards' pictures, letter → JPEG bytes; each written whole or not at all."""
    folder = photos_dir(edition_id, create=True)
    folder.mkdir(exist_ok=True)
    for letter, jpeg in photos.items():
        target = _file(folder, letter)
        partial = target.with_suffix(".tmp")
        partial.write_bytes(jpeg)
        partial.replace(target)


def card_photo(edition_id: str, letter: str) -> bytes | None:
    """The picture of card `letter` a teaching photo of `edition_id` showed, if one taught it."""
    with contextlib.suppress(OSError):
        return _file(photos_dir(edition_id), letter).read_bytes()
    return None


def forget_card_photos(edition_id: str) -> None:
    shutil.rmtree(photos_dir(edition_id), ignore_errors=True)
