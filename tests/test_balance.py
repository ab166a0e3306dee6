"""`tourpad bench balance`: the split of points by icon type adds up to the categories it splits."""

from __future__ import annotations

import pytest

from benchmarks.balance import run
from rules.editions import load_edition


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_icon_points_add_up_to_their_categories(edition_id):
    edition = load_edition(edition_id)
    result = run(edition, games=6, players=3, bot="greedy", seed=4)
    assert set(result["mean_points"]) == set(edition.category_ids())
    for family in (edition.collection, edition.pairs, edition.choice):
        split = sum(v for k, v in result["icon_points"].items() if k.startswith(f"{family.id}:"))
        assert split == pytest.approx(result["mean_points"][family.id], abs=0.05)
    assert all(0 <= share <= 1 for share in result["region_bonus_won"].values())
    assert ("route_bonus_per_game" in result) == (edition.route is not None)


@pytest.mark.parametrize("edition_id", ["europe", "usa"])
def test_sim_and_bench_balance_commands_run_the_new_editions(edition_id):
    import json

    from typer.testing import CliRunner

    from scorer.cli import app

    runner = CliRunner()
    sim = runner.invoke(app, ["sim", "--edition", edition_id, "--players", "4", "--bots",
                              "greedy,greedy,greedy,greedy", "--games", "3", "--json"])
    assert sim.exit_code == 0, sim.output
    result = json.loads(sim.output)
    assert len(result["region_bonus_won"]) == len(load_edition(edition_id).regions)
    assert "route_bonus_per_game" in result
    balance = runner.invoke(app, ["bench", "balance", "--edition", edition_id, "--games", "2", "--json"])
    assert balance.exit_code == 0, balance.output
    assert json.loads(balance.output)["games"] == 2
