"""Game records: validation names the round, player and rule; scoring matches the engine's."""

from __future__ import annotations

import pytest

from rules.bots import make_bot, play
from rules.engine import Game
from rules.record import (
    GameRecord,
    ParsedRound,
    RecordError,
    parse_record,
    record_from_rounds,
    score_record,
)


def record(rounds, players=("Ann", "Bob"), **extra) -> GameRecord:
    return GameRecord.model_validate({"edition": "australia", "players": list(players), "rounds": rounds, **extra})


def two(ann: str, bob: str, ann_activity=None, bob_activity=None) -> dict:
    return {"Ann": {"cards": ann, "activity": ann_activity}, "Bob": {"cards": bob, "activity": bob_activity}}


def test_a_recorded_round_scores_like_the_rulebook(australia):
    report = score_record(record([two("ABCDEFG", "HIJKLMN", "Sightseeing")]), australia)
    doc = report.to_dict()
    ann, bob = doc["players"]
    assert ann["rounds"][0] == {"throw_catch": 3, "collections": 9, "animals": 3, "activities": 2,
                                "sites": 7, "regions": 3}
    assert ann["total"] == 27 and bob["total"] == 1 + 9 + 7 + 0 + 7 + 3
    assert ann["rank"] == 1 and bob["rank"] == 2
    assert any("Sightseeing ×2 = 2" in line for line in ann["explanations"][0])


def test_lowercase_and_spaces_are_accepted(australia):
    a = score_record(record([two("a b c d e f g", "hijklmn")]), australia)
    b = score_record(record([two("ABCDEFG", "HIJKLMN")]), australia)
    assert a.totals == b.totals


@pytest.mark.parametrize(("rounds", "message"), [
    ([two("ABCDEF", "HIJKLMN")], "round 1, Ann: 6 cards (ABCDEF); a round's row has exactly 7"),
    ([two("ABCDEFGH", "IJKLMNO")], "round 1, Ann: 8 cards"),
    ([two("ABCDEF1", "HIJKLMN")], "round 1, Ann: '1' is not a card of Boomerang: Australia"),
    ([two("ABCDEFA", "HIJKLMN")], "round 1, Ann: letter 'A' appears twice"),
    ([two("ABCDEFG", "GHIJKLM")], "round 1, Bob: letter G already in Ann's round 1 cards"),
    ([two("ABCDEFG", "HIJKLMN", "Surfing")], "round 1, Ann: 'Surfing' is not one of the Activities"),
    ([two("ABCDEFG", "HIJKLMN", "Swimming")], "round 1, Ann: Swimming needs at least one Swimming icon"),
    ([two("ABCDEFG", "HIJKLMN", "Sightseeing"), two("BFIPRZA", "HJKLMNO", "sightseeing")],
     "round 2, Ann: Sightseeing was already scored in round 1"),
    ([{"Ann": {"cards": "ABCDEFG"}}], "round 1: no cards entered for Bob"),
    ([{**two("ABCDEFG", "HIJKLMN"), "Cid": {"cards": "OPQRSTU"}}], "round 1: 'Cid' is not a player"),
])
def test_bad_records_name_the_round_player_and_rule(australia, rounds, message):
    with pytest.raises(RecordError) as err:
        score_record(record(rounds), australia)
    assert message in str(err.value)


def test_choice_without_icon_is_refused(australia):
    with pytest.raises(RecordError, match="needs at least one Swimming icon"):
        score_record(record([two("ABCDEFG", "HIJKLMN", "Swimming")]), australia)


def test_record_model_refuses_bad_shapes():
    with pytest.raises(ValueError, match="different"):
        record([], players=("Ann", "ann"))
    with pytest.raises(ValueError):
        record([], players=("Ann",))
    with pytest.raises(ValueError):
        record([two("ABCDEFG", "HIJKLMN")] * 5)
    with pytest.raises(ValueError):
        GameRecord.model_validate({"edition": "australia", "players": ["A", "B"], "rounds": [], "extra": 1})


def test_direction_variant_needs_three_players(australia):
    with pytest.raises(RecordError, match="3 or 4 players"):
        parse_record(record([], direction_variant=True), australia)


def test_set_aside_letters_missing_next_round_are_a_warning(australia):
    rounds = [two("ABCDEFG", "HIJKLMN"), two("ABCDEFG", "HIJKLMN")]
    _, warnings = parse_record(record(rounds), australia)
    assert warnings and "round 2: O, P, Q, R, S, T, U, V, W, X, Y, Z, @, # were not dealt in round 1" in warnings[0]
    ok = [two("ABCDEFG", "HIJKLMN"), two("OPQRSTU", "VWXYZ@#")]
    assert parse_record(record(ok), australia)[1] == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_games_round_trip_through_records(australia, players):
    """A bot game exported as a record scores exactly as the engine scored it."""
    state = play(Game(australia, players, 42), [make_bot("greedy", p) for p in range(players)])
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    rounds = [ParsedRound(rows, choices) for rows, choices in state.round_log]
    exported = record_from_rounds(australia, names, rounds)
    report = score_record(GameRecord.model_validate(exported.model_dump()), australia)
    assert report.totals == state.totals()
    assert report.ranks == state.ranks()
    assert [list(r) for r in report.rounds] == [list(r) for r in state.round_scores]
    assert report.warnings == []  # the engine deals the set-aside cards first, as the rules say
