"""Reading a file a person names (a game record, a deck or board pack, a photo): one place for the size cap,
the decoding and a message that names the file and its problem in one line.

Anything a person hands us may be empty, binary, huge, a folder or saved in another encoding; each ends
in a UserFileError whose message says which file and what is wrong with it, never a traceback.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from rules.i18n import format_number
from scorer.locale import _

#: A game record or a pack is a few kilobytes; a megabyte is far more than any real one.
TEXT_LIMIT = 1_000_000
#: A phone photo is a few megabytes; the scanner shrinks the pixels of a huge one (scorer.scan).
IMAGE_LIMIT = 40_000_000


class UserFileError(ValueError):
    """A file we cannot use; the message names the file and the problem, on one line."""


def _size_text(size: int) -> str:
    if size >= 1_000_000:
        return _("{size} MB").format(size=format_number(round(size / 1_000_000, 1)))
    return _("{size} bytes").format(size=format_number(size))


def read_user_bytes(path: Path, what: str, limit: int) -> bytes:
    """The file's bytes, or UserFileError: missing, a folder, unreadable, empty, or over `limit` bytes."""
    try:
        if path.is_dir():
            raise UserFileError(_("{path} is a folder, not {what}").format(path=path, what=what))
        with path.open("rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        raise UserFileError(_("cannot read {path}: no such file").format(path=path)) from None
    except OSError as err:
        raise UserFileError(_("cannot read {path}: {error}").format(path=path, error=err.strerror or err)) from None
    if not data:
        raise UserFileError(_("{path} is empty, not {what}").format(path=path, what=what))
    if len(data) > limit:
        raise UserFileError(_("{path} is larger than {size}: too large for {what}").format(
            path=path, size=_size_text(limit), what=what))
    return data


_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)


def read_user_text(path: Path, what: str, limit: int = TEXT_LIMIT) -> str:
    """The file as UTF-8 text (a leading byte-order mark is dropped), or UserFileError naming the file and
    why it is not text: binary (NUL bytes), UTF-16/32, or bytes that are not UTF-8."""
    data = read_user_bytes(path, what, limit)
    if data.startswith(_UTF16_BOMS):
        raise UserFileError(_("{path} is saved as UTF-16 or UTF-32 text; save it as UTF-8 and try again").format(
            path=path))
    if b"\x00" in data:
        raise UserFileError(_("{path} is a binary file (it contains NUL bytes), not {what}").format(
            path=path, what=what))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UserFileError(_("{path} is not UTF-8 text (byte {n} is not valid UTF-8), not {what}").format(
            path=path, n=err.start + 1, what=what)) from None
