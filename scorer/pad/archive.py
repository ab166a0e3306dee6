"""Every game on this device as one file, and back: how games move to a new phone (or out of a browser).

The file holds each game's events exactly as stored (`scorer.pad.store`), so an imported game replays to
the same state. Importing is checked whole before anything is written, and a game already on the device
(same start time, edition and players) is not added twice.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.text import RECORDED_NAME_LENGTH, TextError, clean_name
from scorer.locale import _
from scorer.pad.people import People
from scorer.pad.store import EventStore
from scorer.userfile import parse_user_document

#: A game is a few kilobytes of events; this holds thousands of them, and stops a file that is not a backup.
ARCHIVE_LIMIT = 50_000_000

FORMAT = "tourpad-games"
#: 2: the register of people (`scorer.pad.people`) travels with the games, and the owner's decks when
#: there are any. A file with games only is still written (and read) as version 1.
VERSION = 2
VERSION_GAMES_ONLY = 1


class ArchiveError(ValueError):
    """A file that is not a tourpad games archive; the message names what is wrong."""


class ArchivedEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(min_length=1)
    payload: dict
    at: float


class ArchivedGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    created_at: float
    updated_at: float
    edition: str = Field(min_length=1)
    players: list[str] = Field(min_length=1)
    status: str
    summary: str
    events: list[ArchivedEvent] = Field(min_length=1)


class Archive(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str
    version: int
    games: list[ArchivedGame]
    #: The owner's decks on the device (pack documents), installed where they are not yet: a deck made in the
    #: web app lives in the browser's storage, and moves with the games.
    decks: list[dict] = Field(default_factory=list)
    #: name as played (its key) → the person it is; files before version 2 have none
    people: dict[str, str] = Field(default_factory=dict)

    @field_validator("people")
    @classmethod
    def _people(cls, people: dict[str, str]) -> dict[str, str]:
        for name in (*people, *people.values()):
            try:
                clean_name(name, _("player name {name}").format(name=repr(name)), longest=RECORDED_NAME_LENGTH)
            except TextError as err:
                raise ValueError(str(err)) from None
        return people


def export_games(store: EventStore) -> str:
    games = [{"created_at": g.created_at, "updated_at": g.updated_at, "edition": g.edition,
              "players": list(g.players), "status": g.status, "summary": g.summary,
              "events": [{"kind": e.kind, "payload": e.payload, "at": e.at} for e in store.events(g.id)]}
             for g in reversed(store.games())]  # oldest first: imported in the order they were played
    doc = {"format": FORMAT, "version": VERSION_GAMES_ONLY, "games": games}
    people, decks = store.aliases(), own_deck_documents()
    if people:
        doc["people"] = people
    if decks:
        doc["decks"] = decks
    if people or decks:  # a file with games only stays readable by an older tourpad
        doc["version"] = VERSION
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def own_deck_documents() -> list[dict]:
    """Every owner's deck installed here, as pack documents (a deck that cannot be read back is left out)."""
    from rules.model import EditionDataError
    from scorer.packs import deck_document, pack_ids, resolve_edition

    decks = []
    for ident in pack_ids():
        try:
            decks.append(deck_document(resolve_edition(ident)))
        except (KeyError, EditionDataError):
            continue
    return decks


def parse_archive(text: str | bytes, name: str = "games.json") -> Archive:
    """The games file, read by the bounded loader of every file a person hands us (UserFileError, naming
    `name`, for what is no JSON document at all), then checked whole (ArchiveError)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    doc = parse_user_document(data, name, _("a tourpad games file"), "json", limit=ARCHIVE_LIMIT)
    try:
        archive = Archive.model_validate(doc)
    except ValidationError as err:
        first = err.errors()[0]
        where = " → ".join(str(part) for part in first["loc"]) or _("the file")
        raise ArchiveError(_("not a tourpad games file: {where}: {problem}").format(
            where=where, problem=first["msg"])) from None
    if archive.format != FORMAT:
        raise ArchiveError(_("not a tourpad games file (format is {found!r}, expected {expected!r})").format(
            found=archive.format, expected=FORMAT))
    if archive.version > VERSION:
        raise ArchiveError(_("this games file is version {version}, newer than this app reads ({known}); "
                             "update tourpad first").format(version=archive.version, known=VERSION))
    return archive


def import_games(store: EventStore, text: str | bytes, name: str = "games.json") -> tuple[int, int]:
    """Add the file's games that are not on this device yet, its decks and the people this device does not
    know: (games added, games already here)."""
    from rules.model import EditionDataError
    from scorer.packs import install_shared_deck, pack_from_document

    archive = parse_archive(text, name)
    decks = []
    for number, doc in enumerate(archive.decks, start=1):  # all checked before anything is written
        try:
            decks.append(pack_from_document(doc, name))
        except EditionDataError as err:
            raise ArchiveError(_("deck {number} ({id}): {error}").format(
                number=number, id=doc.get("id", "?"), error=err)) from None
    for deck in decks:  # a different deck of the same id here is kept; this one then gets its own id
        install_shared_deck(deck)
    present = {(g.created_at, g.edition, g.players) for g in store.games()}
    added = skipped = 0
    for game in archive.games:
        if (game.created_at, game.edition, tuple(game.players)) in present:
            skipped += 1
            continue
        store.restore_game(game.created_at, game.updated_at, game.edition, game.players, game.status,
                           game.summary, [(e.kind, e.payload, e.at) for e in game.events])
        added += 1
    People(store).restore(archive.people)
    return added, skipped
