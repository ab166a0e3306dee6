"""`tourpad app`, `tourpad host`, `tourpad scan`: the score pad app and its table server."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("app")(run_app)
    app.command("host")(host)


def run_app() -> None:
    """Start the score pad app (comes with the app issue; for now prints where to start)."""
    typer.echo("The score pad app is not built yet; see `tourpad --help` for what works today.")


def host(port: int = typer.Option(8550, help="port to serve on"),
         bind: str = typer.Option("0.0.0.0", help="address to listen on (0.0.0.0 = the local network)"),
         edition: str = typer.Option("australia", help="edition of a new table"),
         seats: int = typer.Option(4, min=2, max=4, help="players at a new table"),
         new_table: bool = typer.Option(False, "--new-table", help="open a new table even if one is live"),
         new_host_token: bool = typer.Option(False, "--new-host-token",
                                             help="print another host token for the resumed table"),
         idle_hours: float = typer.Option(12.0, min=0.01, help="tables idle this long are deleted"),
         api_only: bool = typer.Option(False, "--api-only", help="serve the JSON API without the app")) -> None:
    """Host a table: players join from their phones' browsers (API at /api, schema at /docs)."""
    from scorer.commands.common import console, fail
    from scorer.table.host import build_asgi, db_path, open_table, qr_terminal, serve, start_expiry_sweeper
    from scorer.table.service import TableError, TableService

    service = TableService(db_path(), idle_seconds=idle_hours * 3600)
    try:
        plan = open_table(service, bind, port, edition, seats, new_table, new_host_token)
    except TableError as err:
        fail(err.message)
    start_expiry_sweeper(service)
    asgi_app = build_asgi(service, plan.url, api_only)

    def ready() -> None:
        others = [c for c in plan.resumed if c != plan.code]
        console.print(qr_terminal(plan.url), highlight=False, soft_wrap=True)
        console.print(f"Join URL:  {plan.url}\nJoin code: {plan.code}", highlight=False)
        if plan.host_token:
            console.print(f"Host token (keep private; edits every seat): {plan.host_token}", highlight=False)
        if others:
            console.print(f"Also live: {', '.join(others)}", highlight=False)
        console.print(f"API: {plan.url}api  (schema: {plan.url}docs); data: {service.store.path}",
                      highlight=False)

    serve(asgi_app, bind, port, on_ready=ready)
