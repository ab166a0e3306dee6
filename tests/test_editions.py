"""Edition files: Australia matches the verified card list; bad data is refused with a precise message."""

from __future__ import annotations

import copy
import csv
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from rules.edition import compile_edition
from rules.model import EditionDataError, parse_edition

VERIFIED_CSV = Path(__file__).parent / "data" / "boomerang-australia-cards.csv"


def australia_document() -> dict:
    return tomllib.loads(resources.files("rules.editions").joinpath("australia.toml").read_text("utf-8"))


def test_australia_matches_the_verified_card_list(australia):
    rows = list(csv.DictReader(VERIFIED_CSV.open(encoding="utf-8")))
    assert len(rows) == 28
    for row in rows:
        card = australia.cards[australia.card_index(row["letter"])]
        assert card.site == row["site"]
        assert australia.regions[card.region].name == row["region"]
        assert card.number == int(row["number"])
        for family, column in ((australia.collection, "collection"), (australia.pairs, "animal"),
                               (australia.choice, "activity")):
            icon = getattr(card, {"collection": "collection", "animal": "pairs", "activity": "choice"}[column])
            assert (family.icons[icon].name if icon >= 0 else "") == row[column], (row["letter"], column)


def test_australia_icon_distribution_is_the_published_one(australia):
    counts = Counter()
    for card in australia.cards:
        for family, index in ((australia.collection, card.collection), (australia.pairs, card.pairs),
                              (australia.choice, card.choice)):
            if index >= 0:
                counts[family.icons[index].name] += 1
    assert counts == {"Leaves": 5, "Wildflowers": 4, "Shells": 3, "Souvenirs": 1,
                      "Kangaroos": 5, "Emus": 5, "Wombats": 4, "Koalas": 3, "Platypuses": 2,
                      "Indigenous Culture": 6, "Sightseeing": 6, "Bushwalking": 6, "Swimming": 6}
    assert all(sum(i >= 0 for i in (c.collection, c.pairs, c.choice)) == 2 for c in australia.cards)


def test_regions_are_the_rulebook_groupings(australia):
    assert [australia.letters_of(r.mask) for r in australia.regions] == [
        "ABCD", "EFGH", "IJKL", "MNOP", "QRST", "UVWX", "YZ@#"]
    assert {r.bonus for r in australia.regions} == {3}
    assert australia.provenance == "publisher"


def broken(mutate) -> str:
    doc = copy.deepcopy(australia_document())
    mutate(doc)
    with pytest.raises(EditionDataError) as err:
        compile_edition(parse_edition(doc))
    return str(err.value)


def card(doc: dict, letter: str) -> dict:
    return next(c for c in doc["cards"] if c["letter"] == letter)


def test_duplicate_letter_names_both_cards():
    message = broken(lambda d: card(d, "B").update(letter="A"))
    assert "card 'A' (#2)" in message and "already used by card #1" in message


def test_letter_outside_the_alphabet():
    message = broken(lambda d: card(d, "#").update(letter="!"))
    assert "card '!'" in message and "A–Z, @ or #" in message


def test_numbers_must_appear_four_times():
    message = broken(lambda d: card(d, "A").update(number=2))
    assert "number 1" in message and "exactly 4 cards" in message and "B, C, D" in message


def test_unknown_region_names_the_card():
    message = broken(lambda d: card(d, "Q").update(region="Atlantis"))
    assert "card 'Q'" in message and "Atlantis" in message


def test_unknown_icon_names_the_card():
    message = broken(lambda d: card(d, "K").update(icons=["Souvenirs", "Surfing"]))
    assert "card 'K'" in message and "Surfing" in message


def test_two_icons_of_one_family_are_refused():
    message = broken(lambda d: card(d, "C").update(icons=["Shells", "Leaves"]))
    assert "card 'C'" in message and "two Collections icons" in message


def test_icon_counts_are_checked_against_the_rulebook():
    message = broken(lambda d: card(d, "A").update(icons=["Wildflowers", "Indigenous Culture"]))
    assert "Leaves" in message and "5 cards" in message and "4" in message


def test_a_missing_field_names_the_card_and_field():
    message = broken(lambda d: card(d, "M").pop("site"))
    assert "card 'M'" in message and "site" in message


def test_wrong_card_count():
    message = broken(lambda d: d["cards"].pop())
    assert "28 cards" in message and "27" in message


def test_a_region_without_cards_is_refused():
    message = broken(lambda d: d["regions"].append({"name": "Atlantis", "bonus": 3, "color": "#123456"}))
    assert "Atlantis" in message and "no card" in message


def test_number_out_of_range():
    message = broken(lambda d: card(d, "A").update(number=8))
    assert "card 'A'" in message and "number" in message
