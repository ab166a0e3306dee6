"""The round-entry keypad's logic: the letters typed so far, live points, the choice options.

Plain Python so it is unit-tested without a client; the Flet screen only renders `LetterDraft` and
`preview(...)`. Nothing here is persisted: `GameSession.enter_letters` is the only way in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import wording
from rules.engine import HAND_SIZE
from rules.scoring import (
    ScoreState,
    route_achieved,
    row_mask,
    score_choice,
    score_collection,
    score_pairs,
    score_throw_catch,
)
from scorer.pad.game import PadState, letters_entry


@dataclass
class LetterDraft:
    """The cards one player has tapped so far for one round, in draft order, and their choice."""

    letters: list[str] = field(default_factory=list)
    choice: str | None = None
    #: What the keypad refused last (shown under it), cleared by the next accepted tap.
    message: str = ""

    #: Letters other players entered this round → their name (those cards cannot be in this hand).
    taken: dict[str, str] = field(default_factory=dict)

    def tap(self, letter: str) -> bool:
        """Add a card; a repeat, another player's card or an eighth card is refused with a message."""
        letter = letter.upper()
        if letter in self.taken:
            self.message = f"{letter} is already in {self.taken[letter]}'s cards this round"
            return False
        if letter in self.letters:
            self.message = f"{letter} is already your card #{self.letters.index(letter) + 1} this round"
            return False
        if len(self.letters) >= HAND_SIZE:
            self.message = f"you already have {HAND_SIZE} cards; remove one first"
            return False
        self.letters.append(letter)
        self.message = ""
        return True

    def backspace(self) -> None:
        if self.letters:
            self.letters.pop()
        self.message = ""

    def remove(self, letter: str) -> None:
        if letter in self.letters:
            self.letters.remove(letter)
        self.message = ""

    def set_text(self, text: str, valid: str) -> None:
        """Keyboard entry replaces the cards: every letter of `text` in order; refusals leave a message
        and the rest of the text still counts."""
        self.letters = []
        message = ""
        for ch in text.upper():
            if ch in " ,":
                continue
            if ch not in valid:
                message = f"{ch!r} is not a card letter ({valid})"
                continue
            if not self.tap(ch):
                message = self.message
        self.message = message

    @property
    def cards(self) -> str:
        return "".join(self.letters)


@dataclass(frozen=True, slots=True)
class CategoryLine:
    name: str
    points: int | None
    explanation: str


@dataclass(frozen=True, slots=True)
class ChoiceOption:
    name: str
    points: int
    #: The round (1-based) this player already scored it in, or 0.
    used_in: int
    #: At least one icon of it on the player's cards (it may be chosen).
    held: bool

    @property
    def available(self) -> bool:
        return self.held and not self.used_in


@dataclass
class Preview:
    lines: list[CategoryLine]
    choices: list[ChoiceOption]
    #: Own points so far (bonuses are settled at round close, so they are listed, not added).
    subtotal: int
    bonus_hints: list[str]


def carried_before(state: PadState, round_index: int) -> ScoreState:
    return state.before_round[min(round_index, len(state.before_round) - 1)].copy()


def preview(state: PadState, round_index: int, player: int, draft: LetterDraft) -> Preview:
    """Each category's points for the cards tapped so far, with the engine's own explanation lines."""
    edition = state.edition
    carried = carried_before(state, round_index)
    cards = []
    for letter in draft.letters:
        try:
            cards.append(edition.card_index(letter))
        except KeyError:
            continue
    mask = row_mask(cards)
    lines = []
    if len(cards) == HAND_SIZE:
        points, how = score_throw_catch(edition, cards, explain=True)
        lines.append(CategoryLine("Throw & Catch", points, how))
    else:
        lines.append(CategoryLine("Throw & Catch", None,
                                  f"Throw & Catch: scored when all {HAND_SIZE} cards are in "
                                  f"({len(cards)} so far)"))
    points, how = score_collection(edition, mask, carried.previous_collection[player], explain=True)
    lines.append(CategoryLine(edition.collection.name, points, how))
    points, how = score_pairs(edition, mask, explain=True)
    lines.append(CategoryLine(edition.pairs.name, points, how))

    options = choice_options(state, round_index, player, mask)
    chosen = next((o for o in options if o.name == draft.choice), None)
    if chosen is not None:
        lines.append(CategoryLine(edition.choice.name, chosen.points, f"{edition.choice.name}: {chosen.name}"
                                  f" → {chosen.points}"))
    else:
        lines.append(CategoryLine(edition.choice.name, 0, f"{edition.choice.name}: none chosen"))
    new_sites = mask & ~carried.visited[player]
    lines.append(CategoryLine(edition.sites_label, new_sites.bit_count(),
                              f"new: {', '.join(edition.letters_of(new_sites)) or 'none'}"))
    hints = []
    visited = carried.visited[player] | mask
    for region in edition.regions:
        if visited & region.mask == region.mask and carried.visited[player] & region.mask != region.mask:
            claimed = bool(carried.regions_claimed >> region.index & 1)
            hints.append(wording.region_hint(region.name, region.bonus, claimed))
    route = edition.route
    if route is not None and not carried.route_done >> player & 1 and route_achieved(edition, visited):
        hints.append(wording.route_hint(route.name))
    subtotal = sum(line.points or 0 for line in lines)
    return Preview(lines, options, subtotal, hints)


def choice_options(state: PadState, round_index: int, player: int, mask: int) -> list[ChoiceOption]:
    """Every activity / treasure with what it would score now and whether it is used up."""
    edition = state.edition
    family = edition.choice
    others = [letters_entry(edition, payload, round_index, state.players[p])[0]
              for p, payload in state.entries[round_index].items() if p != player] \
        if round_index < len(state.entries) else []
    used = used_choices(state, round_index, player)
    out = []
    for i, icon in enumerate(family.icons):
        everyone = (mask & icon.mask).bit_count() + sum((row_mask(r) & icon.mask).bit_count() for r in others)
        points, _ = score_choice(edition, i, mask, everyone, state.setup.n)
        out.append(ChoiceOption(icon.name, points, used.get(icon.name, 0), bool(mask & icon.mask)))
    return out


def used_choices(state: PadState, round_index: int, player: int) -> dict[str, int]:
    """The choices this player scored in the game's other rounds (name → 1-based round)."""
    used = {}
    for r, row in enumerate(state.entries):
        if r == round_index or player not in row:
            continue
        name = row[player].get("choice")
        if name:
            used[name] = r + 1
    return used


def taken_letters(state: PadState, round_index: int, player: int) -> dict[str, str]:
    return {letter: state.players[p] for p, payload in state.entries[round_index].items()
            if p != player and "cards" in payload for letter in payload["cards"]}


def draft_for(state: PadState, round_index: int, player: int) -> LetterDraft:
    """The keypad for one player's round: their saved entry (for editing) or empty."""
    payload = state.entries[round_index].get(player)
    draft = LetterDraft(taken=taken_letters(state, round_index, player))
    if payload and "cards" in payload:
        draft.letters = list(payload["cards"])
        draft.choice = payload.get("choice")
    return draft
