"""Test editions with Europe's and USA's shapes (passport; town map with coasts; regions of 2–5 sites
with 2–5 point bonuses; treasures by player count), built from Australia's deck so every count rule
holds. They exercise the printables' layouts whatever bundled data exists."""

from __future__ import annotations

from rules.edition import Edition, compile_edition
from rules.editions import load_edition
from rules.model import LETTERS, parse_edition

_USA_ICONS = {"Leaves": "Mail Box", "Wildflowers": "Baseball Cap", "Shells": "Football Jersey",
              "Souvenirs": "US Flag", "Kangaroos": "Trout", "Emus": "Cattle", "Wombats": "Grizzly Bear",
              "Koalas": "Bald Eagle", "Platypuses": "Big Foot", "Indigenous Culture": "Sightseeing",
              "Sightseeing": "Sporting Events", "Bushwalking": "Hiking", "Swimming": "Dining"}
_EUROPE_ICONS = {"Leaves": "Beer", "Wildflowers": "Cheese", "Shells": "Wine", "Souvenirs": "Spirits",
                 "Kangaroos": "Cars", "Emus": "Trains", "Wombats": "Bicycles", "Koalas": "Boats",
                 "Platypuses": "Planes", "Indigenous Culture": "Art", "Sightseeing": "Architecture",
                 "Bushwalking": "Music", "Swimming": "Natural Wonders"}
LONG_SITE = "Royal Exhibition Building and Carlton Gardens, Mel"[:48]


def _renamed(doc: dict, names: dict[str, str]) -> dict:
    for role in ("collection", "pairs", "choice"):
        for icon in doc[role]["icons"]:
            icon["name"] = names[icon["name"]]
    for card in doc["cards"]:
        card["icons"] = [names[i] for i in card["icons"]]
    return doc


def usa_like() -> Edition:
    """Seven regions of four towns (one column of the map each); pathways along rows and columns, plus
    a long one (A–C) that must bend round B; west coast = first region, east coast = last."""
    doc = _renamed(load_edition("australia").spec.model_dump(mode="json", exclude_none=True), _USA_ICONS)
    doc.update(id="usa-test", name="Boomerang: USA (test)", provenance="owner", site_noun="town",
               throw_catch="throw_if_caught", tie_breakers=["route", "throw_catch"])
    doc["collection"].update(id="americana", name="Americana", rule="must_beat_previous")
    doc["route"] = {"kind": "coast", "id": "coast", "name": "Coast to coast", "tiers": [7, 3, 1],
                    "last_tier_min_players": 3, "last_tier_repeats": True}
    columns = [LETTERS[i:i + 4] for i in range(0, 28, 4)]  # cards come in region order
    edges = []
    for col, towns in enumerate(columns):
        edges += [[towns[r], towns[r + 1]] for r in range(3)]
        if col + 1 < len(columns):
            edges += [[towns[r], columns[col + 1][r]] for r in range(4)]
    edges.append([columns[0][0], columns[0][2]])
    doc["map"] = {"edges": edges, "west_coast": list(columns[0]), "east_coast": list(columns[-1])}
    doc["cards"][0]["site"] = LONG_SITE
    return compile_edition(parse_edition(doc))


def europe_like() -> Edition:
    """Eight regions of 2–5 countries with bonuses 2–5, the passport bonus and national treasures."""
    doc = _renamed(load_edition("australia").spec.model_dump(mode="json", exclude_none=True), _EUROPE_ICONS)
    doc.update(id="europe-test", name="Boomerang: Europe (test)", provenance="owner", site_noun="country",
               tie_breakers=["route", "throw_catch"])
    doc["collection"].update(id="cuisine", name="Cuisine", rule="halve_above_7")
    doc["pairs"].update(id="transport", name="Transport")
    doc["choice"] = {"id": "treasures", "name": "National Treasures", "rule": "treasure_others",
                     "per_icon_by_players": {"2": 4, "3": 3, "4": 2},
                     "icons": [{"name": i["name"], "count": i.get("count")} for i in doc["choice"]["icons"]]}
    doc["route"] = {"kind": "passport", "id": "passport", "name": "Passport", "tiers": [7, 3, 1],
                    "last_tier_min_players": 3}
    sizes = [2, 3, 4, 4, 3, 5, 4, 3]
    names = ["British Isles", "Iberia", "France & the Alps", "Italy & Malta", "Benelux",
             "Nordic Countries", "Central Europe", "Southeast Europe"]
    colours = ["#2E7D32", "#C62828", "#1565C0", "#EF6C00", "#F9A825", "#00838F", "#6A1B9A", "#8D6E63"]
    doc["regions"] = [{"name": n, "bonus": 2 + k % 4, "color": c}
                      for k, (n, c) in enumerate(zip(names, colours, strict=True))]
    region_of = [names[k] for k, size in enumerate(sizes) for _ in range(size)]
    by_letter = {card["letter"]: card for card in doc["cards"]}
    for letter, region in zip(LETTERS, region_of, strict=True):
        by_letter[letter]["region"] = region
    by_letter["Q"]["site"] = "Bosnia and Herzegovina"
    return compile_edition(parse_edition(doc))


def big_region_pack() -> Edition:
    """An owner's pack with one 20-site region (its letters must wrap) and two small ones."""
    doc = load_edition("australia").spec.model_dump(mode="json", exclude_none=True)
    doc.update(id="big-region-test", name="Big Region Pack (test)", provenance="owner")
    doc["regions"] = [{"name": "Outback and Everything Else Combined", "bonus": 5, "color": "#8D6E63"},
                      {"name": "North", "bonus": 3, "color": "#2E7D32"},
                      {"name": "South", "bonus": 3, "color": "#1565C0"}]
    by_letter = {card["letter"]: card for card in doc["cards"]}
    for k, letter in enumerate(LETTERS):
        by_letter[letter]["region"] = doc["regions"][0 if k < 20 else 1 if k < 24 else 2]["name"]
    return compile_edition(parse_edition(doc))
