"""The score pad's game model: event log, validation, replay (undo / edit), exports. No Flet client."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.editions import load_edition
from rules.record import GameRecord, score_record
from scorer.pad.errors import EntryError
from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.store import EventStore

AUS = load_edition("australia")
# Two players, four rounds, cards in draft order; no letter twice in a round.
ROUNDS = [("ABCDEFG", "Indigenous Culture", "HIJKLMN", "Bushwalking"),
          ("OPQRSTU", "Sightseeing", "VWXYZ@#", None),
          ("ABCDIJK", "Bushwalking", "EFGHLMN", "Swimming"),
          ("UVWXYZ@", "Swimming", "OPQRST#", "Sightseeing")]


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def play(session, rounds=ROUNDS):
    for a, ca, b, cb in rounds:
        session.enter_letters(0, a, ca)
        session.enter_letters(1, b, cb)


def test_full_game_matches_tourpad_score(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session)
    state = session.state
    assert state.finished
    report = score_record(state.record(), AUS)
    assert state.totals() == report.totals
    assert state.ranks() == report.ranks
    assert state.consistency_problems() == []
    assert store.game(session.game_id).status == "finished"


def test_duplicate_letter_refused_and_nothing_written(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    session.enter_letters(0, "ABCDEFG", None)
    before = len(store.events(session.game_id))
    with pytest.raises(EntryError, match=r"round 1, Bob: letter C already in Ann's round 1 cards"):
        session.enter_letters(1, "CHIJKLM", None)
    with pytest.raises(EntryError, match=r"letter 'H' appears twice"):
        session.enter_letters(1, "HHIJKLM", None)
    with pytest.raises(EntryError, match=r"6 cards"):
        session.enter_letters(1, "HIJKLM", None)
    assert len(store.events(session.game_id)) == before
    assert 1 not in session.state.entries[0]


def test_choice_used_refused_naming_round(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session, ROUNDS[:1])
    with pytest.raises(EntryError, match=r"Indigenous Culture was already scored in round 1"):
        session.enter_letters(0, "VWXYZ@#", "Indigenous Culture")
    with pytest.raises(EntryError, match=r"needs at least one Swimming icon"):
        session.enter_letters(0, "AEJQ@VC", "Swimming")


def test_restart_resumes_exactly(tmp_path):
    path = tmp_path / "g.sqlite3"
    s1 = EventStore(path)
    session = GameSession.new(s1, "australia", ["Ann", "Bob"])
    play(session, ROUNDS[:2])
    session.enter_letters(0, ROUNDS[2][0], ROUNDS[2][1])
    # no close(): as if the process were killed right after the commit
    s2 = EventStore(path)
    again = GameSession(s2, session.game_id)
    assert again.state.entries == session.state.entries
    assert again.state.totals() == session.state.totals()
    assert again.state.current_round == 2
    assert [g.id for g in s2.games("playing")] == [session.game_id]


def test_undo_and_edit_are_replays(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session, ROUNDS[:2])
    totals = session.state.totals()
    assert session.undo() == "Bob's round 2: VWXYZ@#"
    assert session.state.rounds_done == 1
    session.enter_letters(1, "VWXYZ@#", None)
    assert session.state.totals() == totals
    # edit round 1: Ann drops her activity; round 2 still valid, totals recomputed
    session.enter_letters(0, "ABCDEFG", None, round_index=0)
    assert session.state.totals()[0] < totals[0]
    session.undo()
    assert session.state.totals() == totals


def test_edit_cannot_break_a_later_round(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session, ROUNDS[:2])
    with pytest.raises(EntryError, match=r"round 1, Bob: letter A already in Ann's"):
        session.enter_letters(1, "AHIJKLM", "Bushwalking", round_index=0)
    with pytest.raises(EntryError, match=r"Sightseeing was already scored in round 1"):
        session.enter_letters(0, "ABCDEFG", "Sightseeing", round_index=0)


def test_exports(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session)
    record = GameRecord.model_validate(json.loads(session.state.record().model_dump_json()))
    assert record.players == ["Ann", "Bob"] and len(record.rounds) == 4
    rows = list(csv.reader(io.StringIO(session.state.csv_text())))
    assert rows[0][0] == "player" and len(rows) == 1 + 8 + 2
    assert all(len(row) == len(rows[0]) for row in rows)
    ann_total = next(r for r in rows if r[:2] == ["Ann", "total"])
    assert int(ann_total[-3]) == session.state.totals()[0]


def test_the_csv_keeps_each_column_to_one_kind_of_value(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    play(session)
    rows = list(csv.DictReader(io.StringIO(session.state.csv_text())))
    ann = [row for row in rows if row["player"] == "Ann"]
    # the running total column holds numbers only (it held "rank 1" on the totals row), ending at the total
    assert [int(row["running total"]) for row in ann] == [*session.state.running_totals()[0],
                                                          session.state.totals()[0]]
    assert [row["rank"] for row in ann] == ["", "", "", "", str(session.state.ranks()[0])]


def test_setup_validation(store):
    with pytest.raises(EntryError, match="2 to 4 players"):
        GameSession.new(store, "australia", ["Ann"])
    with pytest.raises(EntryError, match="different"):
        GameSession.new(store, "australia", ["Ann", "ann"])
    with pytest.raises(EntryError, match="direction variant is for 3 or 4"):
        GameSession.new(store, "australia", ["Ann", "Bob"], direction_variant=True)
    assert store.games() == []


def cat_values(**kw):
    base = {"throw": 3, "catch": 5, "collection": 6, "pairs": 7, "choice": None, "choice_count": 0,
            "sites": 7, "regions": [], "route": False}
    return {**base, **kw}


def test_category_entry_validates_and_shares_region_bonus(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob"], mode=CATEGORIES_MODE)
    with pytest.raises(EntryError, match="Throw card's number must be 1 to 7, not 9"):
        session.enter_categories(0, cat_values(throw=9))
    with pytest.raises(EntryError, match="cannot score 1 with 7 cards"):
        session.enter_categories(0, cat_values(pairs=1))
    with pytest.raises(EntryError, match="'x' is not a whole number"):
        session.enter_categories(0, cat_values(collection="x"))
    session.enter_categories(0, cat_values(choice="Swimming", choice_count=3, regions=["Tasmania"]))
    session.enter_categories(1, cat_values(regions=["Tasmania", "Victoria"]))
    s = session.state
    assert [r.regions for r in (s.scores[0][0], s.scores[1][0])] == [3, 6]  # Tasmania shared
    assert s.scores[0][0].throw_catch == 2 and s.scores[0][0].collection == 12 and s.scores[0][0].choice == 4
    with pytest.raises(EntryError, match="Swimming was already scored in round 1"):
        session.enter_categories(0, cat_values(choice="Swimming", choice_count=2))
    with pytest.raises(EntryError, match="Tasmania was already completed"):
        session.enter_categories(1, cat_values(regions=["Tasmania"]))
    session.enter_categories(0, cat_values(regions=["Victoria"]))
    assert s.consistency_problems() == []


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_random_games_add_up_and_replay(tmp_path_factory, data):
    """Any legal sequence of entries: state after a restart equals state before, categories add up."""
    path = tmp_path_factory.mktemp("g") / "g.sqlite3"
    store = EventStore(path)
    session = GameSession.new(store, "australia", ["A", "B", "C"])
    for _ in range(4):
        deck = data.draw(st.permutations(AUS.letters))
        for p in range(3):
            cards = "".join(deck[7 * p:7 * p + 7])
            try:
                session.enter_letters(p, cards, data.draw(st.sampled_from([None, *(
                    i.name for i in AUS.choice.icons)])))
            except EntryError:
                session.enter_letters(p, cards, None)
        if data.draw(st.booleans()):
            session.undo()
            session.enter_letters(2, "".join(deck[14:21]), None)
    assert session.state.consistency_problems() == []
    assert GameSession(EventStore(path), session.game_id).state.totals() == session.state.totals()
    assert session.state.totals() == score_record(session.state.record(), AUS).totals


def test_chart_layout_is_monotone_in_points():
    from scorer.pad.chart import layout, nice_top

    assert nice_top(0) == 40 and nice_top(37) == 40 and nice_top(101) == 120
    chart = layout([[10, 30, 45, 80], [5, 5, 40, 81]], 4)
    assert chart.top == 100
    for line in chart.lines:
        assert len(line) == 5 and line[0][1] == chart.height - chart.margin  # starts at 0 points
        assert all(b[0] > a[0] and b[1] <= a[1] for a, b in itertools.pairwise(line))
    assert chart.lines[1][4][1] < chart.lines[0][4][1]  # 81 is drawn higher than 80


def test_two_sessions_on_one_game_never_act_on_stale_state(tmp_path):
    """Two tabs (or a table host and a phone) on the same game: each command sees the other's writes."""
    path = tmp_path / "g.sqlite3"
    first = GameSession.new(EventStore(path), "australia", ["Ann", "Bob"])
    second = GameSession(EventStore(path), first.game_id)
    first.enter_letters(0, "ABCDEFG", None)
    with pytest.raises(EntryError, match="letter A already in Ann's round 1 cards"):
        second.enter_letters(1, "AHIJKLM", None)
    second.enter_letters(1, "HIJKLMN", None)
    assert first.reload().rounds_done == 1
    assert first.undo() == "Bob's round 1: HIJKLMN"
    assert second.reload().rounds_done == 0


def test_tie_breaks_are_explained(store):
    session = GameSession.new(store, "australia", ["Ann", "Bob", "Cy"], mode=CATEGORIES_MODE)
    session.enter_categories(0, cat_values(throw=1, catch=5, collection=0, pairs=0, sites=4))  # 4 + 4
    session.enter_categories(1, cat_values(throw=1, catch=3, collection=0, pairs=0, sites=6))  # 2 + 6
    session.enter_categories(2, cat_values(throw=1, catch=3, collection=0, pairs=0, sites=6))  # 2 + 6
    state = session.state
    assert state.totals() == [8, 8, 8]
    assert state.ranks() == [1, 2, 2]
    assert state.tie_breaks() == ["Ann, Bob and Cy tie on 8; broken by Throw & Catch points: "
                                  "Ann #1, Bob #2, Cy #2"]


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_edition_matches_tourpad_score(store, edition_id, n_players):
    """Random deals, keypad preview for each entry (choices picked from what it offers), full game."""
    import random

    from scorer.pad.entry import draft_for, preview

    edition = load_edition(edition_id)
    session = GameSession.new(store, edition_id, [f"P{i}" for i in range(n_players)],
                              direction_variant=n_players > 2)
    rng = random.Random(n_players)
    for r in range(4):
        deck = list(edition.letters)
        rng.shuffle(deck)
        for p in range(n_players):
            cards = "".join(deck[7 * p:7 * p + 7])
            draft = draft_for(session.state, r, p)
            for letter in cards:
                assert draft.tap(letter), draft.message
            offered = [o.name for o in preview(session.state, r, p, draft).choices if o.available]
            session.enter_letters(p, cards, rng.choice(offered) if offered else None)
    report = score_record(session.state.record(), edition)
    assert session.state.totals() == report.totals
    assert session.state.ranks() == report.ranks
    assert session.state.consistency_problems() == []
    for p in range(n_players):
        line = session.state.route_status(p)
        achieved = sum(s.route for s in session.state.scores[p])
        assert (line is None) == (edition.route is None)
        if achieved:
            assert line.startswith(f"{edition.route.name}: achieved in round ") and line.endswith(f"+{achieved}")


def test_route_status_line(store):
    assert GameSession.new(store, "australia", ["A", "B"]).state.route_status(0) is None
    europe = GameSession.new(store, "europe", ["A", "B"])
    eu = load_edition("europe")
    europe.enter_letters(0, eu.letters[:7], None)
    europe.enter_letters(1, eu.letters[7:14], None)
    seen = sum(1 for region in eu.regions if region.mask & sum(1 << i for i in range(7)))
    assert europe.state.route_status(0) == f"Passport: {seen} of {len(eu.regions)} regions visited"


def test_category_preview_scores_own_categories_or_names_the_problem(store):
    from scorer.pad.categories import CategoryState, preview

    total, lines = preview(AUS, CategoryState.new(2), 0, cat_values(choice="Swimming", choice_count=3), 2, 1)
    assert total == 2 + 12 + 7 + 4 + 7 and lines[0].startswith("Throw & Catch: Throw 3, Catch 5")
    total, lines = preview(AUS, CategoryState.new(2), 0, cat_values(throw=""), 2, 1)
    assert total is None and lines == ["Throw card number is missing"]


def test_round_summaries_name_who_took_each_shared_bonus(store):
    """The sheet's round summary says what `rules.record.round_summaries` says of the same game, round by
    round: shared regions, coast to coast together, a second place, regions completed too late."""
    from pathlib import Path

    from rules.record import parse_record, round_summaries

    record = GameRecord(**json.loads((Path(__file__).parent / "data" / "table_usa_acceptance.json").read_text()))
    state = GameSession.from_record(store, record).state
    usa = load_edition("usa")
    expected = round_summaries(usa, parse_record(record, usa)[0], list(record.players))
    assert [state.bonus_summary(r) for r in range(4)] == expected
    assert "Ann and Bob both reached coast to coast this round: first place, +7 each" in expected[2]
    assert "Ann completed Midwest too, but Cy took it in round 3: no bonus" in expected[3]


def test_a_player_tab_shows_no_total_before_any_round_is_scored(store):
    from scorer.ui.sheet import player_tab_label

    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    ann_cards, ann_choice, bob_cards, bob_choice = ROUNDS[0]
    session.enter_letters(0, ann_cards, ann_choice)
    # Ann has entered, but nothing is scored until the round closes: not "Ann · 0"
    assert [player_tab_label(session.state, p) for p in (0, 1)] == ["Ann", "Bob"]
    session.enter_letters(1, bob_cards, bob_choice)
    totals = session.state.totals()
    assert [player_tab_label(session.state, p) for p in (0, 1)] == [f"Ann · {totals[0]}", f"Bob · {totals[1]}"]


def test_a_rematch_is_a_new_game_with_the_same_players_edition_variant_and_mode(store):
    first = GameSession.new(store, "europe", ["Ann", "Bob", "Cy"], direction_variant=True, mode=CATEGORIES_MODE)
    again = first.rematch()
    assert again.game_id != first.game_id and again.state.rounds_done == 0
    assert again.state.setup == first.state.setup
    assert {first.game_id, again.game_id} <= {row.id for row in store.games()}  # the first game is kept
