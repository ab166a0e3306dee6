"""The app's URLs: every screen's route, parsed into (screen, params) and formatted back. No Flet here.

A route is what the browser's address bar shows (`/game/3/round/2/player/1`); the screen it opens gets
Python's numbering (`round_index=1, player=0`): URLs count from 1 as people do, the code from 0. Each
route names its parent, the screen Back leads to, so the app's view stack is the chain of parents.
The table's shared links (`/join/<code>`, `/seat/<code>/<token>`, printed as QR codes by `tourpad host`)
are routes too; `join_link` / `seat_link` make the full URLs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from urllib.parse import urlsplit

from scorer.locale import _


class RouteError(ValueError):
    """A path that is no screen of the app (the app shows a "not found" screen with a way home)."""


@dataclass(frozen=True)
class Param:
    """One variable segment: its form in a URL, the screen's keyword, and the conversions between them."""

    pattern: str
    key: str
    to_screen: Callable[[str], object]
    to_url: Callable[[object], str]


def _counted(key: str) -> Param:
    """A number people count from 1 (round, player) that the screens count from 0."""
    return Param(r"[1-9][0-9]{0,2}", key, lambda text: int(text) - 1, lambda value: str(int(value) + 1))


PARAMS: MappingProxyType[str, Param] = MappingProxyType({
    "game_id": Param(r"[1-9][0-9]{0,17}", "game_id", int, str),
    "round": _counted("round_index"),
    "player": _counted("player"),
    "seat": Param(r"[1-9][0-9]{0,2}", "seat", int, str),  # the table's seats are numbered from 1 everywhere
    "code": Param(r"[A-Za-z0-9-]{4,16}", "code", str, str),
    "token": Param(r"[A-Za-z0-9_-]{16,64}", "token", str, str),
    "credential": Param(r"[A-Za-z0-9_-]{32}", "credential", str, str),  # the host credential (192 bits)
    "edition": Param(r"[a-z0-9][a-z0-9_-]{0,63}", "edition", str, str),  # an edition's or deck pack's id
    "deck_code": Param(r"[A-Za-z0-9_-]{8,3000}", "deck_code", str, str),  # a shared deck (scorer.packs)
})


@dataclass(frozen=True)
class Route:
    screen: str
    pattern: str  # "/game/{game_id}/round/{round}": literal segments and {param} segments
    parent: str | None  # the screen Back leads to; its params are a subset of this route's

    @property
    def segments(self) -> tuple[str, ...]:
        return tuple(s for s in self.pattern.split("/") if s)

    @property
    def names(self) -> tuple[str, ...]:
        """The URL names of this route's params, in order."""
        return tuple(s[1:-1] for s in self.segments if s.startswith("{"))

    @property
    def keys(self) -> tuple[str, ...]:
        """The screen's keywords for this route's params."""
        return tuple(PARAMS[name].key for name in self.names)

    def regex(self) -> re.Pattern[str]:
        parts = [f"(?P<{s[1:-1]}>{PARAMS[s[1:-1]].pattern})" if s.startswith("{") else re.escape(s)
                 for s in self.segments]
        return re.compile("^/" + "/".join(parts) + "$")


ROUTES: tuple[Route, ...] = (
    Route("home", "/", None),
    Route("history", "/history", "home"),
    Route("stats", "/stats", "history"),  # players' figures across History
    Route("new_game", "/new", "home"),
    Route("decks", "/decks", "home"),  # an owner's decks: rename, duplicate, export, delete, import
    Route("deck_editor", "/decks/{edition}", "decks"),  # one of them in the editor
    Route("deck_link", "/deck/{deck_code}", "decks"),  # a deck shared by link or QR code, to install
    Route("sheet", "/game/{game_id}", "home"),
    Route("round_summary", "/game/{game_id}/round/{round}", "sheet"),
    Route("entry", "/game/{game_id}/round/{round}/player/{player}", "sheet"),
    Route("end", "/game/{game_id}/end", "home"),
    Route("solo_setup", "/solo/new", "home"),
    Route("solo_game", "/solo/{game_id}", "home"),
    Route("race_checker", "/race/checker", "home"),
    Route("race_solo", "/race/solo", "home"),
    # teaching the scanner the player's own printing of the cards: every edition, then one edition's photos
    Route("teach", "/teach", "home"),
    Route("teach_edition", "/teach/{edition}", "teach"),
    Route("table", "/table", "home"),
    Route("table_seats", "/table/{code}", "table"),
    # a seat's own score sheet (every seat's tabs, its own keypad), as the pad's sheet screens are laid out
    Route("table_seat", "/table/{code}/seat/{seat}", "table"),
    Route("table_seat_summary", "/table/{code}/seat/{seat}/round/{round}", "table_seat"),
    Route("table_seat_entry", "/table/{code}/seat/{seat}/round/{round}/player/{player}", "table_seat"),
    Route("table_seat_end", "/table/{code}/seat/{seat}/end", "table_seat"),
    # the host's controls, and the host's sheet (any seat's round so far may be corrected there)
    Route("table_host", "/table/{code}/host", "table"),
    Route("table_host_sheet", "/table/{code}/host/sheet", "table_host"),
    Route("table_host_summary", "/table/{code}/host/round/{round}", "table_host_sheet"),
    Route("table_host_entry", "/table/{code}/host/round/{round}/player/{player}", "table_host_sheet"),
    Route("table_host_end", "/table/{code}/host/end", "table_host_sheet"),
    Route("table_board", "/table/{code}/board", "table"),  # the big screen: read-only, anyone with the code
    Route("join", "/join/{code}", "table"),  # the join QR code: that table's seat picker
    Route("seat_link", "/seat/{code}/{token}", "table"),  # a seat's QR code: that seat, with its token
    Route("host_link", "/host/{credential}", "table"),  # the host link: a second device becomes a host
)
BY_SCREEN: MappingProxyType[str, Route] = MappingProxyType({r.screen: r for r in ROUTES})
_MATCHERS = tuple((route, route.regex()) for route in ROUTES)


def normalise(path: str) -> str:
    """The route part of what the page reports: no scheme/host, query or fragment, no trailing slash."""
    path = urlsplit(path).path or "/"
    if not path.startswith("/"):
        path = "/" + path
    return path.rstrip("/") or "/"


def parse(path: str) -> tuple[str, dict]:
    """`/game/3/round/2/player/1` → ("entry", {"game_id": 3, "round_index": 1, "player": 0})."""
    clean = normalise(path)
    for route, matcher in _MATCHERS:
        match = matcher.match(clean)
        if match is not None:
            return route.screen, {PARAMS[name].key: PARAMS[name].to_screen(match.group(name))
                                  for name in route.names}
    raise RouteError(_("There is no screen at {path}").format(path=clean))


def route_params(screen: str, params: dict) -> dict:
    """The params of `params` that are part of `screen`'s URL (a screen may take others, e.g. a tab)."""
    return {key: params[key] for key in BY_SCREEN[screen].keys if key in params}


def format_route(screen: str, **params) -> str:
    """("entry", game_id=3, round_index=1, player=0) → `/game/3/round/2/player/1`; every URL param is
    required (KeyError names the missing one), and a value its pattern refuses is a RouteError."""
    route = BY_SCREEN[screen]
    out = []
    for segment in route.segments:
        if segment.startswith("{"):
            param = PARAMS[segment[1:-1]]
            if param.key not in params:
                raise KeyError(f"{screen} needs {param.key}")
            text = param.to_url(params[param.key])
            if not re.fullmatch(param.pattern, text):
                raise RouteError(_("{key}={value!r} cannot be part of a URL").format(key=param.key,
                                                                                    value=params[param.key]))
            out.append(text)
        else:
            out.append(segment)
    return "/" + "/".join(out)


def parent(screen: str, params: dict) -> tuple[str, dict] | None:
    """Where Back leads from this screen (None at home)."""
    up = BY_SCREEN[screen].parent
    return None if up is None else (up, route_params(up, params))


def chain(screen: str, params: dict) -> list[tuple[str, dict]]:
    """Home first, this screen last: the view stack a phone shows for this route."""
    out = [(screen, route_params(screen, params))]
    while (up := parent(*out[-1])) is not None:
        out.append(up)
    return out[::-1]


def deck_link(url: str, deck_code: str, hash_routes: bool = False) -> str:
    """The full URL of a shared deck (its QR code opens the deck, ready to install). With `hash_routes` (the
    published web app: a static site, whose screens live in the URL's `#` part) the route follows `#`, as a
    static host has no page at /deck/…; `url` is then the site's folder."""
    route = format_route("deck_link", deck_code=deck_code)
    return url.rstrip("/") + ("/#" + route if hash_routes else route)


def join_link(url: str, code: str) -> str:
    """The full URL of a table's join link (its QR code opens that table's seat picker)."""
    return url.rstrip("/") + format_route("join", code=code)


def seat_link(url: str, code: str, token: str) -> str:
    """The full URL of a seat link (the host shows it after seating someone; it opens that seat)."""
    return url.rstrip("/") + format_route("seat_link", code=code, token=token)


def host_link(url: str, credential: str) -> str:
    """The full URL of the host link (`tourpad host` prints it): a second device opens it once to host; it
    lands on the host screen of the host's most recently active table (the one `tourpad host` opened)."""
    return url.rstrip("/") + format_route("host_link", credential=credential)


def host_screen_link(url: str, code: str) -> str:
    """The full URL of a table's host screen (the host's own device opens it as it is; elsewhere it needs
    a host token, or the host credential the host link gave the device)."""
    return url.rstrip("/") + format_route("table_host", code=code)


def board_link(url: str, code: str) -> str:
    """The full URL of a table's big-screen board (a laptop or TV beside the table opens it)."""
    return url.rstrip("/") + format_route("table_board", code=code)
