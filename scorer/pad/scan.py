"""Completing a scanned row before it becomes a player's entry (plain Python; the Flet panel renders it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.engine import HAND_SIZE as ROW_LENGTH
from scorer.locale import _
from scorer.pad.entry import LetterDraft

if TYPE_CHECKING:  # the decoder needs numpy and Pillow, which the browser build does not ship
    from scorer.scan.rows import ScanResult


@dataclass
class RowProposal:
    """A scanned row the player is completing before it becomes their entry: positions the photo could not
    settle (unread, another edition's card, a repeat, another player's card) are holes, and each card the
    player taps fills the first hole. Nothing is entered until it is complete and the player saves."""

    slots: list[str | None]
    taken: dict[str, str]
    message: str = ""

    @classmethod
    def from_result(cls, result: ScanResult, taken: Mapping[str, str]) -> RowProposal:
        slots: list[str | None] = list(result.slots[:ROW_LENGTH])
        seen: set[str] = set()
        for i, letter in enumerate(slots):
            if letter is not None and (letter in taken or letter in seen):
                slots[i] = None
            elif letter is not None:
                seen.add(letter)
        return cls(slots, dict(taken), "; ".join(result.messages()))

    @property
    def holes(self) -> list[int]:
        """0-based positions still to fill."""
        return [i for i, letter in enumerate(self.slots) if letter is None]

    @property
    def complete(self) -> bool:
        return not self.holes

    @property
    def letters(self) -> str:
        return "".join(letter or "?" for letter in self.slots)

    def fill(self, letter: str) -> bool:
        """Put `letter` in the first hole; False (with `message` saying why) if the card cannot be there.
        Beyond a repeat, the keypad's own rules decide (another player's card), so both say the same."""
        if not self.holes:
            return False
        if letter in self.slots:  # said here: the keypad would count positions without the holes
            self.message = _("{letter} is already your card at position {position}").format(
                letter=letter, position=self.slots.index(letter) + 1)
            return False
        keypad = LetterDraft(letters=[c for c in self.slots if c], taken=self.taken)
        if not keypad.tap(letter):
            self.message = keypad.message
            return False
        position = self.holes[0] + 1
        self.slots[self.holes[0]] = letter
        if self.holes:
            self.message = _("position {position}: {letter}; now tap the card at position {next}").format(
                position=position, letter=letter, next=self.holes[0] + 1)
        else:
            self.message = _("position {position}: {letter} — the row is complete: check it and save").format(
                position=position, letter=letter)
        return True
