"""The round summary's words for the shared bonuses (`rules.wording.round_bonus_summary`), the bonus marks
after the closed rounds (`rules.bonuses.bonus_marks`), and the two test games of issue 13 (a USA table with
a shared coast to coast and a shared region; a Europe table with the passport settled 1st, 2nd and tied),
each checked through the rules, through `tourpad score --json` and (Europe) through the table service."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_categories import typed_rounds
from typer.testing import CliRunner

from rules import categories
from rules.bonuses import Award, StruckOut, bonus_marks, settle_bonuses
from rules.bots import make_bot, play
from rules.editions import load_edition
from rules.engine import Game
from rules.record import GameRecord, ParsedRound, parse_record, round_summaries, score_record, score_rounds
from rules.scoring import ScoreState, row_mask
from rules.validation import Entered, validate_rounds
from rules.wording import bonus_summaries, name_list, round_bonus_summary
from scorer.cli import app
from scorer.table.service import TableService

AUS = load_edition("australia")
EUROPE = load_edition("europe")
USA = load_edition("usa")
DATA = Path(__file__).parent / "data"
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def region_award(edition, name: str, players: tuple[int, ...]) -> Award:
    region = next(r for r in edition.regions if r.name == name)
    return Award(region.name, region.bonus, players, region.index)


def route_award(edition, players: tuple[int, ...], tier: int, points: int) -> Award:
    return Award(edition.route.name, points, players, tier=tier)


def struck(edition, name: str, players: tuple[int, ...]) -> StruckOut:
    region = next(r for r in edition.regions if r.name == name)
    return StruckOut(region.name, region.index, players)


# --- each sentence shape --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("edition", "awards", "earlier", "expected"), [
    (EUROPE, [region_award(EUROPE, "Benelux", (0, 1))], [],
     "Ann and Bob both completed Benelux this round: +3 each"),
    (EUROPE, [region_award(EUROPE, "Benelux", (2,))], [], "Cy was first to complete Benelux: +3"),
    (AUS, [region_award(AUS, "Tasmania", (0, 1, 3))], [],
     "Ann, Bob and Dee all completed Tasmania this round: +3 each"),
    (USA, [route_award(USA, (2,), 0, 7)], [], "Cy was first coast to coast: +7"),
    (USA, [route_award(USA, (0, 1), 1, 3)], [[route_award(USA, (2,), 0, 7)]],
     "Ann and Bob both reached coast to coast this round: second place, +3 each"),
    (USA, [route_award(USA, (3,), 2, 1)], [[route_award(USA, (2,), 0, 7)], [route_award(USA, (0,), 1, 3)]],
     "Dee was third coast to coast: +1"),
    # USA's last tier goes on being awarded: a later achiever is "anyone else", not third again
    (USA, [route_award(USA, (3,), 2, 1)], [[route_award(USA, (0,), 0, 7)], [route_award(USA, (1,), 1, 3)],
                                          [route_award(USA, (2,), 2, 1)]],
     "Dee also reached coast to coast: +1 (anyone else scores 1)"),
    (EUROPE, [route_award(EUROPE, (1,), 0, 7)], [], "Bob was first to complete the passport: +7"),
    (EUROPE, [route_award(EUROPE, (2, 3), 2, 1)], [],
     "Cy and Dee both completed the passport this round: third place, +1 each"),
    # Europe's tiers run out: the fourth achiever scores nothing, and the sentence says why
    (EUROPE, [route_award(EUROPE, (3,), 3, 0)], [], "Dee completed the passport too, but its bonuses are all taken: "
                                                   "no bonus"),
])
def test_each_settled_bonus_is_one_sentence_naming_who_and_why(edition, awards, earlier, expected):
    assert round_bonus_summary(edition, awards, NAMES, earlier=earlier) == [expected]


def test_a_region_completed_after_it_was_taken_names_who_took_it_and_when():
    earlier = [[], [region_award(EUROPE, "Benelux", (0,))]]
    assert round_bonus_summary(EUROPE, [], NAMES[:3], [struck(EUROPE, "Benelux", (1,))], earlier) == [
        "Bob completed Benelux too, but Ann took it in round 2: no bonus"]
    # without the earlier rounds the sentence still says why, without naming anyone
    assert round_bonus_summary(EUROPE, [], NAMES[:3], [struck(EUROPE, "Benelux", (1, 2))]) == [
        "Bob and Cy completed Benelux too, but it was already taken: no bonus"]


def test_category_mode_lists_a_typed_region_completed_after_it_was_taken():
    sheets = ScoreState(3)
    benelux = 1 << next(r.index for r in EUROPE.regions if r.name == "Benelux")
    settle_bonuses(EUROPE, sheets, 3, [benelux, 0, 0], 0)
    struck_out: list[StruckOut] = []
    points, _ = settle_bonuses(EUROPE, sheets, 3, [0, benelux, benelux], 0, struck_out=struck_out)
    assert points == [0, 0, 0] and struck_out == [struck(EUROPE, "Benelux", (1, 2))]


def test_a_quiet_round_has_no_sentence():
    assert round_bonus_summary(USA, [], NAMES[:3]) == []
    assert bonus_summaries(USA, [[], []], NAMES[:3]) == [[], []]


# --- the summary against the engine, over random bot games ------------------------------------------------------

POINTS = re.compile(r"\+(\d+)( each)?")


def covers(visited: int, mask: int) -> bool:
    return visited & mask == mask


def named(line: str, names: list[str]) -> set[str]:
    return {name for name in names if re.search(rf"\b{name}\b", line)}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([AUS, EUROPE, USA]), st.integers(2, 4), st.integers(0, 2**31 - 1))
def test_the_summary_names_the_awarded_players_and_adds_up_to_the_bonus_points(edition, n, seed):
    game = Game(edition, n, seed)
    state = play(game, [make_bot("easy" if p % 2 else "normal", seed + p) for p in range(n)])
    rounds = [ParsedRound(rows, choices) for rows, choices in state.round_log]
    awards, struck_out = [], []
    per_player, _, _ = score_rounds(edition, rounds, n, explain=False, awards=awards, struck_out=struck_out)
    names = NAMES[:n]
    visited = [[0] * n]
    for parsed in rounds:
        visited.append([visited[-1][p] | row_mask(parsed.rows[p]) for p in range(n)])
    for r, settled in enumerate(awards):
        lines = round_bonus_summary(edition, settled, names, earlier=awards[:r])
        assert len(lines) == len(settled)
        mentioned = set().union(*(named(line, names) for line in lines))
        assert mentioned == {names[p] for a in settled for p in a.players}
        summed = 0
        for line, award in zip(lines, settled, strict=True):
            assert named(line, names) == {names[p] for p in award.players}
            found = POINTS.search(line)
            if found is None:
                assert award.points == 0 and line.endswith("no bonus")
                continue
            points = int(found.group(1))
            assert points == award.points and bool(found.group(2)) == (len(award.players) > 1)
            summed += points * len(award.players)
        assert summed == sum(per_player[p][r].regions + per_player[p][r].route for p in range(n))
        # struck out: exactly the players whose sheet completes this round a region an earlier round took
        taken_before = {a.region for settled_before in awards[:r] for a in settled_before if a.region >= 0}
        late = {(region.index, p) for region in edition.regions if region.index in taken_before for p in range(n)
                if covers(visited[r + 1][p], region.mask) and not covers(visited[r][p], region.mask)}
        assert {(out.region, p) for out in struck_out[r] for p in out.players} == late
        # the struck-out sentences follow, each naming the players who completed a region too late
        with_struck = round_bonus_summary(edition, settled, names, struck_out[r], awards[:r])
        assert with_struck[:len(lines)] == lines
        for line, out in zip(with_struck[len(lines):], struck_out[r], strict=True):
            assert line.startswith(f"{name_list([names[p] for p in out.players])} completed {out.name} too, but ")
            assert line.endswith(": no bonus")
            assert not any(a.region == out.region for a in settled)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([AUS, EUROPE, USA]), st.integers(2, 4), st.integers(0, 2**31 - 1))
def test_a_game_entered_by_category_gets_the_same_summary_as_by_letters(edition, n, seed):
    """Category mode types the regions each player completed this round, taken or not: it settles the same
    awards and strikes out the same regions, so its round summary reads the same."""
    state = play(Game(edition, n, seed), [make_bot("easy", seed + p) for p in range(n)])
    rounds = [ParsedRound(rows, choices) for rows, choices in state.round_log]
    awards, struck_out = [], []
    score_rounds(edition, rounds, n, explain=False, awards=awards, struck_out=struck_out)
    sheets = categories.CategoryState.new(n)
    for r, typed in enumerate(typed_rounds(edition, rounds, n)):
        typed_awards, typed_struck = [], []
        categories.resolve_round(edition, sheets, [categories.normalise(edition, v) for v in typed], r + 1,
                                 explain=False, awards=typed_awards, struck_out=typed_struck)
        assert (typed_awards, typed_struck) == (awards[r], struck_out[r])


# --- the bonus marks after the closed rounds ------------------------------------------------------------------

def test_marks_show_each_tier_who_took_it_and_what_is_on_offer_next():
    awards = [[route_award(USA, (0, 1), 0, 7)], [], [route_award(USA, (2,), 1, 3)], [route_award(USA, (3,), 2, 1)]]
    sheets = ScoreState(4, route_done=0b1111, route_next_tier=2)
    marks = bonus_marks(USA, awards, sheets, 4).route
    assert [t.points for t in marks.tiers] == [7, 3, 1]
    assert [[(k.round, k.players) for k in t.takings] for t in marks.tiers] == [[(1, (0, 1))], [(3, (2,))],
                                                                                [(4, (3,))]]
    # the repeating last tier stays on offer after it is taken
    assert marks.last_repeats and marks.next_tier == 2 and marks.open_points == (1,)
    assert [t.on_offer_next for t in marks.tiers] == [False, False, True]
    europe = bonus_marks(EUROPE, [[route_award(EUROPE, (0,), 0, 7)], [route_award(EUROPE, (1,), 1, 3)],
                                  [route_award(EUROPE, (2,), 2, 1)]],
                         ScoreState(3, route_done=0b111, route_next_tier=3), 3).route
    assert europe.next_tier is None and europe.open_points == () and not any(t.open for t in europe.tiers)


# --- the USA acceptance game --------------------------------------------------------------------------------

def load(name: str) -> GameRecord:
    return GameRecord.model_validate(json.loads((DATA / name).read_text()))


def score_json(path: Path) -> dict:
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def awards_of(record: GameRecord):
    edition = load_edition(record.edition)
    parsed, warnings = parse_record(record, edition)
    assert warnings == []
    awards, struck_out = [], []
    _, _, state = score_rounds(edition, parsed, len(record.players), awards=awards, struck_out=struck_out)
    return edition, awards, struck_out, state


def test_usa_acceptance_game_is_legal_and_settles_a_shared_coast_and_a_shared_region():
    record = load("table_usa_acceptance.json")
    assert record.edition == "usa" and record.players == ["Ann", "Bob", "Cy"] and len(record.rounds) == 4
    validate_rounds(USA, record.players, [{p: Entered(rnd[name].cards, rnd[name].choice)
                                           for p, name in enumerate(record.players)} for rnd in record.rounds])
    edition, awards, struck_out, state = awards_of(record)
    route = [(r + 1, a.players, a.points) for r, settled in enumerate(awards) for a in settled if a.region < 0]
    # Ann and Bob reach coast to coast in the same round and share the 7; Cy reaches it later: 3
    assert route == [(3, (0, 1), 7), (4, (2,), 3)]
    shared_regions = [(r + 1, a.name, a.players) for r, settled in enumerate(awards) for a in settled
                      if a.region >= 0 and len(a.players) > 1]
    assert shared_regions == [(3, "Great Plains", (0, 1)), (4, "California & Nevada", (0, 2))]
    assert bonus_summaries(edition, awards, record.players, struck_out) == [
        [],
        ["Ann was first to complete Mountain West: +3", "Cy was first to complete The South: +3"],
        ["Ann and Bob both completed Great Plains this round: +3 each", "Cy was first to complete Midwest: +3",
         "Bob was first to complete Northeast: +3",
         "Ann and Bob both reached coast to coast this round: first place, +7 each"],
        ["Ann and Cy both completed California & Nevada this round: +3 each", "Cy was second coast to coast: +3",
         "Ann completed Midwest too, but Cy took it in round 3: no bonus",
         "Cy completed Northeast too, but Bob took it in round 3: no bonus"],
    ]
    # the one call a table makes for the same sentences
    assert round_summaries(edition, parse_record(record, edition)[0], record.players) == bonus_summaries(
        edition, awards, record.players, struck_out)
    marks = bonus_marks(edition, awards, state, 3)
    assert [t.points for t in marks.route.tiers] == [7, 3, 1] and marks.route.next_tier == 2
    assert {m.name: (m.round, m.players) for m in marks.regions}["Great Plains"] == (3, (0, 1))


def test_usa_acceptance_game_scores_the_same_through_tourpad_score():
    record = load("table_usa_acceptance.json")
    doc = score_json(DATA / "table_usa_acceptance.json")
    report = score_record(record, USA)
    assert [p["total"] for p in doc["players"]] == report.totals == [116, 79, 102]
    assert [p["rank"] for p in doc["players"]] == [1, 3, 2]
    assert [[r["coast"] for r in p["rounds"]] for p in doc["players"]] == [[0, 0, 7, 0], [0, 0, 7, 0],
                                                                          [0, 0, 0, 3]]
    assert [[r["regions"] for r in p["rounds"]] for p in doc["players"]] == [[0, 3, 3, 3], [0, 0, 6, 0],
                                                                            [0, 3, 3, 3]]


# --- both games at a table, through the table service ---------------------------------------------------------

def play_at_table(service: TableService, record: GameRecord, check_round) -> dict:
    """Open a table as the host, claim every seat by name, submit each seat's letters round by round (as the
    phones would) and call `check_round(round_no, view)` as each round closes; returns the last view."""
    code, _ = service.create_table(record.edition, len(record.players), credential=service.host_credential)
    tokens = [service.claim_seat(code, s, name) for s, name in enumerate(record.players, start=1)]
    for round_no, entries in enumerate(record.rounds, start=1):
        for seat, name in enumerate(record.players, start=1):
            entry = entries[name]
            service.submit(code, round_no, seat, entry.cards, entry.choice, 0, tokens[seat - 1])
        view = service.view(code)
        last = round_no == len(record.rounds)
        assert view["rounds"][round_no - 1]["closed"]
        assert view["waiting_for"] == ([] if last else list(range(1, len(tokens) + 1)))
        check_round(round_no, view)
    return view


def route_taken(view: dict) -> list[tuple[int, int, list[int]]]:
    return [(t["points"], t["round"], t["seats"]) for t in view["bonuses"]["route"]["taken"]]


def test_europe_table_settles_the_passport_first_second_and_tied(tmp_path):
    record = load("table_europe_passport.json")
    assert record.players == ["Ann", "Bob", "Cy", "Dee"]
    expected_taken = {1: [], 2: [(7, 2, [1])], 3: [(7, 2, [1]), (3, 3, [2])],
                      4: [(7, 2, [1]), (3, 3, [2]), (1, 4, [3, 4])]}
    expected_open = {1: [7, 3, 1], 2: [3, 1], 3: [1], 4: []}

    def check_round(round_no: int, view: dict) -> None:
        assert route_taken(view) == expected_taken[round_no]
        assert view["bonuses"]["route"]["open_tiers"] == expected_open[round_no]

    service = TableService(tmp_path / "tables.sqlite3")
    try:
        view = play_at_table(service, record, check_round)
        exported = service.record(view["code"])
    finally:
        service.close()
    assert view["finished"]
    # the table's export is the test game itself, and tourpad score agrees with the table on every total
    assert GameRecord.model_validate(exported) == record
    for doc in (score_json(_write(tmp_path, exported)), score_json(DATA / "table_europe_passport.json")):
        assert [p["total"] for p in view["scores"]["players"]] == [p["total"] for p in doc["players"]]
        assert [[r["passport"] for r in p["rounds"]] for p in doc["players"]] == [
            [0, 7, 0, 0], [0, 0, 3, 0], [0, 0, 0, 1], [0, 0, 0, 1]]
    benelux = next(r for r in view["bonuses"]["regions"] if r["name"] == "Benelux")
    assert benelux == {"name": "Benelux", "points": 3, "color": benelux["color"], "open": False, "round": 2,
                       "seats": [1, 2]}
    edition, awards, struck_out, _ = awards_of(record)
    summaries = bonus_summaries(edition, awards, record.players, struck_out)
    assert summaries[1] == ["Ann and Bob both completed Benelux this round: +3 each",
                            "Ann was first to complete the passport: +7"]
    assert summaries[2][-1] == "Bob was second to complete the passport: +3"
    assert "Cy and Dee both completed the passport this round: third place, +1 each" in summaries[3]
    assert "Bob completed Iberia too, but Ann and Cy took it in round 3: no bonus" in summaries[3]


def test_usa_acceptance_game_at_a_table_shows_the_same_bonuses_and_totals(tmp_path):
    record = load("table_usa_acceptance.json")
    expected_taken = {1: [], 2: [], 3: [(7, 3, [1, 2])], 4: [(7, 3, [1, 2]), (3, 4, [3])]}

    def check_round(round_no: int, view: dict) -> None:
        assert route_taken(view) == expected_taken[round_no]

    service = TableService(tmp_path / "tables.sqlite3")
    try:
        view = play_at_table(service, record, check_round)
    finally:
        service.close()
    assert [p["total"] for p in view["scores"]["players"]] == [116, 79, 102]
    assert view["bonuses"]["route"]["open_tiers"] == [1]  # "1pt for anyone else" stays on offer
    plains = next(r for r in view["bonuses"]["regions"] if r["name"] == "Great Plains")
    assert (plains["open"], plains["round"], plains["seats"]) == (False, 3, [1, 2])


def _write(tmp_path: Path, doc: dict) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    return path
