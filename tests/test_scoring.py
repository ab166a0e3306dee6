"""Scoring, one category at a time, with the rulebooks' worked examples (Boomerang: Australia).

Australia's cards (letter: number, icons) used below — from the publisher's list:
A 1 Leaves+Indigenous, B 1 Kangaroos+Sightseeing, C 1 Shells+Kangaroos, D 1 Wildflowers+Bushwalking,
E 4 Emus+Indigenous, F 4 Wombats+Sightseeing, G 4 Shells+Platypuses, H 4 Koalas+Swimming,
I 6 Wildflowers+Sightseeing, J 6 Kangaroos+Indigenous, K 6 Souvenirs+Bushwalking, L 6 Wildflowers+Swimming,
M 3 Koalas+Bushwalking, N 3 Emus+Swimming, O 3 Kangaroos+Bushwalking, P 3 Wildflowers+Sightseeing,
Q 5 Wombats+Indigenous, R 5 Emus+Sightseeing, S 5 Wombats+Swimming, T 5 Emus+Bushwalking,
U 2 Wombats+Bushwalking, V 2 Leaves+Indigenous, W 2 Shells+Swimming, X 2 Leaves+Platypuses,
Y 7 Leaves+Emus, Z 7 Koalas+Sightseeing, @ 7 Leaves+Indigenous, # 7 Kangaroos+Swimming.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.editions import bundled_ids, load_edition
from rules.scoring import (
    NO_CHOICE,
    RoundScore,
    ScoreState,
    choice_option_points,
    covered_regions,
    rank_players,
    resolve_round,
    round_tables,
    route_achieved,
    route_achievers,
    row_mask,
    score_choice,
    score_collection,
    score_pairs,
    score_round,
    score_throw_catch,
)


def cards(edition, letters: str) -> tuple[int, ...]:
    return tuple(edition.card_index(x) for x in letters)


def mask(edition, letters: str) -> int:
    return row_mask(cards(edition, letters))


def activity(edition, name: str) -> int:
    return edition.choice.icon_index(name)


# --- Throw & Catch ----------------------------------------------------------------------------------------

def test_throw_and_catch_is_the_absolute_difference(australia):
    # BGA: "a Throw of 7 and a Catch of 1 will score the same … as a Throw of 1 and a Catch of 7: 6 points."
    assert score_throw_catch(australia, cards(australia, "YABCDEA"[:6] + "A"))[0] == 6  # Y(7) … A(1)
    assert score_throw_catch(australia, cards(australia, "ABCDEFY"))[0] == 6            # A(1) … Y(7)
    assert score_throw_catch(australia, cards(australia, "EBCDFGA"))[0] == 3            # E(4) … A(1)
    assert score_throw_catch(australia, cards(australia, "EBCDFGH"))[0] == 0            # E(4) … H(4)


def test_throw_and_catch_explains_itself(australia):
    points, text = score_throw_catch(australia, cards(australia, "YBCDEFA"), explain=True)
    assert points == 6 and "Y (7)" in text and "A (1)" in text and "= 6" in text


# --- Collections ------------------------------------------------------------------------------------------

def test_collections_up_to_seven_are_doubled(australia):
    # A Leaves 1 + C Shells 3 + D Wildflowers 2 = 6 ≤ 7 → 12
    points, text = score_collection(australia, mask(australia, "ABCDEFH"), -1, explain=True)
    assert points == 12
    assert "6 ≤ 7, doubled = 12" in text


def test_collections_of_exactly_seven_are_doubled(australia):
    # K Souvenirs 5 + D Wildflowers 2 = 7 → 14
    assert score_collection(australia, mask(australia, "KDEFHMN"), -1)[0] == 14


def test_collections_over_seven_are_not_doubled(australia):
    # C 3 + G 3 + W 3 = 9 → 9 ("excess baggage")
    assert score_collection(australia, mask(australia, "CGWEFHM"), -1)[0] == 9


def test_no_collection_icons_score_zero(australia):
    assert score_collection(australia, mask(australia, "BEFHMNO"), -1)[0] == 0


# --- Animals ----------------------------------------------------------------------------------------------

def test_a_pair_scores_the_animal_value_once(australia):
    # B and C are Kangaroos (3): "you would score only 3 points, not 6"
    points, text = score_pairs(australia, mask(australia, "BCADEFG"), explain=True)
    assert points == 3 and "Kangaroos ×2 (1 pair) = 3" in text


def test_three_of_a_kind_is_one_pair_and_four_of_a_kind_two(australia):
    assert score_pairs(australia, mask(australia, "BCJ"))[0] == 3        # 3 Kangaroos
    assert score_pairs(australia, mask(australia, "BCJO"))[0] == 6       # 4 Kangaroos
    assert score_pairs(australia, mask(australia, "BCJO#"))[0] == 6      # 5 Kangaroos: still two pairs


def test_pairs_of_different_animals_add_up(australia):
    # Kangaroos B C (3) + Platypuses G X (9) + Emus E N (4) = 16; a single Wombat F scores nothing
    assert score_pairs(australia, mask(australia, "BCGXENF"))[0] == 16


def test_single_animals_score_nothing(australia):
    assert score_pairs(australia, mask(australia, "BEFGHAD"))[0] == 0


# --- Activities -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("letters", "expected"), [
    ("HABCDEF", 0),   # Swimming ×1 → 0
    ("HLABCDE", 2),   # ×2 → 2
    ("HLNABCD", 4),   # ×3 → 4
    ("HLNSABC", 7),   # ×4 → 7
    ("HLNSWAB", 10),  # ×5 → 10
    ("HLNSW#A", 15),  # ×6 → 15
])
def test_activity_table(australia, letters, expected):
    m = mask(australia, letters)
    swimming = activity(australia, "Swimming")
    everyone = (m & australia.choice.icons[swimming].mask).bit_count()
    assert score_choice(australia, swimming, m, everyone, 2)[0] == expected


def test_activity_table_two_icons_score_two(australia):
    """CLARIFICATIONS: the BGA summary's "1 point for 2 symbols" contradicts its full rules (2 points)."""
    m = mask(australia, "ABEFGHI")  # Indigenous A, E → 2 icons
    indigenous = activity(australia, "Indigenous Culture")
    points, text = score_choice(australia, indigenous, m, 2, 4, explain=True)
    assert points == 2 and "Indigenous Culture ×2 = 2" in text


def test_no_activity_chosen_scores_zero(australia):
    assert score_choice(australia, NO_CHOICE, mask(australia, "HLNSW#A"), 0, 2)[0] == 0


# --- The round: sites, region bonuses, first-come ---------------------------------------------------------

def round_of(australia, state, *letter_rows, choices=None):
    rows = [cards(australia, r) for r in letter_rows]
    return resolve_round(australia, state, rows, choices or [NO_CHOICE] * len(rows), explain=True)


def test_a_full_round_scores_every_category(australia):
    state = ScoreState(2)
    scores, notes = round_of(australia, state, "ABCDEFG", "HIJKLMN",
                             choices=[activity(australia, "Sightseeing"), NO_CHOICE])
    ann, bob = scores
    # Ann: A(1)…G(4) → 3; Leaves1+Shells3+Wildflowers2+Shells3 = 9 → 9; Kangaroos B C → 3;
    # Sightseeing B F → 2; 7 new sites; Western Australia ABCD complete → +3
    assert ann == RoundScore(3, 9, 3, 2, 7, 3, 0)
    # Bob: H(4)…N(3) → 1; Wildflowers I2 + Souvenirs K5 + Wildflowers L2 = 9 → 9; Koalas H M → 7;
    # Emus N and Kangaroos J single → 0 more; no activity; 7 new; Queensland IJKL complete → +3
    assert bob == RoundScore(1, 9, 7, 0, 7, 3, 0)
    assert ann.total == 3 + 9 + 3 + 2 + 7 + 3
    assert any("Western Australia complete first" in line for line in notes[0])
    assert any("Tourist sites: new A, B, C, D, E, F, G = +7" in line for line in notes[0])


def test_region_bonus_goes_to_the_first_completer_only(australia):
    state = ScoreState(2)
    scores, _ = round_of(australia, state, "ABCEFGH", "IJKLMNO")   # Ann: ABC of WA; Bob: Queensland
    assert [s.regions for s in scores] == [3, 3]  # Ann completes Northern Territory EFGH, Bob Queensland
    scores, _ = round_of(australia, state, "DQRSTUV", "ABCDEFG")   # both now complete Western Australia
    # Both complete WA in the same round: both score; Bob's second try at NT/… is gone
    assert scores[0].regions == 3 + 3      # WA (shared) + New South Wales QRST
    assert scores[1].regions == 3          # WA shared; Northern Territory was claimed by Ann in round 1
    scores, _ = round_of(australia, state, "QRSTIJK", "YZ@#QRS")
    assert scores[0].regions == 0          # Queensland was Bob's in round 1; NSW already Ann's
    assert scores[1].regions == 3          # Tasmania YZ@#


def test_simultaneous_completers_all_score(australia):
    state = ScoreState(3)
    # round 1: Ann has U V W of Victoria, Bob has X; nobody completes Victoria
    round_of(australia, state, "UVWABCE", "XFGHIJK", "LMNOPQR")
    # round 2: Ann gets X, Bob gets U V W — both complete Victoria in the same round: both score +3
    scores, notes = round_of(australia, state, "XSTYZ@#", "UVWDLMN", "ABCEFGH")
    assert scores[0].regions == 3 + 3      # Victoria (shared) + Tasmania YZ@#
    assert scores[1].regions == 3 + 3      # Victoria (shared) + Queensland I J K (round 1) and L
    assert scores[2].regions == 3          # Northern Territory E F G H
    assert any("Victoria complete first (shared)" in line for line in notes[0])
    assert any("Victoria complete first (shared)" in line for line in notes[1])
    # round 3: Carol completes Victoria too late — the bonus is gone
    scores, _ = round_of(australia, state, "ABCDEFG", "HIJKLMN", "UVWXOPQ")
    assert scores[2].regions == 0


def test_revisiting_a_site_scores_nothing_more(australia):
    state = ScoreState(2)
    first, _ = round_of(australia, state, "ABCDEFG", "HIJKLMN")
    again, notes = round_of(australia, state, "ABCDEFO", "HIJKLMP")
    assert first[0].sites == 7 and again[0].sites == 1 and again[1].sites == 1
    assert any("new O = +1" in line for line in notes[0])


# --- Ranking ----------------------------------------------------------------------------------------------

def rs(total_tc: int, other: int, route: int = 0) -> RoundScore:
    return RoundScore(total_tc, other, 0, 0, 0, 0, route)


def test_ties_are_broken_by_throw_and_catch(australia):
    ranks = rank_players(australia, [[rs(5, 20)], [rs(2, 23)], [rs(0, 10)]])
    assert ranks == [1, 2, 3]


def test_players_tied_on_the_tie_breaker_too_stay_tied(australia):
    assert rank_players(australia, [[rs(5, 20)], [rs(5, 20)], [rs(6, 30)]]) == [2, 2, 1]


@given(edition_id=st.sampled_from(bundled_ids()), players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_points_alone_match_the_explained_scoring_every_round(edition_id, players, seed):
    """`score_round` (the hot path, no explanations) scores and settles a whole game as the explained path."""
    edition = load_edition(edition_id)
    rng = random.Random(seed)
    quick, explained, unlisted = ScoreState(players), ScoreState(players), ScoreState(players)
    for _ in range(4):
        deck = list(range(len(edition.cards)))
        rng.shuffle(deck)
        rows = [deck[7 * p:7 * p + 7] for p in range(players)]
        masks = [row_mask(row) for row in rows]
        choices = []
        for p in range(players):
            open_icons = [i for i, icon in enumerate(edition.choice.icons)
                          if masks[p] & icon.mask and not quick.choices_used[p] >> i & 1]
            choices.append(rng.choice([*open_icons, NO_CHOICE]))
        for p in range(players):
            # the options offered at the round's end score as the choice itself would
            everyone = {i: sum((m & icon.mask).bit_count() for m in masks)
                        for i, icon in enumerate(edition.choice.icons)}
            assert dict(choice_option_points(edition, rows, p)) == {
                i: score_choice(edition, i, masks[p], everyone[i], players)[0]
                for i, icon in enumerate(edition.choice.icons) if masks[p] & icon.mask}
        quick_awards, explained_awards = [], []
        points = score_round(edition, quick, rows, choices, masks, quick_awards)
        expected, notes = resolve_round(edition, explained, rows, choices, explain=True, awards=explained_awards)
        assert points == expected and quick == explained and quick_awards == explained_awards
        # without the awards listed, the region bonuses are summed from a table and only a route is settled
        assert score_round(edition, unlisted, rows, choices, masks) == expected and unlisted == explained
        assert all(notes)


def route_by_the_map(edition, visited: int) -> bool:
    """The route bonus read off the edition's data card by card: Europe's passport (a visited card in every
    region), USA's coast to coast (a chain of visited towns, pathway by pathway, from west to east)."""
    route = edition.route
    if route.kind == "passport":
        return all(visited & region.mask for region in edition.regions)
    reached = [c for c in range(len(edition.cards)) if visited >> c & 1 and route.west_mask >> c & 1]
    seen = set(reached)
    while reached:
        town = reached.pop()
        if route.east_mask >> town & 1:
            return True
        for other in range(len(edition.cards)):
            if route.neighbours[town] >> other & 1 and visited >> other & 1 and other not in seen:
                seen.add(other)
                reached.append(other)
    return False


@given(edition_id=st.sampled_from(bundled_ids()), visited=st.integers(0, 2**28 - 1),
       dense=st.integers(0, 2**28 - 1))
def test_the_scoring_tables_read_routes_and_regions_as_the_map_does(edition_id, visited, dense):
    """`route_achieved` and `covered_regions` read chunk tables (`RoundTables`); every sheet, sparse or
    nearly full, reads as the edition's cards, regions and pathways say."""
    edition = load_edition(edition_id)
    for sheet in (visited, visited | dense, (1 << 28) - 1 - (visited & dense & 0xFFF)):
        covered = sum(1 << region.index for region in edition.regions if sheet & region.mask == region.mask)
        assert covered_regions(round_tables(edition), sheet) == covered
        if edition.route is not None:
            assert route_achieved(edition, sheet) == route_by_the_map(edition, sheet)


@given(edition_id=st.sampled_from(bundled_ids()), seed=st.integers(0, 2**32))
def test_a_rows_round_end_options_read_from_its_tally_are_the_rules(edition_id, seed):
    """The engine's whole-round play adds up a row's card tallies (`RoundTables.card_tallies`) and reads the
    round-end options from that tally (`choice_icons` by its choice fields, then `choice_offers`): "none",
    then every icon the row shows that the player has not scored yet, in icon order; the scoring reads the
    chosen icon's count there too, and the pairs points from the pairs fields (`pairs_points`)."""
    edition = load_edition(edition_id)
    tables = round_tables(edition)
    rng = random.Random(seed)
    icons = edition.choice.icons
    for _ in range(20):
        row = rng.sample(range(len(edition.cards)), 7)
        tally = sum(tables.card_tallies[card] for card in row)
        mask = row_mask(row)
        held, counts = tables.choice_icons[tally >> tables.choice_held_at]
        assert counts == (*((mask & icon.mask).bit_count() for icon in icons), 0)
        assert tables.pairs_points[tally >> tables.pairs_at & tables.pairs_fields] == score_pairs(edition, mask)[0]
        for used in range(1 << len(icons)):
            offered, size = tables.choice_offers[used][held]
            assert offered == (NO_CHOICE, *(i for i, icon in enumerate(icons)
                                            if mask & icon.mask and not used >> i & 1))
            assert size == len(offered)


@given(edition_id=st.sampled_from(["europe", "usa"]),
       sheets=st.lists(st.integers(0, 2**28 - 1), min_size=2, max_size=4), done=st.integers(0, 15))
def test_the_tables_route_achievers_are_the_sheets_with_the_route_not_scored_yet(edition_id, sheets, done):
    """`route_achievers`: the players whose sheet has the route, read off the map card by card, and who have
    not scored it before."""
    edition = load_edition(edition_id)
    # denser sheets too, so that some have the route
    sheets = [(sheet | sheet >> 1 | sheet << 1) & (1 << 28) - 1 for sheet in sheets]
    state = ScoreState(len(sheets), route_done=done & (1 << len(sheets)) - 1)
    expected = sum(1 << p for p, sheet in enumerate(sheets)
                   if not state.route_done >> p & 1 and route_by_the_map(edition, sheet))
    assert route_achievers(edition, state, sheets) == expected


@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_coast_to_coast_read_on_from_last_round_is_the_map_read_afresh(seed, players):
    """USA's route reading goes on from where the sheet's last reading left it (`ScoreState.route_reach`): over
    a game's growing sheets it finds the achievers the map read card by card finds, and a sheet that did not
    grow from the last reading (a sheet set anew) is read afresh."""
    edition = load_edition("usa")
    rng = random.Random(seed)
    state = ScoreState(players)
    sheets = [0] * players
    for _ in range(5):
        sheets = [sheet | row_mask(rng.sample(range(28), 7)) for sheet in sheets]
        expected = sum(1 << p for p, sheet in enumerate(sheets)
                       if not state.route_done >> p & 1 and route_by_the_map(edition, sheet))
        assert route_achievers(edition, state, sheets) == expected
        # some achievers score it (as settling would): they are not looked for again
        state.route_done |= expected & rng.getrandbits(players)
    # sheets set anew, smaller than the ones last read
    sheets = [sheet & rng.getrandbits(28) for sheet in sheets]
    expected = sum(1 << p for p, sheet in enumerate(sheets)
                   if not state.route_done >> p & 1 and route_by_the_map(edition, sheet))
    assert route_achievers(edition, state, sheets) == expected
