"""Editions on this device: the bundled ones plus deck packs an owner imported (`tourpad deck import`).

Packs live as TOML files in the user data folder; each is validated exactly like a bundled edition.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import tomli_w
from platformdirs import user_data_dir

from rules.edition import Edition
from rules.editions import bundled_ids, edition_from_document, load_edition
from rules.model import EditionDataError
from rules.text import PACK_ID_LENGTH, PACK_NAME_LENGTH, TextError, clean_name
from scorer.locale import _
from scorer.userfile import (
    TEXT_LIMIT,
    UserFileError,
    document_format,
    parse_user_document,
    read_user_bytes,
    read_user_document,
    shown,
)

#: What a pack's id may be (rules.model's EditionSpec and rules.race.board's BoardPackSpec say the same).
PACK_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")


def data_dir(create: bool = True) -> Path:
    """The user data folder (override with TOURPAD_DATA_DIR, as the tests do); `create=False` for a command that
    only reads, which must leave the disk as it found it."""
    path = Path(os.environ.get("TOURPAD_DATA_DIR") or user_data_dir("tourpad", appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def data_subfolder(name: str, create: bool = False) -> Path:
    """A folder of the data folder (packs, boards, scan-templates). Reading needs it not to exist yet (it then
    holds nothing); writing creates it, and a folder that cannot be (the data folder under a file, no
    permission) ends in a UserFileError naming it, on one line."""
    path = data_dir(create=False) / name
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UserFileError(_("cannot create the folder {folder}: {error}").format(
                folder=shown(path), error=err.strerror or err)) from None
    return path


def packs_dir(create: bool = False) -> Path:
    return data_subfolder("packs", create)


def _installed(folder: Path, ident: str) -> Path | None:
    """The installed pack of that id, if there is one. An id a pack cannot have (too long, a path, a control
    character) is never looked up on disk: it is simply unknown."""
    if len(ident) > PACK_ID_LENGTH or not PACK_ID.fullmatch(ident):
        return None
    path = folder / f"{ident}.toml"
    return path if path.is_file() else None


def pack_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in packs_dir().glob("*.toml")))


def available_editions() -> tuple[str, ...]:
    return bundled_ids() + tuple(p for p in pack_ids() if p not in bundled_ids())


def resolve_edition(edition_id: str) -> Edition:
    """A bundled edition, or an imported pack of that id; KeyError lists what is available. An installed pack
    that cannot be read back raises EditionDataError."""
    if edition_id in bundled_ids():
        return load_edition(edition_id)
    path = _installed(packs_dir(), edition_id)
    if path is not None:
        try:
            return edition_from_document(read_user_document(path, _("a deck pack"), "toml"))
        except UserFileError as err:
            raise EditionDataError(str(err)) from None
    raise KeyError(_("unknown edition {edition!r}; available: {editions}").format(
        edition=edition_id, editions=", ".join(available_editions())))


def read_pack(path: Path) -> Edition:
    """Validate a pack file (TOML or JSON, by extension) without installing it: what `deck check` says is valid,
    `deck import` installs. A file that is no document raises UserFileError, a pack that is not valid
    EditionDataError."""
    return pack_from_data(read_user_bytes(path, _("a deck pack"), TEXT_LIMIT), path)


def pack_from_data(data: bytes, name: object) -> Edition:
    """A deck pack from a file's bytes (`name` is the file as shown in messages; its extension picks JSON or
    TOML), validated whole: the bundled reader (rules.editions), its name, and an id of its own."""
    fmt = document_format(str(name))
    edition = edition_from_document(parse_user_document(data, name, _("a deck pack"), fmt), fmt)
    check_pack_name(edition.name, name, EditionDataError)
    if edition.id in bundled_ids():
        raise EditionDataError(_("id {id!r} is a bundled edition; give the pack its own id (e.g. "
                                 "\"{id}-mine\") and set base = \"{id}\"").format(id=edition.id))
    return edition


def check_pack_name(name: str, path: object, error: type[Exception]) -> None:
    """A pack's name, typed by its owner, goes through the one name check (rules.text)."""
    try:
        clean_name(name, _("the pack's name"), longest=PACK_NAME_LENGTH)
    except TextError as err:
        raise error(_("{file}: name: {error}").format(file=shown(Path(str(path)).name), error=err)) from None


def import_pack(path: Path) -> Edition:
    """Validate, then store the pack (atomically) under its id; bundled ids cannot be replaced."""
    return install_pack(read_pack(path))


def install_pack(edition: Edition) -> Edition:
    """Store a validated pack (read_pack, pack_from_data) atomically under its id."""
    target = packs_dir(create=True) / f"{edition.id}.toml"
    _write_atomically(target, export_text(edition, "toml"))
    return edition


def _write_atomically(target: Path, text: str) -> None:
    tmp = target.with_suffix(".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except OSError as err:
        raise UserFileError(_("cannot write {path}: {error}").format(path=shown(target),
                                                                     error=err.strerror or err)) from None


def export_text(edition: Edition, fmt: str = "toml") -> str:
    data = edition.spec.model_dump(mode="json", exclude_none=True)
    if fmt == "json":
        import json

        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return tomli_w.dumps(data)


# --- Race Around Europe board packs (an owner's recolouring of tourpad's board) ---------------------------


def board_packs_dir(create: bool = False) -> Path:
    return data_subfolder("boards", create)


def board_ids() -> tuple[str, ...]:
    return ("tourpad", *sorted(p.stem for p in board_packs_dir().glob("*.toml")))


def resolve_board(board_id: str = "tourpad"):
    """tourpad's board, or an imported board pack of that id; KeyError lists what is available. An installed
    pack that cannot be read back raises BoardDataError."""
    from rules.race.board import BoardDataError, board_pack_from_document, load_board

    if board_id == "tourpad":
        return load_board()
    path = _installed(board_packs_dir(), board_id)
    if path is not None:
        try:
            return board_pack_from_document(read_user_document(path, _("a board pack"), "toml"))
        except UserFileError as err:
            raise BoardDataError(str(err)) from None
    raise KeyError(_("unknown board {board!r}; available: {boards}").format(board=board_id,
                                                                           boards=", ".join(board_ids())))


def read_board_pack(path: Path):
    """Validate a board pack (TOML or JSON, by extension) against tourpad's board, without installing it: the
    board and the document it came from. A file that is no document raises UserFileError, a pack that is not
    valid BoardDataError."""
    from rules.race.board import BoardDataError, board_pack_from_document

    doc = read_user_document(path, _("a board pack"), document_format(path))
    board = board_pack_from_document(doc)
    check_pack_name(board.name, path, BoardDataError)
    return board, doc


def import_board_pack(path: Path):
    """Validate, then store the pack (atomically, as TOML) under its id."""
    board, doc = read_board_pack(path)
    _write_atomically(board_packs_dir(create=True) / f"{board.id}.toml", tomli_w.dumps(doc))
    return board
