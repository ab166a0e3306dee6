"""The solo screens' plain-Python side: saving in the event store, resuming, the texts and the chart data."""

from __future__ import annotations

import itertools

import pytest

from rules.sheet import ParsedRound
from scorer.pad.contrast import text_on
from scorer.pad.store import EventStore, summary_line
from scorer.solo.game import SoloGame
from scorer.solo.view import (
    FINISHED,
    hint_lines,
    load,
    new_game,
    save,
    status_line,
    step_line,
    unfinished,
)


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "games.sqlite3")
    yield s
    s.close()


def first_action(game: SoloGame) -> int:
    return game.screen()["actions"][0]["action"]


def test_a_solo_game_is_saved_apart_from_the_score_pads_games(store) -> None:
    game_id, _game = new_game(store, "australia", ["easy", "normal"], False, seed=5)
    assert [g.id for g in unfinished(store)] == [game_id]
    assert store.games("playing") == [] and store.games("finished") == []  # the pad's Resume/History
    assert store.game(game_id).players == ("You", "Bot 1 (easy)", "Bot 2 (normal)")


def test_every_decision_is_saved_and_a_reload_continues_where_it_was(store) -> None:
    game_id, game = new_game(store, "australia", ["easy", "easy"], False, seed=7)
    for _ in range(5):
        save(store, game_id, game, game.play(first_action(game)))
    again = load(store, game_id)
    assert again.screen() == game.screen()
    assert len(store.events(game_id)) == len(game.events) == 1 + 5 * 3


def test_a_log_cut_after_the_persons_pick_gets_the_bots_answers_saved_on_load(store) -> None:
    game_id, game = new_game(store, "australia", ["easy", "easy"], False, seed=9)
    events = game.play(first_action(game))
    save(store, game_id, game, events[:1])  # the process died before the bots' answers were written
    again = load(store, game_id)
    assert len(store.events(game_id)) == 4
    assert again.screen() == game.screen()


def test_the_finished_game_leaves_the_resume_list_and_says_who_won(store) -> None:
    game_id, game = new_game(store, "australia", ["easy"], False, seed=11)
    while not game.state.is_terminal():
        save(store, game_id, game, game.play(first_action(game)))
    row = store.game(game_id)
    assert row.status == FINISHED and unfinished(store) == []
    top = game.ranking()[0]
    assert summary_line(row.summary) == f"finished: {top['name']} won with {top['total']}"
    assert status_line(game.screen()) == "Game over"
    lines = game.pad_state().running_totals()  # the chart's lines
    assert [len(line) for line in lines] == [4, 4]
    assert [line[-1] for line in lines] == game.state.totals()
    assert all(a <= b for line in lines for a, b in itertools.pairwise(line))


def test_status_line_names_round_and_what_to_do() -> None:
    game = SoloGame.new("australia", ["easy", "easy"], True, seed=2)
    assert status_line(game.screen()).startswith("Round 1 of 4: choose your Throw card")
    game.play(first_action(game))
    assert status_line(game.screen()) == "Round 1 of 4: choose a card to keep; the rest pass left"
    while game.screen()["phase"] != "choice":
        game.play(first_action(game))
    assert status_line(game.screen()) == "Round 1 of 4: the Catch has arrived: choose what to score"
    game.play(first_action(game))
    game.play(first_action(game))  # round 2's Throw: the direction variant passes right
    assert status_line(game.screen()).endswith("the rest pass right")


def test_the_step_line_says_which_card_of_the_round_is_being_chosen() -> None:
    game = SoloGame.new("australia", ["easy"], seed=2)
    assert step_line(game.screen()) == "Card 1 of 7"  # the Throw: no "Decision 0"
    game.play(first_action(game))
    assert step_line(game.screen()) == "Card 2 of 7"
    while game.screen()["phase"] != "choice":
        game.play(first_action(game))
    assert step_line(game.screen()) == "Card 7 of 7: the Catch"
    game.play(first_action(game))
    assert step_line(game.screen()) == "Card 1 of 7"  # round 2's Throw


@pytest.mark.parametrize(("colour", "text"), [("#C9A227", "#000000"), ("#2F6DB5", "#FFFFFF"),
                                              ("#FFFFFF", "#000000"), ("#000000", "#FFFFFF")])
def test_card_text_reads_on_its_region_colour(colour, text) -> None:
    assert text_on(colour) == text


def test_hint_lines_mark_the_hard_bots_pick_and_give_each_options_value() -> None:
    game = SoloGame.new("australia", ["easy"], seed=4)
    hint = game.hint(samples=4)
    lines = hint_lines(hint)
    assert len(lines) == len(game.screen()["actions"])
    assert [line.best for line in lines].count(True) == 1 and lines[0].best
    assert lines[0].label == hint["best_label"]
    assert "adds" in lines[0].value  # a pick: what the card adds to the row now is shown too


def test_a_hint_ranks_options_by_how_far_behind_the_best_they_are_never_by_a_negative_lead() -> None:
    hint = {"best": 1, "unit": "points", "options": [
        {"action": 1, "label": "Keep A", "value": -0.5, "behind_best": 0.0, "adds_now": 9.9},
        {"action": 2, "label": "Keep B", "value": -2.0, "behind_best": 1.5, "adds_now": 3.0},
        {"action": 3, "label": "Keep C", "value": -2.0, "behind_best": 1.5, "adds_now": 0.0}]}
    assert [line.value for line in hint_lines(hint)] == [
        "best · adds +9.9 pts now", "1.5 pts behind · adds +3.0 pts now",
        "1.5 pts behind · adds +0.0 pts now"]
    choice = {"best": 4, "unit": "points", "options": [{"action": 4, "label": "Hiking", "value": -1.0,
                                                         "behind_best": 0.0},
                                                        {"action": 5, "label": "None", "value": -8.0,
                                                         "behind_best": 7.0}]}
    assert [line.value for line in hint_lines(choice)] == ["best", "7.0 pts behind"]
    assert not any("-" in line.value for game_hint in (hint, choice) for line in hint_lines(game_hint))


def test_solo_says_who_took_each_shared_bonus_as_the_score_pad_does() -> None:
    """A solo round's bonus lines are the pad's round summary of the same rounds (`rules.wording`)."""
    from rules.record import round_summaries

    game = SoloGame.new("europe", ["normal", "easy", "easy"], seed=11, bot_seed=12)
    while not game.state.is_terminal():
        game.play(game.screen()["actions"][0]["action"])
    rounds = [ParsedRound(rows, choices) for rows, choices in game.state.round_log]
    expected = round_summaries(game.edition, rounds, game.setup.players)
    state = game.pad_state()
    assert [state.bonus_summary(r) for r in range(4)] == expected
    assert "Bot 1 (normal) was first to complete Iberia: +3" in state.bonus_summary(1)
    assert "Bot 1 (normal) and Bot 3 (easy) both completed the passport this round: second place, +3 each" in (
        state.bonus_summary(2))
