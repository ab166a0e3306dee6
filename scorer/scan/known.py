"""The card codes a photo of one game may show, module by module: this edition's cards and every bundled
edition's (so another game's card is told as such, not taken for one of ours).

Both readers tell a code too blurred to decode by its look among these (`tourpad scan`:
`scorer.scan.codes.match_known_code`; the web app: `code-reader.js`, which gets them as JSON from
`scorer.scan.browser`). Pure Python (segno draws the codes): it runs in the browser's Python too.
"""

from __future__ import annotations

import contextlib
import json
from functools import cache

from printables.payload import CARD_QR_BORDER, card_payload, card_qr
from rules.edition import Edition


def known_codes(edition: Edition) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(payload, rows of its modules as "0"/"1" text, "1" dark) of every card code a photo of `edition`'s game
    may show: its own cards first, then every other bundled edition's."""
    return _known_codes(edition.id, edition.letters)


@cache
def _known_codes(edition_id: str, letters: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    from rules.editions import bundled_ids
    from scorer.packs import resolve_edition

    letters_of = {edition_id: letters}
    for other in bundled_ids():
        if other not in letters_of:
            with contextlib.suppress(Exception):  # a bundled file that no longer loads narrows the comparison
                letters_of[other] = resolve_edition(other).letters
    out = []
    for other, its_letters in letters_of.items():
        for letter in its_letters:
            payload = card_payload(other, letter)
            rows = tuple("".join("1" if module else "0" for module in row) for row in card_qr(payload).matrix)
            out.append((payload, rows))
    return tuple(out)


def known_codes_json(edition: Edition) -> str:
    """`known_codes` as the page's reader takes them: {"border": quiet zone in modules, "codes": [{"text",
    "rows"}]}."""
    return _known_codes_json(edition.id, edition.letters)


@cache
def _known_codes_json(edition_id: str, letters: str) -> str:
    codes = [{"text": text, "rows": list(rows)} for text, rows in _known_codes(edition_id, letters)]
    return json.dumps({"border": CARD_QR_BORDER, "codes": codes}, separators=(",", ":"))
