"""One sheet, whatever holds the game: what the sheet screens need from a game, wherever it lives.

The score pad's screens (the sheet with its tabs and maps, the letter keypad, the round summary, the final
ranking) are drawn from a `SheetSession`: its `PadState` (the same fold and the same scoring from `rules/`
for every holder), the commands that change it, what this device may change, and where its screens are.
Two holders implement it: `scorer.pad.game.GameSession` (a game on this device, its event store) and
`scorer.table.sheet.TableSheetSession` (one seat's view of a table on the host, through its service).
No Flet here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from scorer.pad.game import PadState
from scorer.pad.places import SheetPlace


class SheetSession(Protocol):
    """What the sheet screens call. Commands raise `EntryError` with the reason, changing nothing."""

    state: PadState
    place: SheetPlace
    #: Called with the new state after every change, from any device (a screen redraws).
    listeners: list[Callable[[PadState], None]]

    @property
    def title(self) -> str: ...

    #: Whether this game has an undo at all (the app bar's button), and whether there is anything to undo.
    has_undo: bool
    #: One device passed from player to player: saving a round opens the next player's keypad.
    passed_around: bool

    @property
    def can_undo(self) -> bool: ...

    @property
    def export_name(self) -> str: ...

    @property
    def where(self) -> str:
        """The game in a sentence: "Game 3", "Table ABCD-EFGH"."""

    @property
    def draft_key(self) -> tuple: ...

    def may_enter(self, round_index: int, player: int) -> bool: ...

    def status_lines(self) -> list[str]: ...

    def reload(self) -> PadState: ...

    def enter_letters(self, player: int, cards: str, choice: str | None, round_index: int | None = None
                      ) -> PadState: ...

    def enter_categories(self, player: int, values: dict, round_index: int | None = None) -> PadState: ...

    def undo(self) -> str: ...


@dataclass
class Draft:
    letters: list[str]
    choice: str | None
    #: The saved entry (letters, choice) it was typed over: a draft is dropped once that changed elsewhere.
    base: tuple


class DraftBook:
    """Entries typed but not saved yet, per game, round and player, kept by the process serving the screens:
    a phone that reloads (or loses its connection) mid-round finds its keypad as it left it."""

    def __init__(self) -> None:
        self._drafts: dict[tuple, Draft] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Draft | None:
        with self._lock:
            return self._drafts.get(key)

    def keep(self, key: tuple, letters: list[str], choice: str | None, base: tuple) -> None:
        with self._lock:
            self._drafts[key] = Draft(list(letters), choice, base)

    def drop(self, key: tuple) -> None:
        with self._lock:
            self._drafts.pop(key, None)


DRAFTS = DraftBook()
