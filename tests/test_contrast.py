"""Every text/background colour pair the app draws meets WCAG AA (4.5:1 text, 3:1 large text and the parts
of a control or chart a player must see), in the light and the dark theme; the ratios are computed from the
colours the screens are given (scorer/ui/theme.py, and the fixed colours of regions, tiles and charts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.editions import bundled_ids, load_edition
from rules.race.board import load_board
from scorer.pad.chart import PLAYER_COLORS
from scorer.pad.contrast import AA_LARGE, AA_TEXT, contrast_ratio, relative_luminance, text_on
from scorer.ui.end import MEDALS
from scorer.ui.pictogram import INK, PAPER
from scorer.ui.race import tile_look
from scorer.ui.sheet import COAST_BLUE
from scorer.ui.theme import DARK, LIGHT, PALETTES, build_theme

UI = Path(__file__).resolve().parent.parent / "scorer" / "ui"
MODES = {"light": LIGHT, "dark": DARK}
SURFACES = ("surface", "surface_container_lowest", "surface_container_low", "surface_container",
            "surface_container_high", "surface_container_highest")
#: The roles the screens write text in, on any of the surfaces (ON_SURFACE_VARIANT for hints, PRIMARY for
#: good news and totals, TERTIARY for notes, ERROR for refusals).
TEXT_ROLES = ("on_surface", "on_surface_variant", "primary", "tertiary", "error")
#: Text on a filled background: the role's "on" colour on it (buttons, chips, the table board's leader).
FILLED = [("on_primary", "primary"), ("on_primary_container", "primary_container"),
          ("on_secondary", "secondary"), ("on_secondary_container", "secondary_container"),
          ("on_tertiary", "tertiary"), ("on_tertiary_container", "tertiary_container"),
          ("on_error", "error"), ("on_error_container", "error_container"),
          ("on_inverse_surface", "inverse_surface"),  # a snack bar
          ("inverse_primary", "inverse_surface"),  # a snack bar's action
          ("on_inverse_surface", "error"),  # an error snack bar (bgcolor ERROR, the snack bar's text colour)
          ("on_surface", "primary_container"), ("on_surface_variant", "primary_container"),  # the board's leader
          ("on_surface", "secondary_container")]  # a selected segment
#: The visible parts of controls against the page (WCAG 1.4.11): a text field's or outlined button's
#: border, a filled button, an icon.
PARTS = [("outline", "surface"), ("primary", "surface"), ("on_surface_variant", "surface"),
         ("outline", "surface_container_highest")]


def pairs():
    for mode, palette in MODES.items():
        for text in TEXT_ROLES:
            for surface in SURFACES:
                yield pytest.param(palette[text], palette[surface], AA_TEXT, id=f"{mode}-{text}-on-{surface}")
        for text, background in FILLED:
            yield pytest.param(palette[text], palette[background], AA_TEXT, id=f"{mode}-{text}-on-{background}")
        for part, background in PARTS:
            yield pytest.param(palette[part], palette[background], AA_LARGE, id=f"{mode}-{part}-on-{background}")


@pytest.mark.parametrize(("foreground", "background", "needed"), list(pairs()))
def test_theme_pair_meets_aa(foreground, background, needed) -> None:
    assert contrast_ratio(foreground, background) >= needed


def test_the_ratio_is_wcags() -> None:
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21)
    assert contrast_ratio("#FFFFFF", "#000000") == pytest.approx(21)
    assert contrast_ratio("#1F7A6D", "#1F7A6D") == pytest.approx(1)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # the classic near-miss grey
    assert relative_luminance("#FF0000") == pytest.approx(0.2126)
    with pytest.raises(ValueError, match="#RRGGBB"):
        relative_luminance("red")


def test_the_theme_gives_flutter_every_colour_it_measures() -> None:
    for dark, palette in PALETTES.items():
        scheme = build_theme(dark).color_scheme
        assert {role: getattr(scheme, role) for role in palette} == palette


def test_screens_name_only_theme_roles() -> None:
    """A named Flet colour that is not a role of the theme (ft.Colors.GREEN, WHITE…) is the same in light
    and dark, and nothing here measures it: each must be a role, or a colour measured below."""
    roles = {role.upper() for role in LIGHT} | {"TRANSPARENT"}
    used = {(path.name, name) for path in UI.glob("*.py")
            for name in re.findall(r"ft\.Colors\.([A-Z_]+)\b", path.read_text(encoding="utf-8"))}
    assert sorted((file, name) for file, name in used if name not in roles) == []


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_letters_on_region_colours_read(edition_id) -> None:
    """A crossed letter, a picked key, a region's label and a solo card are written on the region's colour."""
    for region in load_edition(edition_id).regions:
        assert contrast_ratio(text_on(region.color), region.color) >= AA_TEXT, region.name


def test_race_tiles_read() -> None:
    board = load_board()
    for name in (*board.kind_names(), None):
        background, ink = tile_look(board, name)
        assert contrast_ratio(ink, background) >= AA_TEXT, name


@pytest.mark.parametrize("mode", MODES)
def test_chart_lines_medals_and_rings_show_on_the_page(mode) -> None:
    surface = MODES[mode]["surface"]
    for colour in (*PLAYER_COLORS, *MEDALS.values(), COAST_BLUE):
        assert contrast_ratio(colour, surface) >= AA_LARGE, colour


@pytest.mark.parametrize("dark", [False, True])
def test_pictograms_show_on_their_badge(dark) -> None:
    assert contrast_ratio(INK[dark], PAPER[dark]) >= AA_LARGE
