"""`tourpad bench fuzz-files`: a seeded fuzz of every file the command line and the app read.

Each input is made from a valid file of its kind (a game record, a deck pack, a board pack, a games backup, a
photo) by one of a few mutations — random bytes, a truncation, byte edits, deep nesting, a number of thousands
of digits, a value of the wrong type, a file name holding a terminal escape — and handed to every reader of
that kind, in-process (typer's runner for the commands, the functions the app's buttons call). An answer is
one of:

- accepted: exit 0 (for `scan`, 0 or 1: the photo was read as an image, complete row or not);
- refused: exit 2 with one line on stderr that names the file (the name escaped as `shown` prints it), or, in
  the app, a UserFileError / ArchiveError / EditionDataError whose message is one line;
- a traceback: any other exception, or "Traceback" in the output;
- a multi-line refusal: a refusal over several lines, or one that does not name the file;
- a bad input accepted: an input one reader of its kind accepts though another reader of the same kind, or the
  document's own validator, refuses it. `deck check`, `deck import` and the app's pack import must agree, and
  an imported pack must read back (`deck ID`); an imported board pack must read back (`board show ID`); a
  record `score` accepts must be a GameRecord (the published schema's model); a games backup the app accepts
  must export again to a backup it accepts; a photo `scan` reads or `scan teach` learns from must be one
  Pillow opens.

Everything runs in a temporary data folder; the report counts per reader.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import struct
import tempfile
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import tomli_w
from typer.testing import CliRunner

#: The readers, in the report's order.
KINDS = ("score", "deck check", "deck import", "app deck pack", "board import", "app games backup", "scan",
         "scan teach")


@dataclass
class Tally:
    inputs: int = 0
    accepted: int = 0
    refused: int = 0
    tracebacks: int = 0
    bad_inputs_accepted: int = 0
    multi_line_refusals: int = 0
    examples: list[str] = field(default_factory=list)  #: the first few failures, to reproduce them

    def failed(self, what: str) -> None:
        if len(self.examples) < 5:
            self.examples.append(what)


@dataclass(frozen=True)
class Answer:
    accepted: bool
    refusal: str | None = None  #: the refusal's text (stderr, or the exception's message)
    crash: str | None = None  #: the traceback's last line

    def one_line_naming(self, name: str) -> bool:
        text = (self.refusal or "").strip()
        return bool(text) and len(text.splitlines()) == 1 and name in text and "\x1b" not in text


# --- valid files to start from ------------------------------------------------------------------------------


def valid_record() -> dict:
    return {"edition": "australia", "players": ["Ann", "Bob", "Zoë"],
            "rounds": [{"Ann": {"cards": "ABCDEFG", "activity": "Sightseeing"},
                        "Bob": {"cards": "HIJKLMN", "activity": None},
                        "Zoë": {"cards": "OPQRSTU", "activity": None}}]}


def valid_deck_pack() -> dict:
    from rules.editions import load_edition

    doc = load_edition("australia").spec.model_dump(mode="json", exclude_none=True)
    return {**doc, "id": "fuzz-pack", "name": "Fuzz pack", "provenance": "owner"}


def valid_board_pack() -> dict:
    from rules.race.board import COLOURS, load_board

    board = load_board()
    return {"id": "fuzz-board", "name": "Fuzz board", "base": "tourpad",
            "colours": {name: COLOURS[board.colour[i]] for i, name in enumerate(board.countries)}}


def valid_backup(folder: Path) -> dict:
    from scorer.pad.archive import export_games
    from scorer.pad.game import GameSession
    from scorer.pad.store import EventStore

    store = EventStore(folder / "fuzz-backup.sqlite3")
    session = GameSession.new(store, "australia", ["Ann", "Bob"])
    session.enter_letters(0, "ABCDEFG", None)
    session.enter_letters(1, "HIJKLMN", None)
    return json.loads(export_games(store))


def encode(doc: object, fmt: str) -> bytes:
    return (json.dumps(doc, ensure_ascii=False) if fmt == "json" else tomli_w.dumps(doc)).encode("utf-8")


# --- mutations of a document --------------------------------------------------------------------------------

WRONG_VALUES: tuple[object, ...] = ([], {}, "", "x", 0, -1, 7, 1.5, True, [1, 2, 3], {"x": 1}, "A" * 3000,
                                    [[[[]]]], {"a": {"b": {"c": []}}})


#: Ids a pack may not take: a bundled edition's or board's, too long for a file name, a path, not a slug.
OTHER_IDS = ("australia", "europe", "usa", "tourpad", "x" * 65, "x" * 5000, "../evil", "a/b", "A B", "", "é",
             "mine\x1b[31m")


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


def _replaced(doc: object, path: tuple, value: object) -> object:
    if not path:
        return value
    copy = json.loads(json.dumps(doc))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return copy


def _deep(rng: random.Random, fmt: str) -> str:
    depth = rng.choice((60, 500, 5_000, 100_000 if fmt == "json" else 20_000))
    if fmt == "json":
        return rng.choice(("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth))
    return rng.choice(("a = " + "[" * depth + "]" * depth, "a = " + "{b = " * depth + "1" + "}" * depth,
                       "a" + ".a" * depth + " = 1", "[" + ".".join(["a"] * depth) + "]\nx = 1",
                       "a = " + "[" * depth))


def _huge_number(rng: random.Random, fmt: str) -> str:
    digits = "".join(rng.choice("0123456789") for _ in range(rng.choice((120, 4_301, 5_000, 20_000))))
    digits = "9" + digits[1:]
    if fmt == "toml":
        return rng.choice((digits, "-" + digits, "_".join(digits), "0x" + "f" * len(digits), digits + ".5",
                           "1e" + digits))
    return rng.choice((digits, "-" + digits, digits + ".5", "1e" + digits, "0." + digits))


def mutate_document(rng: random.Random, doc: dict, fmt: str) -> tuple[str, bytes]:
    """One mutation of the valid document `doc`: (the mutation's name, the file's bytes)."""
    valid = encode(doc, fmt)
    how = rng.choice(("random bytes", "truncated", "byte edits", "deep nesting", "deep nesting inside",
                      "huge number", "wrong type", "wrong type", "another id", "valid"))
    if how == "random bytes":
        return how, rng.randbytes(rng.randrange(0, 3000))
    if how == "truncated":
        return how, valid[:rng.randrange(0, len(valid))]
    if how == "byte edits":
        data = bytearray(valid)
        for _ in range(rng.randrange(1, 9)):
            at = rng.randrange(len(data))
            action = rng.randrange(3)
            if action == 0:
                data[at] = rng.randrange(256)
            elif action == 1:
                data.insert(at, rng.choice(b'[]{}"\'=,:.#\n0123456789\\\x00\xff'))
            elif len(data) > 1:
                del data[at]
        return how, bytes(data)
    if how == "deep nesting":
        return how, _deep(rng, fmt).encode()
    if how == "deep nesting inside":
        nested = _deep(rng, "json")  # a deep value in place of a field, in either format's syntax
        text = valid.decode()
        if fmt == "json":
            return how, text.replace('"Ann"', nested, 1).replace('"tourpad"', nested, 1).encode()
        return how, (text + "\nextra = " + nested.replace('{"a":', "{a = ") + "\n").encode()
    if how == "huge number":
        number = _huge_number(rng, fmt)
        if fmt == "json":
            return how, valid.decode().replace('"Ann"', number, 1).replace("[", "[" + number + ", ", 1).encode()
        return how, (valid.decode() + f"\nhuge = {number}\n").encode()
    if how == "wrong type":
        paths = _paths(doc)
        path = rng.choice(paths if fmt == "json" else paths[1:])  # a TOML document is a table at the top
        value = rng.choice(WRONG_VALUES)
        try:
            return how, encode(_replaced(doc, path, value), fmt)
        except (TypeError, ValueError, AttributeError):  # TOML cannot hold it there: a string can
            return how, encode(_replaced(doc, path, "x"), fmt)
    if how == "another id" and "id" in doc:  # a bundled edition's or board's, one too long, a path, …
        return how, encode({**doc, "id": rng.choice(OTHER_IDS)}, fmt)
    return how, valid


# --- photos -------------------------------------------------------------------------------------------------

#: Pillow's modes, the unusual ones included (a LAB TIFF once crashed the scan).
PHOTO_MODES = ("L", "RGB", "RGBA", "LA", "P", "1", "CMYK", "YCbCr", "LAB", "I", "F", "I;16")  # TIFF holds these


def _image_bytes(image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


def _corrupt_exif_tiff() -> bytes:
    """A TIFF whose description tag points past the end of the file: Pillow warns as it reads it."""
    from PIL import Image, TiffImagePlugin

    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[270] = "a description stored out of line"
    data = bytearray(_tiff_with(Image.new("L", (40, 30), 128), info))
    ifd = struct.unpack("<I", data[4:8])[0]
    for entry in range(struct.unpack("<H", data[ifd:ifd + 2])[0]):
        at = ifd + 2 + 12 * entry
        if struct.unpack("<H", data[at:at + 2])[0] == 270:
            data[at + 8:at + 12] = struct.pack("<I", 10**8)
    return bytes(data)


def _tiff_with(image, info) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "TIFF", tiffinfo=info)
    return buffer.getvalue()


def mutate_photo(rng: random.Random) -> tuple[str, bytes]:
    """A photo, mutated. Decodable ones are flat colours and small: reading pixels is the scanner's business,
    and a photo of noise costs it seconds; what is fuzzed here is the file."""
    from PIL import Image

    how = rng.choice(("random bytes", "truncated", "byte edits", "odd size", "odd mode", "corrupt EXIF",
                      "huge dimensions"))
    flat = Image.new("RGB", (48, 32), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    valid = _image_bytes(flat, rng.choice(("PNG", "JPEG", "TIFF", "BMP", "GIF", "WEBP")))
    if how == "random bytes":
        return how, rng.randbytes(rng.randrange(0, 3000))
    if how == "truncated":
        return how, valid[:rng.randrange(0, len(valid))]
    if how == "byte edits":
        data = bytearray(valid)
        for _ in range(rng.randrange(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return how, bytes(data)
    if how == "odd size":
        size = rng.choice(((1, 1), (1, 1500), (1500, 1), (2, 900), (900, 2), (3, 3)))
        return how, _image_bytes(Image.new("L", size, 128), rng.choice(("PNG", "TIFF")))
    if how == "odd mode":
        mode = rng.choice(PHOTO_MODES)
        return how, _image_bytes(Image.new(mode, (40, 30)), "TIFF")
    if how == "corrupt EXIF":
        return how, _corrupt_exif_tiff()
    # a PNG whose header claims a huge picture over a few bytes of data
    png = bytearray(_image_bytes(Image.new("L", (8, 8), 0), "PNG"))
    png[16:24] = struct.pack(">II", rng.choice((60_000, 100_000)), rng.choice((60_000, 100_000)))
    return how, bytes(png)


# --- file names ---------------------------------------------------------------------------------------------

NAME_TRAPS = ("\x1b[31mred\x1b[0m", "line\nbreak", "\u202eevil", "tab\there", "bell\x07")


def file_name(rng: random.Random, suffix: str) -> str:
    """Mostly a plain name; one in eight holds a terminal escape or another character that must be shown."""
    if rng.randrange(8) == 0:
        return f"fuzz-{rng.choice(NAME_TRAPS)}{suffix}"
    return f"fuzz{suffix}"


# --- the readers --------------------------------------------------------------------------------------------


class Readers:
    """Every reader of a person's file, each answering with an Answer."""

    def __init__(self, commands, folder: Path) -> None:
        self.commands = commands
        self.runner = CliRunner()
        self.folder = folder
        self.data = folder / "data"

    def command(self, *args: str) -> Answer:
        result = self.runner.invoke(self.commands, list(args), env={"TOURPAD_DATA_DIR": str(self.data)})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            last = traceback.format_exception(result.exception)[-1].strip()
            return Answer(False, crash=last)
        if "Traceback" in result.output + result.stderr:
            return Answer(False, crash=result.stderr.strip().splitlines()[-1])
        if result.exit_code == 0:
            return Answer(True)
        if result.exit_code == 2:
            return Answer(False, refusal=result.stderr)
        return Answer(False, refusal=f"exit code {result.exit_code}\n{result.stderr}")

    def scan(self, path: Path) -> Answer:
        answer = self.command("scan", str(path))
        if answer.refusal is not None and answer.refusal.startswith("exit code 1\n"):
            return Answer(True)  # read as an image; the row is just not complete
        return answer

    @staticmethod
    def in_app(call: Callable[[], object], refusals: tuple[type[Exception], ...],
               about_content: tuple[type[Exception], ...] = (), shown_name: str = "") -> tuple[Answer, object]:
        """What the app's button does with the file: `refusals` name the file in their message; the messages
        of `about_content` speak of its content, and the app puts the file's name before them."""
        try:
            return Answer(True), call()
        except refusals as err:
            return Answer(False, refusal=str(err)), None
        except about_content as err:
            return Answer(False, refusal=f"{shown_name}: {err}"), None
        except Exception as err:  # any other exception is what this bench counts
            return Answer(False, crash=traceback.format_exception(err)[-1].strip()), None


def _pillow_opens(data: bytes) -> bool:
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Image.open(io.BytesIO(data)).load()
    except Exception:  # whatever Pillow raises, it did not open it
        return False
    return True


@contextlib.contextmanager
def _data_folder(path: Path) -> Iterator[None]:
    """The app's readers (called in-process) keep what they import in a data folder of the run's own."""
    before = os.environ.get("TOURPAD_DATA_DIR")
    os.environ["TOURPAD_DATA_DIR"] = str(path)
    try:
        yield
    finally:
        if before is None:
            del os.environ["TOURPAD_DATA_DIR"]
        else:
            os.environ["TOURPAD_DATA_DIR"] = before


def _install_pack(data: bytes, name: str):
    """The app's Import a deck pack: the file's bytes read and validated, then installed."""
    from scorer.packs import install_pack, pack_from_data

    return install_pack(pack_from_data(data, name))


def _reimport(target, store, name: str):
    """A backup the app imported, exported and imported again on another device."""
    from scorer.pad.archive import export_games, import_games

    return import_games(target, export_games(store), name)


#: The kinds of file, each made from its valid file: a photo costs the scanner most, a deck pack has three readers.
FAMILIES = ("record", "deck", "deck", "board", "backup", "photo")


def run(commands, inputs: int = 1000, seed: int = 1, families: tuple[str, ...] = FAMILIES) -> dict:
    """Fuzz `inputs` files (spread over `families` in turn) through every reader of each kind, seeded.
    `commands` is a typer app holding the commands that read files (`tourpad`'s own, or one made of them)."""
    from pydantic import ValidationError

    from rules.model import EditionDataError
    from rules.record import GameRecord
    from scorer.pad.archive import ArchiveError, import_games
    from scorer.pad.store import EventStore
    from scorer.userfile import UserFileError, shown

    rng = random.Random(seed)
    tallies = {kind: Tally() for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="tourpad-fuzz-") as tmp, _data_folder(Path(tmp) / "data"):
        folder = Path(tmp)
        readers = Readers(commands, folder)
        bases = {"record": valid_record(), "deck": valid_deck_pack(), "board": valid_board_pack(),
                 "backup": valid_backup(folder)}
        def count(kind: str, answer: Answer, shown_name: str, label: str) -> None:
            tally = tallies[kind]
            tally.inputs += 1
            if answer.crash is not None:
                tally.tracebacks += 1
                tally.failed(f"{label}: {answer.crash}")
            elif answer.accepted:
                tally.accepted += 1
            else:
                tally.refused += 1
                if not answer.one_line_naming(shown_name):
                    tally.multi_line_refusals += 1
                    tally.failed(f"{label}: {answer.refusal!r}")

        def bad(kind: str, label: str, why: str) -> None:
            tallies[kind].bad_inputs_accepted += 1
            tallies[kind].failed(f"{label}: {why}")

        for number in range(inputs):
            family = families[number % len(families)]
            fmt = "json" if family in ("record", "backup") else rng.choice(("toml", "json"))
            if family == "photo":
                how, data = mutate_photo(rng)
                suffix = ".png"
            else:
                how, data = mutate_document(rng, bases[family], fmt)
                suffix = f".{fmt}"
            name = file_name(rng, suffix)
            case = folder / f"case-{number}"
            case.mkdir()
            path = case / name
            path.write_bytes(data)
            label = f"#{number} {family} {how} ({len(data)} bytes)"
            shown_path, shown_file = shown(path), shown(name)
            if family == "record":
                answer = readers.command("score", str(path), "--json")
                count("score", answer, shown_path, label)
                if answer.accepted:
                    try:
                        GameRecord.model_validate(json.loads(data.decode("utf-8-sig")))
                    except (ValidationError, ValueError) as err:
                        bad("score", label, f"accepted, yet not a GameRecord: {err}")
            elif family == "deck":
                checked = readers.command("deck", "check", str(path))
                count("deck check", checked, shown_path, label)
                imported = readers.command("deck", "import", str(path))
                count("deck import", imported, shown_path, label)
                in_app, edition = readers.in_app(partial(_install_pack, data, name),
                                                 (UserFileError,), (EditionDataError,), shown_file)
                count("app deck pack", in_app, shown_file, label)
                verdicts = {"deck check": checked.accepted, "deck import": imported.accepted,
                            "app deck pack": in_app.accepted}
                if len(set(verdicts.values())) > 1:
                    for kind, accepted in verdicts.items():
                        if accepted:
                            bad(kind, label, f"accepted, yet refused by another reader: {verdicts}")
                if edition is not None and not readers.command("deck", edition.id, "--json").accepted:
                    bad("deck import", label, f"imported as {edition.id!r}, yet `deck {edition.id}` fails")
            elif family == "board":
                imported = readers.command("board", "import", str(path))
                count("board import", imported, shown_path, label)
                if imported.accepted and not readers.command("board", "show", "fuzz-board").accepted:
                    bad("board import", label, "imported, yet `board show` fails")
            elif family == "backup":
                store, again = EventStore(case / "games.sqlite3"), EventStore(case / "again.sqlite3")
                answer, _added = readers.in_app(partial(import_games, store, data, name), (UserFileError,),
                                                (ArchiveError,), shown_file)
                count("app games backup", answer, shown_file, label)
                if answer.accepted:
                    reread, _ = readers.in_app(partial(_reimport, again, store, name),
                                               (UserFileError, ArchiveError))
                    if not reread.accepted:
                        bad("app games backup", label, f"imported, yet its export is refused: {reread}")
                store.close()
                again.close()
            else:
                answer = readers.scan(path)
                count("scan", answer, shown_path, label)
                opens = _pillow_opens(data)
                if answer.accepted and not opens:
                    bad("scan", label, "read as a photo, yet Pillow cannot open it")
                taught = readers.command("scan", "teach", str(path), "--letters", "ABCDEFG")
                count("scan teach", taught, shown_path, label)
                if taught.accepted and not opens:
                    bad("scan teach", label, "taught from, yet Pillow cannot open it")
    totals = Tally()
    for tally in tallies.values():
        for key in ("inputs", "accepted", "refused", "tracebacks", "bad_inputs_accepted", "multi_line_refusals"):
            setattr(totals, key, getattr(totals, key) + getattr(tally, key))
    return {"seed": seed, "files": inputs,
            "kinds": {kind: vars(tally) for kind, tally in tallies.items()},
            "total": {key: value for key, value in vars(totals).items() if key != "examples"}}
