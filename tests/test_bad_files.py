"""Every command that reads a person's file (a game record, a deck or board pack, a photo) answers anything
at all with success or one line naming the file and its problem, exit code 2, and never a traceback."""

from __future__ import annotations

import codecs
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from scorer.cli import app

runner = CliRunner()

#: (command line before the file, the file's suffix: packs are read as JSON or TOML by it)
COMMANDS = [
    (("score",), ".json"),
    (("deck", "check"), ".toml"),
    (("deck", "check"), ".json"),
    (("deck", "import"), ".toml"),
    (("board", "import"), ".toml"),
    (("board", "import"), ".json"),
    (("scan",), ".jpg"),
]
IDS = ["-".join(words) + suffix for words, suffix in COMMANDS]

VALID_RECORD = json.dumps({"edition": "australia", "players": ["Ann", "Bob"],
                           "rounds": [{"Ann": {"cards": "ABCDEFG", "activity": None},
                                       "Bob": {"cards": "HIJKLMN", "activity": None}}]})


def run_on(command: tuple[str, ...], path: Path):
    return runner.invoke(app, [*command, str(path)])


def assert_refused_in_one_line(result, path: Path) -> str:
    """Exit 2, no traceback, and stderr is one line that names the file."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output + result.stderr
    assert result.exit_code == 2, result.output + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0]
    return lines[0]


def assert_answered(result, path: Path) -> None:
    """Either success, or a one-line refusal: whatever the bytes were."""
    if result.exit_code == 0:
        assert result.exception is None and "Traceback" not in result.output
    else:
        assert_refused_in_one_line(result, path)


bytes_or_text = st.one_of(
    st.binary(max_size=3000),
    st.text(max_size=1500).map(str.encode),  # UTF-8 text that reaches the JSON / TOML parser
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=12).map(lambda doc: json.dumps(doc).encode()),  # JSON of the wrong shape
)


@pytest.mark.parametrize(("command", "suffix"), COMMANDS, ids=IDS)
# 30 inputs a command, not the suite's 60: each runs a whole command (0.1–0.3 s), the seeded fuzz of
# tests/test_file_inputs.py covers every reader besides, and `tourpad bench fuzz-files` runs thousands
@settings(max_examples=30)
@given(data=bytes_or_text)
def test_any_bytes_get_an_answer_never_a_traceback(command, suffix, data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"file{suffix}"
        path.write_bytes(data)
        assert_answered(run_on(command, path), path)


CRAFTED = {
    "empty": (b"", "is empty"),
    "utf-16 with a byte-order mark": (codecs.BOM_UTF16_LE + VALID_RECORD.encode("utf-16-le"), "UTF-16"),
    "NUL bytes": (b'{"edition": "australia"\x00\x00}', "binary file"),
    "latin-1": ('{"players": ["Zoë"]}'.encode("latin-1"), "not UTF-8"),
    "20 MB": (b"[" + b"0," * 10_000_000 + b"0]", "too large"),
}


@pytest.mark.parametrize(("command", "suffix"), COMMANDS, ids=IDS)
@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_crafted_bad_files_are_named_in_one_line(tmp_path, command, suffix, case):
    data, problem = CRAFTED[case]
    path = tmp_path / f"file{suffix}"
    path.write_bytes(data)
    line = assert_refused_in_one_line(run_on(command, path), path)
    if command != ("scan",) or case in ("empty",):  # a photo may hold any bytes: it is just not an image
        assert problem in line


@pytest.mark.parametrize(("command", "suffix"), COMMANDS, ids=IDS)
def test_a_folder_or_a_missing_file_is_named(tmp_path, command, suffix):
    assert "is a folder" in assert_refused_in_one_line(run_on(command, tmp_path), tmp_path)
    missing = tmp_path / f"gone{suffix}"
    assert "no such file" in assert_refused_in_one_line(run_on(command, missing), missing)


def test_deeply_nested_json_is_refused_not_a_recursion_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    assert "nested more than" in assert_refused_in_one_line(run_on(("score",), path), path)


def test_a_record_saved_with_a_utf8_byte_order_mark_is_scored(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(codecs.BOM_UTF8 + VALID_RECORD.encode())
    result = run_on(("score",), path)
    assert result.exit_code == 0, result.output
    assert "Ranking:" in result.output

