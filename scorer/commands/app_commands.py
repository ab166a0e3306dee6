"""`tourpad app`, `tourpad host`, `tourpad scan`: the score pad app and its table server."""

from __future__ import annotations

import typer

from scorer.commands.scan_command import scan


def register(app: typer.Typer) -> None:
    app.command("app")(run_app)
    app.command("scan")(scan)


def run_app() -> None:
    """Start the score pad app (comes with the app issue; for now prints where to start)."""
    typer.echo("The score pad app is not built yet; see `tourpad --help` for what works today.")
