"""One explanation sign (`rules.wording.EXPLANATION_SIGN`) between how a score is made and its points, in
English, in French and on the command line, drawn by the fonts tourpad ships: the app's web client's
Roboto and the printables' DejaVu Sans. The arrow it replaces was missing from Roboto, so the app showed
"»" in English and "=>" in French while the command line printed "→"."""

from __future__ import annotations

import re
from pathlib import Path

import flet_web
import pytest
from PIL import ImageFont
from typer.testing import CliRunner

from rules.i18n import use_language
from rules.record import GameRecord, score_record
from rules.wording import EXPLANATION_SIGN
from scorer.cli import app
from scorer.packs import resolve_edition

GAME = Path(__file__).parent / "data" / "table_usa_acceptance.json"
#: The signs used before: an arrow, "=>", and "»" as a sign (before points; French quotes names « so »).
OTHER_SIGNS = re.compile(r"→|=>|⇒|» [+\d-]")
APP_FONT = Path(flet_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"
PRINT_FONTS = sorted((Path(__file__).parents[1] / "assets" / "fonts").glob("*.ttf"))


def explanations(lang: str) -> list[str]:
    record = GameRecord.model_validate_json(GAME.read_text())
    with use_language(lang):
        report = score_record(record, resolve_edition(record.edition)).to_dict()
    return [line for player in report["players"] for lines in player["explanations"] for line in lines]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_explanation_uses_the_one_sign_in_every_language(lang):
    lines = explanations(lang)
    assert sum(f" {EXPLANATION_SIGN} " in line for line in lines) >= len(lines) // 2
    assert not [line for line in lines if OTHER_SIGNS.search(line)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_command_line_uses_the_same_sign(lang):
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["--lang", lang, "score", str(GAME)])
    assert result.exit_code == 0, result.output
    assert f" {EXPLANATION_SIGN} " in result.output
    assert not OTHER_SIGNS.findall(result.output)


def has_glyph(font_path: Path, char: str) -> bool:
    """Whether the font draws `char` itself (not its "missing glyph" box, as a private-use character gets)."""
    font = ImageFont.truetype(str(font_path), 40)
    return bytes(font.getmask(char)) != bytes(font.getmask("\ue000"))


@pytest.mark.parametrize("font", [APP_FONT, *PRINT_FONTS], ids=lambda p: p.name)
def test_the_sign_is_drawn_by_the_fonts_tourpad_ships(font):
    assert font.is_file()
    assert has_glyph(font, EXPLANATION_SIGN)
    assert not has_glyph(APP_FONT, "→")  # the check can tell: the app's font has no arrow
