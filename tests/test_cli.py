"""The `tourpad` command end to end (in-process via typer's runner)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rules.record import GameRecord
from scorer.cli import app

runner = CliRunner()
SCHEMA = Path(__file__).parent.parent / "docs" / "game-record.schema.json"


def run(*args: str):
    return runner.invoke(app, list(args))


def write(tmp_path: Path, doc: dict) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    return str(path)


GAME = {"edition": "australia", "players": ["Ann", "Bob"],
        "rounds": [{"Ann": {"cards": "ABCDEFG", "activity": "Sightseeing"},
                    "Bob": {"cards": "HIJKLMN", "activity": None}}]}


def test_deck_json_lists_cards_and_regions():
    result = run("deck", "australia", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert [c["letter"] for c in doc["cards"]] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ@#")
    assert doc["regions"][0] == {"name": "Western Australia", "bonus": 3, "color": "#D9822B", "letters": "ABCD"}
    assert doc["provenance"] == "publisher"


def test_deck_unknown_edition_fails_clearly():
    result = run("deck", "atlantis")
    assert result.exit_code != 0 and "unknown edition 'atlantis'" in result.output


def test_score_json(tmp_path):
    result = run("score", write(tmp_path, GAME), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    ann = doc["players"][0]
    assert ann["name"] == "Ann" and ann["total"] == 27 and ann["rank"] == 1
    assert ann["rounds"] == [{"throw_catch": 3, "collections": 9, "animals": 3, "activities": 2, "sites": 7,
                              "regions": 3}]


def test_score_table_shows_categories_totals_and_ranking(tmp_path):
    # Ann and Bob both have 27: Ann wins the tie-break on Throw & Catch (3 against 1)
    result = run("score", write(tmp_path, GAME))
    assert result.exit_code == 0, result.output
    for text in ("Ann — 27 points, rank 1", "Throw & Catch", "Collections", "Animals", "Activities",
                 "Region bonuses", "Ranking: 1. Ann (27), 2. Bob (27)"):
        assert text in result.output


def test_score_warns_of_set_aside_letters_missing_from_the_next_round(tmp_path):
    again = {"Ann": {"cards": "ABCDEFG", "activity": None}, "Bob": {"cards": "HIJKLMN", "activity": None}}
    game = {**GAME, "rounds": [*GAME["rounds"], again]}  # round 2 repeats round 1's cards: O to # never dealt
    result = run("score", write(tmp_path, game))
    assert result.exit_code == 0, result.output
    assert "warning: round 2: O, P, Q, R, S, T, U, V, W, X, Y, Z, @, # were not dealt in round 1" in " ".join(
        result.output.split())


def test_score_refuses_bad_games_with_the_round_player_and_problem(tmp_path):
    bad = json.loads(json.dumps(GAME))
    bad["rounds"][0]["Bob"]["cards"] = "GHIJKLM"
    result = run("score", write(tmp_path, bad))
    assert result.exit_code != 0
    assert "round 1, Bob: letter G already in Ann's round 1 cards" in result.output
    bad["rounds"][0]["Bob"]["cards"] = "HIJKLM"
    assert "round 1, Bob: 6 cards" in run("score", write(tmp_path, bad)).output


def test_score_refuses_malformed_files(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    result = run("score", str(path))
    assert result.exit_code != 0 and "not valid JSON" in result.output
    result = run("score", write(tmp_path, {"edition": "australia", "players": ["Ann"], "rounds": []}))
    assert result.exit_code != 0 and "players" in result.output
    assert run("score", str(tmp_path / "missing.json")).exit_code != 0


def test_sim_reports_win_rates_and_categories():
    result = run("sim", "--edition", "australia", "--players", "4", "--bots", "greedy,random,random,random",
                 "--games", "40", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert abs(sum(seat["win_rate"] for seat in doc["seats"]) - 1) < 1e-6
    assert doc["seats"][0]["win_rate"] > doc["seats"][1]["win_rate"]
    assert set(doc["seats"][0]["mean_points"]) == {"throw_catch", "collections", "animals", "activities", "sites",
                                                   "regions"}
    assert doc["games_per_second"] > 0
    low, high = doc["seats"][0]["win_rate_ci95"]
    assert low <= doc["seats"][0]["win_rate"] <= high


def test_sim_refuses_a_wrong_line_up():
    result = run("sim", "--players", "3", "--bots", "greedy,random", "--games", "1")
    assert result.exit_code != 0 and "one per seat" in result.output
    result = run("sim", "--players", "2", "--bots", "greedy,wizard", "--games", "1")
    assert result.exit_code != 0 and "unknown bot 'wizard'" in result.output


def test_bench_engine_json():
    result = run("bench", "engine", "--json", "--games", "40")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["games_per_second"] > 0 and doc["baseline_games_per_second"] > 0


def test_published_schema_is_the_models_schema():
    assert json.loads(SCHEMA.read_text()) == GameRecord.model_json_schema()
    assert json.loads(run("schema").output) == GameRecord.model_json_schema()
