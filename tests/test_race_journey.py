"""The journey validator: every connection rule and journey criterion, valid and invalid journeys each."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.race.board import load_board
from rules.race.journey import (
    best_fixes,
    broken_links,
    check_journey,
    connected_links,
    fault_count,
    is_complete,
    link_reason,
)

BOARD = load_board()
C = BOARD.n_countries


def journey(*names: str) -> list[int]:
    return [BOARD.kind_of(n) for n in names]


def breaks_of(*names: str) -> dict[int, str]:
    """{trip where the broken link starts (1-based): reason}"""
    return {b.link + 1: b.reason for b in check_journey(BOARD, journey(*names)).breaks}


#: A complete journey on foot, by ferry, bridge, ship and aeroplane.
VALID = ("Portugal", "Spain", "France", "England", "Ireland", "Atlantic ship", "Norway", "Sweden", "Denmark",
         "Germany")


def test_a_complete_journey_is_valid():
    check = check_journey(BOARD, journey(*VALID))
    assert check.valid and check.connected == 9 and is_complete(BOARD, journey(*VALID))


def test_walking_needs_a_border():
    assert not breaks_of(*VALID)
    bad = ("Portugal", "France", *VALID[3:], "Poland")
    assert breaks_of(*bad) == {1: "Portugal and France do not border (no land border, ferry or bridge)"}


def test_ferries_and_bridge_connect():
    ok = ("Scotland", "Northern Ireland", "Ireland", "England", "France", "Spain", "Portugal", "Spain",
          "Mediterranean ship", "Turkey")
    assert check_journey(BOARD, journey(*ok)).valid
    east = ("Moldova", "Ukraine", "Turkey", "Romania", "Ukraine", "Bulgaria", "Turkey", "Greece", "Albania",
            "Kosovo")
    # Ukraine twice is impossible (one tile), but every link connects: Ukraine–Turkey, Romania–Turkey and
    # Ukraine–Bulgaria are ferries
    check = check_journey(BOARD, journey(*east))
    assert not check.breaks and len(check.problems) == 2  # Ukraine twice, Turkey twice
    # only the rulebook's ferries: Scotland–Ireland and Wales–Ireland are not crossings, nor Denmark–Norway
    assert breaks_of("Scotland", "Ireland", *ok[2:])[1] == (
        "Scotland and Ireland do not border (no land border, ferry or bridge)")
    assert 1 in breaks_of("Wales", "Ireland", *ok[2:])
    assert 8 in breaks_of(*ok[:7], "Denmark", "Norway", "Sweden")


def test_islands_without_ferry_need_a_ship_or_plane():
    assert 1 in breaks_of("Italy", "Malta", *VALID[2:])
    assert not breaks_of("Italy", "Mediterranean ship", "Malta", "Mediterranean ship", "Spain", *VALID[5:])


def test_ship_needs_both_countries_on_its_sea():
    ok = ("Spain", "Mediterranean ship", "Cyprus", "Mediterranean ship", "Italy", "Austria", "Germany",
          "Baltic ship", "Finland", "Sweden")
    assert check_journey(BOARD, journey(*ok)).valid
    assert breaks_of("Spain", "Baltic ship", *ok[2:]) == {
        1: "Spain is not on the Baltic, so the Baltic ship cannot reach it",
        2: "Cyprus is not on the Baltic, so the Baltic ship cannot reach it"}
    # the rulebook: the Black Sea is not part of the game, Ukraine is on no sea
    assert breaks_of(*ok[:8], "Ukraine", "Belarus") == {
        8: "Ukraine is not on the Baltic, so the Baltic ship cannot reach it"}


def test_plane_needs_both_countries_of_its_colour():
    colour = {n: ("blue", "green", "orange", "pink", "yellow")[BOARD.colour[i]]
              for i, n in enumerate(BOARD.countries)}
    assert colour["Italy"] == colour["Iceland"] == "yellow" and colour["Spain"] == "pink"
    ok = ("Portugal", "Spain", "France", "Italy", "yellow aeroplane", "Iceland", "Atlantic ship", "Norway",
          "Sweden", "Denmark")
    assert check_journey(BOARD, journey(*ok)).valid
    broken = breaks_of(*ok[:4], "pink aeroplane", *ok[5:])
    assert broken == {4: "Italy is yellow, not pink: the pink aeroplane only flies between pink countries",
                      5: "Iceland is yellow, not pink: the pink aeroplane only flies between pink countries"}


def test_two_transport_tiles_side_by_side_do_not_connect():
    broken = breaks_of("Spain", "Atlantic ship", "pink aeroplane", "Germany", *VALID[4:])
    assert broken[2] == "two transport tiles side by side do not connect (Atlantic ship, pink aeroplane)"


def test_start_and_end_with_a_country():
    check = check_journey(BOARD, journey("Atlantic ship", *VALID[1:]))
    assert check.problems[0].reason.startswith("a journey must start with a country tile")
    assert check.breaks[0].reason == "the Atlantic ship at trip 1 has no country before it"
    check = check_journey(BOARD, journey(*VALID[:9], "Baltic ship"))
    assert check.problems[0].trips == (10,) and "must end with a country" in check.problems[0].reason
    assert check.breaks[-1].reason == "the Baltic ship at trip 10 has no country after it"


def test_doubled_country_tiles_never_side_by_side():
    apart = ("Germany", "Denmark", "Sweden", "Denmark", "Germany", "France", "Spain", "Portugal", "Spain",
             "France")
    assert check_journey(BOARD, journey(*apart)).valid
    together = ("Denmark", "Germany", "Germany", "France", "Spain", "Portugal", "Spain", "France", "Belgium",
                "Netherlands")
    assert breaks_of(*together) == {2: "the two Germany tiles may not be side by side"}


def test_a_single_tile_country_cannot_appear_twice():
    check = check_journey(BOARD, journey("Portugal", "Spain", "Portugal", *VALID[3:]))
    problem = next(p for p in check.problems if "Portugal" in p.reason)
    assert problem.trips == (1, 3) and "set has 1 Portugal tile" in problem.reason


def test_ship_back_to_the_same_country_is_no_trip():
    broken = breaks_of("France", "Spain", "Atlantic ship", "Spain", *VALID[4:])
    assert broken[3] == "the Atlantic ship goes from Spain back to Spain; it must take you to another country"


def test_rulebook_example_journey_breaks_its_own_rules():
    """CLARIFICATIONS: the rulebook's 'completed' example has Norway–Greece and two Greece tiles."""
    example = journey("Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece",
                      "Mediterranean ship", "Turkey", "Ukraine")
    check = check_journey(BOARD, example)
    assert not check.valid
    assert [str(b) for b in check.breaks] == [
        "trips 4–5: Norway and Greece do not border (no land border, ferry or bridge)"]
    assert [str(p) for p in check.problems] == [
        "trips 5, 7: Greece appears 2 times, but the set has 1 Greece tile"]
    # the rest of it is fine: France–Atlantic–Norway, Greece–Mediterranean–Turkey, the Turkey–Ukraine ferry
    assert connected_links(BOARD, example) == 8


def test_best_fix_finds_the_single_replacement():
    kinds = journey("Portugal", "Italy", *VALID[2:])
    fixes = best_fixes(BOARD, kinds)
    assert fixes and all(f.remaining == 0 for f in fixes)
    assert {(f.slot, BOARD.kind_name(f.kind)) for f in fixes} >= {(1, "Spain"), (0, "Austria")}
    for fix in fixes:
        fixed = kinds[:]
        fixed[fix.slot] = fix.kind
        assert check_journey(BOARD, fixed).valid
    assert best_fixes(BOARD, journey(*VALID)) == []


def test_best_fix_respects_tile_counts():
    # Norway–Greece needs one tile; Greece twice also needs one: one replacement fixes at most one of them
    example = journey("Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece",
                      "Mediterranean ship", "Turkey", "Ukraine")
    fixes = best_fixes(BOARD, example)
    assert fixes and {f.remaining for f in fixes} == {1}
    assert all(f.kind != BOARD.kind_of("Greece") for f in fixes)


kind_st = st.integers(min_value=0, max_value=BOARD.n_kinds - 1)
country_st = st.integers(min_value=0, max_value=C - 1)


def _connected_by_board(a: int, t: int | None, b: int) -> bool:
    if t is None:
        return BOARD.borders(a, b)
    return a != b and bool(BOARD.touch[t] >> a & 1) and bool(BOARD.touch[t] >> b & 1)


def _walk(start: int, choices: list[int]) -> list[int]:
    """Build a journey that is likely valid: a random walk over borders, ships and planes."""
    out = [start]
    for choice in choices:
        if len(out) >= 10:
            break
        here = out[-1]
        options = [("walk", j) for j in range(C) if BOARD.borders(here, j)]
        if len(out) <= 7:
            for t in range(C, BOARD.n_kinds):
                if BOARD.touch[t] >> here & 1:
                    options += [("ride", t, j) for j in range(C) if j != here and BOARD.touch[t] >> j & 1]
        if not options:
            break
        step = options[choice % len(options)]
        out += [step[1]] if step[0] == "walk" else [step[1], step[2]]
    return out[:10]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(kind_st, min_size=10, max_size=10),
                 st.builds(_walk, country_st, st.lists(st.integers(0, 10_000), min_size=10, max_size=10))
                 .filter(lambda j: len(j) == 10)))
def test_accepted_journeys_are_connected_by_the_board_data(kinds):
    check = check_journey(BOARD, kinds)
    assert check.valid == (fault_count(BOARD, kinds) == 0)
    assert (broken_links(BOARD, kinds) == 0) == (not check.breaks)
    if not check.valid:
        return
    assert BOARD.is_country(kinds[0]) and BOARD.is_country(kinds[-1])
    i = 0
    while i < 9:
        a, b = kinds[i], kinds[i + 1]
        assert BOARD.is_country(a)
        if BOARD.is_country(b):
            assert _connected_by_board(a, None, b)
            i += 1
        else:
            assert BOARD.is_country(kinds[i + 2]) and _connected_by_board(a, b, kinds[i + 2])
            i += 2
    for kind in set(kinds):
        assert kinds.count(kind) <= BOARD.copies[kind]


def test_the_property_test_generator_reaches_valid_journeys():
    """Guards the property test above against being vacuous: its walks are often complete journeys."""
    import random

    rng = random.Random(3)
    walks = [_walk(rng.randrange(C), [rng.randrange(10_000) for _ in range(10)]) for _ in range(200)]
    assert sum(len(w) == 10 and check_journey(BOARD, w).valid for w in walks) >= 50


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), kind_st), min_size=10, max_size=10))
def test_link_states_agree_with_the_validator(kinds):
    from rules.race.journey import BROKEN, OPEN, link_states

    states = link_states(BOARD, kinds)
    if None not in kinds:
        assert OPEN not in states
        mask = broken_links(BOARD, kinds)
        assert [s == BROKEN for s in states] == [bool(mask >> i & 1) for i in range(9)]
        return
    # filling the empty slots can never mend a link already judged broken
    filled = [k if k is not None else BOARD.kind_of("Germany") for k in kinds]
    full = link_states(BOARD, filled)
    for i, state in enumerate(states):
        if state == BROKEN:
            assert full[i] == BROKEN


def test_a_transport_at_an_end_is_explained_by_the_end_first():
    """Issue #44: a yellow aeroplane at trip 1 next to blue Croatia read "Croatia is blue, not yellow", as if
    a yellow country would mend it; nothing can, as no country comes before trip 1."""
    assert BOARD.colour[BOARD.kind_of("Croatia")] != BOARD.colour[BOARD.kind_of("Malta")]
    holder = [BOARD.kind_of("yellow aeroplane"), BOARD.kind_of("Croatia"), *[None] * 8]
    assert link_reason(BOARD, holder, 0) == "the yellow aeroplane at trip 1 has no country before it"
    holder = [*[None] * 8, BOARD.kind_of("Croatia"), BOARD.kind_of("yellow aeroplane")]
    assert link_reason(BOARD, holder, 8) == "the yellow aeroplane at trip 10 has no country after it"
    holder = [*[None] * 4, BOARD.kind_of("Croatia"), BOARD.kind_of("yellow aeroplane"), *[None] * 4]
    assert link_reason(BOARD, holder, 4).startswith("Croatia is blue, not yellow")
