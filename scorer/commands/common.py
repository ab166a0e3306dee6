"""Helpers the commands share: readable failures and the edition lookup."""

from __future__ import annotations

import sys
from typing import NoReturn

from rich.console import Console

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a specific error on stderr and exit non-zero (nothing has been changed)."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(code)
