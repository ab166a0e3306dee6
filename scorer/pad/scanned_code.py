"""What a QR code read by the app (or a link typed or pasted) points to: a shared deck, or one of a table's
links. The screens that ask for a deck link or a table's code read it through here, so a scanned code and a
typed one go the same way. No Flet here."""

from __future__ import annotations

from urllib.parse import urlsplit

from scorer.routes import RouteError, format_route, parse

#: The table's links `tourpad host` shows as QR codes (join, a seat, a second host, the big screen).
TABLE_LINKS = frozenset({"join", "seat_link", "host_link", "table_board", "table_seats"})


def deck_code_in(text: str) -> str | None:
    """The share code of a deck link (`…/deck/<code>`, as the deck's QR code carries it) or of a bare code;
    None for anything else (a link to another screen, a table's code, a web address)."""
    text = text.strip().rstrip("/")
    before, _slash, code = text.rpartition("/")
    if before and not before.endswith("/deck"):
        return None
    try:
        format_route("deck_link", deck_code=code)
    except RouteError:
        return None
    return code


def table_link_in(text: str) -> str | None:
    """A table's link (`http(s)://<host>/join/<code>`, a seat's, the host's or the big screen's, routed by path
    or after `#`) as the address to open; None for anything else."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    for route in (parts.fragment, parts.path):
        try:
            screen, _params = parse(route)
        except RouteError:
            continue
        if screen in TABLE_LINKS:
            return text.strip()
    return None
