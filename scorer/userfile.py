"""Reading a file a person names (a game record, a deck or board pack, a photo): one place for the size cap,
the decoding and a message that names the file and its problem in one line.

Anything a person hands us may be empty, binary, huge, a folder or saved in another encoding; each ends
in a UserFileError whose message says which file and what is wrong with it, never a traceback.
"""

from __future__ import annotations

import codecs
import json
import re
import tomllib
import unicodedata
from pathlib import Path

from rules.i18n import format_number
from scorer.locale import _

#: A game record or a pack is a few kilobytes; a megabyte is far more than any real one.
TEXT_LIMIT = 1_000_000
#: A phone photo is a few megabytes; the scanner shrinks the pixels of a huge one (scorer.scan.image).
IMAGE_LIMIT = 40_000_000


class UserFileError(ValueError):
    """A file we cannot use; the message names the file and the problem, on one line."""


#: Characters that draw nothing or drive the terminal: controls (ESC starts an escape sequence), format
#: characters (bidirectional overrides reorder a line), lone surrogates (an undecodable byte in a file name),
#: private-use and unassigned code points, line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def shown(name: object) -> str:
    """A file name, path or other text a person typed, safe to print: every character of _HIDDEN_CATEGORIES
    becomes its Python escape (ESC as \\x1b, a newline as \\n, U+202E as \\u202e), so a name cannot move
    the cursor, recolour the terminal, reorder or split the line it is printed on. Letters of any script,
    accents and spaces are shown as they are."""
    text = str(name)
    if all(unicodedata.category(ch) not in _HIDDEN_CATEGORIES for ch in text):
        return text
    return "".join(ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                   if unicodedata.category(ch) in _HIDDEN_CATEGORIES else ch for ch in text)


def _size_text(size: int) -> str:
    if size >= 1_000_000:
        return _("{size} MB").format(size=format_number(round(size / 1_000_000, 1)))
    return _("{size} bytes").format(size=format_number(size))


def read_user_bytes(path: Path, what: str, limit: int) -> bytes:
    """The file's bytes, or UserFileError: missing, a folder, unreadable, empty, or over `limit` bytes."""
    try:
        if path.is_dir():
            raise UserFileError(_("{path} is a folder, not {what}").format(path=shown(path), what=what))
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        raise UserFileError(_("cannot read {path}: no such file").format(path=shown(path))) from None
    except OSError as err:
        raise UserFileError(_("cannot read {path}: {error}").format(path=shown(path),
                                                                    error=err.strerror or err)) from None
    check_user_bytes(data, path, what, limit)
    return data


def check_user_bytes(data: bytes, name: object, what: str, limit: int) -> None:
    """UserFileError, naming the file, when its bytes are none or more than `limit` (a file the app was handed)."""
    if not data:
        raise UserFileError(_("{path} is empty, not {what}").format(path=shown(name), what=what))
    if len(data) > limit:
        raise UserFileError(_("{path} is larger than {size}: too large for {what}").format(
            path=shown(name), size=_size_text(limit), what=what))


_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)


def decode_user_text(data: bytes, name: object, what: str) -> str:
    """`data` as UTF-8 text (a leading byte-order mark is dropped), or UserFileError naming `name` and why it is
    not text: binary (NUL bytes), UTF-16/32, or bytes that are not UTF-8."""
    shown_name = shown(name)
    if data.startswith(_UTF16_BOMS):
        raise UserFileError(_("{path} is saved as UTF-16 or UTF-32 text; save it as UTF-8 and try again").format(
            path=shown_name))
    if b"\x00" in data:
        raise UserFileError(_("{path} is a binary file (it contains NUL bytes), not {what}").format(
            path=shown_name, what=what))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserFileError(_("{path} is not UTF-8 text (byte {n} is not valid UTF-8), not {what}").format(
            path=shown_name, n=err.start + 1, what=what)) from None


def read_user_text(path: Path, what: str, limit: int = TEXT_LIMIT) -> str:
    """The file as UTF-8 text, or UserFileError naming the file and why it is not (see decode_user_text)."""
    return decode_user_text(read_user_bytes(path, what, limit), path, what)


# --- documents: JSON and TOML, bounded before the parsers see them ------------------------------------------

#: A pack or a record nests four or five levels (a table, its list of cards, a card, its icons); the parsers
#: recurse once per level, so a file nested thousands deep would end in a RecursionError.
MAX_DEPTH = 40
#: No number in a pack, a record or a backup has more than a few digits; Python refuses to turn more than
#: 4,300 into an int (a ValueError from inside the parser), and a long one is costly to convert anyway.
MAX_NUMBER_DIGITS = 100

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|[0-9][0-9_]*', re.DOTALL)
# TOML: strings (multi-line first) and comments are skipped, so a "[" or a digit inside them counts for nothing
_TOML_TOKENS = re.compile(r'"""(?:[^\\]|\\.)*?"""""?|\'\'\'.*?\'\'\'\'?\'?|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
                          r'|#[^\n]*|[\[\]{}]|[0-9][0-9_]*', re.DOTALL)


def _check_bounds_in_text(text: str, fmt: str, name: object, what: str) -> None:
    """Refuse, before parsing, brackets nested deeper than MAX_DEPTH and numbers longer than MAX_NUMBER_DIGITS
    (outside strings and comments): the two things on which json and tomllib recurse or raise a bare error."""
    depth = 0
    for token in (_JSON_TOKENS if fmt == "json" else _TOML_TOKENS).finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(name, what)
        elif first in "]}":
            depth = max(depth - 1, 0)
        elif first.isdigit() and len(token.group().replace("_", "")) > MAX_NUMBER_DIGITS:
            raise _too_long_number(name, what)


def _check_bounds_in_document(doc: object, name: object, what: str) -> None:
    """The same bounds over the parsed document: TOML's dotted keys and table headers (`[a.b.c…]`) nest without
    brackets, and a hexadecimal integer is not a run of decimal digits. Iterative: no recursion to overflow."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise _too_deep(name, what)
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
        elif isinstance(value, int) and value.bit_length() > MAX_NUMBER_DIGITS * 10 // 3:
            raise _too_long_number(name, what)


def _too_deep(name: object, what: str) -> UserFileError:
    return UserFileError(_("{path} is not {what}: it is nested more than {depth} levels deep").format(
        path=shown(name), what=what, depth=MAX_DEPTH))


def _too_long_number(name: object, what: str) -> UserFileError:
    return UserFileError(_("{path} is not {what}: it holds a number of more than {digits} digits").format(
        path=shown(name), what=what, digits=MAX_NUMBER_DIGITS))


def parse_user_document(data: bytes, name: object, what: str, fmt: str, limit: int = TEXT_LIMIT) -> object:
    """A JSON or TOML document (`fmt`) from the bytes of a file a person chose (`name`, as shown in messages):
    UserFileError, naming it on one line, for anything over `limit` bytes, not UTF-8 text, nested deeper than
    MAX_DEPTH, holding a number longer than MAX_NUMBER_DIGITS, or not valid JSON / TOML. Used for the files the
    app is handed (a picked file's bytes) and, through read_user_document, those the command line reads."""
    check_user_bytes(data, name, what, limit)
    text = decode_user_text(data, name, what)
    _check_bounds_in_text(text, fmt, name, what)
    try:
        doc = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise UserFileError(_("{path} is not valid {format}: {error}").format(
            path=shown(name), format=fmt.upper(), error=err)) from None
    _check_bounds_in_document(doc, name, what)
    return doc


def read_user_document(path: Path, what: str, fmt: str, limit: int = TEXT_LIMIT) -> object:
    """The file's JSON or TOML document, bounded as parse_user_document says, or UserFileError."""
    return parse_user_document(read_user_bytes(path, what, limit), path, what, fmt, limit)


def document_format(path: Path | str) -> str:
    """A pack is JSON when its name ends in .json, TOML otherwise (the template's format)."""
    return "json" if str(path).lower().endswith(".json") else "toml"
