"""Helpers the commands share: readable failures, the edition lookup, showing a data document."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn, TypeVar

from rich.console import Console
from rich.table import Table

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a specific error on stderr and exit non-zero (nothing has been changed)."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(code)


def show_document(doc: dict, as_json: bool, title: str, columns: Sequence[str],
                  rows: Iterable[Sequence[str]]) -> None:
    """A data document (a deck, a board) as JSON for scripts, or as a table for people."""
    if as_json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)


T = TypeVar("T")


def resolve_or_fail(what: str, ident: str, resolve: Callable[[str], T], damaged: type[Exception]) -> T:
    """Look up an edition / board by id; an unknown id or damaged data file ends the command clearly."""
    try:
        return resolve(ident)
    except KeyError as err:
        fail(str(err.args[0]))
    except damaged as err:
        fail(f"{what} {ident!r} is damaged: {err}")
