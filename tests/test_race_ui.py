"""The Race Around Europe screens build from the models and forward taps to them (no browser needed)."""

from __future__ import annotations

import flet as ft

from rules.race.board import load_board
from scorer.ui.race import RaceScreens

BOARD = load_board()


class Window:
    """Stands in for the app shell: every redraw builds the screen's controls, as the shell does."""

    def __init__(self) -> None:
        self.controls: list = []
        self.screens: RaceScreens | None = None
        self.showing = "checker"

    def rerender(self) -> None:
        s = self.screens
        body = s.checker_body() if self.showing == "checker" else s.solo_body()
        self.controls = [s.with_message(body)]


def open_screens(tmp_path, showing: str = "checker") -> tuple[Window, RaceScreens]:
    window = Window()
    window.showing = showing
    window.screens = RaceScreens(window.rerender, BOARD, tmp_path)
    if showing == "solo":
        window.screens.open_solo()
    window.rerender()
    return window, window.screens


def controls(control) -> list:
    """Every control in a control tree (through `content` and `controls`)."""
    found, stack = [], [control]
    while stack:
        c = stack.pop()
        found.append(c)
        for attr in ("content", "controls"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and not isinstance(child, str):
                stack.append(child)
    return found


def marked(page: Window, identifier: str):
    """The control the semantics identifier marks on the screen as last drawn."""
    return next(c.content for c in controls(page.controls[0])
                if isinstance(c, ft.Semantics) and c.identifier == identifier)


def texts(control) -> list[str]:
    """Every Text value in a control tree."""
    return [c.value for c in controls(control) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def test_checker_screen_shows_reasons_and_fixes(tmp_path):
    page, screens = open_screens(tmp_path)
    for name in ["Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece",
                 "Mediterranean ship", "Turkey", "Ukraine"]:
        screens.pick(name)
    shown = texts(page.controls[0])
    assert "Not complete: 8 of 9 links connect" in shown
    assert "Norway and Greece do not border (no land border, ferry or bridge)" in shown
    assert "trips 5, 7: Greece appears 2 times, but the set has 1 Greece tile" in shown
    assert any(t.startswith("replace trip 5 with ") for t in shown)
    screens.set_filter("herz")
    assert texts(marked(page, "palette")) == ["Bosnia and Herzegovina"]


def test_solo_screen_plays_and_persists(tmp_path):
    page, screens = open_screens(tmp_path, "solo")
    assert (tmp_path / "race-solo.json").is_file()
    solo = screens.solo
    for _ in range(10):
        screens.solo_do(lambda: solo.place(solo.view().holder.index(None)))
    screens.solo_do(solo.draw)
    shown = texts(page.controls[0])
    assert any(t.startswith("You drew ") for t in shown)
    screens.solo_do(solo.draw)  # not allowed now: the message says why and nothing changes
    assert "cannot draw from the draw pile now" in screens.message
    _, again = open_screens(tmp_path, "solo")
    assert again.solo.state.holders == solo.state.holders  # resumed from the saved moves


def test_new_solo_game_against_a_chosen_bot(tmp_path):
    page, screens = open_screens(tmp_path, "solo")
    screens.new_solo("search")
    assert screens.solo.bots_names == ("search",)
    assert "You against Bot 1 (search)" in texts(page.controls[0])


def test_checker_follows_an_imported_board_pack(tmp_path, monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    pack = tmp_path / "pack.toml"
    pack.write_text('id = "family"\nname = "Family board"\n[colours]\nMalta = "pink"\nItaly = "pink"\n')
    from scorer.packs import import_board_pack

    import_board_pack(pack)
    page, screens = open_screens(tmp_path)
    for name in ["Spain", "pink aeroplane", "Italy", "Mediterranean ship", "Malta", "pink aeroplane", "Spain",
                 "France", "Belgium", "Netherlands"]:
        screens.pick(name)
    assert "Italy is yellow, not pink" in " ".join(texts(page.controls[0]))
    screens.use_board("family")
    shown = " ".join(texts(page.controls[0]))
    assert "Italy is yellow" not in shown and "Malta is" not in shown
    screens.new_solo()
    assert screens.solo.board.id == "family"
    screens.solo = None
    assert screens.open_solo().board.id == "family"  # resumed on the board it was played on


def placed_all(screens) -> None:
    solo = screens.solo
    for _ in range(10):
        screens.solo_do(lambda: solo.place(solo.view().holder.index(None)))


def test_a_new_game_during_a_running_game_asks_first(tmp_path):
    page, screens = open_screens(tmp_path, "solo")
    placed_all(screens)
    running = screens.solo
    screens.new_solo("easy")
    assert screens.solo is running and screens.confirm_new == "easy"
    shown = texts(page.controls[0])
    assert "Start a new game against the easy bot? This game is not over: it will be lost." in shown
    screens.keep_playing()
    assert screens.solo is running and screens.confirm_new is None
    screens.new_solo("easy")
    screens.new_solo("easy", confirmed=True)
    assert screens.solo is not running and screens.solo.bots_names == ("easy",)
    screens.new_solo("search")  # nothing placed yet: nothing to lose, no question
    assert screens.solo.bots_names == ("search",) and screens.confirm_new is None


def test_after_taking_a_piles_last_tile_the_refill_rule_is_said(tmp_path):
    page, screens = open_screens(tmp_path, "solo")
    placed_all(screens)
    solo = screens.solo
    screens.solo_do(lambda: solo.take(0))  # each pile starts with one tile: pile 1 is now empty
    view = solo.view()
    assert view.discard_tops[0] is None
    assert any(t.startswith("You took the last tile of pile 1: the rules say an emptied pile takes this "
                            "turn's discard") for t in texts(page.controls[0]))
    screens.choose_pile(2)
    assert screens.message == ("Pile 3 cannot take this turn's discard: pile 1, which you emptied, must be "
                               "refilled first.")
    assert screens.allowed_pile(solo.view()) == 0


def test_tapping_a_pile_chooses_where_tiles_go_as_the_help_says(tmp_path):
    page, screens = open_screens(tmp_path, "solo")
    placed_all(screens)
    solo = screens.solo
    screens.solo_do(solo.draw)
    shown = texts(page.controls[0])
    assert any(t.startswith("Tap a pile to choose where tiles go") for t in shown)
    screens.choose_pile(2)
    shown = texts(page.controls[0])
    assert "Pile 3 (discard here)" in shown and "Pile 1" in shown
    in_hand, logged = solo.view().in_hand, len(solo.log)
    screens.solo_do(lambda: solo.discard(screens.allowed_pile(solo.view())))
    # the log, not the pile's top: the bots play straight after and may discard onto pile 3 themselves
    assert solo.log[logged] == f"You: discarded {in_hand} onto pile 3"


def test_enter_in_the_search_picks_a_single_match_and_an_unknown_name_says_so(tmp_path):
    page, screens = open_screens(tmp_path)
    screens.pick_single("czechia")
    assert screens.checker.report().tiles[0] == "Czech Republic" and screens.selected == 1
    screens.pick_single("an")  # France, Germany, … : Enter picks none of several
    assert screens.checker.report().tiles[1] is None and screens.filter == "an"
    screens.set_filter("zzz")
    assert texts(marked(page, "palette")) == []
    assert marked(page, "search-note").value.startswith("No tile is called 'zzz'")
    screens.set_filter("Frnace")
    assert texts(marked(page, "palette")) == ["France"]
    assert marked(page, "search-note").value == "No tile is called 'Frnace'. Did you mean France?"
    screens.pick_single("Frnace")
    assert screens.checker.report().tiles[1] == "France"


def test_tapping_a_best_replacement_applies_it_and_a_trip_can_be_cleared(tmp_path):
    page, screens = open_screens(tmp_path)
    for name in ["Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece",
                 "Mediterranean ship", "Turkey", "Ukraine"]:
        screens.pick(name)
    slot, tile = screens.checker.report().fix_moves[0]
    screens.apply_fix(slot, tile)
    assert screens.checker.report().tiles[slot] == tile and screens.selected == slot
    assert f"Clear trip {slot + 1}" in [b.content for b in buttons(page.controls[0])]
    screens.clear_slot(slot)
    assert screens.checker.report().tiles[slot] is None
    assert sum(t is None for t in screens.checker.report().tiles) == 1


def buttons(control) -> list:
    return [c for c in controls(control) if isinstance(c, ft.TextButton)]


def test_a_tap_on_the_solo_screen_patches_it_in_place_and_its_tiles_keep_their_identity(tmp_path):
    """The solo screen's body is a component: a tile placed re-renders it alone. The screen is not drawn anew,
    the trip tapped next keeps its identity (a quick second tap on its way still reaches it), and the tile is
    placed and saved."""
    from eventually import drawn, until
    from test_deck_editor import node
    from test_pad_screens import run_session, start

    from scorer.pad.store import EventStore
    from scorer.ui.main import make_main
    from scorer.ui.race import race_screens

    store = EventStore(tmp_path / "games.sqlite3")

    async def run():
        session, page, _ = await start(make_main(lambda: store))
        page.data.go("race_solo")
        screen, second = page.views[-1], node(page, "solo-trip-2")._i
        in_hand = race_screens(page.data)[0].solo.view().in_hand
        await session.dispatch_event(node(page, "solo-trip-1")._i, "click", None)
        await until(lambda: drawn(page) and node(page, "solo-trip-1").content.value == in_hand, "the tile placed")
        assert page.views[-1] is screen and node(page, "solo-trip-2")._i == second
        await session.dispatch_event(second, "click", None)  # the next tap, aimed before the re-render
        await until(lambda: drawn(page) and node(page, "solo-trip-2").content.value not in (None, "empty",
                                                                                              "tap to place here"),
                    "the second tile placed")

    try:
        run_session(run)
    finally:
        store.close()
