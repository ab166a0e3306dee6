"""One validation of a round against the game so far, for every way a round comes in: a game record
(`tourpad score`), the score pad, a table seat's submission, a solo game's set-up.

The rules a round can break: a row is 7 known letters, each once; a card is in one row a round; a choice
(activity / treasure) scores once per game and needs one of its icons on the player's cards; the
direction variant needs 3 or 4 players; rounds are entered in order. Every message names the round, the
player, the letter and the rule (`rules.wording`), and nothing is changed by a refused round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from rules import wording
from rules.edition import Edition
from rules.engine import HAND_SIZE
from rules.scoring import NO_CHOICE, row_mask


class RuleError(ValueError):
    """Input a rule refuses; the message names the round, the player and the rule."""


class CardClash(RuleError):
    """A card entered in two players' rows in one round (a table answers it as a conflict)."""


class Entered(NamedTuple):
    """One player's round as typed: the 7 letters in draft order and the choice's name (or None)."""

    cards: str
    choice: str | None = None


class Checked(NamedTuple):
    """One player's round once validated: card indices in draft order and the choice icon (or NO_CHOICE)."""

    row: tuple[int, ...]
    choice: int


def check_direction_variant(n_players: int, direction_variant: bool) -> None:
    """With 2 players left and right are the same neighbour: the variant is refused, not ignored."""
    if direction_variant and n_players < 3:
        raise RuleError(wording.direction_variant_players())


def check_rounds_in_order(entered: Sequence[int], n_players: int) -> None:
    """`entered[r]` is how many players have entered round r; a round waits for every earlier one."""
    complete = True
    for r, count in enumerate(entered):
        if count and not complete:
            raise RuleError(wording.round_before_complete(r + 1))
        complete = count == n_players


def parse_row(edition: Edition, letters: str, where: str) -> tuple[int, ...]:
    """7 letters → card indices, refusing unknown letters, repeats and wrong counts."""
    cleaned = letters.replace(" ", "").replace(",", "").upper()
    cards: list[int] = []
    for letter in cleaned:
        try:
            card = edition.card_index(letter)
        except KeyError:
            raise RuleError(wording.letter_unknown(where, letter, edition)) from None
        if card in cards:
            raise RuleError(wording.letter_twice(where, letter))
        cards.append(card)
    if len(cards) != HAND_SIZE:
        raise RuleError(wording.row_length(where, len(cards), cleaned, HAND_SIZE))
    return tuple(cards)


def choice_icon(edition: Edition, name: str, where: str) -> int:
    """A choice's name (any case) → its icon index; an unknown name is refused with the options."""
    try:
        return edition.choice.icon_index(name.strip())
    except KeyError:
        raise RuleError(wording.choice_unknown(where, name, edition)) from None


def check_choice_unused(edition: Edition, icon: int, used: Mapping[int, int], where: str) -> None:
    """`used` maps the icons this player scored in the game's other rounds to that round (1-based)."""
    if icon in used:
        raise RuleError(wording.choice_used(where, edition.choice.icons[icon].label, edition.choice.label,
                                            used[icon]))


def parse_choice(edition: Edition, name: str | None, row: tuple[int, ...], used: Mapping[int, int],
                 where: str) -> int:
    """A choice name → icon index, refusing unknown names, ones used before, and ones without an icon."""
    if name is None or not name.strip():
        return NO_CHOICE
    icon = choice_icon(edition, name, where)
    check_choice_unused(edition, icon, used, where)
    if not row_mask(row) & edition.choice.icons[icon].mask:
        raise RuleError(wording.choice_needs_icon(where, edition.choice.icons[icon].label))
    return icon


def validate_round(edition: Edition, round_number: int, names: Sequence[str], entries: Mapping[int, Entered],
                   used: Sequence[Mapping[int, int]], focus: int | None = None) -> dict[int, Checked]:
    """Check one round's entries (seat → what they typed) against each other and the game so far.

    `used[p]` maps the choices player p scored in the game's *other* rounds to their round. `focus` is the
    player being entered: checked last, so a card clash is reported against them. Raises the first
    problem (`CardClash` for a card in two rows); returns every entry parsed.
    """
    owner: dict[int, int] = {}
    out: dict[int, Checked] = {}
    for p in sorted(entries, key=lambda q: q == focus):
        where = wording.round_and_player(round_number, names[p])
        row = parse_row(edition, entries[p].cards, where)
        clashes: dict[int, list[int]] = {}
        for card in row:
            if card in owner:
                clashes.setdefault(owner[card], []).append(card)
        if clashes:
            other, cards = next(iter(clashes.items()))
            letters = ", ".join(edition.cards[c].letter for c in sorted(cards))
            raise CardClash(wording.card_clash(where, letters, len(cards) > 1, names[other], round_number))
        for card in row:
            owner[card] = p
        out[p] = Checked(row, parse_choice(edition, entries[p].choice, row, used[p], where))
    return out


def validate_rounds(edition: Edition, names: Sequence[str], rounds: Sequence[Mapping[int, Entered]],
                    focus: int | None = None) -> list[dict[int, Checked]]:
    """Every round of a game so far, in order: rounds entered in order, each validated against the rounds
    before it (choices used up); `focus` as in `validate_round`."""
    check_rounds_in_order([len(entries) for entries in rounds], len(names))
    used: list[dict[int, int]] = [{} for _ in names]
    out = []
    for r, entries in enumerate(rounds, start=1):
        checked = validate_round(edition, r, names, entries, used, focus)
        for p, entry in checked.items():
            if entry.choice != NO_CHOICE:
                used[p][entry.choice] = r
        out.append(checked)
    return out
