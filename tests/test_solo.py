"""The solo-game controller: set-up checks, bots answering, the event log, resuming, what is shown, Hint."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from rules.engine import CHOICE_NONE, Phase
from rules.record import score_record
from scorer.solo.game import SoloError, SoloGame
from scorer.solo.view import hint_lines, one_decimal


def play_to_end(game: SoloGame, pick=lambda actions: actions[0]["action"]) -> None:
    while not game.state.is_terminal():
        game.play(pick(game.screen()["actions"]))


@pytest.mark.parametrize(("bots", "variant", "message"), [
    ([], False, "1 to 3 bots, not 0"),
    (["easy"] * 4, False, "1 to 3 bots, not 4"),
    (["easy", "grandmaster"], False, "bot 2: difficulty 'grandmaster'"),
    (["hard"], True, "direction variant is for 3 or 4 players"),
])
def test_bad_setups_are_refused_with_the_reason(bots, variant, message) -> None:
    with pytest.raises(SoloError, match=message):
        SoloGame.new("australia", bots, variant, seed=1)


def test_unknown_edition_is_named(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    with pytest.raises(SoloError, match="atlantis"):
        SoloGame.new("atlantis", ["easy"], seed=1)


def test_a_whole_game_against_easy_bots_ends_with_the_ranking() -> None:
    game = SoloGame.new("australia", ["easy", "easy", "easy"], seed=3)
    assert game.screen()["phase"] == "throw" and len(game.screen()["hand"]) == 7
    play_to_end(game)
    screen = game.screen()
    assert screen["phase"] == "game_over"
    state = game.pad_state()
    assert state.finished and state.rounds_done == 4
    ranking = screen["ranking"]
    assert [r["place"] for r in ranking] == sorted(r["place"] for r in ranking)
    assert {r["name"] for r in ranking} == {"You", "Bot 1 (easy)", "Bot 2 (easy)", "Bot 3 (easy)"}
    # the totals shown add up the rounds of the pad's model the summaries are drawn from, which are the
    # engine's own scores
    for p, player in enumerate(screen["players"]):
        assert player["total"] == sum(score.total for score in state.scores[p]) == state.totals()[p]
        assert player["total"] == game.state.totals()[p]
    assert state.ranks() == game.state.ranks()
    # every decision of every player is in the log: 4 rounds × (6 picks + the choice) × 4 players
    assert len(game.events) == 1 + 4 * 7 * 4
    # the record the game exports scores the same as the game
    assert score_record(game.record(), game.edition).totals == game.state.totals()


def test_round_summary_explains_each_category() -> None:
    """Solo's rounds are the score pad's: each player's row and choice as the pad keeps an entry, the
    rules' explanations, and the shared bonuses each round settled."""
    game = SoloGame.new("australia", ["normal"], seed=5)
    for _ in range(7):
        game.play(game.screen()["actions"][-1]["action"])
    state = game.pad_state()
    assert state.rounds_done == 1 and not state.finished
    you = state.entries[0][0]
    assert len(you["cards"]) == 7 and state.parsed_rounds()[0].rows == game.state.round_log[0][0]
    assert any(line.startswith("Throw & Catch") for line in state.notes[0][0])
    assert any("Collections" in line for line in state.notes[0][0])
    # the shared bonuses each round settled, with who took them
    play_to_end(game)
    state = game.pad_state()
    assert any(state.awards)
    for r, awards in enumerate(state.awards):
        for award in awards:
            assert all(state.scores[p][r].regions >= award.points for p in award.players)
        region_points = sum(state.scores[p][r].regions for p in range(state.setup.n))
        assert region_points == sum(a.points * len(a.players) for a in awards)
    # the record the pad would export of it is the game's own
    assert state.record() == game.record()


def test_resumed_game_is_the_same_game_and_plays_on_identically() -> None:
    whole = SoloGame.new("australia", ["hard", "normal"], seed=11)
    play_to_end(whole, pick=lambda actions: actions[len(actions) // 2]["action"])
    for cut in (1, 2, 4, 13, 39, 40, len(whole.events)):
        # the app stores events as JSON and reads them back
        saved = json.loads(json.dumps(whole.events[:cut]))
        resumed = SoloGame.resume(saved)
        # a log cut after the person's pick (cuts 2 and 39) gets the bots' answers on resuming
        complete = cut + (-(cut - 1) % 3)
        assert resumed.events == whole.events[:complete]
        while not resumed.state.is_terminal():
            resumed.play((lambda a: a[len(a) // 2]["action"])(resumed.screen()["actions"]))
        assert resumed.events == whole.events
        assert resumed.screen() == whole.screen()


def test_resume_takes_stored_event_objects() -> None:
    """The score pad's store hands back objects with `.kind` and `.payload`."""

    @dataclass
    class Stored:
        kind: str
        payload: dict

    game = SoloGame.new("australia", ["easy"], seed=12)
    game.play(game.screen()["actions"][0]["action"])
    stored = [Stored(e["kind"], json.loads(json.dumps(e["payload"]))) for e in game.events]
    assert SoloGame.resume(stored).events == game.events


def test_illegal_decision_is_refused_and_changes_nothing() -> None:
    game = SoloGame.new("australia", ["easy"], seed=2)
    before = (list(game.events), game.screen())
    not_in_hand = next(c for c in range(28) if c not in game.state.hands[0])
    letter = game.edition.cards[not_in_hand].letter
    with pytest.raises(SoloError, match=f"cannot pick {letter} now"):
        game.play(not_in_hand)
    assert (game.events, game.screen()) == before


def test_damaged_event_log_names_the_event() -> None:
    game = SoloGame.new("australia", ["easy"], seed=4)
    game.play(game.screen()["actions"][0]["action"])
    events = json.loads(json.dumps(game.events))
    events[2]["payload"]["step"] = 5
    with pytest.raises(SoloError, match="event 3: is for step 5"):
        SoloGame.resume(events)
    events = json.loads(json.dumps(game.events))
    events[1]["payload"]["action"] = 99
    with pytest.raises(SoloError, match="event 2: player 1 cannot take action"):
        SoloGame.resume(events)
    with pytest.raises(SoloError, match="starts with its 'solo_started' event"):
        SoloGame.resume(events[1:])


def test_screen_never_shows_hidden_cards() -> None:
    game = SoloGame.new("australia", ["easy", "easy", "easy"], seed=8)
    for _step in range(5):
        state = game.state
        hidden = set()
        for q in range(1, 4):
            if state.rows[q]:
                hidden.add(state.rows[q][0])
            if not state.has_held(0, q):
                hidden.update(state.hands[q])
        screen = game.screen()
        shown = {c["index"] for c in screen["hand"]}
        for player in screen["players"]:
            shown.update(c["index"] for c in player["face_up"])
            if player["throw"] is not None:
                shown.add(player["throw"]["index"])
        assert not shown & hidden
        # the person's own Throw card is shown to them once chosen
        if state.rows[0]:
            assert screen["throw"]["index"] == state.rows[0][0]
            assert all(p["throw"] is None for p in screen["players"][1:])
        game.play(screen["actions"][0]["action"])


def test_choice_step_shows_the_points_of_each_option() -> None:
    game = SoloGame.new("australia", ["easy"], seed=6)
    while game.state.phase != Phase.CHOICE:
        game.play(game.screen()["actions"][0]["action"])
    screen = game.screen()
    options = screen["choices"]
    assert options[-1]["points"] <= options[0]["points"]
    assert any(o["action"] == CHOICE_NONE and o["points"] == 0 for o in options)
    # in the choice step every Throw card is revealed
    assert all(p["throw"] is not None for p in screen["players"])
    assert screen["catch"]["index"] == game.state.rows[0][-1]
    best = options[0]
    game.play(best["action"])
    assert game.state.round_scores[0][0].choice == best["points"]


def test_hint_values_every_option_and_changes_nothing() -> None:
    game = SoloGame.new("australia", ["normal", "normal"], seed=9)
    before = (list(game.events), game.screen())
    hint = game.hint(samples=6)
    assert {o["action"] for o in hint["options"]} == {a["action"] for a in before[1]["actions"]}
    assert hint["best"] == hint["options"][0]["action"]
    assert hint["options"][0]["behind_best"] == 0
    assert all(o["value"] <= hint["options"][0]["value"] for o in hint["options"])
    assert all("adds_now" in o for o in hint["options"])
    assert (game.events, game.screen()) == before
    # the same position gives the same hint
    assert game.hint(samples=6) == hint
    assert hint["bot"] == "hard"


def test_thinking_longer_asks_the_expert_bot() -> None:
    game = SoloGame.new("australia", ["hard", "normal"], seed=9)
    before = (list(game.events), game.screen())
    longer = game.hint(longer=True, simulations=60)
    assert longer["bot"] == "expert" and "region bonuses" in longer["why"]
    # the expert values a pick by its chance of winning the game, shown in percent
    assert longer["unit"] == "percent to win" and "chance of winning" in longer["why"]
    assert all(0 <= o["value"] <= 100 for o in longer["options"])
    assert hint_lines(longer)[0].value.startswith(f"{one_decimal(longer['options'][0]['value'])}% to win")
    assert game.hint(samples=6)["unit"] == "points"
    assert {o["action"] for o in longer["options"]} == {a["action"] for a in before[1]["actions"]}
    assert longer["best"] == longer["options"][0]["action"]
    assert all(o["value"] <= longer["options"][0]["value"] for o in longer["options"])
    assert (game.events, game.screen()) == before
    assert game.hint(longer=True, simulations=60) == longer
    # its values are the expert's for that position and seed, not the hard bot's
    assert longer["options"] != game.hint(samples=6)["options"]


def test_direction_variant_passes_right_in_rounds_2_and_4() -> None:
    game = SoloGame.new("europe", ["easy", "easy"], direction_variant=True, seed=13)
    directions = {}
    while not game.state.is_terminal():
        screen = game.screen()
        directions[screen["round"]] = screen["pass"]
        game.play(screen["actions"][0]["action"])
    assert directions == {1: "left", 2: "right", 3: "left", 4: "right"}
    # the event log says which variant it was, so a resumed game passes the same way
    assert SoloGame.resume(game.events).screen() == game.screen()


def test_bots_are_seeded_apart_from_the_deal() -> None:
    """A bot's seed tells it nothing about the deal; resuming keeps both seeds."""
    games = [SoloGame.new("australia", ["hard", "normal"], seed=21, bot_seed=b) for b in (1, 2)]
    assert games[0].state.hands == games[1].state.hands  # the same deal…
    assert games[0]._bot_seed(1, 0) != games[1]._bot_seed(1, 0)  # …whatever the bots are seeded with
    other_deal = SoloGame.new("australia", ["hard", "normal"], seed=22, bot_seed=1)
    assert other_deal.state.hands != games[0].state.hands
    assert [other_deal._bot_seed(seat, step) for seat in (1, 2) for step in range(28)] == [
        games[0]._bot_seed(seat, step) for seat in (1, 2) for step in range(28)]
    game = games[0]
    play_to_end(game)
    resumed = SoloGame.resume(json.loads(json.dumps(game.events)))
    assert resumed.setup.bot_seed == 1 and resumed.events == game.events
    # a game saved before the bots had a seed of their own resumes with the deal's seed for them
    legacy = json.loads(json.dumps(game.events[:1]))
    del legacy[0]["payload"]["bot_seed"]
    assert SoloGame.resume(legacy).setup.bot_seed == 21
    # a new game draws its bots' seed at random
    assert len({SoloGame.new("australia", ["easy"], seed=21).setup.bot_seed for _ in range(4)}) > 1
