"""The app's Race Around Europe logic (no Flet): the journey checker model and persisted solo play."""

from __future__ import annotations

import json
import re

import pytest

from rules.race.board import load_board
from rules.race.engine import RacePhase
from scorer.race.checker import CheckerInputError, JourneyChecker
from scorer.race.solo import SoloError, SoloRace

BOARD = load_board()
EXAMPLE = ["Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece", "Mediterranean ship",
           "Turkey", "Ukraine"]


def test_checker_judges_links_as_tiles_are_entered():
    checker = JourneyChecker(BOARD)
    checker.set_tile(0, "spain")
    checker.set_tile(1, "France")
    report = checker.report()
    assert report.links[0] == "ok" and report.links[1] == "open"
    assert report.headline == "2 of 10 tiles entered" and not report.complete
    checker.set_tile(2, "Baltic")
    assert checker.report().links[1] == "broken"
    assert checker.report().reasons[1] == "France is not on the Baltic, so the Baltic ship cannot reach it"
    assert checker.report().reasons[0] is None
    assert "already broken" in checker.report().headline


def test_checker_explains_the_rulebook_example_and_suggests_fixes():
    checker = JourneyChecker(BOARD)
    for slot, name in enumerate(EXAMPLE):
        checker.set_tile(slot, name)
    report = checker.report()
    assert not report.complete and report.headline == "Not complete: 8 of 9 links connect"
    assert report.faults == ("trips 4–5: Norway and Greece do not border (no land border, ferry or bridge)",
                             "trips 5, 7: Greece appears 2 times, but the set has 1 Greece tile")
    assert report.fixes and all(line.endswith("leaves 1 to fix") for line in report.fixes)
    checker.set_tile(3, "Bulgaria")  # Atlantic ship to Bulgaria? no: Bulgaria is on no sea of the game
    assert any("Bulgaria is not on the Atlantic" in f for f in checker.report().faults)


def test_checker_refuses_unknown_tiles_and_changes_nothing():
    checker = JourneyChecker(BOARD)
    checker.set_tile(4, "Italy")
    with pytest.raises(CheckerInputError, match="trip 5: 'Itly' is not a tile"):
        checker.set_tile(4, "Itly")
    with pytest.raises(CheckerInputError, match="trip 11 does not exist"):
        checker.set_tile(10, "Italy")
    assert checker.report().tiles[4] == "Italy"
    assert checker.matches("ge") == ["Germany", "orange aeroplane"]  # starts with, then contains
    assert checker.matches("herz") == ["Bosnia and Herzegovina"]
    assert checker.colour_of(4) == "yellow"


def test_checker_complete_journey():
    checker = JourneyChecker(BOARD)
    for slot, name in enumerate(["Portugal", "Spain", "France", "England", "Ireland", "Atlantic", "Norway",
                                 "Sweden", "Denmark", "Germany"]):
        checker.set_tile(slot, name)
    assert checker.report().complete and checker.report().links == ("ok",) * 9


def play_to_end(solo: SoloRace, limit: int = 3000) -> None:
    """Play seat 1 with simple legal moves: place left to right, draw, discard onto an allowed pile."""
    for _ in range(limit):
        view = solo.view()
        if view.finished:
            return
        if view.phase == "setup":
            solo.place(view.holder.index(None))
        elif view.phase == "draw":
            solo.draw()
        else:
            legal = solo.state.legal_actions(0)
            solo.act(legal[-1])  # a discard onto the last allowed pile


def test_solo_game_runs_saves_and_resumes(tmp_path):
    path = tmp_path / "race-solo.json"
    solo = SoloRace(BOARD, ("normal",), seed=4, path=path)
    assert solo.view().phase == "setup" and solo.view().your_turn
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    view = solo.view()
    assert view.phase == "draw" and None not in view.holder and len(view.discard_tops) == 3
    solo.draw()
    saved = json.loads(path.read_text())
    assert saved["actions"] == solo.actions and saved["seed"] == 4
    resumed = SoloRace.load(path, BOARD)
    assert resumed.state.holders == solo.state.holders and resumed.state.draw_pile == solo.state.draw_pile
    assert resumed.view() == solo.view()
    with pytest.raises(SoloError, match="cannot draw from the draw pile now"):
        solo.draw()  # already drawn: place or discard first
    assert json.loads(path.read_text())["actions"] == saved["actions"]  # the refused move was not saved
    play_to_end(solo)
    assert solo.state.phase == RacePhase.GAME_OVER
    assert solo.view().finished and solo.log[-1].endswith(("wins.", "win!", "a draw."))


def test_solo_log_shows_only_public_information():
    solo = SoloRace(BOARD, ("normal", "easy"), seed=2)
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    solo.draw()
    solo.discard(0)
    bot_lines = [line for line in solo.log if line.startswith("Bot")]
    assert bot_lines
    for line in bot_lines:
        said = line.split(": ", 1)[1]
        assert said.startswith(("drew from the draw pile", "took ", "discarded ")) or re.fullmatch(
            r"trip \d+, put a tile in, discarded .+ onto pile \d", said), line  # never the tile it put in
    with pytest.raises(SoloError, match="unknown bot"):
        SoloRace(BOARD, ("wizard",))
    assert solo.hint() is not None


def test_solo_bots_are_seeded_apart_from_the_tiles(tmp_path):
    """A bot's seed tells it nothing about the piles; a saved game keeps it, and an older save (without
    one) resumes with the bots seeded from the tiles' seed, as they were."""
    path = tmp_path / "race-solo.json"
    solo = SoloRace(BOARD, ("search",), seed=4, path=path, bot_seed=77)
    assert SoloRace(BOARD, ("search",), seed=4, bot_seed=78).state.draw_pile == solo.state.draw_pile
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    solo.draw()
    assert json.loads(path.read_text())["bot_seed"] == 77
    assert SoloRace.load(path, BOARD).view() == solo.view()
    legacy = json.loads(path.read_text())
    del legacy["bot_seed"]
    path.write_text(json.dumps(legacy))
    assert SoloRace.load(path, BOARD).bot_seed == 4


def test_solo_log_names_your_trip_and_both_tiles():
    """Issue #44: "You: replaced a tile, discarding Denmark" said neither the trip nor the tile placed."""
    solo = SoloRace(BOARD, ("normal",), seed=5)
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    solo.draw()
    view = solo.view()
    placed, old = view.in_hand, view.holder[3]
    solo.replace(3, 1)
    assert f"You: trip 4, placed {placed}, discarded {old} onto pile 2" in solo.log


def play_until_over(solo: SoloRace) -> None:
    """You only ever draw and discard: the bot finishes its journey (or the turn cap ends the game)."""
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    while not solo.view().finished:
        solo.draw()
        solo.discard(0)


def test_at_the_end_the_bots_journey_is_shown_link_by_link():
    solo = SoloRace(BOARD, ("normal",), seed=3, turn_cap=400)
    assert solo.view().opponents == ()
    play_until_over(solo)
    view = solo.view()
    assert view.winner == "Bot 1 (normal)" and not solo.running
    [(player, tiles, links, reasons)] = view.opponents
    assert player == "Bot 1 (normal)" and len(tiles) == 10
    assert links == ("ok",) * 9 and reasons == (None,) * 9
    kinds = [BOARD.kind_of(t) for t in tiles]
    from rules.race.journey import check_journey

    assert check_journey(BOARD, kinds).valid  # what is shown is the journey the checker accepts


@pytest.mark.parametrize(("typed", "tile"), [
    ("Czechia", "Czech Republic"), ("North Macedonia", "Macedonia"), ("Türkiye", "Turkey"), ("turkiye", "Turkey"),
    ("Holland", "Netherlands"), ("Bosnia", "Bosnia and Herzegovina"), ("blue airplane", "blue aeroplane"),
    ("Blue Aeroplane", "blue aeroplane"), ("Med ship", "Mediterranean ship"), ("Baltic boat", "Baltic ship")])
def test_checker_takes_the_names_people_use(typed, tile):
    checker = JourneyChecker(BOARD)
    checker.set_tile(0, typed)
    assert checker.report().tiles[0] == tile
    assert checker.matches(typed)[0] == tile


def test_checker_says_did_you_mean_and_what_it_cannot_guess():
    checker = JourneyChecker(BOARD)
    with pytest.raises(CheckerInputError, match=r"trip 1: 'Swedn' is not a tile: did you mean 'Sweden'\?"):
        checker.set_tile(0, "Swedn")
    with pytest.raises(CheckerInputError, match="'UK' is several countries on this board: England, Northern "
                                                "Ireland, Scotland, Wales; give one"):
        checker.set_tile(0, "UK")
    with pytest.raises(CheckerInputError, match="'Narnia' is not a tile: give a country"):
        checker.set_tile(0, "Narnia")
    assert checker.slots == [None] * 10  # nothing changed
    assert checker.matches("Swedn") == ["Sweden"]
    assert checker.search_note("Swedn") == "No tile is called 'Swedn'. Did you mean Sweden?"
    assert checker.matches("qqqq") == []
    assert checker.search_note("qqqq").startswith("No tile is called 'qqqq': type part of a country's name")
    assert checker.search_note("cze") is None and checker.search_note("czechi") is None


TWO_ITALYS = ["Spain", "France", "Italy", "Slovenia", "Austria", "Italy", "France", "Germany", "Poland", "Ukraine"]


def test_a_duplicate_tile_is_named_in_the_headline_not_hidden_by_the_links():
    """Issue #44: every link connected, so it read "Not complete: 9 of 9 links connect"."""
    checker = JourneyChecker(BOARD)
    for slot, name in enumerate(TWO_ITALYS):
        checker.set_tile(slot, name)
    report = checker.report()
    assert report.headline == ("Not complete: every link connects, but trips 3, 6: Italy appears 2 times, but "
                               "the set has 1 Italy tile")


def test_a_best_replacement_applies_and_one_slot_clears():
    checker = JourneyChecker(BOARD)
    for slot, name in enumerate(EXAMPLE):
        checker.set_tile(slot, name)
    report = checker.report()
    assert len(report.fix_moves) == len(report.fixes)
    slot, tile = report.fix_moves[0]
    assert report.fixes[0].startswith(f"replace trip {slot + 1} with {tile}")
    checker.apply_fix(slot, tile)
    assert checker.report().tiles[slot] == tile
    checker.clear(3)
    assert checker.report().tiles[3] is None and checker.report().tiles[2] == "Atlantic ship"


def test_a_hint_gives_its_reason_and_never_a_swap_that_gains_nothing():
    """Issue #44: Hint gave a move without a reason, once a swap that gained nothing."""
    from rules.race.journey import connected_links

    solo = SoloRace(BOARD, ("normal",), seed=3, turn_cap=400)
    for _ in range(10):
        solo.place(solo.view().holder.index(None))
    swaps = 0
    for _turn in range(25):
        if solo.view().finished:
            break
        hint = solo.hint()
        assert " — " in hint and hint.split(" — ")[1]
        solo.draw()
        move, reason = solo.hint().split(" — ")
        if move.startswith("replace trip"):
            swaps += 1
            trip = int(move.split()[2].rstrip(","))
            holder = list(solo.state.kinds(0))
            now = connected_links(BOARD, holder)
            holder[trip - 1] = BOARD.tiles[solo.state.in_hand]
            assert connected_links(BOARD, holder) > now, move
            assert reason.endswith(f"links instead of {now}")
        else:
            assert move.startswith("discard onto pile") and reason.endswith("adds no link anywhere in your holder")
        solo.discard(0)  # you keep your holder; the bot plays on
    assert swaps
