"""rules.text: the one check for every typed name, and where it is used (records, the new-game form, packs)."""

from __future__ import annotations

import logging
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.record import GameRecord
from rules.text import (
    BIDI_CONTROLS,
    BLANK_FILLERS,
    DEFAULT_IGNORABLE,
    NAME_LENGTH,
    TextError,
    clean_name,
    drawn_length,
    draws,
    for_terminal,
    visible_length,
)

WELCOME = {
    "Zoë": 3, "Łukasz": 6, "李雷": 2, "Ana María": 9, "محمد": 4, "Ἀθηνᾶ": 5, "नमस्ते": 4,
    "می\u200cخواهم": 7,  # Persian needs ZERO WIDTH NON-JOINER between letters
    "👍🏽": 1, "👩‍👩‍👧‍👦": 1, "❤️‍🔥": 1, "🇦🇺🇫🇷": 2,
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f": 1,  # Scotland's flag (tag sequence)
    "O'Brien-Smith Jr.": 17, "x" * NAME_LENGTH: NAME_LENGTH,
}


@pytest.mark.parametrize("name", WELCOME)
def test_every_script_and_emoji_is_welcome_and_counted_as_seen(name):
    assert clean_name(name) == name
    assert visible_length(name) == WELCOME[name]


def test_names_are_normalised():
    assert clean_name("Zoe\u0308") == "Zoë"  # NFC: one code point
    assert clean_name("  Ana \u00a0  María\u3000") == "Ana María"  # trimmed, inner spaces collapsed


@pytest.mark.parametrize(("name", "problem"), [
    ("Ann\nHost: 0 points", "a line break"), ("Ann\u2029", "a line break"), ("Ann\tBob", "a tab"),
    ("A\x00", "a NUL character"), ("\x1b[2JAnn", "an escape character"), ("A\x07", "a control character"),
    ("\u200b", "zero-width"), ("\u2060Ann", "zero-width"), ("\ufeffAnn", "zero-width"),
    ("\u202e\u202d", "text-direction"), ("\u2067Ann", "text-direction"), ("Ann\u200f", "text-direction"),
    ("Ann\u00ad", "invisible formatting"), ("\U000e0041", "invisible formatting"),
    ("\u200dAnn", "zero-width"), ("Ann\u200d", "zero-width"), ("A\u200d\u200dB", "zero-width"),
    ("\ud800", "lone surrogate"),
    ("", "at least one visible character"), (" \u3000 ", "at least one visible character"),
    ("x" * (NAME_LENGTH + 1), f"at most {NAME_LENGTH} characters"),
    ("👍" * (NAME_LENGTH + 1), f"has {NAME_LENGTH + 1}"),
])
def test_what_is_refused_is_named(name, problem):
    with pytest.raises(TextError) as refused:
        clean_name(name, "a player name")
    assert problem in str(refused.value)
    assert str(refused.value).startswith("a player name")


NAMEY = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(NAMEY)
def test_a_clean_name_is_clean_and_stays_itself(text):
    try:
        name = clean_name(text)
    except TextError:
        return
    assert clean_name(name) == name  # idempotent
    assert name == name.strip() and unicodedata.is_normalized("NFC", name)
    assert 1 <= drawn_length(name) <= visible_length(name) <= NAME_LENGTH
    assert not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name)


#: Letters, digits, punctuation and symbols that put ink on the screen (the blank fillers are letters and
#: symbols by category, and the Hangul ones default-ignorable: they are not among these).
DRAWING = st.characters(categories=("L", "N", "P", "S")).filter(draws)


@given(st.text(DRAWING, min_size=1, max_size=NAME_LENGTH))
def test_nothing_visible_is_refused(text):
    assert clean_name(text) == unicodedata.normalize("NFC", text)


#: Characters that draw nothing on their own, from every class: combining marks (a base's accents and
#: variation selectors), spaces and separators, controls, format characters, Unicode's default-ignorable
#: code points (the whole property, ranges included) and the blank fillers.
SILENT = st.one_of(
    st.characters(categories=("Mn", "Mc", "Me", "Zs", "Zl", "Zp", "Cc", "Cf")),
    st.sampled_from(sorted(BLANK_FILLERS)),
    st.sampled_from(DEFAULT_IGNORABLE).flatmap(lambda span: st.integers(*span)).map(chr),
)


@given(st.text(SILENT, min_size=1, max_size=30))
def test_a_name_that_draws_nothing_is_refused(text):
    assert drawn_length(text) == 0
    with pytest.raises(TextError):
        clean_name(text)


#: What may sit in an accepted name without drawing: accents, variation selectors, spaces, fillers.
KEPT_SILENT = st.one_of(st.characters(categories=("Mn", "Me", "Zs")), st.sampled_from(sorted(BLANK_FILLERS)))


@given(st.lists(KEPT_SILENT, max_size=6), DRAWING, st.lists(DRAWING | KEPT_SILENT, max_size=10))
def test_one_drawn_character_makes_a_name(before, drawn, after):
    text = "".join(before) + drawn + "".join(after)
    name = clean_name(text)
    assert 1 <= drawn_length(name) <= visible_length(name) <= NAME_LENGTH


@pytest.mark.parametrize("blank", ["\u0301", "\ufe0f", "\u3164", "\u115f\u1160", "\u2800", "\u3000\u034f",
                                   "\uffa0 \u0301"])
def test_names_with_nothing_visible_are_refused(blank):
    with pytest.raises(TextError, match="at least one visible character"):
        clean_name(blank)


@given(st.text(max_size=60))
def test_for_terminal_leaves_nothing_that_breaks_lines_or_moves_text(text):
    shown = for_terminal(text)
    assert not any(unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") for ch in shown)
    assert not any(ch in BIDI_CONTROLS for ch in shown)


def test_logs_and_terminal_lines_are_escaped():
    from scorer.table.host import EscapedFormatter

    record = logging.LogRecord("tourpad", logging.WARNING, __file__, 1, "seat %s: %s", ("Ann\nHost: 0",
                                                                                   "\x1b[2J\u202e"), None)
    line = EscapedFormatter("%(levelname)s %(message)s").format(record)
    assert line == "WARNING seat Ann\\nHost: 0: \\x1b[2J\\u202e"
    assert for_terminal("Zoë 👩‍👩‍👧‍👦") == "Zoë 👩‍👩‍👧‍👦"


# --- where the one function is used -----------------------------------------------------------------------

def test_game_records_check_names_but_still_load_the_40_characters_they_always_allowed():
    old = "A" * 40
    assert GameRecord(edition="australia", players=[old, "Bob"]).players == [old, "Bob"]
    for bad, problem in (("Ann\nHost", "line break"), ("\u200b", "zero-width"), ("A" * 41, "at most 40"),
                         ("\u3164", "at least one visible character")):
        with pytest.raises(ValueError, match=problem):
            GameRecord(edition="australia", players=[bad, "Bob"])


def test_the_new_game_form_takes_names_through_the_one_check(australia):
    from scorer.pad.errors import EntryError
    from scorer.pad.game import validate_setup

    setup = validate_setup(australia, ["Zoë", " Łukasz ", "", "李雷"], False, "letters")
    assert setup.players == ("Zoë", "Łukasz", "李雷")
    with pytest.raises(EntryError, match="player 2's name cannot contain a line break"):
        validate_setup(australia, ["Ann", "Bob\nHost: 0"], False, "letters")
    with pytest.raises(EntryError, match=f"at most {NAME_LENGTH}"):
        validate_setup(australia, ["Ann", "B" * (NAME_LENGTH + 1)], False, "letters")
    with pytest.raises(EntryError, match="player 2's name needs at least one visible character"):
        validate_setup(australia, ["Ann", "\u2800"], False, "letters")


def test_pack_names_go_through_the_one_check(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from scorer.cli import app

    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    out = tmp_path / "pack.toml"
    assert runner.invoke(app, ["board", "export", "--id", "family", "-o", str(out)]).exit_code == 0
    text = out.read_text()
    name_line = next(line for line in text.splitlines() if line.startswith("name = "))
    out.write_text(text.replace(name_line, 'name = "Family\\u202e board"'))
    refused = runner.invoke(app, ["board", "import", str(out)])
    output = " ".join(refused.output.split())  # however the terminal wraps it
    assert refused.exit_code == 2 and "U+202E" in output and "pack.toml" in output
    assert "family" not in runner.invoke(app, ["board", "list"]).output
