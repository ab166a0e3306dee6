"""The app's pictures in plain Python: the pictograms recoloured for Flutter, and USA's town map."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from printables.icons import available_icons, icon_key
from printables.townmap import DESIGN_W, town_map
from rules.editions import load_edition
from rules.scoring import drawn_pathways
from scorer.pad.pictograms import pictogram_svg
from scorer.pad.townmap import LAYOUT_H, LAYOUT_W, has_town_map, town_map_view
from scorer.ui.pictogram import FALLBACK, card_icon

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_every_bundled_icon_has_a_pictogram(edition_id):
    edition = load_edition(edition_id)
    for family in (edition.collection, edition.pairs, edition.choice):
        for icon in family.icons:
            assert pictogram_svg(icon.name, "#112233", "#FFFFFF") is not None, icon.name


def test_a_name_without_a_pictogram_gives_none():
    assert pictogram_svg("Moon Rocks", "#112233", "#FFFFFF") is None


@pytest.mark.parametrize("key", sorted(available_icons()))
def test_pictograms_are_recoloured_with_no_current_colour_or_class_left(key):
    svg = pictogram_svg(key, "#112233", "#FAFAFA")
    assert icon_key(key) == key
    text = svg.decode()
    assert "currentColor" not in text and "class=" not in text and "ns0:" not in text
    root = ET.fromstring(svg)
    shapes = [el for el in root.iter() if el.tag.removeprefix(SVG) not in ("svg", "g", "title", "desc")]
    assert shapes
    for el in shapes:
        assert el.get("fill") in ("#112233", "#FAFAFA", "none")
        assert el.get("stroke") in (None, "none", "#112233", "#FAFAFA")


def test_card_icon_shows_our_pictogram_or_falls_back_to_a_material_icon():
    ours = card_icon("Indigenous Culture", "choice")
    assert ours.identifier == "pictogram-indigenous-culture"
    assert ours.content.content.src == pictogram_svg("Indigenous Culture", "#1F5F56", "#FFFFFF")
    theirs = card_icon("Moon Rocks", "collection", dark=True)
    assert theirs.identifier == "fallback-moon-rocks" and theirs.content.icon == FALLBACK["collection"]


def test_knocked_out_details_take_the_paper_colour():
    root = ET.fromstring(pictogram_svg("Koalas", "#112233", "#FAFAFA"))
    fills = [el.get("fill") for el in root.iter(f"{SVG}circle")]
    assert fills[:3] == ["#112233"] * 3 and "#FAFAFA" in fills


def test_only_editions_with_pathways_have_a_town_map():
    assert has_town_map(load_edition("usa"))
    assert not has_town_map(load_edition("australia"))
    assert not has_town_map(load_edition("europe"))  # a passport route, no pathways
    with pytest.raises(ValueError, match="no town map"):
        town_map_view(load_edition("australia"), 0, 300)


def test_town_map_is_the_printed_layout_scaled_to_the_screen():
    usa = load_edition("usa")
    view = town_map_view(usa, 0, 346)
    centres, paths = town_map(usa, LAYOUT_W, LAYOUT_H)
    k = 346 / DESIGN_W
    assert len(view.towns) == len(usa.cards) and len(view.pathways) == len(usa.route.edges) == len(paths)
    for town, (x, y) in zip(view.towns, centres, strict=True):
        assert math.isclose(town.x, x * k) and math.isclose(town.y, y * k)
        assert town.x - view.radius >= 0 and town.x + view.radius <= view.width
        assert town.y - view.radius >= 0 and town.y + view.radius <= view.height
    closest = min(math.dist((a.x, a.y), (b.x, b.y)) for i, a in enumerate(view.towns) for b in view.towns[i + 1:])
    assert closest >= 2 * view.radius  # circles never overlap
    coast = usa.route.west_mask | usa.route.east_mask
    assert [t.coast for t in view.towns] == [bool(coast >> i & 1) for i in range(len(usa.cards))]
    assert not any(t.visited for t in view.towns) and not any(p.drawn for p in view.pathways)


def test_visited_towns_and_drawn_pathways_follow_the_rules():
    usa = load_edition("usa")
    a, b = usa.route.edges[0]
    lonely = next(i for i in range(len(usa.cards))
                  if all(i not in edge for edge in usa.route.edges if a in edge or b in edge) and i not in (a, b))
    visited = 1 << a | 1 << b | 1 << lonely
    view = town_map_view(usa, visited, 346)
    assert {t.index for t in view.towns if t.visited} == {a, b, lonely}
    drawn = {frozenset((p.a, p.b)) for p in view.pathways if p.drawn}
    assert drawn == {frozenset(e) for e in drawn_pathways(usa, visited)}
    assert frozenset((a, b)) in drawn
