"""Which language tourpad speaks, decided in one place, and the words of each package in that language.

Messages are gettext catalogs managed with Babel: each package that shows words owns a *domain*
(`rules`, `printables`, `scorer`), with its `.po` files in the repository under `<package>/locale/` and the
compiled `.mo` files built by the install (`make catalogs`). A module marks its messages with its
package's `_` / `ngettext` / `N_` (see `Domain`); nothing else in tourpad knows which language is on.

How the language is decided, first match wins:
1. `use_language(lang)` around a piece of work (`tourpad print --lang fr`, a test);
2. the *language source* an application installs (`set_language_source`): the Flet app answers with the
   language of the session whose event is being handled, so each phone at a table reads its own language
   while every phone shows the same game;
3. the process default (`set_default_language`): the CLI sets it from `--lang` or `LC_ALL` / `LC_MESSAGES`
   / `LANG`;
4. English.

Numbers and dates are formatted by Babel for the language (`format_number`, `format_date`); plural forms
come from the catalog's `Plural-Forms` (`ngettext`), never from adding an "s".
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache
from pathlib import Path

#: Every language tourpad speaks; English is the source language of every message.
LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"
#: Each language's own name, as the language switch shows it.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français"}
#: The Babel locale whose conventions format numbers and dates, where it is not the language code itself
#: (English dates read "24 Nov 2026", not the US "Nov 24, 2026").
BABEL_LOCALES: Mapping[str, str] = {"en": "en_GB"}


class LanguageError(ValueError):
    """A language tourpad does not speak; the message names it and the ones it does."""


_chosen: ContextVar[str | None] = ContextVar("tourpad_language", default=None)
_source: Callable[[], str | None] | None = None
_default = DEFAULT_LANGUAGE


def check_language(lang: str) -> str:
    """`lang` itself when tourpad speaks it, else a `LanguageError` that says which it speaks."""
    if lang not in LANGUAGES:
        known = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
        raise LanguageError(f"tourpad does not speak {lang!r}: choose one of {known}")
    return lang


def language_from_tag(tag: str | None) -> str:
    """A browser's, phone's or POSIX locale tag → the language tourpad speaks for it: `fr-CA`, `fr_BE.UTF-8`
    and `fr` → French; anything else (or nothing) → English."""
    if not tag:
        return DEFAULT_LANGUAGE
    primary = tag.replace("_", "-").split(".")[0].split("@")[0].split("-")[0].strip().lower()
    return primary if primary in LANGUAGES else DEFAULT_LANGUAGE


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language a terminal asks for, as gettext reads it: the first of `LANGUAGE` (its first entry),
    `LC_ALL`, `LC_MESSAGES`, `LANG` that is set."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return language_from_tag(value.split(":")[0])
    return DEFAULT_LANGUAGE


def set_default_language(lang: str) -> None:
    """The process's language when nothing closer decides (the CLI's `--lang` / environment)."""
    global _default
    _default = check_language(lang)


def set_language_source(source: Callable[[], str | None] | None) -> None:
    """Install where the running application keeps the language of the work in hand (None when it has
    no opinion), e.g. the Flet app's current session. `None` removes it."""
    global _source
    _source = source


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak `lang` inside the block (this thread / task only)."""
    token = _chosen.set(check_language(lang))
    try:
        yield lang
    finally:
        _chosen.reset(token)


def current_language() -> str:
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    if _source is not None:
        with contextlib.suppress(Exception):  # a source asked outside its application's context
            asked = _source()
            if asked in LANGUAGES:
                return asked
    return _default


# --- message catalogs ------------------------------------------------------------------------------------

#: Every package's domain, by name: the catalog tests walk it.
DOMAINS: dict[str, Domain] = {}


class Domain:
    """One package's messages: `domain = Domain("printables", Path(__file__).parent / "locale")`, then
    `_ = domain.gettext`, `ngettext = domain.ngettext`. The marks `_("…")`, `ngettext("…", "…", n)`,
    `pgettext("context", "…")` and `N_("…")` are what `pybabel extract` collects."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name = name
        self.folder = folder
        DOMAINS[name] = self

    def po_file(self, lang: str) -> Path:
        return self.folder / lang / "LC_MESSAGES" / f"{self.name}.po"

    def mo_file(self, lang: str) -> Path:
        return self.po_file(lang).with_suffix(".mo")

    def catalog(self, lang: str | None = None) -> _gettext.NullTranslations:
        return _catalog(self.name, str(self.folder), lang or current_language())

    def gettext(self, message: str) -> str:
        return self.catalog().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self.catalog().pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.catalog().npgettext(context, singular, plural, n)


@cache
def _catalog(domain: str, folder: str, lang: str) -> _gettext.NullTranslations:
    if lang == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()  # English is the source text: nothing to look up
    try:
        with open(Path(folder) / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as mo:
            return _gettext.GNUTranslations(mo)
    except FileNotFoundError:  # a catalog not compiled: the tests say so; the user reads English
        return _gettext.NullTranslations()


def N_(message: str) -> str:
    """Marks a message to translate later (a module constant): `pybabel extract` collects it, and the
    code that shows it calls its domain's `_` on it then, in the language of that moment."""
    return message


#: A name's translations as edition and board data give them: ((language, text), ...).
Names = tuple[tuple[str, str], ...]


def localized(names: Names, english: str) -> str:
    """A name data gives per language (`(("fr", "Truites"),)`) in the language of the moment, else its
    English, which is also the key rules and records use."""
    language = current_language()
    for lang, text in names:
        if lang == language:
            return text
    return english


# --- numbers and dates, by Babel ---------------------------------------------------------------------------

def babel_locale(language: str) -> str:
    """The Babel locale that formats `language`'s numbers and dates."""
    return BABEL_LOCALES.get(language, language)


def _locale() -> str:
    return babel_locale(current_language())


def format_number(value: float | int) -> str:
    """A number as the language writes it (`1 234,5` in French, `1,234.5` in English)."""
    from babel.numbers import format_decimal  # Babel loads its locale data on first use

    return format_decimal(value, locale=_locale())


def format_percent(value: float, digits: int = 0) -> str:
    from babel.numbers import format_percent as babel_percent

    return babel_percent(value, format="#,##0" + ("." + "0" * digits if digits else "") + "%", locale=_locale())


def format_date(value: date | datetime, form: str = "medium") -> str:
    """A date as the language writes it: `24 Nov 2026` / `24 nov. 2026` (`form` is Babel's)."""
    from babel.dates import format_date as babel_date

    return babel_date(value, format=form, locale=_locale())


def format_datetime(value: datetime, form: str = "medium") -> str:
    from babel.dates import format_datetime as babel_datetime

    return babel_datetime(value, format=form, locale=_locale())


# --- keeping the catalogs (`make catalogs`; the catalog tests read the same extraction) ---------------------

def extract_messages(domain: Domain) -> dict[tuple[str, str | None], tuple[str, ...]]:
    """Every message the package's sources mark, keyed by (msgid, context), with its plural forms' ids."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    found: dict[tuple[str, str | None], tuple[str, ...]] = {}
    package = domain.folder.parent
    for _file, _line, message, _comments, context in extract_from_dir(
            str(package), method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS):
        ids = (message,) if isinstance(message, str) else tuple(message)
        found.setdefault((ids[0], context), ids)
    return found


#: Header lines Babel stamps with a date or a placeholder: left out, so `make catalogs` run twice writes the
#: same files and a catalog's diff shows only words.
UNSTABLE_HEADERS = ("POT-Creation-Date", "PO-Revision-Date", "Last-Translator", "Language-Team",
                    "Report-Msgid-Bugs-To")
#: The catalogs' lines are 100 characters wide at most.
WIDTH = ("--width", "100")


def update_catalogs(domain: Domain, languages: Iterable[str]) -> list[Path]:
    """Bring each language's catalog of `domain` in line with its package's sources, with Babel's own
    commands: `pybabel extract` collects the marked messages into a template, `pybabel update` adds new
    messages untranslated, drops gone ones and keeps the translations (a missing catalog is started). Then
    the header's dated lines go and its comment says what the file is."""
    import tempfile

    from babel.messages.frontend import CommandLineInterface

    pybabel = CommandLineInterface()
    updated = []
    with tempfile.TemporaryDirectory() as scratch:
        template = Path(scratch) / f"{domain.name}.pot"
        # no source locations: they would move with every edit of the code
        pybabel.run(["pybabel", "-q", "extract", "--no-location", *WIDTH, "--project", "tourpad", "--version", "",
                     "-o", str(template), str(domain.folder.parent)])
        for lang in languages:
            pybabel.run(["pybabel", "-q", "update", *WIDTH, "--input-file", str(template),
                         "--domain", domain.name, "--output-dir", str(domain.folder), "--locale", lang,
                         "--no-fuzzy-matching", "--ignore-obsolete", "--init-missing"])
            po = domain.po_file(lang)
            comment = (f"# The words of tourpad's `{domain.name}` package in language `{lang}` (gettext domain"
                       f" `{domain.name}`).\n# `make catalogs` adds new messages (empty, to translate) and drops"
                       " gone ones.")
            lines = po.read_text(encoding="utf-8").split("\n")
            body = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))  # Babel's comment out
            kept = [line for line in lines[body:] if not line.startswith(tuple(f'"{k}:' for k in UNSTABLE_HEADERS))]
            po.write_text("\n".join([comment, *kept]), encoding="utf-8")
            updated.append(po)
    return updated


def compiled_catalog(po: Path) -> bytes:
    """A `.po` compiled to the `.mo` gettext reads. Fuzzy entries are left out (they read in English).
    Babel's own %-format check is not run: tourpad's messages use named braces, which the catalog tests
    check, and a "95%" in a sentence is not a placeholder."""
    import datetime
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    # the same .po, the same .mo: Babel stamps a catalog without a creation date with the current minute, which
    # would make every `tourpad publish` a new wheel (and every phone download it again)
    catalog.creation_date = catalog.revision_date = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_catalog(po: Path) -> Path:
    """The `.mo` beside a `.po` (what the install and `make catalogs` write)."""
    mo = po.with_suffix(".mo")
    mo.write_bytes(compiled_catalog(po))
    return mo


def _import_domains() -> None:
    import importlib

    for package in ("rules", "printables", "scorer"):
        importlib.import_module(f"{package}.locale")


def main(argv: list[str] | None = None) -> int:
    """`python -m rules.i18n update`: every domain's catalogs brought in line with the sources;
    `python -m rules.i18n compile PO...`: their `.mo` files."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["compile"] and len(args) > 1:
        for po in args[1:]:
            compile_catalog(Path(po))
        return 0
    if args != ["update"]:
        print("usage: python -m rules.i18n update | compile PO...", file=sys.stderr)
        return 2
    _import_domains()
    for domain in DOMAINS.values():
        for po in update_catalogs(domain, [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]):
            print(po)
    return 0


if __name__ == "__main__":  # run as a script: use the imported module, where the domains register
    from rules.i18n import main as registered_main

    raise SystemExit(registered_main())
