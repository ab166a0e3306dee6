"""One sheet, whatever holds the game: what the sheet screens need from a game, wherever it lives.

The score pad's screens (the sheet with its tabs and maps, the letter keypad, the round summary, the final
ranking) are drawn from a `SheetSession`: its `PadState` (the same fold and the same scoring from `rules/`
for every holder), the commands that change it, what this device may change, and where its screens are.
Two holders implement it: `scorer.pad.game.GameSession` (a game on this device, its event store) and
`scorer.table.sheet.TableSheetSession` (one seat's view of a table on the host, through its service).
No Flet here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
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
    def can_redo(self) -> bool: ...

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

    def redo(self) -> str: ...


@dataclass
class Draft:
    letters: list[str]
    choice: str | None
    #: The saved entry (letters, choice) it was typed over: a draft is dropped once that changed elsewhere.
    base: tuple
    #: Whether the choice was made (a choice, or none on purpose): `scorer.pad.entry.LetterDraft.choice_made`.
    choice_made: bool = False
    #: A round typed by category (a game entered that way): the form's values as `enter_categories` takes them.
    categories: dict | None = None


class DraftBook:
    """Entries typed but not saved yet, per game, round and player, kept by the process serving the screens:
    a phone that reloads (or loses its connection) mid-round finds its keypad as it left it.

    With a `path` (the published web app, where a reload restarts Python in the page) every change is also
    written to that file in the data folder, which the browser's storage keeps (`scorer.browser_storage`)."""

    def __init__(self, path: Callable[[], Path | None] | None = None,
                 after_write: Callable[[], None] | None = None) -> None:
        """`path` is asked on first use (the data folder is known only once the page opened its storage);
        `after_write` runs after each write of the file (the browser's save)."""
        self._drafts: dict[tuple, Draft] = {}
        self._lock = threading.Lock()
        self._path = path
        self._after_write = after_write
        self._loaded = path is None

    def get(self, key: tuple) -> Draft | None:
        with self._lock:
            self._load()
            return self._drafts.get(key)

    def keep(self, key: tuple, letters: list[str], choice: str | None, base: tuple,
             choice_made: bool = False, categories: dict | None = None) -> None:
        with self._lock:
            self._load()
            self._drafts[key] = Draft(list(letters), choice, tuple(base), choice_made, categories)
            self._save()

    def drop(self, key: tuple) -> None:
        with self._lock:
            self._load()
            if self._drafts.pop(key, None) is not None:
                self._save()

    def _file(self) -> Path | None:
        return self._path() if self._path is not None else None

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        path = self._file()
        try:
            rows = json.loads(path.read_text(encoding="utf-8")) if path is not None and path.exists() else []
            for row in rows:
                self._drafts[tuple(row["key"])] = Draft(list(row["letters"]), row["choice"], tuple(row["base"]),
                                                        bool(row.get("choice_made", False)), row.get("categories"))
        except (OSError, ValueError, KeyError, TypeError):
            self._drafts.clear()  # an unreadable file: drafts are a convenience, the saved games are intact

    def _save(self) -> None:
        path = self._file()
        if path is None:
            return
        rows = [{"key": list(key), "letters": d.letters, "choice": d.choice, "base": list(d.base),
                 "choice_made": d.choice_made, "categories": d.categories} for key, d in self._drafts.items()]
        try:
            path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        except OSError:  # the keypad goes on; only a reload would lose the draft
            return
        if self._after_write is not None:
            self._after_write()


def _browser_drafts_file() -> Path | None:
    """In the published web app, the drafts file in the data folder (saved to the browser's storage)."""
    from scorer.runtime import IN_BROWSER

    if not IN_BROWSER:
        return None
    from scorer.packs import data_dir

    return data_dir() / "drafts.json"


def _browser_persist() -> None:
    """Saved before the keypad draws the tap (as an entry is before it is confirmed): a reload right after
    still finds it."""
    from scorer.browser_storage import persist

    persist()


DRAFTS = DraftBook(_browser_drafts_file, after_write=_browser_persist)
