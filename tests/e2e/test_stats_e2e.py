"""End to end: the Stats screen at phone size, in English and French, light and dark. Three finished games
are prepared through the same GameSession the app uses; the screen must show each player's wins and
average as the rules score those games, and head to head; a renamed player keeps their games; and all the
games exported, then imported into a fresh app, show the same Stats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import POLL_MS, SLOW, AppServer, phone_options

from rules.editions import load_edition
from rules.i18n import format_percent, use_language
from rules.record import GameRecord, score_record
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.solo.view import one_decimal

pytestmark = pytest.mark.e2e

USA = json.loads((Path(__file__).parents[1] / "data" / "table_usa_acceptance.json").read_text())
#: The recorded USA game (its seats score 116, 79, 102) played three times under other seatings: Ann takes
#: the winning seat twice, Bob once, so wins and averages differ from player to player.
SEATINGS = [("Ann", "Bob", "Cy"), ("Ann", "Cy", "Bob"), ("Bob", "Ann", "Cy")]


def record(names) -> GameRecord:
    rename = dict(zip(USA["players"], names, strict=True))
    return GameRecord(edition="usa", players=list(names),
                      rounds=[{rename[k]: v for k, v in row.items()} for row in USA["rounds"]])


@pytest.fixture
def prepared(tmp_path):
    """Three finished games in the server's data folder; returns per player (wins, total points) and Ann's
    and Bob's head to head (Ann ahead, Bob ahead), counted from the rules' own scoring of each game."""
    store = EventStore(tmp_path / "games.sqlite3")
    wins = {n: 0 for n in SEATINGS[0]}
    points = {n: 0 for n in SEATINGS[0]}
    ahead = {"Ann": 0, "Bob": 0}
    for names in SEATINGS:
        GameSession.from_record(store, record(names))
        report = score_record(record(names), load_edition("usa"))
        rank = dict(zip(names, report.ranks, strict=True))
        for p, name in enumerate(names):
            wins[name] += report.ranks[p] == 1
            points[name] += report.totals[p]
        ahead["Ann"] += rank["Ann"] < rank["Bob"]
        ahead["Bob"] += rank["Bob"] < rank["Ann"]
    store.close()
    return wins, points, ahead


def reach(pad, identifier: str) -> None:
    """Scroll until the identified node is drawn (a long screen draws what is near the view only)."""
    for _ in range(12):
        pad.settle()  # a redraw (the theme, a rename) replaces the nodes a scroll would aim at
        if pad.ident(identifier).count():
            pad.ident(identifier).scroll_into_view_if_needed()
            return
        pad.page.mouse.wheel(0, 400)
        pad.page.wait_for_timeout(200)
    raise AssertionError(f"{identifier} is not on the screen")


#: Whether the Rename button takes a tap (Flutter marks a disabled button aria-disabled); null if not drawn.
RENAME_IS_ON_JS = """() => {
  const node = document.querySelector('[flt-semantics-identifier="stats-rename"]');
  if (!node) return null;
  const button = node.querySelector('[role=button]') || node;
  return button.getAttribute('aria-disabled') !== 'true'; }"""


def rename_is_on(pad) -> bool | None:
    pad.settle()
    return pad.page.evaluate(RENAME_IS_ON_JS)


def card_of(pad, name: str) -> int:
    """The 1-based number of `name`'s card on the Stats screen."""
    pad.page.mouse.wheel(0, -5000)
    for i in range(1, 4):
        reach(pad, f"stats-name-{i}")
        if pad.text(f"stats-name-{i}") == name:
            reach(pad, f"stats-average-{i}")
            return i
    raise AssertionError(f"no card for {name}")


def shown_figures(pad, names) -> dict[str, tuple[str, str]]:
    """Each player's wins and average lines as the Stats screen shows them."""
    shown = {}
    for name in names:
        i = card_of(pad, name)
        shown[name] = (pad.text(f"stats-wins-{i}"), pad.text(f"stats-average-{i}"))
    return shown


def test_stats_show_wins_averages_and_head_to_head_and_follow_a_rename(prepared, server, phone, new_context,
                                                                       open_app, tmp_path):
    wins, points, ahead = prepared
    pad = open_app(phone, server.url + "history")
    pad.tap_ident("open-stats")
    pad.wait_text("stats-games", r"^3 finished games$", timeout=SLOW)
    for name in ("Ann", "Bob", "Cy"):
        i = card_of(pad, name)
        rate = format_percent(wins[name] / 3)
        assert pad.text(f"stats-wins-{i}") == f"won {wins[name]} of 3 games ({rate})"
        assert pad.text(f"stats-average-{i}").startswith(f"average {one_decimal(points[name] / 3)} points")
    reach(pad, "stats-versus")
    assert wins == {"Ann": 2, "Bob": 1, "Cy": 0}  # the seatings do what they say
    assert pad.text("stats-versus") == (f"3 games together: Ann ahead {ahead['Ann']}, Bob ahead {ahead['Bob']}, "
                                        f"level {3 - ahead['Ann'] - ahead['Bob']}")
    # the chart's bars are named with their figure for a screen reader
    pad.page.mouse.wheel(0, -5000)
    reach(pad, "stats-bar-1-throw_catch")
    bar = pad.page.locator("flt-semantics[flt-semantics-identifier='stats-bar-1-throw_catch']")
    assert re.search(r"Throw & Catch: \d+\.\d points a game", bar.get_attribute("aria-label") or bar.inner_text())
    pad.ident("stats-games").scroll_into_view_if_needed()
    pad.shot("stats-en-light")
    pad.toggle_theme()
    pad.shot("stats-en-dark")

    reach(pad, "stats-rename")
    # Rename is off until the typed name has reached the app, so the tap cannot overtake the typing
    assert rename_is_on(pad) is False
    # Typed again if Rename stays off: on a loaded machine a fill can land in the input of a field Flutter has
    # just rebuilt (the screen was drawn anew in the other theme), and never reach the app; the field then shows
    # empty again, as a person would see it and type again (type_letters does the same for the keypad)
    pad.tap_until(lambda: pad.type_into("New name (another player's name merges the two)", "Annie"),
                  lambda ms: pad.page.wait_for_function(f"() => ({RENAME_IS_ON_JS})() === true", timeout=ms,
                                                        polling=POLL_MS), timeout=15000)
    pad.tap_ident("stats-rename")
    pad.wait_text("toast", "their games follow the new name", timeout=SLOW)
    i = card_of(pad, "Annie")
    assert pad.text(f"stats-wins-{i}") == f"won {wins['Ann']} of 3 games ({format_percent(wins['Ann'] / 3)})"
    assert "Ann" not in {pad.text(f"stats-name-{k}") for k in range(1, 4) if pad.ident(f"stats-name-{k}").count()}
    before = shown_figures(pad, ("Annie", "Bob", "Cy"))
    reach(pad, "stats-versus")
    versus = pad.text("stats-versus")

    # "Export all games" here, "Import games" in a fresh app (its own server and data folder, a new browser
    # context): the same Stats, Annie's rename included (the register of people travels in the file)
    pad.goto(server.url + "history")
    reach(pad, "export-games")
    with pad.page.expect_download(timeout=SLOW) as download:
        pad.tap_ident("export-games")
    exported = tmp_path / "tourpad-games.json"
    download.value.save_as(exported)
    (tmp_path / "fresh").mkdir()
    fresh_server = AppServer(tmp_path / "fresh")
    fresh_server.start()
    try:
        fresh = open_app(new_context(**phone_options()), fresh_server.url + "history")
        reach(fresh, "import-games")
        with fresh.page.expect_file_chooser(timeout=SLOW) as chooser:
            fresh.tap_ident("import-games")
        chooser.value.set_files(str(exported))
        fresh.wait_text("toast", "3 games added", timeout=SLOW)
        fresh.tap_ident("open-stats")
        fresh.wait_text("stats-games", r"^3 finished games$", timeout=SLOW)
        assert shown_figures(fresh, ("Annie", "Bob", "Cy")) == before
        reach(fresh, "stats-versus")
        assert fresh.text("stats-versus") == versus
    finally:
        fresh_server.stop()

    french = new_context(**phone_options(locale="fr-FR"))
    fr = open_app(french, server.url + "stats")
    fr.wait_text("stats-games", r"^3 parties terminées$", timeout=SLOW)
    i = card_of(fr, "Annie")
    with use_language("fr"):
        rate = format_percent(wins["Ann"] / 3)
    assert fr.text(f"stats-wins-{i}") == f"{wins['Ann']} sur 3 parties gagnées ({rate})"
    fr.page.mouse.wheel(0, -5000)
    fr.ident("stats-games").scroll_into_view_if_needed()
    fr.shot("stats-fr-light")
    fr.toggle_theme()
    fr.shot("stats-fr-dark")
