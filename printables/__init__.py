"""PDF printables: score pads and print-and-play card sheets (reportlab), and the card QR payload.

The scanner (issue 8) needs only `card_payload` / `parse_card_payload` from here:
``tp:<edition id>:<letter>``, e.g. ``tp:australia:A`` (see docs/printables.md).
"""

from printables.payload import PayloadError, card_payload, parse_card_payload

__all__ = ["PayloadError", "card_payload", "parse_card_payload"]
