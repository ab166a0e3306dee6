"""The rules' words in French: score explanations, round summaries, refusals, plural forms, and the
editions' French names (with an owner's pack that gives none falling back to its English names).

English stays the source text; the English tests (`test_wording.py`, `test_bonus_summary.py`, …) keep it as
it was. Here every text is read inside `use_language("fr")`, as the app, the CLI and the printables ask.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deck_helpers import fill_row, mask_of, with_icon

from rules import wording
from rules.categories import normalise
from rules.edition import compile_edition
from rules.editions import bundled_ids, edition_from_text, load_edition
from rules.engine import IllegalAction
from rules.i18n import use_language
from rules.model import EditionDataError, parse_edition
from rules.race.board import board_pack_from_text, load_board
from rules.race.engine import RaceGame, place
from rules.race.journey import check_journey
from rules.record import GameRecord, parse_record, round_summaries, score_record
from rules.scoring import score_pairs
from rules.text import TextError, clean_name
from rules.validation import CardClash, Entered, RuleError, parse_row, validate_round

DATA = Path(__file__).parent / "data"
USA = load_edition("usa")
NBSP, NNBSP = "\u00a0", "\u202f"


def usa_acceptance_game() -> GameRecord:
    return GameRecord.model_validate(json.loads((DATA / "table_usa_acceptance.json").read_text()))


def test_a_usa_round_is_explained_in_french_with_the_rulebooks_words():
    with use_language("fr"):
        report = score_record(usa_acceptance_game(), USA)
    ann_round_3 = report.notes[0][2]
    assert ann_round_3 == [
        f"Lancer et Réception{NBSP}: Lancer X (4), Réception @ (7) = 4 "
        "(le chiffre du Lancer si la Réception est au moins aussi haute, sinon 0)",
        f"Objets Typiques Américains{NBSP}: Boîte aux Lettres 1×1 + Casquette de Baseball 2×1 = 3, "
        "plus que les 0 de la manche précédente = 3",
        f"Animaux{NBSP}: Truites ×2 (1 paire) = 3, Bœufs ×3 (1 paire) = 4, "
        "Aigles à tête blanche ×1 (aucune paire) = 0 — total 7",
        f"Activités{NBSP}: Photographie ×3 = 4",
        f"Villes{NBSP}: nouvelles lettres E, N, O, V, X, @ = +6 (déjà dans le total)",
        f"Bonus de région{NBSP}: région «{NBSP}Grandes Plaines{NBSP}» complétée en premier (partagé) = +3",
        f"D'une côte à l'autre{NBSP}: réussi (palier partagé) = +7",
    ]
    # Americana's "must beat": not beating last round's total scores 0
    assert (f"Objets Typiques Américains{NBSP}: Boîte aux Lettres 1×2 + Drapeau des États-Unis 5×1 = 7, "
            "pas plus que les 7 de la manche précédente = 0") in report.notes[0][1]
    # the points are the game's, whatever the language
    assert report.totals == [116, 79, 102]


def test_four_of_one_animal_are_two_pairs_in_french():
    trout = with_icon(USA, "Trout")[:4]
    row = fill_row(USA, trout, free_of=("pairs",))
    with use_language("fr"):
        points, text = score_pairs(USA, mask_of(row), explain=True)
    assert points == 6
    assert text == f"Animaux{NBSP}: Truites ×4 (2 paires) = 6 — total 6"


def test_the_round_summaries_say_who_took_which_bonus_in_french():
    record = usa_acceptance_game()
    with use_language("fr"):
        summaries = round_summaries(USA, parse_record(record, USA)[0], record.players)
    assert summaries[2] == [
        f"Région «{NBSP}Grandes Plaines{NBSP}» complétée à cette manche par Ann et Bob{NBSP}: +3 par personne",
        f"Région «{NBSP}Midwest{NBSP}» complétée en premier par Cy{NBSP}: +3",
        f"Région «{NBSP}Nord-Est{NBSP}» complétée en premier par Bob{NBSP}: +3",
        f"Ann et Bob relient les deux côtes à cette manche{NBSP}: première place, +7 par personne",
    ]
    assert summaries[3] == [
        f"Région «{NBSP}Californie et Nevada{NBSP}» complétée à cette manche par Ann et Cy{NBSP}: +3 par personne",
        f"Cy prend la deuxième place d'une côte à l'autre{NBSP}: +3",
        f"Région «{NBSP}Midwest{NBSP}» complétée aussi par Ann, mais son bonus est allé à Cy à la manche 3"
        f"{NBSP}: pas de bonus",
        f"Région «{NBSP}Nord-Est{NBSP}» complétée aussi par Cy, mais son bonus est allé à Bob à la manche 3"
        f"{NBSP}: pas de bonus",
    ]


def test_a_refusal_in_french_names_the_round_the_player_and_the_letter():
    with use_language("fr"), pytest.raises(CardClash) as clash:
        validate_round(USA, 1, ["Ann", "Bob"], {0: Entered("ABCDEFG"), 1: Entered("CHIJKLM")}, [{}, {}], focus=1)
    assert str(clash.value) == (f"manche 1, Bob{NBSP}: lettre C déjà prise par Ann à la manche 1{NNBSP}; "
                                "chaque carte n'est draftée qu'une fois par manche")
    with use_language("fr"), pytest.raises(RuleError) as twice:
        parse_row(USA, "ABCA", "manche 2, Ann")
    assert str(twice.value) == (f"manche 2, Ann{NBSP}: la lettre 'A' apparaît deux fois{NNBSP}; "
                                "chaque carte n'est draftée qu'une fois par manche")
    with use_language("fr"), pytest.raises(RuleError, match="'Ä' n'est pas une carte de Boomerang\u00a0: USA"):
        parse_row(USA, "ABÄ", "manche 1, Ann")


def test_a_used_up_activity_is_refused_by_its_french_name():
    hiking = USA.choice.icon_index("Hiking")
    row = fill_row(USA, with_icon(USA, "Hiking")[:1])
    letters = "".join(USA.cards[c].letter for c in row)
    with use_language("fr"), pytest.raises(RuleError) as used:
        validate_round(USA, 3, ["Ann", "Bob"], {0: Entered(letters, "Randonnée")}, [{hiking: 1}, {}])
    assert str(used.value).startswith(f"manche 3, Ann{NBSP}: Randonnée a déjà rapporté des points à la manche 1")


@pytest.mark.parametrize("count, sites, row", [
    (0, f"Villes{NBSP}: +0 nouvelle lettre (déjà dans le total)", "0 carte (aucune)"),
    (1, f"Villes{NBSP}: +1 nouvelle lettre (déjà dans le total)", "1 carte (A)"),
    (2, f"Villes{NBSP}: +2 nouvelles lettres (déjà dans le total)", "2 cartes (AB)"),
])
def test_french_plurals_take_the_singular_for_0_and_1(count, sites, row):
    with use_language("fr"):
        assert wording.sites_typed(USA, count) == sites
        assert wording.row_length("manche 1", count, "AB"[:count], 7).startswith(f"manche 1{NBSP}: {row}{NNBSP};")
        assert wording.pairs_count(count) == ["aucune paire", "1 paire", "2 paires"][count]


def test_the_english_plural_of_a_short_row_stays_as_it_was_for_two_and_more():
    assert wording.row_length("round 1", 2, "AB", 7) == ("round 1: 2 cards (AB); a round's row has exactly 7, "
                                                          "Throw first and Catch last")
    assert wording.pairs_count(0) == "no pair" and wording.pairs_count(2) == "2 pairs"


def test_the_rule_tables_a_pad_reads_by_key_are_translated_when_read():
    with use_language("fr"):
        assert wording.THROW_CATCH_SHEET["throw_if_caught"] == (
            f"Réception ≥ Lancer{NBSP}: marquez le chiffre du Lancer. Réception < Lancer{NBSP}: 0.")
        assert wording.throw_catch_name() == "Lancer et Réception"
        assert wording.tie_sheet(USA) == (f"Égalité{NBSP}: le plus de points en D'une côte à l'autre, "
                                          "puis Lancer et Réception l'emporte.")
        assert USA.category_names()["regions"] == "Bonus de région"
        assert USA.provenance_label == "création print-and-play de tourpad"
    assert set(wording.THROW_CATCH_SHEET) == {"difference", "throw_if_caught"}
    assert wording.THROW_CATCH_SHEET["difference"] == "Score the difference between your Throw and Catch numbers."


def test_category_mode_takes_french_names_and_keeps_the_english_keys():
    values = {"throw": "3", "catch": "5", "choice": "randonnée", "choice_count": "2", "regions": ["Grandes Plaines"]}
    with use_language("fr"):
        normalised = normalise(USA, values)
        labels = wording.category_labels(USA)
    assert normalised["choice"] == "Hiking" and normalised["regions"] == ["Great Plains"]
    assert labels["throw"] == "Chiffre de la carte Lancer"
    assert labels["sites"] == "Nouvelles lettres (villes)"


def test_a_name_refusal_is_french():
    with use_language("fr"), pytest.raises(TextError, match="un nom ne peut pas contenir une tabulation"):
        clean_name("Ann\tBob")


def test_a_deck_pack_refusal_is_french():
    data = USA.spec.model_dump(mode="json", exclude_none=True)
    data["cards"] = data["cards"][:27]
    refused = f"un paquet a 28 cartes .*{NNBSP}; celui-ci en a 27"
    with use_language("fr"), pytest.raises(EditionDataError, match=refused):
        parse_edition(data)


# --- the editions' French names ------------------------------------------------------------------------------

def named_things(edition):
    yield "edition", edition
    for family in (edition.collection, edition.pairs, edition.choice):
        yield f"family {family.id}", family
        for icon in family.icons:
            yield f"icon {icon.name}", icon
    for region in edition.regions:
        yield f"region {region.name}", region
    if edition.route is not None:
        yield f"route {edition.route.id}", edition.route


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_bundled_edition_names_everything_in_french(edition_id):
    edition = load_edition(edition_id)
    missing = [what for what, thing in named_things(edition) if "fr" not in dict(thing.names)]
    missing += [f"card {card.letter}" for card in edition.cards if "fr" not in dict(card.site_names)]
    if "fr" not in {lang for lang, _one, _many in edition.site_nouns}:
        missing.append("site_nouns")
    assert missing == []
    with use_language("fr"):
        assert edition.label.startswith(f"Boomerang{NBSP}: ")
        assert edition.sites_label in ("Sites touristiques", "Pays", "Villes")


def test_an_owners_pack_without_french_names_falls_back_to_its_english_names():
    data = USA.spec.model_dump(mode="json", exclude_none=True)
    data.update(id="my-usa", name="My USA", provenance="owner")
    data.pop("names"), data.pop("site_nouns")
    for key in ("collection", "pairs", "choice", "route"):
        data[key].pop("names")
        for icon in data[key].get("icons", []):
            icon.pop("names")
    for region in data["regions"]:
        region.pop("names")
    for card in data["cards"]:
        card.pop("site_names")
    pack = compile_edition(parse_edition(data))
    with use_language("fr"):
        assert pack.label == "My USA"
        assert [i.label for i in pack.pairs.icons] == [i.name for i in pack.pairs.icons]
        assert pack.regions[0].label == "Pacific Northwest" and pack.cards[0].site_label == "Seattle, WA"
        assert pack.site_noun_label(plural=True) == "towns" and pack.sites_label == "Towns"
        # the rules' own words are still French around the English names
        assert pack.category_names()["throw_catch"] == "Lancer et Réception"


# --- Race Around Europe ---------------------------------------------------------------------------------------

def test_a_broken_journey_is_explained_in_french_with_french_place_names():
    board = load_board()
    journey = [board.kind_of(name) for name in ("Spain", "pink aeroplane", "France", "Switzerland", "Atlantic ship",
                                                "Spain", "Spain", "Portugal", "Italy", "Atlantic ship")]
    with use_language("fr"):
        check = check_journey(board, journey)
        said = [str(b) for b in check.breaks] + [str(p) for p in check.problems]
    assert said == [
        f"étapes 2–3{NBSP}: France{NBSP}: orange, pas rose{NNBSP}; "
        "l'avion rose ne relie que des pays de sa couleur (rose)",
        f"étapes 4–5{NBSP}: Suisse{NBSP}: pas de côte sur l'Atlantique, le bateau de l'Atlantique ne peut pas y aller",
        f"étapes 6–7{NBSP}: les deux tuiles Espagne ne peuvent pas se suivre",
        f"étapes 8–9{NBSP}: Portugal – Italie{NBSP}: pas de frontière commune (ni terrestre, ni ferry, ni pont)",
        # a ship at trip 10 is broken by the missing country first (no coast would mend it)
        f"étapes 9–10{NBSP}: bateau de l'Atlantique à l'étape 10{NBSP}: aucun pays après",
        f"étape 10{NBSP}: un voyage doit finir par une tuile pays, pas par{NBSP}: bateau de l'Atlantique",
        f"étapes 1, 6, 7{NBSP}: Espagne apparaît 3 fois, mais le jeu n'a que 2 tuiles Espagne",
    ]
    # the same journey in English, word for word as before
    assert str(check_journey(board, journey).breaks[2]) == "trips 6–7: the two Spain tiles may not be side by side"


def test_every_country_of_the_board_has_a_french_name_and_tiles_are_typed_in_either_language():
    board = load_board()
    assert [board.countries[i] for i, names in enumerate(board.country_names) if "fr" not in dict(names)] == []
    with use_language("fr"):
        assert board.kind_label(board.kind_of("Wales")) == "Pays de Galles"
        assert board.kind_of("espagne") == board.kind_of("Spain")
        assert board.kind_of("avion rose") == board.kind_of("pink aeroplane")
        assert board.kind_of("bateau de l'Atlantique") == board.kind_of("Atlantic ship")
        assert board.kind_of("Tchéquie") == board.kind_of("Czech Republic")  # an alias of the board data
        with pytest.raises(KeyError) as unknown:
            board.kind_of("Narnia")
        with pytest.raises(KeyError) as slip:
            board.kind_of("Atlantide")
    assert unknown.value.args[0].startswith(f"'Narnia' n'est pas une tuile{NBSP}: donnez un pays (p. ex. 'Espagne')")
    assert slip.value.args[0] == (f"'Atlantide' n'est pas une tuile{NBSP}: "
                                  f"vouliez-vous dire \"bateau de l'Atlantique\"{NNBSP}?")


def test_a_recoloured_board_pack_is_named_by_its_own_name_in_french():
    pack = board_pack_from_text('id = "mine"\nname = "My board"\n[colours]\nSpain = "blue"\n')
    with use_language("fr"):
        assert pack.label == "My board"
        assert pack.country_label(pack.countries.index("Spain")) == "Espagne"
        assert load_board().label == "Race Around Europe (plateau tourpad)"


def test_a_race_move_is_described_and_refused_in_french():
    state = RaceGame(2, seed=2).new_initial_state()
    state.apply_action(0, place(4))
    state.apply_action(1, place(4))
    with use_language("fr"):
        assert state.action_to_string(place(0)) == "placer à l'étape 1"
        with pytest.raises(IllegalAction) as refused:
            state.apply_action(0, place(4))
    assert str(refused.value) == f"le joueur 1 ne peut pas placer à l'étape 5 maintenant (phase{NBSP}: mise en place)"


def test_a_pack_on_a_base_takes_the_bases_french_words_and_its_own_names_where_given():
    text = (Path(__file__).parent.parent / "docs" / "deck-pack-template.toml").read_text(encoding="utf-8")
    pack = edition_from_text(text)
    with use_language("fr"):
        assert pack.label == "Mon Boomerang : Europe"
        assert [r.label for r in pack.regions[:2]] == ["Région verte", "Red region"]
        assert pack.cards[0].site_label == "Pays de la carte A" and pack.cards[1].site_label == "Country on card B"
        assert pack.pairs.label == "Transports" and pack.route.label == "Passeport"
        assert pack.sites_label == "Pays"
    assert pack.label == "My Boomerang: Europe" and pack.sites_label == "Countries"
