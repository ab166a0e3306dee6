"""End to end in French: a phone whose browser speaks French (Chromium's locale fr-FR) gets the app in French from
its first screen: home, the new-game form, the journey checker, solo set-up and a solo game's first round (a
Hint, the Catch's choice, the round's summary); the language switch then brings English back, and this phone
keeps it on its next visit even though its browser still says French. Screenshots: /tmp/shots/app/fr-*.png
(phone width)."""

from __future__ import annotations

import re

import pytest
from conftest import POLL_MS, SLOW, phone_options
from test_french_screens import data_names

from rules.editions import load_edition
from rules.i18n import use_language
from rules.race.board import load_board

pytestmark = pytest.mark.e2e


@pytest.fixture
def french_phone(new_context):
    """A 390×844 phone whose browser's language is French."""
    return new_context(**phone_options(locale="fr-FR"))


def _names() -> list[str]:
    """What may stay as it is on a French screen: names from edition and board data, bots' names."""
    with use_language("fr"):
        board = load_board()
        countries = [board.country_label(c) for c in range(board.n_countries)]
    return [name for edition in ("australia", "europe", "usa") for name in data_names(load_edition(edition))] \
        + countries


NAMES = _names()


def test_a_french_phone_gets_the_app_in_french_and_the_switch_brings_english_back(server, french_phone, open_app):
    pad = open_app(french_phone, server.url)
    # the first frame is English; the session redraws in French once the browser has said its language
    pad.button("Nouvelle partie").wait_for(timeout=SLOW)
    for word in ("Jouer en solo", "Historique (0)", "Mode table : héberger ou rejoindre", "Vérifier un périple"):
        pad.button(re.compile("^" + re.escape(word).replace("\\ ", r"\s") + "$")).wait_for(timeout=SLOW)
    assert pad.button("New game").count() == 0 and pad.button("Play solo").count() == 0
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-home")

    pad.tap("Historique (0)")
    pad.button("Exporter les parties").wait_for(timeout=SLOW)
    pad.button("Importer").wait_for(timeout=SLOW)
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-history")
    pad.tap_ident("back")

    pad.tap("Nouvelle partie")
    pad.button("Commencer la partie").wait_for(timeout=SLOW)
    assert pad.page.get_by_role("textbox", name="Joueur 1").count() == 1
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-new-game")
    pad.tap_ident("back")

    pad.tap("Vérifier un périple")
    pad.wait_text("race-headline", r"^0 tuiles saisies sur 10$", timeout=SLOW)
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-race-checker")
    pad.tap_ident("back")

    pad.tap("Partie solo contre un bot")
    pad.wait_text("solo-status", r"^Mise en place\s: placez ", timeout=SLOW)
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-race-solo")
    pad.tap_ident("back")

    pad.tap("Jouer en solo")
    pad.ident("bots-3").wait_for(timeout=SLOW)
    pad.button("Commencer la partie solo").wait_for(timeout=SLOW)
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-solo-setup")
    pad.tap_ident("bot-1-easy")
    pad.tap_ident("solo-start")
    pad.wait_text("solo-status", r"^Manche 1 sur 4\s: choisissez votre carte Lancer", timeout=SLOW)
    assert pad.text("solo-step") == "Carte 1 sur 7"  # the Throw is the round's first card
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-solo-hand")
    pad.tap_ident("hand-0")
    pad.wait_text("solo-status", r"^Manche 1 sur 4\s: choisissez une carte à garder\s; les autres passent à",
                  timeout=SLOW)
    pad.tap_ident("solo-hint-button")
    pad.wait_text("solo-hint", r"^Conseil\s: le bot difficile choisirait ", timeout=SLOW)
    pad.shot("fr-solo-hint")
    # thinking longer asks the expert bot, which values each card as a chance of winning the game
    pad.tap_ident("solo-hint-longer")
    hint = pad.wait_text("solo-hint", r"^Conseil\s: le bot expert choisirait ", timeout=SLOW)
    assert re.search(r"\d+,\d\s%\sde chances de gagner", hint), hint
    pad.shot("fr-solo-hint-expert")
    play_the_first_round(pad)

    # the switch on the home screen: English at once, and kept by this phone
    pad.tap_until(lambda: pad.tap_ident("back"), lambda ms: pad.button("Jouer en solo").wait_for(timeout=ms))
    pad.tap_until(lambda: pad.tap_ident("language"), lambda ms: pad.ident("language-en").wait_for(timeout=ms))
    pad.shot("fr-language-menu")
    pad.tap_ident("language-en")
    pad.button("New game").wait_for(timeout=SLOW)
    assert pad.button("Play solo").count() == 1 and pad.button("Jouer en solo").count() == 0
    pad.reload()
    pad.button("Play solo").wait_for(timeout=SLOW)
    pad.page.wait_for_timeout(1500)  # were the device's choice lost, the French locale would redraw by now
    assert pad.button("Jouer en solo").count() == 0


def play_the_first_round(pad) -> None:
    """The rest of the solo game's first round, in French: the Catch's choice, then the round's summary (the
    pad's own, which the French USA sheet test follows to the final ranking)."""
    shots = set()
    while not pad.ident("summary-title").count():
        status, before = pad.text("solo-status"), pad.text("solo-step")
        assert status.startswith("Manche 1 "), status
        if "Réception est arrivée" in status:
            assert not pad.english_left(NAMES), pad.english_left(NAMES)
            pad.shot("fr-solo-choice")
            shots.add("choice")
            pad.tap_ident("choice-0")
        else:
            pad.tap_ident("hand-0")
        pad.page.wait_for_function(
            "s => { const e = document.querySelector('[flt-semantics-identifier=\"solo-step\"]');"
            " return !e || e.innerText !== s; }", arg=before, timeout=SLOW, polling=POLL_MS)
        pad.wait_any("solo-status", "summary-title", timeout=SLOW)
    assert pad.wait_text("summary-title", r"^Manche 1 close$")
    assert shots == {"choice"}
    assert not pad.english_left(NAMES), pad.english_left(NAMES)
    pad.shot("fr-solo-round-summary")
