"""The shared first-come bonuses, settled by `rules.bonuses.settle_bonuses` for letters and category mode."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.bonuses import route_tier_after, route_tier_points, settle_bonuses
from rules.editions import load_edition
from rules.scoring import ScoreState

AUS = load_edition("australia")
EUROPE = load_edition("europe")
USA = load_edition("usa")


def region(edition, name: str) -> int:
    return 1 << next(r.index for r in edition.regions if r.name == name)


def route_rounds(edition, n: int, rounds: list[set[int]]) -> list[list[int]]:
    """Route points per round for the players achieving the route in each round (by seat)."""
    sheets = ScoreState(n)
    out = []
    for achievers in rounds:
        _, points = settle_bonuses(edition, sheets, n, [0] * n, sum(1 << p for p in achievers))
        out.append(points)
    return out


def test_a_region_completed_by_two_players_in_one_round_is_shared_then_struck_out():
    sheets = ScoreState(3)
    tas, vic = region(AUS, "Tasmania"), region(AUS, "Victoria")
    notes = [[], [], []]
    points, _ = settle_bonuses(AUS, sheets, 3, [tas, tas | vic, 0], 0, notes)
    assert points == [3, 6, 0]
    assert sheets.regions_claimed == tas | vic
    assert notes[0] == ["Region bonus: Tasmania complete first (shared) = +3"]
    assert notes[1] == ["Region bonus: Victoria complete first = +3",  # the edition's region order
                        "Region bonus: Tasmania complete first (shared) = +3"]
    later = [[], [], []]
    points, _ = settle_bonuses(AUS, sheets, 3, [0, 0, tas], 0, later)
    assert points == [0, 0, 0]
    assert later[2] == ["Region bonus: Tasmania complete, but already claimed: struck out"]


@pytest.mark.parametrize(("edition", "n", "rounds", "expected"), [
    # Europe, 4 players: 7, 3, 1 in order of achievement, then nothing
    (EUROPE, 4, [{0}, {1}, {2}, {3}], [[7, 0, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]),
    # same round: both score the highest tier on offer, which is then used up (the next scores 3, not 1)
    (EUROPE, 4, [{0, 1}, {2}, {3}], [[7, 7, 0, 0], [0, 0, 3, 0], [0, 0, 0, 1]]),
    (EUROPE, 3, [{1}, {0, 2}], [[0, 7, 0], [3, 0, 3]]),
    # 2 players: no third tier
    (EUROPE, 2, [{0}, {1}], [[7, 0], [0, 3]]),
    # USA: "1pt for anyone else" — the last tier goes on being awarded
    (USA, 4, [{0}, {1}, {2}, {3}], [[7, 0, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    (USA, 4, [{3}, {0, 1, 2}], [[0, 0, 0, 7], [3, 3, 3, 0]]),
    (USA, 2, [{0}, {1}], [[7, 0], [0, 3]]),
    # a round nobody achieves it changes nothing; each player scores it once
    (USA, 3, [set(), {2}, {2}, {0, 2}], [[0, 0, 0], [0, 0, 7], [0, 0, 0], [3, 0, 0]]),
])
def test_route_tiers_by_order_of_achievement(edition, n, rounds, expected):
    assert route_rounds(edition, n, rounds) == expected


def test_route_notes_say_when_a_tier_is_shared():
    sheets = ScoreState(3)
    notes = [[], [], []]
    settle_bonuses(EUROPE, sheets, 3, [0, 0, 0], 0b011, notes)
    assert notes == [["Passport: achieved (shared tier) = +7"], ["Passport: achieved (shared tier) = +7"], []]
    settle_bonuses(EUROPE, sheets, 3, [0, 0, 0], 0b100, notes)
    assert notes[2] == ["Passport: achieved = +3"]


@given(st.sampled_from([EUROPE, USA]), st.integers(2, 4), st.lists(st.integers(0, 15), min_size=1, max_size=4))
def test_route_settlement_follows_the_rule_text(edition, n, masks):
    """Against a plain reading of the rule text: the k-th round in which someone first achieves the route
    offers the k-th tier to all of them (the last again for USA's "anyone else", nothing after Europe's)."""
    route = edition.route
    tiers = route.tiers_for(n)
    sheets = ScoreState(n)
    done: set[int] = set()
    events = 0
    for mask in masks:
        mask &= (1 << n) - 1
        _, points = settle_bonuses(edition, sheets, n, [0] * n, mask)
        new = {p for p in range(n) if mask >> p & 1} - done
        if new:
            offered = tiers[events] if events < len(tiers) else (tiers[-1] if route.last_tier_repeats else 0)
            events += 1
        assert points == [offered if p in new else 0 for p in range(n)]
        done |= new
        assert sheets.route_done == sum(1 << p for p in done)
        assert sheets.route_next_tier <= len(tiers)  # the tier index never runs past the tiers


def test_tier_formula_is_the_one_the_bots_use():
    route = USA.route
    assert [route_tier_points(route, 4, t) for t in range(5)] == [7, 3, 1, 1, 1]
    assert [route_tier_points(EUROPE.route, 4, t) for t in range(5)] == [7, 3, 1, 0, 0]
    assert [route_tier_points(EUROPE.route, 2, t) for t in range(4)] == [7, 3, 0, 0]
    # a repeating last tier is never crossed out; after Europe's last tier none is left to cross out
    assert [route_tier_after(route, 4, t) for t in range(3)] == [1, 2, 2]
    assert [route_tier_after(EUROPE.route, 4, t) for t in range(4)] == [1, 2, 3, 3]
