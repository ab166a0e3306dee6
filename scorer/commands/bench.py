"""`tourpad bench …`: speed and size goals, measured (never asserted in unit tests)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from scorer.commands.common import console

app = typer.Typer(help="Benchmarks: engine, print, table, bots, scan.", no_args_is_help=True)

AsJson = Annotated[bool, typer.Option("--json", help="machine-readable output")]


def report(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            console.print(f"{key}: {value}", highlight=False)


@app.command("engine")
def engine(as_json: AsJson = False, games: int = 2000, edition: str = "australia") -> None:
    """Random-bot 4-player games/s through the engine vs a minimal hand-written loop, same run."""
    from benchmarks import engine as bench_engine
    from scorer.commands.engine_commands import edition_or_fail

    report(bench_engine.run(edition_or_fail(edition), games), as_json)


@app.command("bots")
def bots(as_json: AsJson = False, games: int = 5, edition: str = "australia", bot: str = "hard",
         opponents: str = "normal") -> None:
    """A bot's time per decision (median, p95, max) over whole 4-player games against `opponents`."""
    from benchmarks import bots as bench_bots
    from scorer.commands.engine_commands import edition_or_fail

    report(bench_bots.run(edition_or_fail(edition), games, bot, opponents), as_json)
