"""Editions on this device: the bundled ones plus deck packs an owner imported (`tourpad deck import`).

Packs live as TOML files in the user data folder; each is validated exactly like a bundled edition.
"""

from __future__ import annotations

import os
from pathlib import Path

import tomli_w
from platformdirs import user_data_dir

from rules.edition import Edition
from rules.editions import bundled_ids, edition_from_text, load_edition
from rules.model import EditionDataError
from rules.text import PACK_NAME_LENGTH, TextError, clean_name
from scorer.locale import _
from scorer.userfile import read_user_text


def data_dir() -> Path:
    """The user data folder (override with TOURPAD_DATA_DIR, as the tests do)."""
    path = Path(os.environ.get("TOURPAD_DATA_DIR") or user_data_dir("tourpad", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def packs_dir() -> Path:
    path = data_dir() / "packs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def pack_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in packs_dir().glob("*.toml")))


def available_editions() -> tuple[str, ...]:
    return bundled_ids() + tuple(p for p in pack_ids() if p not in bundled_ids())


def resolve_edition(edition_id: str) -> Edition:
    """A bundled edition, or an imported pack of that id; KeyError lists what is available."""
    if edition_id in bundled_ids():
        return load_edition(edition_id)
    path = packs_dir() / f"{edition_id}.toml"
    if path.is_file():
        return edition_from_text(path.read_text(encoding="utf-8"), "toml")
    raise KeyError(_("unknown edition {edition!r}; available: {editions}").format(
        edition=edition_id, editions=", ".join(available_editions())))


def read_pack(path: Path) -> Edition:
    """Validate a pack file (TOML or JSON, by extension) without installing it. A file that is no text
    raises UserFileError, a pack that is not valid EditionDataError."""
    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    edition = edition_from_text(read_user_text(path, _("a deck pack")), fmt)
    check_pack_name(edition.name, path, EditionDataError)
    return edition


def check_pack_name(name: str, path: Path, error: type[Exception]) -> None:
    """A pack's name, typed by its owner, goes through the one name check (rules.text)."""
    try:
        clean_name(name, _("the pack's name"), longest=PACK_NAME_LENGTH)
    except TextError as err:
        raise error(_("{file}: name: {error}").format(file=path.name, error=err)) from None


def import_pack(path: Path) -> Edition:
    """Validate, then store the pack (atomically) under its id; bundled ids cannot be replaced."""
    edition = read_pack(path)
    if edition.id in bundled_ids():
        raise EditionDataError(_("id {id!r} is a bundled edition; give the pack its own id (e.g. "
                                 "\"{id}-mine\") and set base = \"{id}\"").format(id=edition.id))
    target = packs_dir() / f"{edition.id}.toml"
    tmp = target.with_suffix(".tmp")
    tmp.write_text(export_text(edition, "toml"), encoding="utf-8")
    os.replace(tmp, target)
    return edition


def export_text(edition: Edition, fmt: str = "toml") -> str:
    data = edition.spec.model_dump(mode="json", exclude_none=True)
    if fmt == "json":
        import json

        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return tomli_w.dumps(data)


# --- Race Around Europe board packs (an owner's recolouring of tourpad's board) ---------------------------


def board_packs_dir() -> Path:
    path = data_dir() / "boards"
    path.mkdir(parents=True, exist_ok=True)
    return path


def board_ids() -> tuple[str, ...]:
    return ("tourpad", *sorted(p.stem for p in board_packs_dir().glob("*.toml")))


def resolve_board(board_id: str = "tourpad"):
    """tourpad's board, or an imported board pack of that id; KeyError lists what is available."""
    from rules.race.board import board_pack_from_text, load_board

    if board_id == "tourpad":
        return load_board()
    path = board_packs_dir() / f"{board_id}.toml"
    if path.is_file():
        return board_pack_from_text(path.read_text(encoding="utf-8"))
    raise KeyError(_("unknown board {board!r}; available: {boards}").format(board=board_id,
                                                                           boards=", ".join(board_ids())))


def read_board_pack(path: Path):
    """Validate a board pack (TOML or JSON, by extension) against tourpad's board, without installing it. A
    file that is no text raises UserFileError, a pack that is not valid BoardDataError."""
    from rules.race.board import BoardDataError, board_pack_from_text

    fmt = "json" if path.suffix.lower() == ".json" else "toml"
    text = read_user_text(path, _("a board pack"))
    board = board_pack_from_text(text, fmt)
    check_pack_name(board.name, path, BoardDataError)
    return board, text, fmt


def import_board_pack(path: Path):
    """Validate, then store the pack (atomically, as TOML) under its id."""
    from rules.race.board import decode

    board, text, fmt = read_board_pack(path)
    target = board_packs_dir() / f"{board.id}.toml"
    tmp = target.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(decode(text, fmt)), encoding="utf-8")
    os.replace(tmp, target)
    return board
