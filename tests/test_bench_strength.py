"""`tourpad bench strength`: a run resumed from its record reports what one `tourpad sim --rotate` run reports, and
a record that is damaged, foreign or made by other code is refused without being changed."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import benchmarks
from benchmarks import strength
from benchmarks.strength import CHUNK_GAMES, StrengthError, default_record
from rules.editions import load_edition
from scorer.cli import app
from scorer.sim.boomerang import run_simulation

SEED = 7
TWO = ["normal", "easy"]
FOUR = ["easy", "easy", "normal", "easy"]


@pytest.fixture(scope="module")
def edition():
    return load_edition("australia")


def sim_report(edition, bots: list[str], games: int) -> dict:
    return run_simulation(edition, len(bots), bots, games, SEED, rotate=True)


def run(edition, record: Path, bots: list[str], games: int, **options) -> strength.StrengthRun:
    return strength.run(edition, len(bots), bots, games, SEED, record=record, **options)


def lines(record: Path) -> list[dict]:
    return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]


def ranges(record: Path) -> list[tuple[int, int]]:
    return sorted((line["first"], line["last"]) for line in lines(record)[1:])


@pytest.mark.parametrize("bots", [TWO, FOUR], ids=["2 players", "4 players"])
def test_a_run_stopped_early_then_resumed_reports_what_one_sim_run_reports(edition, tmp_path, bots):
    record = tmp_path / "run.jsonl"
    first = run(edition, record, bots, 6)
    assert first.report == sim_report(edition, bots, 6)
    assert first.games_played_now == 6 and ranges(record) == [(0, 4), (4, 6)]

    progress = []
    resumed = run(edition, record, bots, 12, on_progress=progress.append)
    assert resumed.report == sim_report(edition, bots, 12)
    assert resumed.games_played_now == 6 and resumed.games_recorded == 12 and resumed.missing == []
    # only the games the record lacked were played, each chunk appended once, none across a chunk boundary
    assert ranges(record) == [(0, 4), (4, 6), (6, 8), (8, 12)]
    assert [p.games_counted for p in progress] == [8, 12]
    assert round(progress[-1].entry_one_win_share, 4) == resumed.report["seats"][0]["win_rate"]


def test_a_record_cut_after_its_first_chunk_resumes_from_there(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 12)
    header_and_first_chunk = record.read_text(encoding="utf-8").splitlines(keepends=True)[:2]
    record.write_text("".join(header_and_first_chunk), encoding="utf-8")

    resumed = run(edition, record, TWO, 12)
    assert resumed.games_played_now == 8
    assert resumed.report == sim_report(edition, TWO, 12)


def test_the_games_played_in_worker_processes_are_the_same(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    result = run(edition, record, TWO, 16, workers=2)
    assert result.report == sim_report(edition, TWO, 16)
    assert ranges(record) == [(g, g + CHUNK_GAMES) for g in range(0, 16, CHUNK_GAMES)]


def test_an_unterminated_last_line_is_dropped_and_its_games_played_again(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 8)
    whole = record.read_bytes()
    record.write_bytes(whole[:-40])  # killed while writing the chunk of games 4..7

    warnings = []
    resumed = run(edition, record, TWO, 8, on_warning=warnings.append)
    assert len(warnings) == 1 and f"{record}, line 3" in warnings[0] and "dropped" in warnings[0]
    assert resumed.games_played_now == 4
    assert resumed.report == sim_report(edition, TWO, 8)
    assert record.read_bytes().endswith(b"\n") and ranges(record) == [(0, 4), (4, 8)]


def test_a_malformed_line_is_refused_by_file_and_line(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 8)
    whole = record.read_text(encoding="utf-8").splitlines(keepends=True)
    record.write_text("".join([whole[0], whole[1].replace('"wins"', '"winz"'), whole[2]]), encoding="utf-8")
    where = re.escape(str(record))
    with pytest.raises(StrengthError, match=rf"{where}, line 2: not a chunk of games: wins: Field required"):
        run(edition, record, TWO, 12)

    record.write_text("".join([*whole, whole[1]]), encoding="utf-8")  # two runs wrote the same record at once
    with pytest.raises(StrengthError, match=rf"{where}, line 4: game 0 is already recorded on line 2"):
        run(edition, record, TWO, 12)


@pytest.mark.parametrize("field, change", [
    ("--seed", {"seed": SEED + 1}),
    ("--bots", {"bots": ["hard", "easy"]}),
    ("--expert-simulations", {"expert_simulations": 3}),
])
def test_a_record_of_another_run_is_refused_naming_the_option_and_left_unchanged(edition, tmp_path, field, change):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 4)
    before = record.read_bytes()
    options = {"bots": TWO, "seed": SEED, "expert_simulations": None} | change
    with pytest.raises(StrengthError, match=rf"belongs to another run \({field}: .*choose another --record"):
        strength.run(edition, 2, options["bots"], 8, options["seed"], record=record,
                     expert_simulations=options["expert_simulations"])
    assert record.read_bytes() == before


def test_a_record_the_bots_no_longer_play_alike_is_refused_and_left_unchanged(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 4)
    header, chunk = lines(record)
    played = list(chunk["game_totals"][0])
    chunk["game_totals"][0][0] += 1  # as if other code had played game 0
    chunk["totals"][0] += 1
    record.write_text(json.dumps(header) + "\n" + json.dumps(chunk) + "\n" + '{"first": 4', encoding="utf-8")
    before = record.read_bytes()
    altered = ", ".join(map(str, chunk["game_totals"][0]))
    message = (rf"the bots now play game 0 differently from this record \(totals {', '.join(map(str, played))}; "
               rf"recorded {altered}\): .*use a new --record")
    with pytest.raises(StrengthError, match=message):
        run(edition, record, TWO, 8)
    assert record.read_bytes() == before


def test_a_record_whose_first_game_was_played_with_other_moves_to_the_same_totals_is_refused(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 4)
    header, chunk = lines(record)
    assert len(chunk["game_fingerprints"]) == 4
    played = chunk["game_fingerprints"][0]
    chunk["game_fingerprints"][0] = "0" * len(played)  # as if other code had reached the same totals otherwise
    record.write_text(json.dumps(header) + "\n" + json.dumps(chunk) + "\n", encoding="utf-8")
    before = record.read_bytes()
    message = (rf"the bots now play game 0 differently from this record \(the same totals, other moves: "
               rf"fingerprint {played}, recorded 0+\): .*use a new --record")
    with pytest.raises(StrengthError, match=message):
        run(edition, record, TWO, 8)
    assert record.read_bytes() == before
    # every game of the chunk is replayed: bots that differ can play one game alike
    chunk["game_fingerprints"][0] = played
    chunk["game_fingerprints"][2] = "0" * len(played)
    record.write_text(json.dumps(header) + "\n" + json.dumps(chunk) + "\n", encoding="utf-8")
    with pytest.raises(StrengthError, match="the bots now play game 2 differently from this record"):
        run(edition, record, TWO, 8)
    # a record begun before fingerprints were kept is checked by its first fingerprinted chunk, else by totals
    del chunk["game_fingerprints"]
    record.write_text(json.dumps(header) + "\n" + json.dumps(chunk) + "\n", encoding="utf-8")
    assert run(edition, record, TWO, 8).games_played_now == 4
    header, old_chunk, new_chunk = lines(record)
    assert "game_fingerprints" not in old_chunk and len(new_chunk["game_fingerprints"]) == 4
    new_chunk["game_fingerprints"][0] = "0" * len(played)
    record.write_text("".join(json.dumps(line) + "\n" for line in (header, old_chunk, new_chunk)), encoding="utf-8")
    with pytest.raises(StrengthError, match="the bots now play game 4 differently from this record"):
        run(edition, record, TWO, 12)


def test_a_games_fingerprint_is_every_action_of_it() -> None:
    history = [(3, 7), (12, 5), (0, 1)]
    assert strength.game_fingerprint(history) == strength.game_fingerprint([list(step) for step in history])
    assert strength.game_fingerprint(history) != strength.game_fingerprint([(3, 7), (5, 12), (0, 1)])
    assert len(strength.game_fingerprint(history)) == strength.FINGERPRINT_CHARS


def test_a_complete_record_the_bots_no_longer_play_alike_is_read_back_marked_as_other_codes(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    today = run(edition, record, TWO, 4)
    assert today.played_by_this_code and today.as_dict()["played_by_this_code"] is True
    header, chunk = lines(record)
    chunk["game_totals"][0][0] += 1  # as if other code had played game 0
    chunk["totals"][0] += 1
    record.write_text(json.dumps(header) + "\n" + json.dumps(chunk) + "\n", encoding="utf-8")
    before = record.read_bytes()
    warnings: list[str] = []
    old = run(edition, record, TWO, 4, on_warning=warnings.append)
    assert old.games_played_now == 0 and not old.played_by_this_code
    assert old.report != today.report and old.report["games"] == 4  # the record's figures, as recorded
    assert len(warnings) == 1 and re.search(r"the bots now play game 0 differently from this record .*"
                                            r"the figures below are that code's, not today's", warnings[0])
    assert record.read_bytes() == before


def test_a_smaller_target_reports_only_the_chunks_inside_it(edition, tmp_path):
    record = tmp_path / "run.jsonl"
    run(edition, record, TWO, 8)
    smaller = run(edition, record, TWO, 6)
    assert smaller.games_played_now == 0 and smaller.games_recorded == 8
    assert smaller.report == sim_report(edition, TWO, 4) and smaller.missing == [(4, 6)]


def test_the_default_record_is_in_the_repository_whatever_the_working_folder(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert default_record("usa", ["expert", "hard", "hard", "hard"], 2026) == (
        Path(benchmarks.__file__).parent / "strength-records" / "usa-4p-expert-hard-hard-hard-seed2026.jsonl")


def test_the_command_resumes_its_record_and_reports_as_sim(edition, tmp_path):
    runner = CliRunner()
    record = tmp_path / "records" / "run.jsonl"
    common = ["bench", "strength", "--edition", "australia", "--players", "2", "--bots", "normal,easy",
              "--seed", str(SEED), "--record", str(record)]
    out = runner.invoke(app, [*common, "--games", "4"])
    assert out.exit_code == 0, out.output
    assert "seats rotated" in out.stdout and f"Record {record}: 4 games recorded" in out.stdout
    assert "4/4 games; entry 1 (normal) wins" in out.stderr

    out = runner.invoke(app, [*common, "--games", "8", "--json"])
    assert out.exit_code == 0, out.output
    assert out.stderr == ""
    result = json.loads(out.stdout)
    assert {key: result[key] for key in sim_report(edition, TWO, 8)} == sim_report(edition, TWO, 8)
    assert (result["games_target"], result["games_recorded"], result["missing"], result["games_played_now"]) == (
        8, 8, [], 4)


@pytest.mark.parametrize("arguments, message", [
    (["--bots", "normal,grandmaster"], "unknown bot 'grandmaster'"),
    (["--bots", "normal,easy,easy"], "--bots names 3 bots for 2 players"),
    (["--edition", "atlantis"], "unknown edition 'atlantis'"),
    (["--seed", "8"], "belongs to another run (--seed: the record was made with 7, this run asks for 8)"),
])
def test_the_command_refuses_bad_input_without_a_traceback(tmp_path, arguments, message):
    record = tmp_path / "run.jsonl"
    runner = CliRunner()
    base = ["bench", "strength", "--players", "2", "--bots", "normal,easy", "--seed", str(SEED), "--games", "4",
            "--record", str(record), "--json"]
    assert runner.invoke(app, base).exit_code == 0
    out = runner.invoke(app, [*base, *arguments])
    assert out.exit_code == 2, out.output
    assert message in out.stderr and "Traceback" not in out.output
    assert isinstance(out.exception, SystemExit)


def test_sigterm_stops_a_run_as_ctrl_c_does_recording_the_chunks_under_way(tmp_path):
    """`kill` (SIGTERM) on a run with workers: the parent records the chunks under way and stops, exit 130,
    every line of the record whole, and its lock is free at once for the next run (before, the workers died
    with their chunks, or kept the lock they inherited until their chunk ended)."""
    record = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "scorer.cli", "bench", "strength", "--edition", "australia", "--players", "4",
               "--bots", "normal,hard,easy,easy", "--seed", str(SEED), "--games", "4000", "--workers", "2",
               "--record", str(record)]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=Path(benchmarks.__file__).parent.parent)
    try:
        first = run.stderr.readline()  # a chunk is recorded: the run is under way
        assert "games; entry 1 (normal) wins" in first, first
        run.send_signal(signal.SIGTERM)
        _, rest = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130, rest
    assert re.search(r"stopping after recording the chunks under way \([012]\)", rest), rest
    assert "Traceback" not in rest
    lines = record.read_text().splitlines()
    recorded = len(lines) - 1
    assert recorded >= 2 and all(json.loads(line) for line in lines)
    out = CliRunner().invoke(app, ["bench", "strength", "--edition", "australia", "--players", "4", "--bots",
                                   "normal,hard,easy,easy", "--seed", str(SEED), "--games", str(4 * recorded),
                                   "--record", str(record), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["games_played_now"] == 0
