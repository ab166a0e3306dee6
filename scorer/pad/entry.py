"""The round-entry keypad's logic: the letters typed so far, live points, the choice options.

Plain Python so it is unit-tested without a client; the Flet screen only renders `LetterDraft` and
`preview(...)`. Nothing here is persisted: `GameSession.enter_letters` is the only way in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import wording
from rules.engine import HAND_SIZE
from rules.scoring import (
    MissedChoice,
    ScoreState,
    choice_left_unscored,
    choice_may_rise,
    route_achieved,
    row_mask,
    score_choice,
    score_collection,
    score_pairs,
    score_throw_catch,
)
from scorer.locale import _
from scorer.pad.game import PadState, letters_entry


@dataclass
class LetterDraft:
    """The cards one player has tapped so far for one round, in draft order, and their choice."""

    letters: list[str] = field(default_factory=list)
    choice: str | None = None
    #: Whether the choice was made: a choice, or "No activity" tapped on purpose (or a saved entry's). A draft
    #: with none made is not saved without asking (`missing_choice_question`).
    choice_made: bool = False
    #: What the keypad refused last (shown under it), cleared by the next accepted tap.
    message: str = ""

    #: Letters other players entered this round → their name (those cards cannot be in this hand).
    taken: dict[str, str] = field(default_factory=dict)

    def tap(self, letter: str) -> bool:
        """Add a card; a repeat, another player's card or an eighth card is refused with a message."""
        letter = letter.upper()
        if letter in self.taken:
            self.message = _("{letter} is already in {name}'s cards this round").format(
                letter=letter, name=self.taken[letter])
            return False
        if letter in self.letters:
            self.message = _("{letter} is already your card #{position} this round").format(
                letter=letter, position=self.letters.index(letter) + 1)
            return False
        if len(self.letters) >= HAND_SIZE:
            self.message = _("you already have {n} cards; remove one first").format(n=HAND_SIZE)
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
                message = _("{character} is not a card letter ({letters})").format(character=repr(ch),
                                                                                letters=valid)
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
    #: Its name as the player reads it (`name` is the key the entry records).
    label: str = ""
    #: Points so far: other players' cards, not all entered yet, may raise them (Europe's treasures).
    may_rise: bool = False

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
    names = edition.category_names()
    lines = []
    if len(cards) == HAND_SIZE:
        points, how = score_throw_catch(edition, cards, explain=True)
        lines.append(CategoryLine(names["throw_catch"], points, how))
    else:
        lines.append(CategoryLine(names["throw_catch"], None,
                                  wording.throw_catch_pending(names["throw_catch"], len(cards), HAND_SIZE)))
    points, how = score_collection(edition, mask, carried.previous_collection[player], explain=True)
    lines.append(CategoryLine(names[edition.collection.id], points, how))
    points, how = score_pairs(edition, mask, explain=True)
    lines.append(CategoryLine(names[edition.pairs.id], points, how))

    options = choice_options(state, round_index, player, mask)
    chosen = next((o for o in options if o.name == draft.choice), None)
    choice_name = names[edition.choice.id]
    if chosen is not None:
        lines.append(CategoryLine(choice_name, chosen.points,
                                  wording.choice_chosen(choice_name, chosen.label, chosen.points)))
    else:
        lines.append(CategoryLine(choice_name, 0, wording.choice_none(choice_name)))
    new_sites = mask & ~carried.visited[player]
    new_letters = ", ".join(edition.letters_of(new_sites))
    lines.append(CategoryLine(names["sites"], new_sites.bit_count(),
                              wording.sites_preview(new_letters)))
    hints = []
    visited = carried.visited[player] | mask
    for region in edition.regions:
        if visited & region.mask == region.mask and carried.visited[player] & region.mask != region.mask:
            claimed = bool(carried.regions_claimed >> region.index & 1)
            hints.append(wording.region_hint(region.label, region.bonus, claimed))
    route = edition.route
    if route is not None and not carried.route_done >> player & 1 and route_achieved(edition, visited):
        hints.append(wording.route_hint(route.label))
    subtotal = sum(line.points or 0 for line in lines)
    return Preview(lines, options, subtotal, hints)


def choice_options(state: PadState, round_index: int, player: int, mask: int) -> list[ChoiceOption]:
    """Every activity / treasure with what it would score now and whether it is used up."""
    edition = state.edition
    family = edition.choice
    others = [letters_entry(edition, payload, round_index, state.players[p])[0]
              for p, payload in state.entries[round_index].items() if p != player] \
        if round_index < len(state.entries) else []
    unseen = state.setup.n - 1 - len(others)
    used = used_choices(state, round_index, player)
    out = []
    for i, icon in enumerate(family.icons):
        others_count = sum((row_mask(r) & icon.mask).bit_count() for r in others)
        points, _how = score_choice(edition, i, mask, (mask & icon.mask).bit_count() + others_count, state.setup.n)
        out.append(ChoiceOption(icon.name, points, used.get(icon.name, 0), bool(mask & icon.mask), icon.label,
                                choice_may_rise(edition, i, mask, others_count, state.setup.n, unseen)))
    return out


def missing_choice_question(state: PadState, round_index: int, player: int, draft: LetterDraft) -> str | None:
    """What to ask before a round is saved with no choice made: the best unused option and its points, in the
    rules' words; None when no option would score (nothing is given up) or the choice was made."""
    if draft.choice_made or draft.choice is not None:
        return None
    options = preview(state, round_index, player, draft).choices
    family = state.edition.choice
    index = {icon.name: i for i, icon in enumerate(family.icons)}
    missed = choice_left_unscored([MissedChoice(index[o.name], o.points, o.may_rise)
                                   for o in options if o.available])
    if missed is None:
        return None
    return wording.choice_missing_question(family.rule, family.icons[missed.choice].label, missed.points,
                                           missed.may_rise)


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
        draft.choice_made = True  # saved: with its choice, or with none on purpose
    return draft
