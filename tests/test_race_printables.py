"""Race Around Europe printables: every tile on the sheets, the map names every country and crossing."""

from __future__ import annotations

from pypdf import PdfReader
from typer.testing import CliRunner

from printables.race import render_map, render_tiles
from rules.race.board import load_board
from scorer.cli import app

BOARD = load_board()


def page_texts(path) -> list[str]:
    return [page.extract_text() for page in PdfReader(str(path)).pages]


def test_tile_sheets_hold_the_whole_set_with_backs(tmp_path, monkeypatch):
    import printables.race as race

    drawn = []
    real = race._tile_front
    monkeypatch.setattr(race, "_tile_front", lambda c, board, kind, x, y: (drawn.append(kind),
                                                                            real(c, board, kind, x, y)))
    path = tmp_path / "tiles.pdf"
    assert render_tiles(BOARD, path, "a4", backs=True) == 4  # 71 tiles: 2 pages of 36, each with backs
    assert sorted(drawn) == sorted(BOARD.tiles)  # every tile of the set exactly once
    fronts = " ".join("\n".join(page_texts(path)[0::2]).split())
    for name in BOARD.countries:
        assert name in fronts, name
    assert fronts.count("AEROPLANE") == 10
    assert fronts.count("ATLANTIC") == 4 and fronts.count("MEDITERRANEAN") == 3 and fronts.count("BALTIC") == 2
    assert "No border: ship or aeroplane only" in fronts  # Iceland, Malta, Cyprus
    assert "AROUND" in page_texts(path)[1]
    assert render_tiles(BOARD, tmp_path / "plain.pdf", "letter", backs=False) == 2


def test_map_is_one_page_with_every_country(tmp_path):
    path = tmp_path / "map.pdf"
    render_map(BOARD, path, "a4")
    texts = page_texts(path)
    assert len(texts) == 1
    flat = " ".join(texts[0].split())
    for name in BOARD.countries:
        assert all(word in flat for word in name.split()), name
    assert "ferry" in flat and "bridge" in flat and "Black Sea is not used" in flat


def test_print_commands(tmp_path):
    runner = CliRunner()
    out = tmp_path / "m.pdf"
    result = runner.invoke(app, ["print", "race-map", "-o", str(out)])
    assert result.exit_code == 0 and out.stat().st_size > 1000
    bad = runner.invoke(app, ["print", "race-tiles", "-o", str(tmp_path / "t.pdf"), "--paper", "a3"])
    assert bad.exit_code == 2 and "'a3' is not one of 'a4', 'letter'" in " ".join(bad.output.split())
    nowhere = runner.invoke(app, ["print", "race-map", "-o", str(tmp_path / "no" / "such" / "m.pdf")])
    assert nowhere.exit_code == 2 and "does not exist" in nowhere.output
    missing = runner.invoke(app, ["print", "race-tiles", "-o", str(tmp_path / "t.pdf"), "--board", "nope"])
    assert missing.exit_code == 2 and "unknown board 'nope'" in missing.output


def test_sea_badges_carry_the_seas_initial_in_french_too():
    """The badge letter was the label's first letter: "l'Atlantique" made every French badge an "l"."""
    from printables.race import sea_initial
    from rules.i18n import use_language

    assert [sea_initial(s) for s in ("Atlantic", "Mediterranean", "Baltic")] == ["A", "M", "B"]
    with use_language("fr"):
        assert [sea_initial(s) for s in ("Atlantic", "Mediterranean", "Baltic")] == ["A", "M", "B"]
