"""The one fold of entered rounds into a game's scores (`rules.sheet`): every reader shows what it showed
before the fold moved there, on the recorded games in `tests/data/`."""

from __future__ import annotations

import json

from fold_observations import EXPECTED, observations
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.bots import make_bot, play
from rules.editions import load_edition
from rules.engine import Game
from rules.i18n import use_language
from rules.sheet import GameSheet, ParsedRound, SheetData, fold_rounds


def test_every_reader_shows_the_same_scores_explanations_and_summaries_of_the_recorded_games():
    expected = json.loads(EXPECTED.read_text())
    got = observations()
    assert got.keys() == expected.keys()
    for key in expected:
        for reader in expected[key]:
            assert got[key][reader] == expected[key][reader], (key, reader)


EDITIONS = {name: load_edition(name) for name in ("australia", "europe", "usa")}
games = st.tuples(st.sampled_from(sorted(EDITIONS)), st.integers(2, 4), st.integers(0, 2**31 - 1))


def played(edition_id: str, n: int, seed: int) -> list[ParsedRound]:
    state = play(Game(EDITIONS[edition_id], n, seed), [make_bot("easy" if p % 2 else "normal", seed + p)
                                                       for p in range(n)])
    return [ParsedRound(rows, choices) for rows, choices in state.round_log]


def shown(sheet: GameSheet) -> tuple:
    return (sheet.scores, sheet.notes, sheet.awards, sheet.struck_out, sheet.totals(), sheet.ranks(),
            sheet.bonus_marks(), sheet.region_claims(), sheet.carried)


@settings(max_examples=40, deadline=None)
@given(games)
def test_a_later_round_never_changes_an_earlier_one(game):
    """Folding the rounds one at a time gives, after each, what folding that many rounds at once gives: the
    sheets after round k are the same whatever is entered after it."""
    edition_id, n, _seed = game
    edition, rounds = EDITIONS[edition_id], played(*game)
    whole = fold_rounds(edition, rounds, n)
    one_by_one = GameSheet.start(edition, n)
    for k, parsed in enumerate(rounds, start=1):
        one_by_one.add_round(parsed)
        assert shown(one_by_one) == shown(fold_rounds(edition, rounds[:k], n))
        assert whole.rounds[:k] == one_by_one.rounds and whole.before_round[:k + 1] == one_by_one.before_round
    assert shown(one_by_one) == shown(whole)
    # every point is in a category, each region's bonus and each player's route bonus go once
    assert [sum(whole.category_totals(p).values()) for p in range(n)] == whole.totals()
    regions = [a.region for settled in whole.awards for a in settled if a.region >= 0]
    assert len(regions) == len(set(regions))
    route_takers = [p for settled in whole.awards for a in settled if a.region < 0 for p in a.players]
    assert len(route_takers) == len(set(route_takers))


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_sheet_sent_as_data_reads_as_the_host_scored_it_in_every_language(game):
    edition_id, n, _seed = game
    edition = EDITIONS[edition_id]
    sheet = fold_rounds(edition, played(*game), n)
    received = GameSheet.from_data(edition, SheetData.model_validate_json(sheet.to_data().model_dump_json()))
    assert shown(received)[:1] + shown(received)[2:] == shown(sheet)[:1] + shown(sheet)[2:]
    for lang in ("en", "fr"):
        with use_language(lang):
            assert received.notes == fold_rounds(edition, played(*game), n).notes
            names = ["Ann", "Bob", "Cy", "Dee"][:n]
            assert received.bonus_summaries(names) == sheet.bonus_summaries(names)
