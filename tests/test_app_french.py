"""The app's own words in French (the score pad's solo, Race Around Europe, files and routes), said in the
language of the moment they are read, with French plurals, typography and number formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.i18n import use_language
from rules.race.board import load_board
from scorer.pad.store import summary_line
from scorer.race.checker import JourneyChecker
from scorer.race.solo import SoloRace
from scorer.routes import RouteError, parse
from scorer.solo.game import SoloGame
from scorer.solo.view import hint_lines, status_line, summary_of
from scorer.userfile import UserFileError, read_user_bytes

NBSP, NNBSP = "\u00a0", "\u202f"


def test_the_solo_status_line_and_bots_speak_french() -> None:
    game = SoloGame.new("australia", ["easy", "hard"], seed=3)
    with use_language("fr"):
        assert status_line(game.screen()) == (
            f"Manche 1 sur 4{NBSP}: choisissez votre carte Lancer (face cachée jusqu'à la fin de la manche)")
        assert game.setup.players[1:] == ["Bot 1 (facile)", "Bot 2 (difficile)"]
        assert summary_line(summary_of(game)) == "manche 1 sur 4, carte Lancer"
    assert game.setup.players[1:] == ["Bot 1 (easy)", "Bot 2 (hard)"]  # names follow the language read in


def test_bonus_and_hint_lines_in_french() -> None:
    with use_language("fr"):
        game = SoloGame.new("europe", ["normal", "easy", "easy"], seed=11, bot_seed=12)
        while not game.state.is_terminal():
            game.play(game.screen()["actions"][0]["action"])
        assert "Région «\u00a0Péninsule Ibérique\u00a0» complétée en premier par Bot 1 (normal)\u00a0: +3" in (
            game.pad_state().bonus_summary(1))
        hint = SoloGame.new("australia", ["easy"], seed=4).hint(samples=4)
        best, other = (line.value for line in hint_lines(hint)[:2])
    assert best.startswith("le meilleur · rapporte ") and best.endswith(" pts maintenant")  # "… +1,0 pts …"
    assert "," in best.split(" ")[-3] and " pts de moins · rapporte " in other


def test_the_journey_checker_uses_french_plurals() -> None:
    board = load_board()
    checker = JourneyChecker(board)
    names = checker.tile_names()
    with use_language("fr"):
        assert checker.report().headline == "0 tuiles saisies sur 10"
        checker.set_tile(0, "Norway")
        checker.set_tile(1, "Greece")  # no border: one link broken
        assert checker.report().headline == f"2 tuiles saisies sur 10{NNBSP}; 1 liaison déjà rompue"
        checker.set_tile(2, "Norway")
        assert checker.report().headline.endswith("2 liaisons déjà rompues")
    assert checker.report().headline == "3 of 10 tiles entered; 2 links already broken"
    assert names  # the picker lists every tile


def test_the_race_log_is_said_in_the_language_it_is_read_in(tmp_path: Path) -> None:
    solo = SoloRace(load_board(), ("normal",), seed=5, path=tmp_path / "race-solo.json")
    for _ in range(60):
        if solo.log:
            break
        view = solo.view()
        if view.phase == "setup":
            solo.place(view.holder.index(None))
        elif view.phase == "draw":
            solo.draw()
        else:
            solo.discard(0)
    assert solo.log and solo.log[0].startswith(("You: ", "Bot 1 (normal): "))
    with use_language("fr"):
        assert solo.log[0].startswith((f"Vous{NBSP}: ", f"Bot 1 (normal){NBSP}: "))
        assert solo.view().log[0] == solo.log[0]


def test_file_and_route_refusals_in_french(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"x" * 2_000)
    with use_language("fr"), pytest.raises(UserFileError) as refused:
        read_user_bytes(big, "un relevé de partie", 1_500)
    assert str(refused.value) == f"{big} dépasse 1{NNBSP}500 octets{NBSP}: trop gros pour un relevé de partie"
    with pytest.raises(UserFileError, match="is larger than 1,500 bytes"):
        read_user_bytes(big, "a game record", 1_500)
    with use_language("fr"), pytest.raises(RouteError, match="Il n'y a pas d'écran à l'adresse /nowhere"):
        parse("/nowhere")


def test_history_dates_a_finished_game_as_the_language_writes_dates(tmp_path: Path) -> None:
    import datetime as dt

    import flet as ft
    from test_solo_ui import Shell, walk

    from scorer.pad.game import GameSession
    from scorer.pad.store import EventStore
    from scorer.ui import home  # registers the screens, and names editions as they do

    store = EventStore(tmp_path / "games.sqlite3")
    try:
        game = GameSession.new(store, "australia", ["Ann", "Bob"])
        for ann, bob in (("ABCDEFG", "HIJKLMN"), ("OPQRSTU", "VWXYZ@#"), ("ABCDIJK", "EFGHLMN"),
                         ("UVWXYZ@", "OPQRST#")):
            game.enter_letters(0, ann, None)
            game.enter_letters(1, bob, None)
        when = dt.datetime.fromtimestamp(store.game(game.game_id).updated_at)
        shell = Shell(store)

        def subtitles() -> list[str]:
            return [c.subtitle.value for c in walk(shell.current.body) if isinstance(c, ft.ListTile)]

        with use_language("fr"):
            shell.go("history")
            assert shell.current.title == "Historique"
            assert subtitles() == [f"{home.edition_name('australia')} · {when.strftime('%d/%m/%Y %H:%M')}"]
        shell.go("history")
        assert subtitles() == [f"Boomerang: Australia · {when.strftime('%d/%m/%Y, %H:%M')}"]  # en_GB
    finally:
        store.close()


def test_solo_cards_show_the_editions_french_names_and_keep_the_keys(tmp_path: Path, isolated_data_dir) -> None:
    """What a person reads comes from the edition's names in the language of the moment; the pictograms
    and the rules keep finding things by their English keys."""
    import tomllib

    import tomli_w

    from rules.editions import load_edition
    from scorer.packs import export_text, import_pack

    doc = tomllib.loads(export_text(load_edition("australia"), "toml"))
    doc.update(id="australia-named", base="australia", provenance="owner")
    for region in doc["regions"]:
        region["names"] = {"fr": "FR " + region["name"]}
    for card in doc["cards"]:
        card["site_names"] = {"fr": "FR " + card["site"]}
    for family in ("collection", "pairs", "choice"):
        for icon in doc[family]["icons"]:
            icon["names"] = {"fr": "FR " + icon["name"]}
    pack = tmp_path / "named.toml"
    pack.write_text(tomli_w.dumps(doc), encoding="utf-8")
    import_pack(pack)

    game = SoloGame.new("australia-named", ["easy"], seed=2)
    with use_language("fr"):
        card = game.screen()["hand"][0]
        assert card["site"].startswith("FR ") and card["region"].startswith("FR ")
        assert all(label == "FR " + key for key, label in zip(card["icons"], card["icon_labels"], strict=True))
    english = game.screen()["hand"][0]
    assert english["icons"] == card["icons"] and not english["site"].startswith("FR ")
    while game.state.phase.name != "CHOICE":
        game.play(game.screen()["actions"][0]["action"])
    with use_language("fr"):
        labels = [o["label"] for o in game.screen()["choices"]]
    assert all(label.startswith("FR ") or label == "Rien cette manche" for label in labels), labels
