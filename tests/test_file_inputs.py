"""The files the command line and the app read, attacked: the eight causes a held-out fuzz found (issue #35),
each reproduced, and a seeded fuzz of every kind of file through every reader (`tourpad bench fuzz-files` runs
the same with more inputs)."""

from __future__ import annotations

import io
import json
import struct
import unicodedata
import warnings
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, TiffImagePlugin
from typer.testing import CliRunner

from scorer.cli import app

runner = CliRunner()

RECORD = {"edition": "australia", "players": ["Ann", "Bob"],
          "rounds": [{"Ann": {"cards": "ABCDEFG", "activity": None}, "Bob": {"cards": "HIJKLMN", "activity": None}}]}


def run(*args: str):
    return runner.invoke(app, [str(arg) for arg in args])


def refused_in_one_line(result, name: str | None = None) -> str:
    """Exit 2, no traceback, one line on stderr (naming `name` when given); that line."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + result.stderr
    assert result.exit_code == 2, result.output + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    if name is not None:
        assert name in lines[0]
    return lines[0]


def no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + result.stderr


def deck_pack(tmp_path: Path, suffix: str = ".toml", pack_id: str = "mine") -> Path:
    path = tmp_path / f"pack{suffix}"
    assert run("deck", "export", "australia", "-o", path).exit_code == 0
    if suffix == ".json":
        doc = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps({**doc, "id": pack_id}), encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8").replace('id = "australia"', f'id = "{pack_id}"', 1)
        path.write_text(text, encoding="utf-8")
    return path


def board_pack(tmp_path: Path) -> Path:
    path = tmp_path / "board.toml"
    assert run("board", "export", "--id", "mine", "-o", path).exit_code == 0
    return path


def photo(tmp_path: Path, size=(48, 32), mode="RGB", fmt="PNG", name="photo.png") -> Path:
    path = tmp_path / name
    Image.new(mode, size).save(path, fmt)
    return path


# --- the eight causes ---------------------------------------------------------------------------------------

#: the commands that read a document, with the file's format
DOCUMENT_COMMANDS = [(("score",), ".json"), (("deck", "check"), ".json"), (("deck", "check"), ".toml"),
                     (("deck", "import"), ".json"), (("deck", "import"), ".toml"), (("board", "import"), ".json"),
                     (("board", "import"), ".toml")]
DOCUMENT_IDS = ["-".join(words) + suffix for words, suffix in DOCUMENT_COMMANDS]


@pytest.mark.parametrize(("command", "suffix"), DOCUMENT_COMMANDS, ids=DOCUMENT_IDS)
@pytest.mark.parametrize("digits", [4_301, 20_000])
def test_a_number_of_thousands_of_digits_is_refused_in_one_line(tmp_path, command, suffix, digits):
    # Python refuses to turn more than 4,300 digits into an int: a bare ValueError from inside json / tomllib
    number = "9" * digits
    path = tmp_path / f"huge{suffix}"
    path.write_text(f'{{"edition": "australia", "id": {number}}}' if suffix == ".json" else f"id = {number}\n")
    line = refused_in_one_line(run(*command, path), str(path))
    assert "number of more than 100 digits" in line


DEEP = {".json": "[" * 100_000 + "]" * 100_000, ".toml": "a = " + "[" * 5_000 + "]" * 5_000 + "\n"}


@pytest.mark.parametrize(("command", "suffix"), DOCUMENT_COMMANDS, ids=DOCUMENT_IDS)
def test_deep_nesting_is_refused_in_one_line(tmp_path, command, suffix):
    path = tmp_path / f"deep{suffix}"
    path.write_text(DEEP[suffix])
    assert "nested more than" in refused_in_one_line(run(*command, path), str(path))


def test_nesting_without_brackets_is_bounded_too(tmp_path):
    # TOML's dotted keys and table headers nest tables with no bracket to count
    for text in ("a" + ".a" * 3_000 + " = 1\n", "[" + ".".join(["a"] * 3_000) + "]\nx = 1\n"):
        path = tmp_path / "dotted.toml"
        path.write_text(text)
        for command in (("deck", "import"), ("board", "import")):
            assert "nested more than" in refused_in_one_line(run(*command, path), str(path))


@pytest.fixture
def unusable_data_dir(tmp_path, monkeypatch) -> Path:
    """A data folder that cannot be created: under a file (as TOURPAD_DATA_DIR=/etc/hostname/x)."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(a_file / "x"))
    return a_file / "x"


def test_an_import_into_a_data_folder_that_cannot_be_created_says_so_in_one_line(tmp_path, unusable_data_dir):
    assert "cannot create the folder" in refused_in_one_line(run("deck", "import", deck_pack(tmp_path)),
                                                             str(unusable_data_dir))
    assert "cannot create the folder" in refused_in_one_line(run("board", "import", board_pack(tmp_path)),
                                                             str(unusable_data_dir))


def test_reading_with_a_data_folder_that_cannot_be_created_works(tmp_path, unusable_data_dir):
    scanned = run("scan", photo(tmp_path))
    no_traceback(scanned)
    assert scanned.exit_code == 1  # read: no cards in a blank photo
    assert "unknown board 'mine'" in refused_in_one_line(run("journey", "--board", "mine", *"ABCDEFGHIJ"))
    assert run("deck", "check", deck_pack(tmp_path)).exit_code == 0
    assert run("board", "list").exit_code == 0


def test_a_read_command_writes_nothing(tmp_path, isolated_data_dir):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(RECORD))
    for args in (("scan", photo(tmp_path)), ("journey", "--board", "mine", *"ABCDEFGHIJ"),
                 ("deck", "check", deck_pack(tmp_path)), ("deck", "mine"), ("deck", "australia"),
                 ("board", "show"), ("board", "list"), ("score", record)):
        no_traceback(run(*args))
    assert not isolated_data_dir.exists()


@pytest.mark.parametrize("command", [("journey", "--board", "x" * 5_000, *"ABCDEFGHIJ"), ("deck", "x" * 5_000),
                                     ("board", "show", "x" * 5_000)], ids=["journey", "deck", "board-show"])
def test_an_id_too_long_for_a_file_name_is_unknown(command):
    assert "unknown" in refused_in_one_line(run(*command))


def test_a_pack_id_too_long_for_a_file_name_is_refused(tmp_path):
    path = deck_pack(tmp_path, pack_id="x" * 5_000)
    assert "at most 64 characters" in refused_in_one_line(run("deck", "check", path), str(path))


@pytest.mark.parametrize("size", [(1, 1500), (1500, 1), (7, 1), (1, 1)])
def test_a_photo_one_pixel_high_or_wide_is_read_without_a_traceback(tmp_path, size):
    result = run("scan", photo(tmp_path, size, "L"))
    no_traceback(result)
    assert result.exit_code == 1  # an image, with no cards in it


@pytest.mark.parametrize("mode", ["LAB"])
def test_a_photo_in_a_colour_space_pillow_cannot_convert_is_refused_in_one_line(tmp_path, mode):
    path = photo(tmp_path, mode=mode, fmt="TIFF", name="odd.tif")
    assert "cannot be read" in refused_in_one_line(run("scan", path), str(path))


def corrupt_exif_tiff(path: Path) -> Path:
    """A TIFF whose description tag points past the end of the file: Pillow warns as it reads it."""
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[270] = "a description stored out of line"
    buffer = io.BytesIO()
    Image.new("L", (40, 30), 128).save(buffer, "TIFF", tiffinfo=info)
    data = bytearray(buffer.getvalue())
    ifd = struct.unpack("<I", data[4:8])[0]
    for entry in range(struct.unpack("<H", data[ifd:ifd + 2])[0]):
        at = ifd + 2 + 12 * entry
        if struct.unpack("<H", data[at:at + 2])[0] == 270:
            data[at + 8:at + 12] = struct.pack("<I", 10**8)
    path.write_bytes(bytes(data))
    return path


def test_a_photo_with_a_corrupt_exif_block_is_refused_in_one_line_and_no_warning(tmp_path):
    path = corrupt_exif_tiff(tmp_path / "exif.tif")
    with warnings.catch_warnings(record=True) as caught:  # pytest would otherwise keep Pillow's warning off stderr
        warnings.simplefilter("always")
        result = run("scan", path)
    assert [str(w.message) for w in caught] == []
    refused_in_one_line(result, str(path))


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_deck_check_refuses_what_deck_import_refuses(tmp_path, suffix):
    path = deck_pack(tmp_path, suffix, pack_id="australia")
    checked = refused_in_one_line(run("deck", "check", path), str(path))
    assert "is a bundled edition" in checked
    assert refused_in_one_line(run("deck", "import", path), str(path)) == checked


TRAP = "bad\x1b[31mred\x1b[0m\u202e"


@pytest.mark.parametrize(("command", "suffix"), [*DOCUMENT_COMMANDS, (("scan",), ".png")],
                         ids=[*DOCUMENT_IDS, "scan.png"])
def test_a_file_name_holding_a_terminal_escape_is_shown_escaped(tmp_path, command, suffix):
    path = tmp_path / f"{TRAP}{suffix}"
    path.write_bytes(b"\xff\xfe not a file of any kind")
    line = refused_in_one_line(run(*command, path))
    assert "\x1b" not in line and "\u202e" not in line
    assert r"bad\x1b[31mred\x1b[0m\u202e" in line


def test_a_missing_file_named_with_an_escape_and_a_valid_pack_so_named_are_shown_escaped(tmp_path):
    line = refused_in_one_line(run("deck", "check", tmp_path / f"{TRAP}.toml"))
    assert "\x1b" not in line and r"\x1b[31m" in line
    valid = deck_pack(tmp_path).rename(tmp_path / f"{TRAP}.toml")
    checked = run("deck", "check", valid)
    assert checked.exit_code == 0 and "\x1b" not in checked.output and r"\x1b[31m" in checked.output


# --- the one helper that shows a name -----------------------------------------------------------------------

HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@given(st.text(max_size=40))
def test_a_shown_name_holds_nothing_that_draws_nothing_or_drives_the_terminal(name):
    from scorer.userfile import shown

    printed = shown(name)
    assert not any(unicodedata.category(ch) in HIDDEN for ch in printed)
    if not any(unicodedata.category(ch) in HIDDEN for ch in name):
        assert printed == name  # an ordinary name (any script, accents, spaces) is shown as it is


# --- a seeded fuzz of every file input ----------------------------------------------------------------------

#: (the kind of file, how many inputs): a few seconds each; `tourpad bench fuzz-files` runs thousands
FUZZED = [("record", 60), ("deck", 24), ("board", 40), ("backup", 40), ("photo", 16)]


@pytest.mark.parametrize(("family", "inputs"), FUZZED, ids=[family for family, _ in FUZZED])
def test_every_reader_of_a_fuzzed_file_accepts_it_or_refuses_it_in_one_line(family, inputs):
    from benchmarks import fuzz_files

    result = fuzz_files.run(app, inputs=inputs, seed=35, families=(family,))
    total = result["total"]
    failures = {kind: tally["examples"] for kind, tally in result["kinds"].items() if tally["examples"]}
    assert (total["tracebacks"], total["bad_inputs_accepted"], total["multi_line_refusals"]) == (0, 0, 0), failures
    assert total["accepted"] > 0 and total["refused"] > 0  # the corpus holds files of both sorts


def test_a_damaged_file_of_learned_cards_is_named_in_one_line_and_can_be_forgotten(tmp_path, isolated_data_dir):
    # the scanner reads what `scan teach` kept; a file cut short or overwritten is named, never a traceback
    (isolated_data_dir / "scan-templates").mkdir(parents=True)
    (isolated_data_dir / "scan-templates" / "australia.npz").write_bytes(b"PK\x03\x04 not a whole archive")
    path = photo(tmp_path)
    assert "cannot be read back" in refused_in_one_line(run("scan", path), str(path))
    forgot = run("scan", "teach", "--forget", "--edition", "australia")
    assert forgot.exit_code == 0, forgot.output
    no_traceback(scanned := run("scan", path))
    assert scanned.exit_code == 1  # read again: no cards in a blank photo


# --- the app's file imports go through the same loader ------------------------------------------------------


class FakeApp:
    """What the import buttons use of the app: its toasts, the next screen and the games store."""

    def __init__(self, store=None) -> None:
        self.toasts: list[tuple[str, bool]] = []
        self.went: list[tuple] = []
        self.store = store

    def toast(self, message: str, error: bool = False, update: bool = True) -> None:
        self.toasts.append((message, error))

    def go(self, *args, **kwargs) -> None:
        self.went.append((args, kwargs))

    def render(self) -> None:
        pass


def press(button, app: FakeApp, picked: tuple[str, bytes], monkeypatch) -> None:
    from test_pad_screens import run_session

    from scorer.ui import backup

    async def pick_one(*_args):
        return picked

    monkeypatch.setattr(backup, "pick_one", pick_one)
    run_session(lambda: button.content.on_click(None))  # off the browser tests' running loop


@pytest.mark.parametrize(("name", "data", "problem"), [
    ("pack.toml", b"\x00\x01 binary", "binary file"),
    ("pack.json", b"[" * 100_000, "nested more than"),
    (f"{TRAP}.toml", b"id = " + b"9" * 5_000, "number of more than 100 digits"),
])
def test_the_apps_deck_pack_import_refuses_a_bad_file_in_one_toast_naming_it(name, data, problem, monkeypatch,
                                                                               isolated_data_dir):
    from scorer.packs import pack_ids
    from scorer.ui.backup import pack_import_button

    app = FakeApp()
    press(pack_import_button(app), app, (name, data), monkeypatch)
    [(message, error)] = app.toasts
    assert error and problem in message and "\n" not in message and "\x1b" not in message
    assert app.went == [] and pack_ids() == ()


def test_the_apps_deck_pack_import_installs_what_deck_check_accepts(tmp_path, monkeypatch):
    from scorer.ui.backup import pack_import_button

    path = deck_pack(tmp_path, ".json")
    assert run("deck", "check", path).exit_code == 0
    app = FakeApp()
    press(pack_import_button(app), app, ("mine.json", path.read_bytes()), monkeypatch)
    assert app.toasts == [("mine.json: deck pack mine installed", False)]
    assert run("deck", "mine").exit_code == 0


@pytest.mark.parametrize(("data", "problem"), [(b"\xff\xfe\x00{", "UTF-16"), (b"[" * 100_000, "nested more than"),
                                               (b'{"format": ' + b"9" * 5_000 + b"}", "more than 100 digits")])
def test_the_apps_games_import_refuses_a_bad_file_in_one_toast_naming_it(tmp_path, data, problem, monkeypatch):
    from scorer.pad.store import EventStore
    from scorer.ui.backup import backup_buttons

    store = EventStore(tmp_path / "games.sqlite3")
    app = FakeApp(store)
    import_button = backup_buttons(app).controls[1]
    press(import_button, app, ("games.json", data), monkeypatch)
    [(message, error)] = app.toasts
    assert error and problem in message and message.startswith("games.json")
    assert store.games() == []
    store.close()
