"""`tourpad sim`: seat rotation, head-to-head tables, the bot-vs-field summary, parallel runs."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rules.editions import load_edition
from scorer.cli import app
from scorer.sim.boomerang import SimError, run_simulation, seating

AUSTRALIA = load_edition("australia")


def test_rotation_seats_every_entry_in_every_seat_equally() -> None:
    seen = [[0] * 4 for _ in range(4)]
    for g in range(8):
        for seat, entry in enumerate(seating(4, g, rotate=True)):
            seen[entry][seat] += 1
    assert seen == [[2] * 4] * 4
    assert all(seating(3, g, rotate=False) == [0, 1, 2] for g in range(5))


def test_report_tables_add_up() -> None:
    result = run_simulation(AUSTRALIA, 4, ["normal", "easy", "easy", "easy"], 24, seed=3,
                            rotate=True)
    games = result["games"]
    assert games == 24
    assert sum(s["win_rate"] for s in result["seats"]) == pytest.approx(1.0, abs=1e-3)
    h2h = result["head_to_head"]
    for i in range(4):
        assert h2h[i][i] is None
        for j in range(4):
            if i != j:
                # in every game one of the two is ahead of the other, or they tie (half each)
                assert h2h[i][j]["ahead"] + h2h[j][i]["ahead"] == pytest.approx(1.0, abs=1e-3)
                low, high = h2h[i][j]["ci95"]
                assert low <= h2h[i][j]["ahead"] <= high
    by_bot = {b["bot"]: b for b in result["bots"]}
    assert by_bot["easy"]["copies"] == 3 and by_bot["easy"]["chance"] == 0.75
    assert by_bot["normal"]["win_share"] + by_bot["easy"]["win_share"] == pytest.approx(1.0, abs=1e-3)
    # greedy beats random players by a wide margin even over 24 games
    assert by_bot["normal"]["mean_total"] > by_bot["easy"]["mean_total"]


def test_parallel_run_equals_serial_run() -> None:
    serial = run_simulation(AUSTRALIA, 3, ["normal", "easy", "normal"], 12, seed=5,
                            rotate=True)
    parallel = run_simulation(AUSTRALIA, 3, ["normal", "easy", "normal"], 12, seed=5,
                              rotate=True, workers=2)
    assert serial == parallel


def test_unknown_bot_is_named() -> None:
    with pytest.raises(SimError, match="unknown bot 'grandmaster'"):
        run_simulation(AUSTRALIA, 2, ["hard", "grandmaster"], 1, seed=1)
    with pytest.raises(SimError, match="2 bots for 3 players"):
        run_simulation(AUSTRALIA, 3, ["hard", "easy"], 1, seed=1)


def test_sim_command_json_and_table() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["sim", "--bots", "hard,easy", "--players", "2", "--games", "2", "--rotate",
                              "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["rotated_seats"] is True and [s["bot"] for s in result["seats"]] == ["hard", "easy"]
    out = runner.invoke(app, ["sim", "--bots", "normal,easy,easy", "--players", "3", "--games", "3"])
    assert out.exit_code == 0, out.output
    assert "Head to head" in out.output and "against the field" in out.output


def test_expert_budget_is_set_from_the_command_line() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["sim", "--bots", "expert,normal", "--players", "2", "--games", "2", "--rotate",
                              "--expert-simulations", "30", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert [s["bot"] for s in result["seats"]] == ["expert", "normal"]
    # the same games as the library plays with that budget
    again = run_simulation(AUSTRALIA, 2, ["expert", "normal"], 2, seed=1, rotate=True, expert_simulations=30)
    assert again["seats"] == result["seats"]
