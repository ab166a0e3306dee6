"""Every rule has its wording in `rules.wording`, and names come from edition data (singular and plural)."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from rules import wording
from rules.edition import compile_edition, regular_plural
from rules.editions import load_edition
from rules.model import parse_edition
from rules.scoring import CHOICE_RULES, CHOICE_TEXTS, COLLECTION_RULES, THROW_CATCH_RULES


def test_every_rule_chosen_by_name_has_its_wording():
    assert set(THROW_CATCH_RULES) == set(wording.THROW_CATCH_RULE) == set(wording.THROW_CATCH_SHEET)
    assert set(COLLECTION_RULES) == set(wording.COLLECTION_RULE) == set(wording.COLLECTION_SHEET)
    assert set(CHOICE_RULES) == set(CHOICE_TEXTS)


@pytest.mark.parametrize(("edition_id", "singular", "plural", "label"), [
    ("australia", "tourist site", "tourist sites", "Tourist sites"),
    ("europe", "country", "countries", "Countries"),
    ("usa", "town", "towns", "Towns"),
])
def test_site_nouns_come_from_the_edition(edition_id, singular, plural, label):
    edition = load_edition(edition_id)
    assert (edition.site_noun, edition.sites_noun, edition.sites_label) == (singular, plural, label)
    assert wording.category_labels(edition)["sites"] == f"New {plural}"
    assert wording.sites_typed(edition, 2) == f"{label}: +2 new (already in the total)"


def test_a_pack_without_a_plural_gets_the_regular_one():
    doc = tomllib.loads(resources.files("rules.editions").joinpath("europe.toml").read_text(encoding="utf-8"))
    del doc["sites_noun"]
    assert compile_edition(parse_edition(doc)).sites_noun == "countries"
    assert [regular_plural(n) for n in ("city", "bay", "town", "pass")] == ["cities", "bays", "towns", "passes"]


def test_letters_preview_and_explanations_say_countries():
    from rules.scoring import ScoreState, resolve_round

    europe = load_edition("europe")
    rows = [tuple(range(7)), tuple(range(7, 14))]
    _, notes = resolve_round(europe, ScoreState(2), rows, [-1, -1], explain=True)
    assert notes[0][4].startswith("Countries: new A, B, C, D, E, F, G = +7")
