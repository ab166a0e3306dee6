"""Long French names fit the printables: a USA edition given the French rulebook's names (the longest
words the sheets carry) is drawn in French, and every name is printed whole, inside its sheet or card."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from printables.cards import render_cards
from printables.fonts import BOLD, CONDENSED_BOLD, SANS, register_fonts, text_width
from printables.layout import CARD_WIDTH
from printables.scorepad import DESIGN_W, PadOptions, render_scorepad
from rules.edition import Edition, compile_edition
from rules.editions import load_edition
from rules.i18n import use_language
from rules.model import parse_edition

FRENCH_ICONS = {"Mail Box": "Boîte aux Lettres", "Baseball Cap": "Casquette de Baseball",
                "Football Jersey": "Maillot de Football Américain", "US Flag": "Drapeau des États-Unis",
                "Trout": "Truites", "Cattle": "Bœufs", "Grizzly Bear": "Grizzlis",
                "Bald Eagle": "Aigles à tête blanche", "Big Foot": "Big Foot", "Sightseeing": "Photographie",
                "Sporting Events": "Match", "Hiking": "Randonnée", "Dining": "Restaurant"}
FRENCH_FAMILIES = {"collection": "Objets Typiques Américains", "pairs": "Animaux", "choice": "Activités"}
FRENCH_REGIONS = {"Pacific Northwest": "Nord-Ouest Pacifique", "California & Nevada": "Californie et Nevada",
                  "Mountain West": "Montagnes de l’Ouest", "Great Plains": "Grandes Plaines", "Midwest": "Midwest",
                  "The South": "Le Sud", "Northeast": "Nord-Est"}


def usa_in_french() -> Edition:
    doc = load_edition("usa").spec.model_dump(mode="json", exclude_none=True)
    doc["names"] = {"fr": "Boomerang : USA"}
    for role, name in FRENCH_FAMILIES.items():
        doc[role]["names"] = {"fr": name}
        for icon in doc[role]["icons"]:
            icon["names"] = {"fr": FRENCH_ICONS[icon["name"]]}
    for region in doc["regions"]:
        region["names"] = {"fr": FRENCH_REGIONS[region["name"]]}
    doc["route"]["names"] = {"fr": "D’une côte à l’autre"}
    doc["site_nouns"] = {"fr": ["ville", "villes"]}
    return compile_edition(parse_edition(doc))


def text_of(path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(path).pages).split())


def runs_wider_than(path, page: int, width: float) -> list[str]:
    """Text runs (in the coordinates they were drawn in) that end past ``width`` or start before 0."""
    register_fonts()
    fonts = {"DejaVuSans": SANS, "DejaVuSans-Bold": BOLD, "DejaVuSansCondensed-Bold": CONDENSED_BOLD}
    over = []

    def visit(text, cm, tm, font_dict, size):
        if text.strip() and font_dict:
            font = fonts[str(font_dict["/BaseFont"]).split("+", 1)[1]]
            if tm[4] < -0.01 or tm[4] + text_width(text.strip(), font, size) > width + 0.01:
                over.append(text.strip())

    PdfReader(path).pages[page].extract_text(visitor_text=visit)
    return over


@pytest.fixture(scope="module")
def edition():
    return usa_in_french()


def test_every_french_name_is_printed_whole_on_the_pad(edition, tmp_path):
    pad = tmp_path / "pad.pdf"
    with use_language("fr"):
        render_scorepad(edition, pad, PadOptions(sheets=1))
    text = text_of(pad)
    names = [*FRENCH_ICONS.values(), *FRENCH_FAMILIES.values(), *FRENCH_REGIONS.values(), "D’une côte à l’autre",
             "Boomerang : USA"]
    for name in names:
        assert re.search(r"\s+".join(map(re.escape, name.split())), text), f"{name!r} cut or missing"
    assert runs_wider_than(pad, 0, DESIGN_W) == []


def test_every_french_name_is_printed_whole_on_the_cards(edition, tmp_path):
    cards = tmp_path / "cards.pdf"
    with use_language("fr"):
        render_cards(edition, cards)
    text = text_of(cards)
    for name in [*FRENCH_ICONS.values(), *FRENCH_REGIONS.values()]:
        assert re.search(r"\s+".join(map(re.escape, name.split())), text), f"{name!r} cut or missing"
    # each card is drawn in its own coordinates (translated to its trim box)
    for page in range(len(PdfReader(cards).pages)):
        assert runs_wider_than(cards, page, CARD_WIDTH) == []
