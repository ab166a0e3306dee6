"""`rules.validation`: the one check of a round against the game so far (records, pad, table, solo)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import make_bot, play
from rules.editions import load_edition
from rules.engine import Game
from rules.scoring import NO_CHOICE
from rules.validation import (
    CardClash,
    Entered,
    RuleError,
    check_direction_variant,
    check_rounds_in_order,
    validate_round,
    validate_rounds,
)

AUS = load_edition("australia")
NAMES = ("Ann", "Bob", "Cid")


def test_a_card_in_two_rows_is_reported_against_the_player_being_entered():
    entries = {0: Entered("ABCDEFG"), 1: Entered("GHIJKLM")}
    with pytest.raises(CardClash, match=r"^round 2, Bob: letter G already in Ann's round 2 cards; each card is "
                                        r"drafted once a round$"):
        validate_round(AUS, 2, NAMES, entries, [{}, {}])
    with pytest.raises(CardClash, match=r"^round 2, Ann: letter G already in Bob's round 2 cards"):
        validate_round(AUS, 2, NAMES, entries, [{}, {}], focus=0)
    with pytest.raises(CardClash, match=r"letters A, B already in Ann's"):
        validate_round(AUS, 1, NAMES, {0: Entered("ABCDEFG"), 1: Entered("HIJKLBA")}, [{}, {}])


def test_a_choice_scores_once_per_game_and_needs_its_icon():
    swimming = AUS.choice.icon_index("Swimming")
    entries = {0: Entered("HIJKLMN", "swimming"), 1: Entered("ABCDEFG")}
    checked = validate_round(AUS, 1, NAMES, entries, [{}, {}])
    assert checked[0].choice == swimming and checked[1].choice == NO_CHOICE
    assert checked[0].row == tuple(AUS.card_index(x) for x in "HIJKLMN")
    # `used` holds the game's other rounds, later ones included (a table host correcting round 1)
    with pytest.raises(RuleError, match=r"^round 1, Ann: Swimming was already scored in round 3; each of the "
                                        r"Activities scores once per game$"):
        validate_round(AUS, 1, NAMES, entries, [{swimming: 3}, {}])
    with pytest.raises(RuleError, match="round 1, Bob: Swimming needs at least one Swimming icon"):
        validate_round(AUS, 1, NAMES, {0: Entered("HIJKLMN"), 1: Entered("ABCDEFG", "Swimming")}, [{}, {}])
    with pytest.raises(RuleError, match=r"'Surfing' is not one of the Activities \(Indigenous Culture"):
        validate_round(AUS, 1, NAMES, {0: Entered("HIJKLMN", "Surfing")}, [{}])


def test_rounds_in_order_and_the_direction_variant():
    check_rounds_in_order([2, 2, 1, 0], 2)
    with pytest.raises(RuleError, match="round 3 cannot be entered before round 2 is complete"):
        check_rounds_in_order([2, 1, 1, 0], 2)
    check_direction_variant(3, True)
    check_direction_variant(2, False)
    with pytest.raises(RuleError, match="the direction variant is for 3 or 4 players"):
        check_direction_variant(2, True)


def test_choices_used_in_earlier_rounds_are_carried_forward():
    rounds = [{0: Entered("HIJKLMN", "Swimming"), 1: Entered("ABCDEFG")},
              {0: Entered("LNSW#HM", "Swimming"), 1: Entered("ABCDEFG")}]
    with pytest.raises(RuleError, match="round 2, Ann: Swimming was already scored in round 1"):
        validate_rounds(AUS, NAMES[:2], rounds)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["australia", "europe", "usa"]), st.integers(2, 4), st.integers(0, 2**31 - 1))
def test_every_legal_game_passes_and_a_borrowed_card_is_caught(edition_id, players, seed):
    edition = load_edition(edition_id)
    state = play(Game(edition, players, seed), [make_bot("easy", seed + p) for p in range(players)])
    names = [f"P{p + 1}" for p in range(players)]
    rounds = [{p: Entered("".join(edition.cards[c].letter for c in rows[p]),
                          edition.choice.icons[choices[p]].name if choices[p] != NO_CHOICE else None)
               for p in range(players)} for rows, choices in state.round_log]
    checked = validate_rounds(edition, names, rounds)
    assert [(tuple(c[p].row for p in range(players)), tuple(c[p].choice for p in range(players)))
            for c in checked] == [(rows, choices) for rows, choices in state.round_log]
    # the last player takes the first player's Catch card in round 1: a clash named against them
    first, last = rounds[0][0].cards, rounds[0][players - 1].cards
    borrowed = dict(rounds[0])
    borrowed[players - 1] = Entered(last[:-1] + first[-1])
    with pytest.raises(CardClash, match=rf"round 1, P{players}: letter {first[-1]} already in P1's round 1"):
        validate_round(edition, 1, names, borrowed, [{} for _ in names])
