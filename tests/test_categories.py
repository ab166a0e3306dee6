"""Category mode scores every game exactly as letters mode does.

For random legal games (bot games of every edition, 2–4 players, with and without the direction variant)
each round is turned into what a player would type in category mode — the Throw and Catch numbers, the
collection icons' total, the pairs' points, the choice and its icon count, the new sites, the regions
completed this round, the route achieved this round — and scored both ways: per category, per round, the
totals and the ranks must agree. Category mode's checks must also accept every value a legal game makes.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import categories as cat
from rules.bots import make_bot, play
from rules.edition import Edition
from rules.editions import load_edition
from rules.engine import Game
from rules.record import ParsedRound, score_rounds
from rules.scoring import NO_CHOICE, rank_players, route_achieved, row_mask, score_pairs
from rules.validation import RuleError
from scorer.pad.errors import EntryError
from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.store import EventStore

EDITIONS = {e: load_edition(e) for e in ("australia", "europe", "usa")}


def complete_regions(edition: Edition, visited: int) -> int:
    return sum(1 << r.index for r in edition.regions if visited & r.mask == r.mask)


def typed_rounds(edition: Edition, rounds: list[ParsedRound], n: int) -> list[list[dict]]:
    """What each player writes on the paper pad, round by round, for these rounds (names, not letters)."""
    visited = [0] * n
    out = []
    for parsed in rounds:
        masks = [row_mask(row) for row in parsed.rows]
        typed = []
        for p, row in enumerate(parsed.rows):
            mask, before = masks[p], visited[p]
            after = before | mask
            choice = parsed.choices[p]
            count = 0
            if choice != NO_CHOICE:
                icon_mask = edition.choice.icons[choice].mask
                own = (mask & icon_mask).bit_count()
                everyone = sum((m & icon_mask).bit_count() for m in masks)
                count = everyone - own if edition.choice.rule == "treasure_others" else own
            new_regions = complete_regions(edition, after) & ~complete_regions(edition, before)
            typed.append({
                "throw": edition.numbers[row[0]], "catch": edition.numbers[row[-1]],
                "collection": sum(edition.collection_values[c] for c in row),
                "pairs": score_pairs(edition, mask)[0],
                "choice": edition.choice.icons[choice].name if choice != NO_CHOICE else None,
                "choice_count": count,
                "sites": (mask & ~before).bit_count(),
                "regions": [r.name for r in edition.regions if new_regions >> r.index & 1],
                "route": route_achieved(edition, after) and not route_achieved(edition, before),
            })
            visited[p] = after
        out.append(typed)
    return out


def category_scores(edition: Edition, typed: list[list[dict]], n: int):
    """Score typed rounds through category mode's own checks and settlement, as the pad does."""
    names = [f"P{p + 1}" for p in range(n)]
    normalised = [{p: cat.normalise(edition, v) for p, v in enumerate(row)} for row in typed]
    cat.check_rounds(edition, names, normalised)
    state = cat.CategoryState.new(n)
    per_player = [[] for _ in range(n)]
    for r, row in enumerate(normalised, start=1):
        scores, _ = cat.resolve_round(edition, state, [row[p] for p in range(n)], r)
        for p in range(n):
            per_player[p].append(scores[p])
    return per_player


games = st.builds(
    lambda edition, players, variant, seed, bots: (EDITIONS[edition], players, variant and players >= 3, seed,
                                                   bots[:players]),
    st.sampled_from(sorted(EDITIONS)), st.integers(2, 4), st.booleans(), st.integers(0, 2**31 - 1),
    st.lists(st.sampled_from(["easy", "normal"]), min_size=4, max_size=4))


def bot_game(edition: Edition, players: int, variant: bool, seed: int, bots: list[str]) -> list[ParsedRound]:
    game = Game(edition, players, seed, direction_variant=variant)
    state = play(game, [make_bot(name, seed + p) for p, name in enumerate(bots)])
    return [ParsedRound(rows, choices) for rows, choices in state.round_log]


@settings(max_examples=60, deadline=None)
@given(games)
def test_category_mode_scores_every_game_as_letters_mode(game):
    edition, players, variant, seed, bots = game
    rounds = bot_game(edition, players, variant, seed, bots)
    letters, _, _ = score_rounds(edition, rounds, players, explain=False)
    by_category = category_scores(edition, typed_rounds(edition, rounds, players), players)
    for p in range(players):
        for r in range(len(rounds)):
            assert by_category[p][r]._asdict() == letters[p][r]._asdict(), f"player {p + 1}, round {r + 1}"
    assert [sum(s.total for s in rs) for rs in by_category] == [sum(s.total for s in rs) for rs in letters]
    assert rank_players(edition, by_category) == rank_players(edition, letters)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_pad_scores_a_game_entered_by_category_as_entered_by_letters(game):
    """The same, through the pad's sessions (event log, checks, fold) in both modes."""
    edition, players, variant, seed, bots = game
    rounds = bot_game(edition, players, variant, seed, bots)
    names = [f"P{p + 1}" for p in range(players)]
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(Path(folder) / "games.sqlite3")
        try:
            by_letters = GameSession.new(store, edition.id, names, variant)
            by_category = GameSession.new(store, edition.id, names, variant, mode=CATEGORIES_MODE)
            for parsed, typed in zip(rounds, typed_rounds(edition, rounds, players), strict=True):
                for p in range(players):
                    choice = parsed.choices[p]
                    by_letters.enter_letters(p, "".join(edition.cards[c].letter for c in parsed.rows[p]),
                                             edition.choice.icons[choice].name if choice != NO_CHOICE else None)
                    by_category.enter_categories(p, {k: str(v) if isinstance(v, int) and not isinstance(v, bool)
                                                     else v for k, v in typed[p].items()})
            a, b = by_letters.state, by_category.state
            assert a.finished and b.finished
            assert a.scores == b.scores
            assert a.totals() == b.totals() and a.ranks() == b.ranks()
            assert b.consistency_problems() == []
        finally:
            store.close()


# --- category mode's own checks --------------------------------------------------------------------------

AUS = EDITIONS["australia"]
EUROPE = EDITIONS["europe"]


def values(**kw) -> dict:
    base = {"throw": 3, "catch": 5, "collection": 6, "pairs": 0, "choice": None, "choice_count": 0, "sites": 7,
            "regions": [], "route": False}
    return cat.normalise(AUS, {**base, **kw})


@pytest.mark.parametrize(("change", "message"), [
    ({"throw": 0}, "round 1, Ann: the Throw card's number must be 1 to 7, not 0"),
    ({"collection": 99}, "Collections total 99 is impossible"),
    ({"pairs": 1}, "Animals cannot score 1 with 7 cards"),
    ({"choice": "Swimming", "choice_count": 0}, "0 Swimming icons is impossible (1 to 7)"),
    ({"sites": 8}, "8 new tourist sites is impossible (0 to 7)"),
])
def test_impossible_values_are_refused_by_name(change, message):
    with pytest.raises(RuleError, match=re.escape(message)):
        cat.check_entry(AUS, cat.CategoryState.new(2), 0, values(**change), 2, "round 1, Ann")


def test_category_labels_and_messages_use_the_editions_plural():
    assert cat.normalise(EUROPE, {"throw": 1, "catch": 2})["sites"] == 0
    from rules.wording import category_labels

    assert category_labels(EUROPE)["sites"] == "New countries"
    assert category_labels(EDITIONS["usa"])["sites"] == "New towns"
    with pytest.raises(RuleError, match="9 new countries is impossible"):
        v = cat.normalise(EUROPE, {"throw": 1, "catch": 2, "sites": 9})
        cat.check_entry(EUROPE, cat.CategoryState.new(2), 0, v, 2, "round 1, Ann")


def test_a_region_completed_after_it_was_claimed_is_struck_out():
    state = cat.CategoryState.new(2)
    cat.resolve_round(AUS, state, [values(regions=["Tasmania"]), values()], 1)
    scores, notes = cat.resolve_round(AUS, state, [values(), values(regions=["Tasmania"])], 2)
    assert scores[1].regions == 0
    assert "Region bonus: Tasmania complete, but already claimed: struck out" in notes[1]


def test_the_pad_turns_rule_errors_into_entry_errors(tmp_path):
    store = EventStore(tmp_path / "games.sqlite3")
    try:
        session = GameSession.new(store, "europe", ["Ann", "Bob"], mode=CATEGORIES_MODE)
        with pytest.raises(EntryError, match="'x' is not a whole number"):
            session.enter_categories(0, {"throw": "x", "catch": 1})
        with pytest.raises(EntryError, match="'Gold' is not one of the National Treasures"):
            session.enter_categories(0, {"throw": 1, "catch": 1, "choice": "Gold"})
        assert len(store.events(session.game_id)) == 1
    finally:
        store.close()
