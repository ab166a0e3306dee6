"""`tourpad scan IMAGE --edition australia`: read a player's drafted row from one photo of their cards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from scorer.commands.common import console, err_console, fail
from scorer.locale import N_


def scan(
    image: Annotated[Path, typer.Argument(help=N_("photo of one player's 7 cards in a row (JPEG, PNG, …)"))],
    edition: Annotated[str, typer.Option(help=N_("edition of the game being scored"))] = "australia",
    taken: Annotated[str, typer.Option(help=N_("letters other players already have this round, e.g. ABC"))] = "",
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
) -> None:
    """The scan of one row; its help text is given where the command is registered (app_commands)."""
    from scorer.commands.engine_commands import edition_or_fail
    from scorer.scan import ScanImageError, scan_row
    from scorer.userfile import IMAGE_LIMIT, UserFileError, read_user_bytes

    game_edition = edition_or_fail(edition)
    try:
        photo = read_user_bytes(image, "a photo", IMAGE_LIMIT)
    except UserFileError as err:
        fail(str(err))
    try:
        result = scan_row(photo, game_edition, taken=taken.strip().upper())
    except ScanImageError as err:
        fail(f"{image}: {err}")
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console.print(result.letters, highlight=False)
        for message in result.messages():
            err_console.print(f"[yellow]•[/] {message}", highlight=False)
    if not result.complete:
        raise typer.Exit(1)
