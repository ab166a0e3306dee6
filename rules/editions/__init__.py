"""The editions bundled with tourpad, and deck packs an owner imports (validated like the bundled ones)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from functools import cache
from importlib import resources

from rules.edition import Edition, compile_edition
from rules.locale import _
from rules.model import EditionDataError, parse_edition

BUNDLED = ("australia", "europe", "usa")


def decode_document(text: str, fmt: str) -> dict:
    """Decode a TOML or JSON edition document; a syntax error becomes an EditionDataError."""
    try:
        doc = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise EditionDataError(_("not valid {format}: {error}").format(format=fmt.upper(), error=err)) from None
    return _edition_table(doc, fmt)


def _edition_table(doc: object, fmt: str) -> dict:
    if not isinstance(doc, dict):
        raise EditionDataError(_("an edition or deck pack is one {format} table of fields "
                                 "(id, name, regions, cards, …), not a list or a single value").format(
            format=fmt.upper()))
    return doc


#: What a deck pack inherits from the bundled edition it names as `base`: the rules, not the cards.
RULE_FIELDS = ("site_noun", "throw_catch", "tie_breakers", "collection", "pairs", "choice", "route")
#: The parts of an inherited field that are its rules; a pack that restates them must agree with its base.
RULE_KEYS = {"throw_catch": None, "tie_breakers": None, "collection": ("rule",), "choice": ("rule", "table",
             "per_icon_by_players"), "route": ("kind", "tiers", "last_tier_min_players", "last_tier_repeats")}


def with_base_rules(doc: dict) -> dict:
    """A pack naming `base = "europe"` (etc.) gets that edition's rules for every rule field it leaves out.

    Owners of the real cards then type only what is on their cards: regions, cards and (USA) the map.
    Inherited icon families drop tourpad's own `count`s, which describe tourpad's deck, not theirs. A pack
    that restates a rule must restate it as its base has it, since `base` promises those rules.
    """
    base_id = doc.get("base")
    if base_id is None:
        return doc
    if base_id not in bundled_ids():
        raise EditionDataError(_("base: {base} is not an edition tourpad knows; use one of {editions}").format(
            base=repr(base_id), editions=", ".join(bundled_ids())))
    base = load_edition(base_id).spec.model_dump(mode="json", exclude_none=True)
    merged = dict(doc)
    merged.setdefault("provenance", "owner")
    for key in RULE_FIELDS:
        if key not in base:
            continue
        if key not in merged:
            value = base[key]
            if key in ("collection", "pairs", "choice"):
                value = {**value, "icons": [{k: v for k, v in icon.items() if k != "count"}
                                            for icon in value["icons"]]}
            merged[key] = value
            continue
        _check_same_rule(key, merged[key], base[key], base_id)
    if "site_noun" not in doc and "site_nouns" not in doc and "site_nouns" in base:
        merged["site_nouns"] = base["site_nouns"]  # the base's site noun, so its other languages' too
    return merged


def _check_same_rule(key: str, given: object, expected: object, base_id: str) -> None:
    if key not in RULE_KEYS:
        return
    parts = RULE_KEYS[key]
    if parts is None:
        if given != expected:
            raise EditionDataError(_differs(key, given, base_id, expected))
        return
    if not isinstance(given, dict) or not isinstance(expected, dict):
        return
    for part in parts:
        if part not in given:
            continue
        mine, theirs = given[part], expected.get(part)
        if part == "per_icon_by_players" and isinstance(mine, dict):
            mine = {str(k): v for k, v in mine.items()}
        if mine != theirs:
            raise EditionDataError(_differs(f"{key}.{part}", mine, base_id, theirs))


def _differs(field: str, given: object, base_id: str, expected: object) -> str:
    return _("{field}: {given} differs from {base}'s rule {expected}; leave it out to use {base}'s, "
             "or drop `base`").format(field=field, given=repr(given), base=base_id, expected=repr(expected))


def edition_from_text(text: str, fmt: str = "toml") -> Edition:
    return compile_edition(parse_edition(with_base_rules(decode_document(text, fmt))))


def edition_from_document(doc: object, fmt: str = "toml") -> Edition:
    """An edition from a document already decoded (by the caller's bounded reader of a person's file)."""
    return compile_edition(parse_edition(with_base_rules(_edition_table(doc, fmt))))


def deck_version(edition: Edition) -> str:
    """A deck's version: a short hash of everything it holds (cards, regions, map, rules), the same on every
    device for the same deck, and different as soon as one fact of it changes. A game keeps the version it
    was scored with, so a later edit of the deck is never mistaken for the deck the game was played with."""
    text = json.dumps(edition.spec.model_dump(mode="json", exclude_none=True), sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def deck_document(edition: Edition) -> dict:
    """Everything a deck holds, as plain JSON: what a saved game keeps of the deck it was played with."""
    return edition.spec.model_dump(mode="json", exclude_none=True)


def edition_as_saved(doc: object) -> Edition:
    """A deck as a game saved it (`deck_document`), checked by the same rules as any edition, but not
    merged with its base again: the game is scored with exactly the deck it was played with."""
    return compile_edition(parse_edition(_edition_table(doc, "json")))


def bundled_ids() -> tuple[str, ...]:
    folder = resources.files(__name__)
    return tuple(e for e in BUNDLED if folder.joinpath(f"{e}.toml").is_file())


@cache
def load_edition(edition_id: str) -> Edition:
    """A bundled edition by id (australia, europe, usa)."""
    if edition_id not in bundled_ids():
        raise KeyError(_("unknown edition {edition}; choose one of {editions}").format(
            edition=repr(edition_id), editions=", ".join(bundled_ids())))
    text = resources.files(__name__).joinpath(f"{edition_id}.toml").read_text(encoding="utf-8")
    return edition_from_text(text, "toml")
