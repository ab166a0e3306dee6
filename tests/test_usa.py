"""Boomerang: USA — tourpad's own deck and map, and every rule of the rulebook with its worked examples."""

from __future__ import annotations

import json
from collections import deque

import pytest
from deck_helpers import (
    check_own_deck_structure,
    check_random_game,
    disjoint_rows,
    fill_row,
    icon_values,
    letters,
    mask_of,
    one_round,
    parsed_rounds,
    region_cards,
    with_icon,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rules.bots import make_bot, play
from rules.editions import load_edition
from rules.engine import Game
from rules.record import GameRecord, RecordError, parse_record, record_from_rounds
from rules.scoring import (
    COLLECTION_RULES,
    NO_CHOICE,
    ScoreState,
    drawn_pathways,
    rank_players,
    resolve_round,
    route_achieved,
    row_mask,
    score_pairs,
    score_throw_catch,
)
from scorer.cli import app

USA = load_edition("usa")
MAP = USA.spec.map


def rows_of(*names: str, free_of: tuple[str, ...] = ()) -> tuple[int, ...]:
    """A row holding one card per icon name (repeats take further cards with that icon)."""
    used: list[int] = []
    for name in names:
        used.append(next(c for c in with_icon(USA, name) if c not in used))
    return fill_row(USA, used, free_of=free_of)


# --- the deck and map -------------------------------------------------------------------------------------

def test_deck_is_tourpads_own_with_the_rulebook_structure():
    check_own_deck_structure(USA)


def test_icon_values_follow_the_rulebook_and_big_foot_can_pair():
    assert icon_values(USA.collection) == {"Mail Box": 1, "Baseball Cap": 2, "Football Jersey": 3, "US Flag": 5}
    assert icon_values(USA.pairs) == {"Trout": 3, "Cattle": 4, "Grizzly Bear": 5, "Bald Eagle": 7, "Big Foot": 9}
    assert [i.name for i in USA.choice.icons] == ["Sightseeing", "Sporting Events", "Hiking", "Dining"]
    assert USA.choice.table == (0, 0, 2, 4, 7, 10, 15)
    assert len(with_icon(USA, "Big Foot")) >= 2


def test_seven_regions_of_four_towns_worth_3_and_ijkl_is_red():
    assert len(USA.regions) == 7
    assert all(r.mask.bit_count() == 4 and r.bonus == 3 for r in USA.regions)
    red = USA.regions[USA.cards[USA.card_index("I")].region]
    assert USA.letters_of(red.mask) == "IJKL"
    r, g, b = (int(red.color[i:i + 2], 16) for i in (1, 3, 5))
    assert r > 150 and g < 90 and b < 90, red.color
    colours = [region.color for region in USA.regions]
    assert len(set(colours)) == len(colours)


def test_the_map_is_one_connected_network_with_both_coasts():
    edges = [tuple(e) for e in MAP.edges]
    assert len({frozenset(e) for e in edges}) == len(edges), "a pathway is listed twice"
    assert all(a != b for a, b in edges)
    towns = set(USA.letters)
    neighbours = {t: set() for t in towns}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    assert all(neighbours[t] for t in towns), "every town lies on a pathway"
    seen, queue = {"A"}, deque("A")
    while queue:
        for nxt in neighbours[queue.popleft()] - seen:
            seen.add(nxt)
            queue.append(nxt)
    assert seen == towns
    assert MAP.west_coast and MAP.east_coast and not set(MAP.west_coast) & set(MAP.east_coast)
    # whole coasts: visiting every town connects them
    assert route_achieved(USA, (1 << 28) - 1)


def test_pathways_are_drawn_once_both_towns_are_visited():
    a, b, c = letters(USA, "ABC")
    drawn = {frozenset((USA.cards[x].letter, USA.cards[y].letter))
             for x, y in drawn_pathways(USA, mask_of([a, b, c]))}
    assert drawn == {frozenset("AB"), frozenset("BC")}
    assert frozenset("AD") not in drawn


# --- Throw & Catch: the Throw number if caught ------------------------------------------------------------

@pytest.mark.parametrize(("throw", "catch", "points"),
                         [(4, 5, 4), (3, 2, 0), (4, 4, 4), (7, 1, 0), (1, 7, 1)])
def test_throw_and_catch_scores_the_throw_if_the_catch_is_at_least_as_high(throw, catch, points):
    t = next(c.index for c in USA.cards if c.number == throw)
    k = next(c.index for c in USA.cards if c.number == catch and c.index != t)
    assert score_throw_catch(USA, fill_row(USA, [], throw=t, catch=k))[0] == points


# --- Americana: must beat the previous round's score ------------------------------------------------------

def test_americana_worked_example_8_7_7_14_scores_29():
    rows = [rows_of("US Flag", "Football Jersey", free_of=("collection",)),                       # 8
            rows_of("US Flag", "Baseball Cap", free_of=("collection",)),                          # 7
            rows_of("Football Jersey", "Football Jersey", "Mail Box", free_of=("collection",)),   # 7
            rows_of("US Flag", "Football Jersey", "Football Jersey", "Baseball Cap", "Mail Box",
                    free_of=("collection",))]                                                     # 14
    state = ScoreState(2)
    points = []
    for row in rows:
        other = fill_row(USA, [], avoid=row)
        scores, _ = resolve_round(USA, state, [row, other], [NO_CHOICE] * 2)
        points.append(scores[0].collection)
    assert points == [8, 0, 7, 14]
    assert sum(points) == 29


@pytest.mark.parametrize(("previous", "total", "points"), [
    (-1, 0, 0), (-1, 3, 3),      # round 1 always scores its total
    (10, 10, 0), (10, 11, 11),   # "next round he must score at least 11"
    (0, 1, 1), (0, 0, 0),        # after a zero, any total of 1 or more scores
    (8, 7, 0), (0, 7, 7),
])
def test_americana_rule(previous, total, points):
    assert COLLECTION_RULES["must_beat_previous"](total, previous) == points


# --- Animals: pairs ---------------------------------------------------------------------------------------

def animals(*names: str) -> int:
    return score_pairs(USA, row_mask(rows_of(*names, free_of=("pairs",))))[0]


def test_animal_pairs():
    assert animals("Trout") == 0
    assert animals("Trout", "Trout") == 3   # the rulebook's sheet says 6: a slip (CLARIFICATIONS.md)
    assert animals("Cattle", "Cattle", "Grizzly Bear", "Grizzly Bear") == 9
    assert animals("Trout", "Trout", "Trout") == 3         # three of a kind is one pair
    assert animals("Trout", "Trout", "Trout", "Trout") == 6  # four of a kind is two pairs
    assert animals("Big Foot", "Big Foot") == 9


# --- Activities: the table --------------------------------------------------------------------------------

def activity_points(name: str, count: int) -> int:
    cards = with_icon(USA, name)
    row = fill_row(USA, cards[:count], avoid=cards[count:])
    other = fill_row(USA, [], avoid=row)
    scores, _ = resolve_round(USA, ScoreState(2), [row, other], [USA.choice.icon_index(name), NO_CHOICE])
    return scores[0].choice


def test_activity_table_and_worked_examples():
    assert activity_points("Hiking", 3) == 4        # "three matching Hiking icons … 4 points"
    assert activity_points("Hiking", 5) == 10       # the sheet's round 1
    assert activity_points("Dining", 2) == 2        # English sheet says 4 for two: a slip (CLARIFICATIONS)
    assert activity_points("Sporting Events", 3) == 4  # the French sheet: three cards → 4
    assert activity_points("Sightseeing", 1) == 0
    assert activity_points("Sightseeing", 6) == 15


def usa_record(rounds: list[dict]) -> GameRecord:
    return GameRecord(edition="usa", players=["Ann", "Bob"], rounds=rounds)


def letters_of_rows(rows) -> list[str]:
    return ["".join(USA.cards[c].letter for c in row) for row in rows]


def test_activity_needs_an_icon_scores_once_per_game_and_is_recorded_as_activity():
    hiking = with_icon(USA, "Hiking")
    ann, bob = letters_of_rows(disjoint_rows(USA, [hiking[:2], []], avoid=hiking[2:]))
    round_ = {"Ann": {"cards": ann, "activity": "Hiking"}, "Bob": {"cards": bob, "activity": "Hiking"}}
    with pytest.raises(RecordError, match=r"round 1, Bob: Hiking needs at least one Hiking icon"):
        parse_record(usa_record([round_]), USA)
    round_ = {"Ann": {"cards": ann, "activity": "Hiking"}, "Bob": {"cards": bob}}
    with pytest.raises(RecordError, match=r"round 2, Ann: Hiking was already scored in round 1"):
        parse_record(usa_record([round_, round_]), USA)
    wrong = {"Ann": {"cards": ann, "treasure": "Hiking"}, "Bob": {"cards": bob}}
    with pytest.raises(RecordError, match=r"as 'activity', not 'treasure'"):
        parse_record(usa_record([wrong]), USA)


# --- towns and region bonuses -----------------------------------------------------------------------------

def test_red_region_bonus_as_in_the_rulebook_example():
    i, j, k, l_ = letters(USA, "IJKL")
    red = region_cards(USA, "Mountain West")
    state = ScoreState(2)
    bonuses = []
    for must in ([i, j], [k], [l_]):
        rows = disjoint_rows(USA, [must, []], avoid=red)
        scores, _ = resolve_round(USA, state, rows, [NO_CHOICE] * 2)
        bonuses.append(scores[0].regions)
    assert bonuses == [0, 0, 3]
    rows = disjoint_rows(USA, [[], [i, j, k, l_]])
    late, _ = resolve_round(USA, state, rows, [NO_CHOICE] * 2)
    assert late[1].regions == 0


# --- coast to coast ---------------------------------------------------------------------------------------

EAST = [USA.card_index(t) for t in MAP.east_coast]
#: Seattle → Missoula → Rapid City → Minneapolis → Chicago, one pathway from Washington, D.C.
WEST_TO_CHICAGO = letters(USA, "ADMQR")
DC = USA.card_index("Y")


def coast_round(state: ScoreState, achievers: set[int]) -> list[int]:
    """Everyone has the path to Chicago; `achievers` now visit Washington, D.C. (east coast)."""
    rows = [fill_row(USA, [DC] if p in achievers else [], avoid=EAST) for p in range(state.n_players)]
    scores, _ = resolve_round(USA, state, rows, [NO_CHOICE] * state.n_players)
    return [s.route for s in scores]


def coast_state(players: int) -> ScoreState:
    return ScoreState(players, visited=[mask_of(WEST_TO_CHICAGO)] * players)


def test_a_path_may_connect_through_a_town_visited_in_an_earlier_round():
    q = USA.card_index("Q")  # Minneapolis: the only link used between Rapid City and Chicago
    round1 = fill_row(USA, [q], avoid=EAST)
    round2 = (*letters(USA, "ADMR"), DC, *letters(USA, "GH"))  # Las Vegas, Reno: no help eastwards
    assert not route_achieved(USA, row_mask(round2)), "round 2 alone must not connect the coasts"
    assert route_achieved(USA, row_mask(round2) | 1 << q), "… and Minneapolis closes the gap"
    state = ScoreState(2)
    other = [fill_row(USA, [], avoid={*round1, *EAST}), fill_row(USA, [], avoid={*round2, *EAST})]
    first, _ = resolve_round(USA, state, [round1, other[0]], [NO_CHOICE] * 2)
    second, _ = resolve_round(USA, state, [round2, other[1]], [NO_CHOICE] * 2)
    assert first[0].route == 0
    assert second[0].route == 7


def test_coast_tiers_7_3_then_1_for_everyone_else_each_player_once():
    state = coast_state(4)
    assert coast_round(state, {0}) == [7, 0, 0, 0]
    assert coast_round(state, {0, 1}) == [0, 3, 0, 0]
    assert coast_round(state, {2}) == [0, 0, 1, 0]
    assert coast_round(state, {3}) == [0, 0, 0, 1]      # "1pt for anyone else"


def test_simultaneous_coast_achievers_share_the_highest_available_tier():
    state = coast_state(4)
    assert coast_round(state, {0, 1}) == [7, 7, 0, 0]
    assert coast_round(state, {2, 3}) == [0, 0, 3, 3]
    state = coast_state(3)
    assert coast_round(state, {0, 1, 2}) == [7, 7, 7]


def test_three_players_get_the_1_point_tier_two_players_do_not():
    state = coast_state(3)
    assert [coast_round(state, {p})[p] for p in range(3)] == [7, 3, 1]
    assert USA.route.tiers_for(2) == (7, 3)
    state = coast_state(2)
    assert [coast_round(state, {p})[p] for p in range(2)] == [7, 3]


# --- tie-breakers: coast, then Throw & Catch --------------------------------------------------------------

def test_tie_break_on_coast_then_throw_and_catch():
    assert rank_players(USA, [one_round(60, route=3), one_round(60, route=7)]) == [2, 1]
    assert rank_players(USA, [one_round(60, route=7, throw_catch=6), one_round(60, route=7, throw_catch=2)]) == [1, 2]
    assert rank_players(USA, [one_round(60), one_round(60)]) == [1, 1]


# --- CLI and whole games ----------------------------------------------------------------------------------

def test_deck_json_has_regions_edges_and_coasts():
    result = CliRunner().invoke(app, ["deck", "usa", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert {r["letters"]: r["bonus"] for r in doc["regions"]}["IJKL"] == 3
    assert ["A", "B"] in doc["map"]["edges"]
    assert doc["map"]["west_coast"] == MAP.west_coast and doc["map"]["east_coast"] == MAP.east_coast
    assert doc["route"]["kind"] == "coast"


def test_score_command_scores_a_usa_record(tmp_path):
    state = play(Game(USA, 4, seed=11), [make_bot("greedy", s) for s in range(4)])
    record = record_from_rounds(USA, ["Ann", "Bob", "Cy", "Di"], parsed_rounds(state))
    path = tmp_path / "usa.json"
    path.write_text(record.model_dump_json(exclude_none=True), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [p["total"] for p in report["players"]] == state.totals()
    assert "coast" in report["categories"] and "americana" in report["categories"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), variant=st.booleans(),
       bot=st.sampled_from(["random", "greedy"]))
def test_random_usa_games_keep_the_invariants(seed, players, variant, bot):
    check_random_game(USA, seed, players, variant, bot)
