"""Editions on this device: the bundled ones plus deck packs an owner imported (`tourpad deck import`).

Packs live as TOML files in the user data folder; each is validated exactly like a bundled edition.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path

import tomli_w
from platformdirs import user_data_dir

from rules.edition import Edition
from rules.editions import bundled_ids, edition_from_document, load_edition
from rules.model import EditionDataError, check_new_deck
from rules.text import PACK_ID_LENGTH, PACK_NAME_LENGTH, TextError, clean_name
from scorer.locale import N_, _
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
    return new_pack_from_document(parse_user_document(data, name, _("a deck pack"), fmt), name, fmt)


def new_pack_from_document(doc: object, name: object, fmt: str = "json") -> Edition:
    """A deck pack about to be installed or checked (a file's, a link's, the deck editor's draft), held to
    every rule `tourpad deck check` applies: `pack_from_document`'s and those a new deck must meet
    (`rules.model.check_new_deck`: USA's map connected coast to coast)."""
    edition = pack_from_document(doc, name, fmt)
    check_new_deck(edition.spec)
    return edition


def pack_from_document(doc: object, name: object, fmt: str = "json") -> Edition:
    """A deck pack from a decoded document, checked as a deck read back is (a backup's decks): the edition's
    rules (rules.editions, rules.model), its name, an id of its own."""
    edition = edition_from_document(doc, fmt)
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
    """Validate, then store the pack (atomically) under its id; bundled ids cannot be replaced. The version
    it replaces stays kept for the games played with it (`save_deck`)."""
    return save_deck(read_pack(path))


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


# --- decks: which cards a game is scored with, and an owner's decks over time ----------------------------

#: What a game's deck line says, by the deck's provenance (`rules.model.EditionSpec.provenance`): the
#: publisher's list is the real cards; tourpad's own design is not the boxed game's, and says so.
DECK_LINES = {"tourpad": N_("Cards: tourpad's print-and-play cards (not the boxed game's)"),
              "owner": N_("Your deck: {name}")}


def deck_line(edition: Edition) -> str | None:
    """The line that names the cards a game of this edition is scored with; None for the publisher's list."""
    line = DECK_LINES.get(edition.provenance)
    return None if line is None else _(line).format(name=edition.label)


def own_decks(base: str) -> tuple[Edition, ...]:
    """The installed decks that follow `base`'s rules (an owner's Europe or USA box), by name. A pack that
    cannot be read back is left out here; opening it by id says what is wrong with it."""
    decks = []
    for ident in pack_ids():
        try:
            edition = resolve_edition(ident)
        except (KeyError, EditionDataError):
            continue
        if edition.base == base and edition.id != base:
            decks.append(edition)
    return tuple(sorted(decks, key=lambda e: e.label.casefold()))


def installed_decks() -> tuple[Edition, ...]:
    """Every deck pack installed here that can be read back, by name."""
    decks = []
    for ident in pack_ids():
        with contextlib.suppress(KeyError, EditionDataError):
            decks.append(resolve_edition(ident))
    return tuple(sorted(decks, key=lambda e: e.label.casefold()))


def deck_versions_dir(create: bool = False) -> Path:
    return data_subfolder("deck-versions", create)


def _version_path(ident: str, version: str) -> Path:
    return deck_versions_dir() / f"{ident}@{version}.json"


def keep_version(edition: Edition) -> None:
    """Keep this version of an owner's deck, so a record scored with it scores the same after the deck is
    edited, renamed or deleted (`resolve_deck`)."""
    from rules.editions import deck_version

    target = deck_versions_dir(create=True) / f"{edition.id}@{deck_version(edition)}.json"
    if not target.is_file():
        import json

        _write_atomically(target, json.dumps(deck_document(edition), ensure_ascii=False, sort_keys=True))


def deck_document(edition: Edition) -> dict:
    from rules.editions import deck_document as document

    return document(edition)


def resolve_deck(ident: str, version: str | None) -> tuple[Edition, bool]:
    """The deck `ident` at `version` (None: as installed), and whether it is that very version: the version
    kept when it was played (`keep_version`), else the installed one (False when it differs). KeyError
    when no deck of that id is on this device."""
    from rules.editions import deck_version, edition_as_saved

    try:
        installed: Edition | None = resolve_edition(ident)
    except KeyError:
        installed = None
    if installed is not None and (version is None or deck_version(installed) == version):
        return installed, True
    if version is not None and PACK_ID.fullmatch(ident) and len(ident) <= PACK_ID_LENGTH:
        path = _version_path(ident, version)
        if re.fullmatch(r"[0-9a-f]{12}", version) and path.is_file():
            try:
                return edition_as_saved(read_user_document(path, _("a deck pack"), "json")), True
            except (UserFileError, EditionDataError):
                pass  # a damaged kept version: the installed deck, said to differ
    if installed is None:
        raise KeyError(ident)
    return installed, False


def save_deck(edition: Edition) -> Edition:
    """Install an owner's deck (new, or edited: the version it replaces is kept for the games played with
    it) and keep this version too."""
    try:
        previous = resolve_edition(edition.id) if edition.id not in bundled_ids() else None
    except (KeyError, EditionDataError):
        previous = None
    if previous is not None:
        keep_version(previous)
    install_pack(edition)
    keep_version(edition)
    return edition


def _edited(edition: Edition, **changes: object) -> Edition:
    from rules.editions import edition_as_saved

    return edition_as_saved({**deck_document(edition), **changes})


def rename_deck(ident: str, name: str) -> Edition:
    """Give an installed deck another name (its id, and so the games that name it, stay)."""
    try:
        cleaned = clean_name(name, _("the deck's name"), longest=PACK_NAME_LENGTH)
    except TextError as err:
        raise EditionDataError(str(err)) from None
    return save_deck(_edited(resolve_edition(ident), name=cleaned, names={}))


def free_pack_id(stem: str) -> str:
    """An id no installed deck or bundled edition has: `stem`, else `stem-2`, `stem-3`…"""
    taken = set(available_editions())
    stem = stem[:PACK_ID_LENGTH - 4]
    if stem not in taken:
        return stem
    return next(f"{stem}-{n}" for n in range(2, 1000) if f"{stem}-{n}" not in taken)


def duplicate_deck(ident: str) -> Edition:
    """A copy of a deck (tourpad's or an owner's) under a new id, to change what differs on one's own cards."""
    source = resolve_edition(ident)
    base = source.base if source.base else source.id
    name = _("{name} (copy)").format(name=source.label)[:PACK_NAME_LENGTH]
    doc = deck_document(source)
    families = {role: {**doc[role], "icons": [{k: v for k, v in icon.items() if k != "count"}
                                              for icon in doc[role]["icons"]]}
                for role in ("collection", "pairs", "choice")}  # counts describe tourpad's deck, not the owner's
    copy = _edited(source, id=free_pack_id(f"{base}-mine" if source.id in bundled_ids() else source.id),
                   name=name, names={}, provenance="owner", base=base, **families)
    return save_deck(copy)


def delete_deck(ident: str) -> None:
    """Remove an installed deck; the versions games were played with stay kept (`keep_version`)."""
    path = _installed(packs_dir(), ident)
    if path is None:
        raise KeyError(ident)
    with contextlib.suppress(KeyError, EditionDataError):
        keep_version(resolve_edition(ident))
    try:
        path.unlink()
    except OSError as err:
        raise UserFileError(_("cannot delete {path}: {error}").format(path=shown(path),
                                                                      error=err.strerror or err)) from None


def saved_game_lookup(started: dict, lookup: Callable[[str], Edition]) -> Callable[[str], Edition]:
    """The edition lookup for a saved game: the deck its `started` event kept (an owner's deck, as it was
    when the game began), else `lookup`. Editing, renaming or deleting the deck afterwards leaves the game
    scored as it was played."""
    from rules.editions import edition_as_saved

    doc = started.get("deck")
    if not isinstance(doc, dict):
        return lookup
    try:
        kept = edition_as_saved(doc)
    except EditionDataError:
        return lookup  # a kept deck this version of tourpad cannot read: the installed one, as before

    def pinned(ident: str) -> Edition:
        return kept if ident == kept.id else lookup(ident)

    return pinned


def deck_to_keep(edition: Edition) -> dict | None:
    """What a new game's `started` event keeps of its deck: an owner's whole deck (whose version is also
    kept on this device for `tourpad score`), nothing for tourpad's and the publisher's, which ship with
    the app."""
    if edition.provenance != "owner":
        return None
    keep_played_version(edition)
    return deck_document(edition)


def keep_played_version(edition: Edition) -> None:
    """Keep the version of an owner's deck a game (or a table) begins with on this device, so `tourpad
    score` and a restarted host find it after the deck is edited; tourpad's and the publisher's decks ship
    with the app. A version that cannot be written is no reason to refuse the game."""
    if edition.provenance == "owner":
        with contextlib.suppress(UserFileError):
            keep_version(edition)


# --- the deck editor's drafts: what was typed, kept on every change until the deck is saved -------------


def deck_drafts_dir(create: bool = False) -> Path:
    return data_subfolder("deck-drafts", create)


def deck_draft(ident: str) -> dict | None:
    """The editor's unsaved draft of deck `ident`, if there is one (an unreadable one is none)."""
    path = _installed_like(deck_drafts_dir(), ident, ".json")
    if path is None:
        return None
    try:
        doc = read_user_document(path, _("a deck pack"), "json")
    except UserFileError:
        return None
    return doc if isinstance(doc, dict) else None


def keep_deck_draft(ident: str, doc: dict) -> None:
    """Keep the editor's draft before the screen shows the change: a reload or Back finds it as left."""
    import json

    if _installed_like(deck_drafts_dir(), ident, ".json", must_exist=False) is None:
        raise KeyError(ident)
    _write_atomically(deck_drafts_dir(create=True) / f"{ident}.json", json.dumps(doc, ensure_ascii=False))
    from scorer.runtime import IN_BROWSER

    if IN_BROWSER:  # saved to the browser's storage now, as the keypad's drafts are
        from scorer.browser_storage import persist

        persist()


def drop_deck_draft(ident: str) -> None:
    path = _installed_like(deck_drafts_dir(), ident, ".json")
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink()


def _installed_like(folder: Path, ident: str, suffix: str, must_exist: bool = True) -> Path | None:
    """`folder/<ident><suffix>` for an id a pack may have (never a path); None otherwise, or when it does not
    exist and `must_exist`."""
    if len(ident) > PACK_ID_LENGTH or not PACK_ID.fullmatch(ident):
        return None
    path = folder / f"{ident}{suffix}"
    return path if path.is_file() or not must_exist else None


# --- sharing a deck: a short code for a link or a QR code ------------------------------------------------

#: What a share code leaves out: the rules, which the deck's base gives back (rules.editions.with_base_rules).
RULE_FIELDS_SHARED = ("throw_catch", "tie_breakers", "collection", "pairs", "choice", "route")
#: The share code's format version (the first field of its document).
SHARE_VERSION = 1
#: The longest share code read: a whole deck compresses to well under this.
SHARE_CODE_LENGTH = 3000


def deck_share_code(edition: Edition) -> str:
    """An owner's deck as a short URL-safe code (a link's last segment, a QR code's text): what the deck
    holds beyond its base's rules, compressed. `deck_from_share_code` reads it back on another device."""
    import base64
    import json
    import zlib

    doc = deck_document(edition)
    shared = {k: v for k, v in doc.items() if k not in RULE_FIELDS_SHARED}
    shared["v"] = SHARE_VERSION
    base = _base_cards(doc)
    # a site left as tourpad's (the usual case: letters are enough) is not sent: its base gives it back
    regions = [region["name"] for region in doc["regions"]]
    shared["cards"] = [{k: (regions.index(v) if k == "region" else v) for k, v in card.items()
                        if k not in ("site", "site_names") or not _same_site(card, base.get(card["letter"]))}
                       for card in doc["cards"]]  # a card's region by its number: names are long
    text = json.dumps(shared, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def deck_from_share_code(code: str) -> Edition:
    """The deck a share code carries, checked by every rule `tourpad deck check` applies. A code that is not
    one (cut short, mistyped) raises EditionDataError saying so, on one line."""
    import base64
    import binascii
    import json
    import zlib

    code = code.strip()
    if "/" in code:  # a whole link pasted: its last segment is the code
        code = code.rstrip("/").rpartition("/")[2]
    bad = EditionDataError(_("this is not a tourpad deck link or code (cut short or mistyped?)"))
    if not code or len(code) > SHARE_CODE_LENGTH or not re.fullmatch(r"[A-Za-z0-9_-]+", code):
        raise bad
    try:
        unpack = zlib.decompressobj()
        raw = unpack.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)), TEXT_LIMIT)
        if not unpack.eof:  # cut short (or longer than any deck)
            raise bad
        doc = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, ValueError):
        raise bad from None
    if not isinstance(doc, dict) or doc.pop("v", None) != SHARE_VERSION or not isinstance(doc.get("cards"), list):
        raise bad
    base = _base_cards(doc)
    regions = [r.get("name") if isinstance(r, dict) else None for r in doc.get("regions") or []]
    for card in doc["cards"]:
        if not isinstance(card, dict):
            continue
        if isinstance(card.get("region"), int) and 0 <= card["region"] < len(regions):
            card["region"] = regions[card["region"]]
        if "site" not in card and card.get("letter") in base:
            card.update({k: v for k, v in base[card["letter"]].items() if k in ("site", "site_names")})
    return new_pack_from_document(doc, "deck link")


def _base_cards(doc: dict) -> dict[str, dict]:
    """The cards of a deck's base edition by letter (none for a deck without a known base)."""
    if doc.get("base") not in bundled_ids():
        return {}
    return {card["letter"]: card for card in deck_document(load_edition(doc["base"]))["cards"]}


def _same_site(card: dict, base: dict | None) -> bool:
    return base is not None and card.get("site") == base.get("site") and \
        (card.get("site_names") or {}) == (base.get("site_names") or {})


def install_shared_deck(edition: Edition) -> tuple[Edition, bool]:
    """Install a deck received by link: under its own id, or a free one when a different deck has that id
    here (never replacing it); returns the deck installed and whether it was already here as it is."""
    from rules.editions import deck_version

    try:
        here = resolve_edition(edition.id)
    except (KeyError, EditionDataError):
        here = None
    if here is not None and deck_version(here) == deck_version(edition):
        return here, True
    if here is not None:
        from rules.editions import edition_as_saved

        edition = edition_as_saved({**deck_document(edition), "id": free_pack_id(edition.id)})
    return save_deck(edition), False
