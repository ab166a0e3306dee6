"""The score pad's own words in French (the `scorer` catalog), where a sentence is built from parts: the
keypad's and the scan's refusals, plural forms (French says « 1 carte lue », « 0 chemin tracé »), the
route's line on the sheet, ties. The language is the one of the moment (`use_language`), as each phone's
session sets it; the same game, the same numbers."""

from __future__ import annotations

from rules.editions import load_edition
from rules.i18n import use_language
from scorer.pad.entry import LetterDraft
from scorer.pad.game import GameSession
from scorer.pad.scan import RowProposal
from scorer.pad.store import EventStore
from scorer.scan.rows import ScanResult

NBSP, NNBSP = "\u00a0", "\u202f"  # before « : », and before « ; ? ! »


def test_the_keypad_refuses_in_french():
    draft = LetterDraft(taken={"B": "Ann"})
    with use_language("fr"):
        assert not draft.tap("B") and draft.message == "B est déjà dans les cartes de Ann à cette manche"
        draft.set_text("AC", "ABCDEFG")
        assert not draft.tap("A") and draft.message == "A est déjà votre carte nº 1 à cette manche"
        draft.set_text("A!", "ABCDEFG")
        assert draft.message == "'!' n'est pas une lettre de carte (ABCDEFG)"
    assert not draft.tap("B") and draft.message == "B is already in Ann's cards this round"


def test_a_scanned_row_is_completed_in_french_with_french_plurals():
    one_hole = ScanResult("australia", ("K", None, "H", "A", "B", "L", "Q"))
    two_holes = ScanResult("australia", ("K", None, "H", None, "B", "L", "Q"))
    with use_language("fr"):
        assert one_hole.messages() == [f"6 cartes lues sur 7{NNBSP}; position 2 non lue — tapez-la ou prenez "
                                       "une autre photo"]
        assert two_holes.messages() == [f"5 cartes lues sur 7{NNBSP}; positions 2 et 4 non lues — tapez-les "
                                        "ou prenez une autre photo"]
        proposal = RowProposal.from_result(two_holes, {"C": "Bob"})
        assert not proposal.fill("C") and proposal.message == "C est déjà dans les cartes de Bob à cette manche"
        assert proposal.fill("S") and proposal.message == (f"position 2{NBSP}: S{NNBSP}; touchez maintenant la "
                                                           "carte en position 4")
        assert proposal.fill("N") and proposal.message.endswith("la ligne est complète\u00a0: vérifiez-la et "
                                                                "enregistrez")
    assert two_holes.messages()[0].startswith("read 5 of 7 cards; positions 2 and 4 not read — type them in")


def test_the_sheet_lines_of_one_game_read_in_each_language(tmp_path):
    from rules.scoring import drawn_pathways

    store = EventStore(tmp_path / "games.sqlite3")
    game = GameSession.new(store, "usa", ["Ann", "Bob"], edition_lookup=load_edition)
    with use_language("fr"):
        route = game.state.edition.route.label  # the rules' data names it (French once it says so)
        assert game.state.route_status(0) == f"{route}{NBSP}: pas encore (0 chemin tracé)"
        assert game.where == f"Partie {game.game_id}"
    game.enter_letters(0, "ABCDEFG", None)
    game.enter_letters(1, "HIJKLMN", None)
    drawn = len(drawn_pathways(game.state.edition, game.state.visited(0)))
    with use_language("fr"):
        route = game.state.edition.route.label
        assert game.state.route_status(0) == (f"{route}{NBSP}: pas encore ({drawn} chemin"
                                              f"{'s tracés' if drawn > 1 else ' tracé'})")
        assert game.undo() == f"manche 1 de Bob{NBSP}: HIJKLMN"
    assert game.state.route_status(0) == "Coast to coast: not yet (0 pathways drawn)"  # Bob's round undone
    store.close()
