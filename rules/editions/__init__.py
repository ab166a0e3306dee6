"""The editions bundled with tourpad, and deck packs an owner imports (validated like the bundled ones)."""

from __future__ import annotations

import json
import tomllib
from functools import cache
from importlib import resources

from rules.edition import Edition, compile_edition
from rules.model import EditionDataError, parse_edition

BUNDLED = ("australia", "europe", "usa")


def decode_document(text: str, fmt: str) -> dict:
    """Decode a TOML or JSON edition document; a syntax error becomes an EditionDataError."""
    try:
        return tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise EditionDataError(f"not valid {fmt.upper()}: {err}") from None


def edition_from_text(text: str, fmt: str = "toml") -> Edition:
    return compile_edition(parse_edition(decode_document(text, fmt)))


def bundled_ids() -> tuple[str, ...]:
    folder = resources.files(__name__)
    return tuple(e for e in BUNDLED if folder.joinpath(f"{e}.toml").is_file())


@cache
def load_edition(edition_id: str) -> Edition:
    """A bundled edition by id (australia, europe, usa)."""
    if edition_id not in bundled_ids():
        raise KeyError(f"unknown edition {edition_id!r}; choose one of {', '.join(bundled_ids())}")
    text = resources.files(__name__).joinpath(f"{edition_id}.toml").read_text(encoding="utf-8")
    return edition_from_text(text, "toml")
