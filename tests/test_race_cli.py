"""Race Around Europe from the command line and the bots: `tourpad journey`, `tourpad sim --game race…`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rules.race.bots import make_race_bot, play_race
from rules.race.engine import RaceGame
from rules.race.journey import is_complete
from scorer.cli import app
from scorer.race_simulate import run_race_simulation
from scorer.simulate import SimError

runner = CliRunner()
EXAMPLE = "Spain, France, Atlantic, Norway, Greece, Macedonia, Greece, Mediterranean, Turkey, Ukraine"


def test_journey_command_explains_the_rulebook_example():
    result = runner.invoke(app, ["journey", EXAMPLE, "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert not doc["valid"] and doc["connected_links"] == 8
    assert doc["breaks"] == [{"trips": [4, 5],
                              "reason": "Norway and Greece do not border (no land border, ferry or bridge)"}]
    assert doc["problems"][0]["trips"] == [5, 7]
    assert {f["faults_left"] for f in doc["best_fixes"]} == {1}


def test_journey_command_accepts_a_complete_journey_and_names_a_fix():
    ok = runner.invoke(app, ["journey", "Portugal", "Spain", "France", "England", "Ireland", "Atlantic ship",
                             "Norway", "Sweden", "Denmark", "Germany"])
    assert ok.exit_code == 0 and "complete journey" in ok.output
    fix = runner.invoke(app, ["journey", "Portugal, Italy, France, England, Ireland, Atlantic, Norway, "
                                         "Sweden, Denmark, Germany"])
    assert "trip 2 → Spain" in fix.output and "completes the journey" in fix.output


def test_journey_command_names_the_bad_tile():
    result = runner.invoke(app, ["journey", EXAMPLE.replace("Norway", "Norwya")])
    assert result.exit_code == 2 and "trip 4: 'Norwya' is not a tile" in result.output
    short = runner.invoke(app, ["journey", "Spain, France"])
    assert short.exit_code == 2 and "a journey has 10 tiles" in short.output


def test_sim_command_reports_win_rates_and_length():
    result = runner.invoke(app, ["sim", "--game", "race-around-europe", "--players", "2", "--bots",
                                 "normal,easy", "--games", "6", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["seats"][0]["wins"] + doc["seats"][1]["wins"] + doc["draws"] == 6
    low, high = doc["seats"][0]["win_rate_ci95"]
    assert 0 <= low <= doc["seats"][0]["win_rate"] <= high <= 1
    assert doc["median_turns"] > 0
    bad = runner.invoke(app, ["sim", "--game", "race-around-europe", "--players", "2",
                              "--bots", "normal,wizard"])
    assert bad.exit_code == 2 and "unknown Race Around Europe bot 'wizard'" in bad.output
    other = runner.invoke(app, ["sim", "--game", "chess"])
    assert other.exit_code == 2 and "race-around-europe" in other.output


def test_normal_beats_easy():
    result = run_race_simulation(2, ["normal", "easy"], 30, seed=7)
    assert result["seats"][0]["wins"] >= 27  # acceptance is ≥ 80 %; measured at 100 % (see report)


def test_wrong_bot_count_is_refused():
    with pytest.raises(SimError, match="names 1 bot for 2 players"):
        run_race_simulation(2, ["normal"], 1)


def test_search_bot_plays_legal_games_and_finishes():
    game = RaceGame(2, seed=11, turn_cap=400)
    state = play_race(game, [make_race_bot("search", 1), make_race_bot("easy", 2)])
    assert state.winner == 0 and is_complete(game.board, state.kinds(0))
