"""The text a card's QR code carries, and the code's size and place on the printed card: shared by the card
sheets (issue 4) and the scanner (issue 8), so no reportlab here.

Format: ``tp:<edition id>:<letter>``, e.g. ``tp:australia:A`` or ``tp:usa:#`` (tp = tourpad). Short enough
for a version-1 QR code (21 × 21 modules) at error level M for every bundled edition: the fewer modules,
the larger each one prints and the further away a phone reads it (`tourpad bench scan`). It names the
edition, so a card of one edition scanned during a game of another is refused with a clear message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from printables.locale import _
from rules.model import LETTERS

if TYPE_CHECKING:
    import segno

PREFIX = "tp"
_EDITION_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class PayloadError(ValueError):
    """A scanned text that is not a tourpad card code; the message says what is wrong."""


def card_payload(edition_id: str, letter: str) -> str:
    """The QR text for one card; refuses an edition id or letter no edition could have."""
    if not _EDITION_ID.match(edition_id):
        raise PayloadError(_("edition id {edition!r} is not a valid edition id").format(edition=edition_id))
    if letter not in LETTERS:
        raise PayloadError(_("letter {letter!r} is not a card letter (A–Z, @, #)").format(letter=letter))
    return f"{PREFIX}:{edition_id}:{letter}"


def parse_card_payload(text: str) -> tuple[str, str]:
    """``(edition_id, letter)`` from a scanned QR text; PayloadError names what does not fit."""
    parts = text.strip().split(":")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise PayloadError(_("{text!r} is not a tourpad card code (expected '{prefix}:<edition>:<letter>')").format(
            text=text, prefix=PREFIX))
    _prefix, edition_id, letter = parts
    if not _EDITION_ID.match(edition_id):
        raise PayloadError(_("{text!r}: {edition!r} is not a valid edition id").format(text=text, edition=edition_id))
    if letter not in LETTERS:
        raise PayloadError(_("{text!r}: {letter!r} is not a card letter (A–Z, @, #)").format(text=text, letter=letter))
    return edition_id, letter


def card_qr(payload: str) -> segno.QRCode:
    """The QR code printed for a text: error level M, never a micro code (phones read those poorly)."""
    import segno  # here: segno brings urllib, http.client and email, 0.2 s of the web app's start

    return segno.make(payload, error="m", micro=False)


def qr_modules(payload: str) -> int:
    """Modules across the QR code `printables.badges.draw_qr` prints for this text (quiet zone excluded)."""
    return len(card_qr(payload).matrix)


#: The QR code's side, quiet zone included, and the quiet zone in modules. 22 mm because the scanner must
#: read seven cards in one photo taken from arm's length (`tourpad bench scan`); 16 mm read only 84.5%.
CARD_QR_MM = 22
CARD_QR_BORDER = 2
#: The code's right and bottom edges on the card, in mm from its left and bottom edges.
CARD_QR_RIGHT_MM, CARD_QR_BOTTOM_MM = 58, 4
#: Where the code's centre sits, in mm from the card's left and top edges (for the scan benchmark's faces).
CARD_QR_CENTRE_MM = (CARD_QR_RIGHT_MM - CARD_QR_MM / 2, 88 - CARD_QR_BOTTOM_MM - CARD_QR_MM / 2)


def card_code_width_mm(edition_id: str) -> float:
    """The printed code's width without its quiet zone: what a scanner sees of a card."""
    modules = qr_modules(card_payload(edition_id, "#"))
    return CARD_QR_MM * modules / (modules + 2 * CARD_QR_BORDER)
