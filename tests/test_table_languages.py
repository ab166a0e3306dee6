"""At a table each phone speaks its own language while every phone shows the same game: two seats' phones
as real Flet sessions of the app (the `tourpad bench table --phones flet` harness), Ann's in French, Bob's
in English. Their sheets, round summaries and totals are the same game; only the words differ, and a
refusal the table sends back comes out in the language of the phone that made the request."""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest
from flet.controls.context import _context_page
from flet.pubsub.pubsub_hub import PubSubHub
from test_pad_screens import run_session

from benchmarks import table_flet
from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.pad.errors import EntryError
from scorer.pad.store import EventStore
from scorer.table.service import TableService
from scorer.ui import table as table_ui
from scorer.ui.entry import submit_round
from scorer.ui.main import make_main


@pytest.fixture
def hosting(tmp_path, monkeypatch):
    service = TableService(tmp_path / "tables.sqlite3")
    store = EventStore(tmp_path / "games.sqlite3")
    monkeypatch.setattr(table_ui, "HOSTING", table_ui.Hosting(service, table_flet.HOST_URL))
    yield service, store
    store.close()
    service.close()


async def save(phone: table_flet.Phone, round_index: int, cards: str, choice: str | None) -> None:
    """What the keypad's Save does on the phone (`submit_round`), in that phone's session."""
    _context_page.set(phone.page)
    sheet = phone.sheet
    await submit_round(phone.app, sheet, lambda: sheet.enter_letters(phone.seat - 1, cards, choice, round_index),
                       round_index, phone.seat - 1)


def text(phone: table_flet.Phone, identifier: str) -> str:
    control = table_flet.hooked(phone.page, identifier)
    return control.content.value if hasattr(control, "content") else control.value


def test_two_phones_at_one_table_show_the_same_game_each_in_its_own_language(hosting):
    service, store = hosting
    rounds, _ = scripted_rounds(load_edition("usa"), 2, seed=11)

    async def run():
        code, _ = service.create_table("usa", 2, credential=service.host_credential)
        tokens = [service.claim_seat(code, 1, "Ann"), service.claim_seat(code, 2, "Bob")]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
            hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
            main = make_main(lambda: store)
            ann, bob = [await table_flet.seat_phone(main, service, code, s, tokens[s - 1], hub, executor)
                        for s in (1, 2)]
            _context_page.set(ann.page)
            ann.app.set_language("fr")  # what Ann's language switch (or her phone's locale) does
            await asyncio.sleep(0.01)
            assert text(ann, "round-status") == "Manche 1 sur 4"
            assert text(bob, "round-status") == "Round 1 of 4"

            # Ann saves first: Bob's phone, redrawn from the table's writer thread, says so in English, and
            # Ann's own in French
            ann_entered = bob.connection.shows("Ann: entered")
            await save(ann, 0, *rounds[0][0])
            await asyncio.wait_for(ann_entered, 5)
            assert text(bob, "waiting-for") == "Waiting for Bob"
            assert text(ann, "waiting-for") == "On attend Bob"

            # Bob's save closes round 1: both phones show its summary, the same points, each in its language
            ann_closed = ann.connection.shows("Manche 1 close")
            await save(bob, 0, *rounds[0][1])
            await asyncio.wait_for(ann_closed, 5)
            assert text(ann, "summary-title") == "Manche 1 close"
            assert text(bob, "summary-title") == "Round 1 closed"
            assert table_flet.shown_totals(ann, 2) == table_flet.shown_totals(bob, 2)
            engine = [p["total"] for p in service.view(code)["scores"]["players"]]
            assert table_flet.shown_totals(bob, 2) == engine and sum(engine) > 0

            await table_flet.tap(ann, table_flet.button(ann.page, "Commencer la manche 2"))
            await table_flet.tap(bob, table_flet.button(bob.page, "Start round 2"))
            assert text(ann, "round-status") == "Manche 2 sur 4"
            assert text(bob, "round-status") == "Round 2 of 4"
            # each phone opens on its own sheet: Ann's total on hers, Bob's on his, as the table scored them
            assert text(ann, "sheet-total-1") == str(engine[0]) and text(bob, "sheet-total-2") == str(engine[1])

            # a refusal from the table (entering the other seat's round) in each phone's language
            for phone, other, expected in ((bob, 0, "only the host can edit seat 1 (Ann)"),
                                           (ann, 1, "seul l'hôte peut modifier la place 2 (Bob)")):
                _context_page.set(phone.page)
                with pytest.raises(EntryError, match=expected.replace("(", r"\(").replace(")", r"\)")):
                    phone.sheet.enter_letters(other, rounds[1][other][0], rounds[1][other][1], 1)
            table_flet.close_phones([ann, bob])

    run_session(run)
