"""Helpers the commands share: readable failures, the edition lookup, showing a data document."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from rich.table import Table

from scorer.locale import N_, _
from scorer.userfile import shown

#: `--lang`: read before the commands are built (scorer.cli.language_asked); declared where click must accept it.
LangOpt = Annotated[str | None, typer.Option(
    "--lang", metavar="LANG", help=N_("language: en or fr (default: from LC_ALL / LC_MESSAGES / LANG)"))]

#: Tables printed anywhere but a terminal (a pipe, a file, a test) are laid out this wide, whatever the
#: machine's COLUMNS or the terminal pytest was started from say.
PIPE_WIDTH = 80


class CommandConsole(Console):
    """The commands' console: a message (plain text) is never hard-wrapped, so a path or a URL stays whole
    and a script reading the output gets one line per message; only tables are fitted to a width, the
    terminal's on a terminal and PIPE_WIDTH anywhere else."""

    @property
    def size(self) -> ConsoleDimensions:
        if self.is_terminal:
            return super().size
        return ConsoleDimensions(PIPE_WIDTH, 25)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)

    def print(self, *objects, soft_wrap: bool | None = None, **options) -> None:
        if soft_wrap is None and all(isinstance(item, str) for item in objects):
            soft_wrap = True
        super().print(*objects, soft_wrap=soft_wrap, **options)


console = CommandConsole()
err_console = CommandConsole(stderr=True)


def warn(message: str, to: Console | None = None) -> None:
    """Print a warning on one line of `to` (stderr unless said), its text shown as it is (no markup)."""
    prefix = _("warning:")
    (to or err_console).print(f"[yellow]{escape(prefix)}[/] {escape(shown(message))}", highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a specific error on stderr, on one line, and exit non-zero (nothing has been changed)."""
    # only ASCII whitespace is folded: str.split() would also eat the no-break spaces French puts before « : »
    one_line = re.sub(r"[ \t\r\n\f\v]+", " ", message).strip()
    # a name or path in it is escaped where the message is built (scorer.userfile.shown); this is the backstop,
    # so that no text quoted in an error (a pack's field, a parser's excerpt) can drive the terminal
    one_line = shown(one_line)
    prefix = _("error:")
    err_console.print(f"[bold red]{escape(prefix)}[/] {escape(one_line)}", highlight=False)
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


def resolve_or_fail(ident: str, resolve: Callable[[str], T], damaged: type[Exception], damaged_message: str) -> T:
    """Look up an edition / board by id; an unknown id or damaged data file ends the command clearly.
    ``damaged_message`` names the damaged thing, with the placeholders {ident} and {error}."""
    try:
        return resolve(ident)
    except KeyError as err:
        fail(str(err.args[0]))
    except damaged as err:
        fail(damaged_message.format(ident=ident, error=err))
