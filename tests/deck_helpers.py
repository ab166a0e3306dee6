"""Build rounds for the Europe / USA rule tests by what the cards show, not by hard-coded letters.

Tests say "two Wine cards and a Spirits card" and these helpers find such cards in the edition's deck,
so the rules are pinned independently of how tourpad's deck assigns icons (which balance tuning changes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.bots import make_bot, play
from rules.edition import Edition
from rules.engine import HAND_SIZE, Game, State
from rules.model import LETTERS
from rules.record import ParsedRound, record_from_rounds, score_record
from rules.scoring import NO_CHOICE, RoundScore, row_mask

ROLES = ("collection", "pairs", "choice")


def letters(edition: Edition, text: str) -> tuple[int, ...]:
    return tuple(edition.card_index(letter) for letter in text)


def with_icon(edition: Edition, name: str) -> list[int]:
    """Cards showing the icon called `name` (in any family), in letter order."""
    for role in ROLES:
        family = getattr(edition, role)
        for icon in family.icons:
            if icon.name == name:
                return [c.index for c in edition.cards if icon.mask >> c.index & 1]
    raise KeyError(name)


def fill_row(edition: Edition, must: Sequence[int], avoid: Iterable[int] = (), free_of: Sequence[str] = (),
             throw: int | None = None, catch: int | None = None) -> tuple[int, ...]:
    """A 7-card row: `throw` first, `must`, filler, `catch` last.

    Filler cards are not in `avoid` and show no icon of the families named in `free_of`
    ("collection", "pairs", "choice"), so they cannot change the category under test.
    """
    chosen = [c for c in (throw, *must, catch) if c is not None]
    blocked = set(avoid) | set(chosen)
    candidates = [c for c in edition.cards
                  if c.index not in blocked and all(getattr(c, role) < 0 for role in free_of)]
    # one card per region in turn, so filler alone never completes a region (regions have ≥ 2 cards)
    by_region = [[c.index for c in candidates if c.region == r.index] for r in edition.regions]
    filler = [group[i] for i in range(max(map(len, by_region), default=0))
              for group in by_region if i < len(group)]
    needed = HAND_SIZE - len(chosen)
    if len(filler) < needed:
        raise ValueError("not enough filler cards for this row")
    middle = [*must, *filler[:needed]]
    return tuple(([throw] if throw is not None else []) + middle + ([catch] if catch is not None else []))


def disjoint_rows(edition: Edition, musts: Sequence[Sequence[int]], free_of: Sequence[str] = (),
                  avoid: Iterable[int] = ()) -> list[tuple[int, ...]]:
    """One row per player, no card in two rows (as in a real round)."""
    taken = {c for must in musts for c in must} | set(avoid)
    rows = []
    for must in musts:
        row = fill_row(edition, must, taken - set(must), free_of)
        taken |= set(row)
        rows.append(row)
    return rows


def region_cards(edition: Edition, name: str) -> list[int]:
    region = next(r for r in edition.regions if r.name == name)
    return [c.index for c in edition.cards if region.mask >> c.index & 1]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def parsed_rounds(state: State) -> list[ParsedRound]:
    return [ParsedRound(rows, choices) for rows, choices in state.round_log]


def check_random_game(edition: Edition, seed: int, players: int, variant: bool, bot: str) -> None:
    """Play a whole bot game and check what must hold for every game of every edition."""
    n_cards = len(edition.cards)
    game = Game(edition, players, seed, direction_variant=variant and players >= 3)
    state = play(game, [make_bot(bot, seed + p) for p in range(players)])
    assert state.is_terminal() and len(state.round_log) == 4
    set_aside_before: set[int] = set()
    for rows, choices in state.round_log:
        dealt = [c for row in rows for c in row]
        assert len(dealt) == len(set(dealt)) == HAND_SIZE * players   # no card dealt twice in a round
        if players == 4:
            assert set(dealt) == set(range(n_cards))                   # with 4 players, every card once
        assert set_aside_before <= set(dealt)                          # last round's undealt cards come first
        set_aside_before = set(range(n_cards)) - set(dealt)
        for row, choice in zip(rows, choices, strict=True):
            if choice != NO_CHOICE:
                assert row_mask(row) & edition.choice.icons[choice].mask
    for rounds in state.round_scores:
        assert all(min(r) >= 0 for r in rounds)
        assert sum(r.total for r in rounds) == sum(sum(r) for r in rounds)
    # the game's record scores exactly as the engine did
    names = [f"P{p + 1}" for p in range(players)]
    record = record_from_rounds(edition, names, parsed_rounds(state), game.direction_variant)
    report = score_record(record, edition)
    assert report.totals == state.totals()
    assert report.ranks == state.ranks()


def check_own_deck_structure(edition: Edition) -> None:
    """tourpad's own decks: 28 cards A–Z, @, #; numbers 1–7 four times; every card a site and two icons
    from two different families; every icon's count declared, so the loader checks it."""
    spec = edition.spec
    assert spec.provenance == "tourpad"
    assert edition.letters == "".join(LETTERS)
    assert Counter(c.number for c in edition.cards) == {n: 4 for n in range(1, 8)}
    for card in spec.cards:
        assert card.site.strip(), card.letter
        families = {role for role in ROLES if any(i.name in card.icons for i in getattr(spec, role).icons)}
        assert len(card.icons) == 2 and len(families) == 2, f"card {card.letter} needs two icon families"
    for role in ROLES:
        assert all(i.count is not None for i in getattr(spec, role).icons)
    # at least two of every pairs icon, or its pair could never be scored
    assert all(i.mask.bit_count() >= 2 for i in edition.pairs.icons)


def icon_values(family) -> dict[str, int]:
    return {i.name: i.value for i in family.icons}


def one_round(total: int, route: int = 0, throw_catch: int = 0) -> list[RoundScore]:
    """A player's scores as one round with this total, route bonus and Throw & Catch (for tie-breaks)."""
    return [RoundScore(throw_catch, total - route - throw_catch, 0, 0, 0, 0, route)]
