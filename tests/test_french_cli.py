"""The `tourpad` command and its printables in French: `--lang`, the terminal's language, and refusals."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from rules.i18n import use_language
from scorer.cli import app
from scorer.locale import ngettext

#: Help is laid out for the terminal's width: a wide one, so a phrase is never cut by a line break here.
runner = CliRunner(env={"COLUMNS": "200"})
FRENCH_TERMINAL = {"LANG": "fr_FR.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None}
GERMAN_TERMINAL = {"LANG": "de_DE.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None}
NB = "\u00a0"  # French puts a no-break space before « : »


def pdf_text(path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def test_a_french_usa_pad_prints_the_sheet_s_own_words_in_french(tmp_path):
    pad = tmp_path / "pad.pdf"
    result = runner.invoke(app, ["print", "scorepad", "--edition", "usa", "--lang", "fr", "-o", str(pad)])
    assert result.exit_code == 0, result.output
    text = pdf_text(pad)
    french = ("Feuille de score · 4 manches", "Joueur", "Manche 1", "Manche 4", "Référence", "CÔTE OUEST",
              "CÔTE EST", "En fin de partie", "Bonus de région", "Totaux des catégories", "TOTAL FINAL",
              "de l’icône choisie sur vos 7 cartes")
    for words in french:
        assert words in text, words
    english = ("Score sheet", "Player", "Round 1", "Reference", "WEST COAST", "EAST COAST", "At the end of the game",
               "Region bonuses", "Category totals", "GRAND TOTAL", "of the chosen icon")
    for words in english:
        assert words not in text, words
    assert PdfReader(pad).metadata.title == "Boomerang\u00a0: USA — carnet de score"
    assert f"{pad} écrit{NB}: 4 feuilles de Boomerang{NB}: USA sur 4 pages a4" in result.output


def test_the_same_command_without_lang_prints_english(tmp_path):
    pad = tmp_path / "pad.pdf"
    result = runner.invoke(app, ["print", "scorepad", "--edition", "usa", "-o", str(pad)])
    assert result.exit_code == 0, result.output
    assert "GRAND TOTAL" in pdf_text(pad) and "TOTAL FINAL" not in pdf_text(pad)
    assert "wrote" in result.output


def test_lang_before_the_command_and_race_sheets_in_french(tmp_path):
    tiles, board = tmp_path / "tiles.pdf", tmp_path / "map.pdf"
    assert runner.invoke(app, ["--lang", "fr", "print", "race-tiles", "--no-backs", "-o", str(tiles)]).exit_code == 0
    assert runner.invoke(app, ["print", "--lang", "fr", "race-map", "-o", str(board)]).exit_code == 0
    tile_text, map_text = pdf_text(tiles), pdf_text(board)
    assert tile_text.count("AVION") == 10 and "AEROPLANE" not in tile_text
    assert "ATLANTIQUE" in tile_text and "Frontières" in tile_text and "Borders:" not in tile_text
    assert "carte de référence" in map_text and "frontière terrestre" in map_text and "land border" not in map_text
    for text in (tile_text, map_text):  # the countries too, a long hyphenated one broken after its hyphen
        assert "Allemagne" in text and "Pays de Galles" in text and "Germany" not in text
        assert re.search(r"Bosnie-\s?Herzégovine", text)


@pytest.mark.parametrize("args", [
    ["print", "scorepad", "--edition", "usa", "--lang", "de"],
    ["--lang=de", "print", "cards"],
])
def test_an_unknown_language_is_refused_before_anything_is_written(tmp_path, args):
    out = tmp_path / "out.pdf"
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 2
    assert "tourpad does not speak 'de': choose one of en (English), fr (Français)" in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_french_terminal_gets_french_help_and_lang_en_overrides_it():
    french = runner.invoke(app, ["--help"], env=FRENCH_TERMINAL)
    assert french.exit_code == 0
    assert "carnet de score" in french.output and "Commandes" in french.output
    assert "Afficher cette aide et quitter." in french.output and "Show this message" not in french.output
    english = runner.invoke(app, ["--help", "--lang", "en"], env=FRENCH_TERMINAL)
    assert "score pad, printables" in english.output and "Commands" in english.output
    assert "Show this message and exit." in english.output


def test_print_help_follows_lang_wherever_it_stands():
    result = runner.invoke(app, ["print", "--help", "--lang", "fr"])
    assert result.exit_code == 0
    assert "Imprimer en PDF les carnets de score" in result.output
    scorepad = runner.invoke(app, ["print", "scorepad", "--help", "--lang", "fr"])
    assert "nombre de feuilles" in scorepad.output and "[par défaut" in scorepad.output
    assert "number of sheets" not in scorepad.output and "[default:" not in scorepad.output


def test_a_terminal_in_a_language_tourpad_does_not_speak_gets_english():
    result = runner.invoke(app, ["--help"], env=GERMAN_TERMINAL)
    assert result.exit_code == 0 and "score pad, printables" in result.output


def test_french_plurals_in_a_cli_message(tmp_path):
    one = runner.invoke(app, ["print", "scorepad", "--sheets", "1", "--lang", "fr", "-o", str(tmp_path / "1.pdf")])
    two = runner.invoke(app, ["print", "scorepad", "--sheets", "2", "--compact", "--lang", "fr",
                              "-o", str(tmp_path / "2.pdf")])
    assert re.search(rf"écrit{NB}: 1 feuille de Boomerang{NB}: Australie sur 1 page a4$", one.output.strip())
    assert re.search(rf"écrit{NB}: 2 feuilles de Boomerang{NB}: Australie sur 1 page a4$", two.output.strip())
    with use_language("fr"):  # French takes the singular for 0 as for 1
        assert ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 carte"
        assert ngettext("{n} card", "{n} cards", 2).format(n=2) == "2 cartes"


def test_french_refusals_and_tables_of_other_commands(tmp_path):
    record = tmp_path / "game.json"
    record.write_text("{not json")
    result = runner.invoke(app, ["--lang", "fr", "score", str(record)])
    assert result.exit_code == 2 and "erreur" in result.output and "n’est pas du JSON valide" in result.output
    deck = runner.invoke(app, ["--lang", "fr", "deck", "usa"])
    assert deck.exit_code == 0 and "Lettre" in deck.output and "côte Ouest" in deck.output


def test_board_show_names_colours_seas_and_crossings_in_french():
    result = runner.invoke(app, ["--lang", "fr", "board", "show"])
    assert result.exit_code == 0, result.output
    assert "Méditerranée" in result.output and "Mediterranean" not in result.output
    assert "│ vert " in result.output and "│ green " not in result.output
    assert "pont Sweden – Denmark" in result.output and "Traversées" in result.output
    english = runner.invoke(app, ["board", "show"])
    assert "Mediterranean" in english.output and "bridge Sweden – Denmark" in english.output


def test_the_command_s_language_is_the_process_default_so_each_app_session_keeps_its_own(tmp_path):
    from rules import i18n

    assert runner.invoke(app, ["--lang", "fr", "print", "race-map", "-o", str(tmp_path / "m.pdf")]).exit_code == 0
    assert i18n.current_language() == "fr"  # the host's threads and the app's sessions start from it …
    i18n.set_language_source(lambda: "en")  # … and a phone's own language (the app's source) still wins
    try:
        assert i18n.current_language() == "en"
    finally:
        i18n.set_language_source(None)
