"""The one fold of entered rounds into a game's scores (`rules.sheet`): every reader shows what it showed
before the fold moved there, on the recorded games in `tests/data/`."""

from __future__ import annotations

import json

from fold_observations import EXPECTED, observations


def test_every_reader_shows_the_same_scores_explanations_and_summaries_of_the_recorded_games():
    expected = json.loads(EXPECTED.read_text())
    got = observations()
    assert got.keys() == expected.keys()
    for key in expected:
        for reader in expected[key]:
            assert got[key][reader] == expected[key][reader], (key, reader)
