"""Where a game's sheet screens are: route names and the params naming the game (no Flet, no routes module:
`scorer.routes` holds the patterns)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetPlace:
    """Where one game's sheet screens are: their route names, and the route params naming the game there
    (`{"game_id": 3}` on this device, `{"code": …, "seat": 2}` for a seat at a table)."""

    sheet: str
    summary: str
    entry: str
    end: str
    params: tuple[tuple[str, object], ...]

    def route(self, which: str, **more) -> tuple[str, dict]:
        """("sheet" | "summary" | "entry" | "end", extra params) → (route name, params) for `PadApp.go`."""
        return getattr(self, which), {**dict(self.params), **more}

    def shows(self, route_name: str, params: dict) -> bool:
        """Whether a route is one of this game's sheet screens."""
        return (route_name in (self.sheet, self.summary, self.entry, self.end)
                and all(params.get(key) == value for key, value in self.params))


def pad_place(game_id: int) -> SheetPlace:
    return SheetPlace("sheet", "round_summary", "entry", "end", (("game_id", game_id),))
