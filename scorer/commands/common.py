"""Helpers the commands share: readable failures and the edition lookup."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

from rich.console import Console

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a specific error on stderr and exit non-zero (nothing has been changed)."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(code)


T = TypeVar("T")


def resolve_or_fail(what: str, ident: str, resolve: Callable[[str], T], damaged: type[Exception]) -> T:
    """Look up an edition / board by id; an unknown id or damaged data file ends the command clearly."""
    try:
        return resolve(ident)
    except KeyError as err:
        fail(str(err.args[0]))
    except damaged as err:
        fail(f"{what} {ident!r} is damaged: {err}")
