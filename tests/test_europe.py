"""Boomerang: Europe — tourpad's own deck and every rule of the rulebook, with its worked examples."""

from __future__ import annotations

import json

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
    NO_CHOICE,
    RoundScore,
    ScoreState,
    rank_players,
    resolve_round,
    route_achieved,
    row_mask,
    score_collection,
    score_pairs,
    score_throw_catch,
)
from scorer.cli import app

EUROPE = load_edition("europe")


def icon(name: str) -> int:
    return EUROPE.choice.icon_index(name)


# --- the deck ---------------------------------------------------------------------------------------------

def test_deck_is_tourpads_own_with_the_rulebook_structure():
    check_own_deck_structure(EUROPE)


def test_icon_values_and_families_follow_the_rulebook():
    assert icon_values(EUROPE.collection) == {"Beer": 1, "Cheese": 2, "Wine": 3, "Spirits": 5}
    assert icon_values(EUROPE.pairs) == {"Car": 3, "Train": 4, "Bicycle": 5, "Boat": 7, "Plane": 9}
    assert [i.name for i in EUROPE.choice.icons] == ["Art", "Architecture", "Music", "Natural Wonders"]
    assert EUROPE.collection.rule == "halve_above_7"
    assert EUROPE.choice.rule == "treasure_others"
    assert dict(EUROPE.choice.per_icon_by_players) == {2: 4, 3: 3, 4: 2}


def test_regions_differ_in_size_with_bonuses_2_to_5_growing_with_size():
    sizes = {r.name: r.mask.bit_count() for r in EUROPE.regions}
    assert len(set(sizes.values())) >= 3
    assert sum(sizes.values()) == 28
    for a in EUROPE.regions:
        assert 2 <= a.bonus <= 5
        for b in EUROPE.regions:
            if a.mask.bit_count() < b.mask.bit_count():
                assert a.bonus <= b.bonus, (a.name, b.name)
    benelux = next(r for r in EUROPE.regions if r.name == "Benelux")
    assert EUROPE.letters_of(benelux.mask) == "NOP" and benelux.bonus == 3


def test_region_colours_are_distinct_and_print_friendly():
    colours = [r.color for r in EUROPE.regions]
    rgb = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours]
    for i, a in enumerate(rgb):
        assert max(a) < 250, f"{colours[i]} would vanish on white paper"
        for b in rgb[i + 1:]:
            assert sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5 > 60, (a, b)


# --- Throw & Catch: the difference ------------------------------------------------------------------------

@pytest.mark.parametrize(("throw", "catch", "points"), [(4, 1, 3), (1, 4, 3), (5, 5, 0), (7, 1, 6)])
def test_throw_and_catch_scores_the_difference(throw, catch, points):
    t = next(c.index for c in EUROPE.cards if c.number == throw)
    k = next(c.index for c in EUROPE.cards if c.number == catch and c.index != t)
    row = fill_row(EUROPE, [], throw=t, catch=k)
    assert score_throw_catch(EUROPE, row)[0] == points


# --- Cuisine: 1–7 as is, 8+ halved rounded up -------------------------------------------------------------

def cuisine_of(*names: str) -> int:
    used: list[int] = []
    for name in names:
        used.append(next(c for c in with_icon(EUROPE, name) if c not in used))
    row = fill_row(EUROPE, used, free_of=("collection",))
    return score_collection(EUROPE, row_mask(row), previous_score=-1)[0]


def test_cuisine_worked_examples():
    assert cuisine_of("Beer", "Beer", "Beer", "Cheese") == 5      # 1 + 1 + 1 + 2 = 5
    assert cuisine_of("Wine", "Wine", "Spirits") == 6             # 3 + 3 + 5 = 11, halved, rounded up
    assert cuisine_of("Wine", "Wine", "Spirits", "Spirits") == 8  # 16 → 8 (round 1 of the sheet)
    assert cuisine_of("Wine", "Cheese", "Beer") == 6              # round 2 of the sheet: 6 scores 6


@pytest.mark.parametrize(("total", "points"), [(0, 0), (1, 1), (7, 7), (8, 4), (9, 5), (11, 6), (16, 8)])
def test_cuisine_rule_over_its_range(total, points):
    from rules.scoring import COLLECTION_RULES

    assert COLLECTION_RULES["halve_above_7"](total, -1) == points


# --- Transport: pairs -------------------------------------------------------------------------------------

def transport_of(*names: str) -> int:
    used: list[int] = []
    for name in names:
        used.append(next(c for c in with_icon(EUROPE, name) if c not in used))
    row = fill_row(EUROPE, used, free_of=("pairs",))
    return score_pairs(EUROPE, row_mask(row))[0]


def test_transport_pairs_score_their_value_once():
    assert transport_of("Car") == 0
    assert transport_of("Car", "Car") == 3                          # a pair of cars scores 3, not 6
    assert transport_of("Train", "Train") == 4                      # the sheet's round 1
    assert transport_of("Car", "Car", "Boat", "Boat") == 10         # the sheet's round 2
    assert transport_of("Car", "Car", "Car") == 3                   # three of a kind is one pair
    assert transport_of("Car", "Car", "Car", "Car") == 6            # four of a kind is two pairs
    assert transport_of("Plane", "Plane") == 9


# --- National Treasures: others' icons --------------------------------------------------------------------

def treasure_round(n_players: int, name: str, own: int, others: int) -> RoundScore:
    cards = with_icon(EUROPE, name)
    assert own + others <= len(cards)
    musts = [cards[:own], cards[own:own + others]] + [[] for _ in range(n_players - 2)]
    rows = disjoint_rows(EUROPE, musts, avoid=cards[own + others:])
    choices = [icon(name)] + [NO_CHOICE] * (n_players - 1)
    scores, _ = resolve_round(EUROPE, ScoreState(n_players), rows, choices)
    return scores[0]


@pytest.mark.parametrize(("players", "own", "points"), [(2, 1, 12), (3, 1, 9), (4, 2, 6)])
def test_treasure_scores_other_players_icons_by_player_count(players, own, points):
    # the rulebook: you hold Art, 3 Art icons are on the other players' cards → 12 / 9 / 6
    # (with 4 players every card is dealt, so of tourpad's 5 Art cards you hold 2)
    assert treasure_round(players, "Art", own=own, others=3).choice == points


def test_treasure_worked_examples_of_the_score_sheet():
    # with 4 players all 28 cards are out: 2 of the 5 Music icons with others means 3 are yours
    assert treasure_round(4, "Music", own=3, others=2).choice == 4
    assert treasure_round(4, "Architecture", own=1, others=4).choice == 8


def test_own_treasure_icons_do_not_count():
    assert treasure_round(2, "Art", own=2, others=3).choice == 12
    assert treasure_round(2, "Art", own=4, others=1).choice == 4


def two_player_record(rounds: list[dict]) -> GameRecord:
    return GameRecord(edition="europe", players=["Ann", "Bob"], rounds=rounds)


def test_a_treasure_needs_one_of_its_icons_on_your_cards():
    art = with_icon(EUROPE, "Art")
    rows = disjoint_rows(EUROPE, [[], art[:2]], avoid=art[2:])
    ann, bob = ("".join(EUROPE.cards[c].letter for c in row) for row in rows)
    record = two_player_record([{"Ann": {"cards": ann, "treasure": "Art"}, "Bob": {"cards": bob}}])
    with pytest.raises(RecordError, match=r"round 1, Ann: Art needs at least one Art icon"):
        parse_record(record, EUROPE)


def test_each_treasure_scores_once_per_game_and_one_per_round():
    art = with_icon(EUROPE, "Art")
    rows = disjoint_rows(EUROPE, [art[:1], art[1:3]])
    ann, bob = ("".join(EUROPE.cards[c].letter for c in row) for row in rows)
    round_ = {"Ann": {"cards": ann, "treasure": "Art"}, "Bob": {"cards": bob}}
    with pytest.raises(RecordError, match=r"round 2, Ann: Art was already scored in round 1"):
        parse_record(two_player_record([round_, round_]), EUROPE)


def test_europe_records_the_choice_as_treasure_not_activity():
    rows = disjoint_rows(EUROPE, [[], []])
    ann, bob = ("".join(EUROPE.cards[c].letter for c in row) for row in rows)
    record = two_player_record([{"Ann": {"cards": ann, "activity": "Art"}, "Bob": {"cards": bob}}])
    expected = r"round 1, Ann: .*National Treasures choice as 'treasure', not 'activity'"
    with pytest.raises(RecordError, match=expected):
        parse_record(record, EUROPE)


# --- countries and region bonuses -------------------------------------------------------------------------

def test_benelux_bonus_goes_to_its_first_completer_only():
    n, o, p = letters(EUROPE, "NOP")
    benelux = region_cards(EUROPE, "Benelux")
    state = ScoreState(2)
    round1 = disjoint_rows(EUROPE, [[o, p], []], avoid=benelux)
    first, _ = resolve_round(EUROPE, state, round1, [NO_CHOICE] * 2)
    assert first[0].regions == 0
    # round 2: N completes Benelux for Ann (+3); only countries new to her score a site point
    round2 = disjoint_rows(EUROPE, [[n, o], [p]], avoid=benelux)
    second, _ = resolve_round(EUROPE, state, round2, [NO_CHOICE] * 2)
    assert second[0].regions == 3
    assert second[0].sites == len(set(round2[0]) - set(round1[0]))
    # Bob completes Benelux later: the bonus is gone
    round3 = disjoint_rows(EUROPE, [[], [n, o]], avoid=benelux)
    third, _ = resolve_round(EUROPE, state, round3, [NO_CHOICE] * 2)
    assert state.visited[1] & mask_of(benelux) == mask_of(benelux)
    assert third[1].regions == 0


def test_the_sites_category_is_called_countries():
    assert EUROPE.category_names()["sites"] == "Countries"
    assert load_edition("usa").category_names()["sites"] == "Towns"
    assert load_edition("australia").category_names()["sites"] == "Tourist sites"
    _, notes = resolve_round(EUROPE, ScoreState(2), disjoint_rows(EUROPE, [[], []]), [NO_CHOICE] * 2, explain=True)
    assert any(line.startswith("Countries: new ") for line in notes[0])


def test_new_countries_only_score_once():
    state = ScoreState(2)
    rows = disjoint_rows(EUROPE, [[], []])
    first, _ = resolve_round(EUROPE, state, rows, [NO_CHOICE] * 2)
    again, _ = resolve_round(EUROPE, state, rows, [NO_CHOICE] * 2)
    assert [s.sites for s in first] == [7, 7]
    assert [s.sites for s in again] == [0, 0]


def test_simultaneous_region_completers_all_score_the_bonus():
    n, o, p = letters(EUROPE, "NOP")
    benelux = region_cards(EUROPE, "Benelux")
    state = ScoreState(2, visited=[mask_of([n, o]), mask_of([o, p])])
    rows = disjoint_rows(EUROPE, [[p], [n]], avoid=benelux)
    scores, _ = resolve_round(EUROPE, state, rows, [NO_CHOICE] * 2)
    assert [s.regions for s in scores] == [3, 3]


# --- Passport: 7 / 3 / 1 ----------------------------------------------------------------------------------

NORDIC = region_cards(EUROPE, "Nordic Countries")


def all_but_nordic() -> int:
    return mask_of(next(c.index for c in EUROPE.cards if c.region == r.index)
                   for r in EUROPE.regions if r.name != "Nordic Countries")


def passport_round(state: ScoreState, achievers: set[int]) -> list[int]:
    """Every player has visited all regions but the Nordic one; `achievers` now visit a Nordic country."""
    # rows may share cards here: only the visited masks matter to the passport, and 4 rows without the
    # Nordic cards cannot be disjoint
    rows = [fill_row(EUROPE, [NORDIC[p]] if p in achievers else [], avoid=NORDIC)
            for p in range(state.n_players)]
    scores, _ = resolve_round(EUROPE, state, rows, [NO_CHOICE] * state.n_players)
    return [s.route for s in scores]


def passport_state(players: int) -> ScoreState:
    return ScoreState(players, visited=[all_but_nordic()] * players)


def test_passport_needs_one_country_in_every_region():
    assert not route_achieved(EUROPE, all_but_nordic())
    assert route_achieved(EUROPE, all_but_nordic() | 1 << NORDIC[0])


def test_passport_tiers_in_order_each_player_once():
    state = passport_state(4)
    assert passport_round(state, {0}) == [7, 0, 0, 0]
    assert passport_round(state, {0, 1}) == [0, 3, 0, 0]   # player 1 scores the passport only once
    assert passport_round(state, {2}) == [0, 0, 1, 0]
    assert passport_round(state, {3}) == [0, 0, 0, 0]      # no fourth tier


def test_simultaneous_passports_share_the_highest_tier_which_is_then_used_up():
    state = passport_state(4)
    assert passport_round(state, {0, 1}) == [7, 7, 0, 0]
    assert passport_round(state, {2, 3}) == [0, 0, 3, 3]


def test_three_players_reach_the_third_tier():
    state = passport_state(3)
    assert passport_round(state, {0}) == [7, 0, 0]
    assert passport_round(state, {1}) == [0, 3, 0]
    assert passport_round(state, {2}) == [0, 0, 1]


def test_two_player_games_have_no_third_tier():
    assert EUROPE.route.tiers_for(2) == (7, 3)
    assert EUROPE.route.tiers_for(3) == (7, 3, 1)
    state = passport_state(2)
    assert passport_round(state, {0, 1}) == [7, 7]


# --- tie-breakers: passport, then Throw & Catch -----------------------------------------------------------

def test_tie_break_on_passport_then_throw_and_catch():
    assert rank_players(EUROPE, [one_round(50, route=7), one_round(50, route=3, throw_catch=9)]) == [1, 2]
    tied_passport = [one_round(50, route=3, throw_catch=2), one_round(50, route=3, throw_catch=5)]
    assert rank_players(EUROPE, tied_passport) == [2, 1]
    all_tied = [one_round(50, throw_catch=4), one_round(50, throw_catch=4), one_round(40)]
    assert rank_players(EUROPE, all_tied) == [1, 1, 3]


# --- whole games, records and the CLI ---------------------------------------------------------------------

def test_score_command_scores_a_europe_record(tmp_path):
    state = play(Game(EUROPE, 3, seed=7), [make_bot("greedy", s) for s in range(3)])
    record = record_from_rounds(EUROPE, ["Ann", "Bob", "Cy"], parsed_rounds(state))
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json(), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [p["total"] for p in report["players"]] == state.totals()
    assert set(report["categories"]) == {"throw_catch", "cuisine", "transport", "treasures", "sites",
                                         "regions", "passport"}
    assert '"treasure"' in path.read_text()




def test_deck_json_lists_regions_with_bonuses():
    result = CliRunner().invoke(app, ["deck", "europe", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["provenance"] == "tourpad"
    assert {r["name"]: (r["letters"], r["bonus"]) for r in doc["regions"]}["Benelux"] == ("NOP", 3)
    assert doc["route"]["kind"] == "passport" and len(doc["cards"]) == 28


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), variant=st.booleans(),
       bot=st.sampled_from(["random", "greedy"]))
def test_random_europe_games_keep_the_invariants(seed, players, variant, bot):
    check_random_game(EUROPE, seed, players, variant, bot)
