"""The `tourpad` console command. Each package owns its commands; this file only wires them together.

Heavy libraries (flet, reportlab, zxing) are imported inside the commands that need them, so
`tourpad score` starts fast.

Language: `--lang en|fr` (anywhere on the line), else `LC_ALL` / `LC_MESSAGES` / `LANG`. Typer keeps the help
texts as they were written (English, marked with `N_`), so they are put into the chosen language once it is
known, each time the command tree is built and before click reads a single option: `--help` is in that
language whatever the option's place, and so is every message the commands print. The choice is the
process's default language (`set_default_language`), not a `use_language` block: the app and the host serve
Flet sessions from tasks and threads that copy the context they start in, and a block there would override
each phone's own language.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click
import typer
import typer.core

from rules.i18n import LanguageError, check_language, language_from_environment, set_default_language
from scorer.commands import app_commands, bench, engine_commands, print_commands, publish_command, race_commands
from scorer.commands.common import LangOpt, fail
from scorer.locale import N_, _

LANG_FLAG = "--lang"


def language_asked(args: Sequence[str]) -> str:
    """The language of this run: the last `--lang X` / `--lang=X` before a lone `--`, else the terminal's.
    An unknown language raises `LanguageError`; a `--lang` without a value is left for click to report."""
    asked = None
    words = iter(args)
    for word in words:
        if word == "--":
            break
        if word == LANG_FLAG:
            asked = next(words, None)
        elif word.startswith(LANG_FLAG + "="):
            asked = word.partition("=")[2]
    return language_from_environment() if asked is None else check_language(asked)


def translate_help(command: click.Command) -> None:
    """Every help text of the command tree, in the language of the moment (the texts are the English msgids)."""
    if command.help:
        command.help = _(command.help)
    if command.short_help:
        command.short_help = _(command.short_help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _(param.help)
    help_option = command.get_help_option(click.Context(command))
    if help_option is not None:
        help_option.help = _("Show this message and exit.")
    for sub in getattr(command, "commands", {}).values():
        translate_help(sub)


def translate_help_frame() -> None:
    """The headings and notes typer draws around the help texts (its own words are English only)."""
    from typer import rich_utils

    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")


class OneLineUsageErrors(typer.core.TyperGroup):
    """A usage error (unknown option, bad value) ends as click's plain "Error: …" line instead of rich's
    panel, which hard-wraps the message, and any path in it, at the terminal's width. Help stays rich.
    The run's language is decided here, before click parses anything (see the module's docstring)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        try:
            set_default_language(language_asked(sys.argv[1:] if args is None else args))
        except LanguageError as err:
            fail(str(err))
        translate_help(self)
        translate_help_frame()
        return typer.core._main(self, args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=standalone_mode, windows_expand_args=windows_expand_args,
                                rich_markup_mode=None, **extra)


app = typer.Typer(help=N_("tourpad: score pad, printables, rules engine and solo play for Boomerang "
                          "(Australia, Europe, USA) and Race Around Europe."),
                  cls=OneLineUsageErrors, no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False)


@app.callback()
def choose_language(lang: LangOpt = None) -> None:
    # The language is already chosen (OneLineUsageErrors.main reads --lang before click parses); the option
    # is declared here so that click accepts it before any command and --help lists it.
    del lang


engine_commands.register(app)
race_commands.register(app)
app.add_typer(bench.app, name="bench")
app_commands.register(app)
app.add_typer(print_commands.app, name="print")
publish_command.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
