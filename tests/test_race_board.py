"""Race Around Europe's board data: the rulebook's facts, real geography, and clear errors for bad data."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
import tomli_w
from typer.testing import CliRunner

from rules.race.board import (
    COLOURS,
    SEAS,
    BoardDataError,
    board_from_text,
    board_pack_from_text,
    load_board,
)

BOARD = load_board()
ISSUE_COUNTRIES = {
    "Bosnia and Herzegovina", "Bulgaria", "Denmark", "England", "France", "Germany", "Greece", "Ireland",
    "Macedonia", "Northern Ireland", "Norway", "Portugal", "Romania", "Russia", "Scotland", "Slovenia",
    "Spain", "Sweden", "Turkey", "Ukraine", "Albania", "Austria", "Belarus", "Belgium", "Croatia",
    "Czech Republic", "Estonia", "Finland", "Hungary", "Iceland", "Italy", "Latvia", "Lithuania",
    "Luxembourg", "Moldova",
    "Montenegro", "Netherlands", "Poland", "Serbia", "Slovakia", "Switzerland", "Wales", "Kosovo", "Malta",
    "Monaco", "Cyprus",
}


def idx(name: str) -> int:
    return BOARD.countries.index(name)


def raw() -> dict:
    return tomllib.loads(resources.files("rules.race").joinpath("board.toml").read_text(encoding="utf-8"))


def country(data: dict, name: str) -> dict:
    return next(c for c in data["countries"] if c["name"] == name)


def test_tile_set_matches_the_rulebook():
    assert set(BOARD.countries) == ISSUE_COUNTRIES
    assert BOARD.provenance == "tourpad"
    kinds = BOARD.tiles
    assert sum(1 for k in kinds if BOARD.is_country(k)) == 52
    assert sum(1 for k in kinds if BOARD.is_plane(k)) == 10
    assert [kinds.count(BOARD.plane_kind(c)) for c in range(5)] == [2] * 5
    assert [kinds.count(BOARD.ship_kind(s)) for s in range(3)] == [4, 3, 2]
    doubled = {BOARD.countries[k] for k in set(kinds) if BOARD.is_country(k) and kinds.count(k) == 2}
    assert doubled == {"Denmark", "France", "Germany", "Russia", "Spain", "Sweden"}


def test_colours_are_balanced_and_spread():
    counts = [BOARD.colour.count(c) for c in range(len(COLOURS))]
    assert all(9 <= k <= 10 for k in counts) and sum(counts) == 46
    for a in range(BOARD.n_countries):
        for b in range(BOARD.n_countries):
            if BOARD.borders(a, b):
                assert BOARD.colour[a] != BOARD.colour[b], (BOARD.countries[a], BOARD.countries[b])


@pytest.mark.parametrize(("a", "b"), [("France", "England"), ("England", "Ireland"),
                                      ("Northern Ireland", "Scotland"), ("Ukraine", "Turkey"),
                                      ("Ukraine", "Bulgaria"), ("Romania", "Turkey"),
                                      ("Sweden", "Denmark")])
def test_ferries_and_the_bridge_count_as_borders(a, b):
    assert BOARD.borders(idx(a), idx(b)) and BOARD.borders(idx(b), idx(a))


@pytest.mark.parametrize(("a", "b"), [("England", "Wales"), ("England", "Scotland"),
                                      ("Ireland", "Northern Ireland"),
                                      ("Russia", "Poland"), ("Russia", "Lithuania"), ("Kosovo", "Serbia"),
                                      ("Austria", "Switzerland"), ("Spain", "France"), ("Monaco", "France")])
def test_real_land_borders(a, b):
    assert BOARD.borders(idx(a), idx(b))


@pytest.mark.parametrize(("a", "b"), [("Norway", "Greece"), ("Wales", "Ireland"), ("Denmark", "Norway"),
                                      ("Scotland", "Ireland"), ("Turkey", "Cyprus"), ("Italy", "Malta")])
def test_not_borders(a, b):
    assert not BOARD.borders(idx(a), idx(b))


def test_islands_without_a_ferry_have_no_borders():
    for name in ("Iceland", "Malta", "Cyprus"):
        assert BOARD.neighbours[idx(name)] == 0


def test_seas_follow_the_map_information():
    def on(name, sea):
        return BOARD.on_sea(idx(name), SEAS.index(sea))

    for name in ("Germany", "Denmark", "Sweden", "Russia"):
        assert on(name, "Baltic") and on(name, "Atlantic")
    for name in ("Spain", "France"):
        assert on(name, "Mediterranean") and on(name, "Atlantic")
    assert on("Bosnia and Herzegovina", "Mediterranean")
    assert on("Slovenia", "Mediterranean") and on("Turkey", "Mediterranean") and on("Portugal", "Atlantic")
    assert on("Norway", "Atlantic") and not on("Norway", "Baltic")
    assert not on("Finland", "Atlantic") and on("Finland", "Baltic")
    # the Black Sea is not used: these are on no sea of the game
    for name in ("Ukraine", "Romania", "Bulgaria", "Moldova"):
        assert BOARD.seas[idx(name)] == 0


def load_modified(change) -> None:
    data = raw()
    change(data)
    board_from_text(tomli_w.dumps(data))


def test_unknown_country_in_a_border_is_named():
    with pytest.raises(BoardDataError, match="country 'Spain': border 'Andorra' is not a country"):
        load_modified(lambda d: country(d, "Spain")["borders"].append("Andorra"))


def test_asymmetric_border_is_named():
    with pytest.raises(BoardDataError, match="'Portugal' does not list 'Spain'"):
        load_modified(lambda d: country(d, "Portugal").update(borders=[]))


def test_unbalanced_colours_are_refused_for_tourpads_board():
    with pytest.raises(BoardDataError, match=r"colour 'pink'.*pink has 8"):
        load_modified(lambda d: country(d, "Spain").update(colour="yellow"))


def test_wrong_tile_count_and_unknown_sea_and_colour():
    with pytest.raises(BoardDataError, match="country 'Italy': has 1 tile"):
        load_modified(lambda d: country(d, "Italy").update(tiles=2))
    with pytest.raises(BoardDataError, match="sea 'Black Sea'"):
        load_modified(lambda d: country(d, "Ukraine")["seas"].append("Black Sea"))
    with pytest.raises(BoardDataError, match="country 'Italy': colour 'red'"):
        load_modified(lambda d: country(d, "Italy").update(colour="red"))
    with pytest.raises(BoardDataError, match=r"country 'Italy'.borders"):
        load_modified(lambda d: country(d, "Italy").update(borders="France"))


def test_unknown_country_in_a_crossing():
    with pytest.raises(BoardDataError, match="ferry France–Englnd: 'Englnd' is not a country"):
        load_modified(lambda d: d["crossings"][0].update(between=["France", "Englnd"]))


def pack(colours: dict, **extra) -> str:
    return tomli_w.dumps({"id": "mine", "name": "My board", "colours": colours, **extra})


def test_board_pack_recolours_and_keeps_geography():
    board = board_pack_from_text(pack({"Malta": "blue", "Iceland": "pink"}))
    assert board.provenance == "owner" and board.id == "mine"
    assert COLOURS[board.colour[idx("Malta")]] == "blue"
    assert COLOURS[board.colour[idx("Iceland")]] == "pink"
    assert board.neighbours == BOARD.neighbours and board.seas == BOARD.seas
    assert board.colour[idx("Spain")] == BOARD.colour[idx("Spain")]


def test_board_pack_errors_are_specific():
    with pytest.raises(BoardDataError, match=r"colours.spain: 'spain' is not .*did you mean 'Spain'"):
        board_pack_from_text(pack({"spain": "blue"}))
    with pytest.raises(BoardDataError, match=r"colours.Spain: colour 'purple'"):
        board_pack_from_text(pack({"Spain": "purple"}))
    with pytest.raises(BoardDataError, match="id: \"tourpad\" is the bundled board"):
        board_pack_from_text(tomli_w.dumps({"id": "tourpad", "name": "x", "colours": {"Spain": "blue"}}))
    blue = [n for i, n in enumerate(BOARD.countries) if COLOURS[BOARD.colour[i]] == "blue"]
    with pytest.raises(BoardDataError, match=r"colour 'blue'.*aeroplane needs at least two"):
        board_pack_from_text(pack(dict.fromkeys(blue[1:], "green")))
    with pytest.raises(BoardDataError, match="not valid TOML"):
        board_pack_from_text("id = ")


def test_board_cli_import_export(tmp_path, monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "data"))
    from scorer.cli import app

    runner = CliRunner()
    out = tmp_path / "pack.toml"
    assert runner.invoke(app, ["board", "export", "--id", "family", "-o", str(out)]).exit_code == 0
    text = out.read_text().replace('Malta = "yellow"', 'Malta = "purple"')
    out.write_text(text)
    bad = runner.invoke(app, ["board", "import", str(out)])
    assert bad.exit_code == 2 and "Malta" in bad.output
    assert "family" not in runner.invoke(app, ["board", "list"]).output  # nothing installed
    out.write_text(text.replace('Malta = "purple"', 'Malta = "green"'))
    good = runner.invoke(app, ["board", "import", str(out)])
    assert good.exit_code == 0 and "Malta" in good.output
    shown = runner.invoke(app, ["board", "show", "family", "--json"])
    assert '"colour": "green"' in shown.output
