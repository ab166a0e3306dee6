"""Every screen of the app, drawn in French in a real Flet session, shows no English word.

The session's language is French (as the browser's `fr-FR` or the language switch makes it); each screen
of a played game (Australia, Europe and USA, by letters and by categories), the solo screens and Race
Around Europe's screens are drawn, and every text a person reads or hears (texts, buttons, labels, hints,
tooltips, screen-reader labels) is checked against a list of common English words that are not French.
Names are not words to translate: the players' names and the edition data's labels are taken out first.
"""

from __future__ import annotations

import re

import flet as ft
import pytest
from flet.controls.base_control import BaseControl
from test_pad_screens import find_button, run_session, start, top

from rules.editions import load_edition
from rules.i18n import use_language
from scorer.pad.game import CATEGORIES_MODE, GameSession
from scorer.pad.store import EventStore
from scorer.ui.main import make_main

#: Common English words of the app's screens that are not also French words (« score », « total », « on »…).
ENGLISH = frozenset("""
    the and of round rounds card cards player players save saved new game games scored
    throw catch history home back cancel delete share settings language enter entered entering still your
    you with this that is are was were not yes open closed next previous undo hint edit winner
    wins win shared victory left first last missing already each every only once per after before from
    to in at for by or all none choose chosen pick picked play playing played keep kept add added
    remove removed start started end ended tap typed letter letters number numbers region regions
    bonuses completed complete visited visit towns town countries country animals activity
    activities pairs coast passport tourist show hide help about camera scan scanned read done ready
    waiting wait join joined host seat seats name names rank ranking export import file files copy link
    copied sheets category categories again resume deleted quit leave went wrong something here there
    which who what when where why how more less than both any other others see
""".split())  # noqa: SIM905  (a word list reads best as text)


@pytest.fixture
def store(tmp_path):
    games = EventStore(tmp_path / "games.sqlite3")
    yield games
    games.close()


WORD = re.compile(r"[A-Za-zÀ-ÿ'’]+")
NAMES = ("Zoé", "Léo")


def shown_strings(page) -> list[str]:
    """Every string the top screen shows or reads out."""
    out: list[str] = []

    def visit(control) -> None:
        for attr in ("value", "label", "hint_text", "helper_text", "error_text", "tooltip", "text",
                     "semantics_label", "content", "title", "counter_text", "prefix_text", "suffix_text"):
            value = getattr(control, attr, None)
            if isinstance(value, str) and value and not (attr == "value" and isinstance(control, ft.TextField)):
                out.append(value)
        for attr in ("controls", "content", "actions", "leading", "title", "appbar", "icon", "trailing",
                     "subtitle", "label", "tabs", "options", "floating_action_button", "bottom_appbar",
                     "_b"):  # _b: what a component rendered
            value = getattr(control, attr, None)
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, BaseControl):
                    visit(child)

    visit(top(page))
    return out


def english_words(strings: list[str], names: list[str]) -> list[str]:
    found = []
    for text in strings:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        words = {w.lower().strip("'’") for w in WORD.findall(text)}
        leaked = sorted(words & ENGLISH)
        if leaked:
            found.append(f"{text!r}: {', '.join(leaked)}")
    return found


def data_names(edition) -> list[str]:
    """What edition data names (sites, regions, the edition): names, never translated by the catalogs."""
    with use_language("fr"):
        return [*NAMES, edition.label, *(c.site_label for c in edition.cards),
                *(r.label for r in edition.regions)]


@pytest.mark.parametrize("edition_id", ["australia", "europe", "usa"])
def test_a_played_game_reads_in_french_on_every_screen(store, edition_id):
    edition = load_edition(edition_id)
    names = data_names(edition)
    leaks: dict[str, list[str]] = {}

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        app = page.data
        app.set_language("fr")

        def look(name, **params):
            app.go(name, **params)
            found = english_words(shown_strings(page), names)
            if found:
                leaks[name + repr(params)] = sorted(set(found))

        look("home")
        look("new_game")
        game = GameSession.new(store, edition_id, list(NAMES))
        app.session = game
        look("sheet", game_id=game.game_id)
        look("entry", game_id=game.game_id, round_index=0, player=0)
        for rows in (("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#")):
            game.enter_letters(0, rows[0], 0 if game.state.edition.choice.rule == "activity_table" else None)
            game.enter_letters(1, rows[1], None)
        look("round_summary", game_id=game.game_id, round_index=0)
        look("round_summary", game_id=game.game_id, round_index=1)
        look("sheet", game_id=game.game_id)
        for rows in (("ABCDIJK", "EFGHLMN"), ("UVWXYZ@", "OPQRST#")):
            game.enter_letters(0, rows[0], None)
            game.enter_letters(1, rows[1], None)
        look("end", game_id=game.game_id)
        look("history")
        unfinished = GameSession.new(store, edition_id, list(NAMES))
        unfinished.enter_letters(0, "ABCDEFG", None)
        look("home")  # the saved games' lines: an unfinished one to resume
        by_category = GameSession.new(store, edition_id, list(NAMES), mode=CATEGORIES_MODE)
        app.session = by_category
        look("entry", game_id=by_category.game_id, round_index=0, player=0)
        await _session.dispatch_event(find_button(page, _save_label(page))._i, "click", None)
        found = english_words(shown_strings(page), names)  # the refusal of an empty form
        if found:
            leaks["categories refusal"] = found
        look("solo_setup")
        look("race_checker")
        look("race_solo")

    run_session(run)
    assert not leaks, "English words on French screens:\n" + "\n".join(
        f"{screen}: {line}" for screen, lines in leaks.items() for line in lines)


def _save_label(page) -> str:
    """The entry form's save button, whatever its words: the one button that commits the round."""
    for c in _walk_buttons(top(page)):
        if getattr(c, "data", None) == "save-round" or isinstance(c, ft.FilledButton):
            return c.content.value if isinstance(c.content, ft.Text) else c.content
    raise LookupError("no save button")


def _walk_buttons(control):
    if isinstance(control, ft.Button):
        yield control
    for attr in ("controls", "content", "actions"):
        value = getattr(control, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, BaseControl):
                yield from _walk_buttons(child)


def test_the_catch_slot_keeps_its_word_whole_in_french(store):
    """Under the keypad's seven slots each says its word ("Throw", 2…6, "Catch") in a slot's width; French's
    "Réception" is wider than a slot, and Flutter broke it as "Réceptio / n": in French the two words go whole
    under the first and the last slot, as in larger text, and each slot is still named for a screen reader."""
    from test_pad_screens import walk

    from scorer.ui.entry import SLOT_WORD_SIZE

    async def run():
        _session, page, _ = await start(make_main(lambda: store))
        app = page.data
        game = GameSession.new(store, "usa", list(NAMES))
        app.session = game
        shown = {}
        for language in ("en", "fr"):
            app.set_language(language)
            app.go("entry", game_id=game.game_id, round_index=0, player=0)
            controls = list(walk(top(page)))
            words = [(c.value, c.width, c.no_wrap) for c in controls
                     if isinstance(c, ft.Text) and c.size == SLOT_WORD_SIZE and c.value]
            named = {c.identifier: c.label for c in controls if isinstance(c, ft.Semantics)
                     and (c.identifier or "").startswith("slot-")}
            shown[language] = words, named
        return shown

    shown = run_session(run)
    words, _named = shown["en"]
    assert words == [("Throw", 42, False), *((str(n), 42, False) for n in range(2, 7)), ("Catch", 42, False)]
    words, named = shown["fr"]
    assert words == [("Lancer", None, True), ("Réception", None, True)]  # one line each, not a slot wide
    assert named["slot-1"] == "Lancer" and named["slot-7"] == "Réception"
