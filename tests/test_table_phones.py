"""Seats' phones as real Flet sessions of the app (the harness of `tourpad bench table --phones flet`):
each follows the round as the others save, each speaks its own language while every phone shows the same
game, and the bench's tiny run counts every update and ends on the engine's totals."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib

import pytest
from eventually import PATIENCE_SECONDS
from flet.controls.context import _context_page
from flet.pubsub.pubsub_hub import PubSubHub
from test_pad_screens import run_session
from typer.testing import CliRunner

from benchmarks import table_flet
from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.cli import app as cli_app
from scorer.pad.errors import EntryError
from scorer.pad.store import EventStore
from scorer.table.service import TableService
from scorer.ui import table as table_ui
from scorer.ui.entry import submit_round
from scorer.ui.main import make_main


async def save(phone: table_flet.Phone, round_index: int, cards: str, choice: str | None) -> None:
    """What the keypad's Save does on the phone (`submit_round`): the seat's submission, then where it leads."""
    _context_page.set(phone.page)
    sheet = phone.sheet
    await submit_round(phone.app, sheet, lambda: sheet.enter_letters(phone.seat - 1, cards, choice, round_index),
                       round_index, phone.seat - 1)


@contextlib.asynccontextmanager
async def ann_and_bob(service: TableService, store: EventStore, edition_id: str):
    """A new two-seat table, Ann and Bob seated, each with a phone open at their seat's sheet."""
    code, _ = service.create_table(edition_id, 2, credential=service.host_credential)
    tokens = [service.claim_seat(code, 1, "Ann"), service.claim_seat(code, 2, "Bob")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
        main = make_main(lambda: store)
        ann, bob = [await table_flet.seat_phone(main, service, code, s, tokens[s - 1], hub, executor)
                    for s in (1, 2)]
        yield code, ann, bob


def test_the_phone_that_closes_a_round_stays_on_the_next_round_when_others_save(hosting):
    """Bob's Save closes round 1 (his phone shows its summary), he starts round 2, then Ann saves her round
    2: Bob's phone shows Ann entered on his round 2 sheet, not round 1's summary again."""
    service, store = hosting
    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=7)

    async def run():
        async with ann_and_bob(service, store, "australia") as (code, ann, bob):
            ann_closed = ann.connection.shows("Round 1 closed")
            await save(ann, 0, *rounds[0][0])
            await save(bob, 0, *rounds[0][1])
            assert bob.app.path == f"/table/{code}/seat/2/round/1"
            await asyncio.wait_for(ann_closed, PATIENCE_SECONDS)
            for phone in (ann, bob):
                await table_flet.tap(phone, table_flet.button(phone.page, "Start round 2"))
            ann_entered = bob.connection.shows("Ann: entered")
            await save(ann, 1, *rounds[1][0])
            await asyncio.wait_for(ann_entered, PATIENCE_SECONDS)
            assert bob.app.path == f"/table/{code}/seat/2"
            assert table_flet.hooked(bob.page, "round-status").value == "Round 2 of 4"
            table_flet.close_phones([ann, bob])

    run_session(run)


@pytest.mark.parametrize("turns", [False, True])
def test_a_tiny_bench_run_measures_every_update_and_ends_on_the_engines_totals(turns):
    """1 table × 2 seats, 1 game, saves all at once or one at a time: every submission timed on the other
    phone, and both phones' final round summaries (and the service's view) show the engine's totals."""
    result = table_flet.run(load_edition("australia"), tables=1, seats=2, games=1, turns=turns)
    assert result["submissions"] == 8  # 4 rounds × 2 seats
    assert result["updates_expected"] == result["updates_measured"] == 8  # each seen by the one other phone
    assert result["totals_compared"] == 3 and result["totals_unlike_engine"] == 0
    assert 0 < result["update_latency_p50_ms"] <= result["update_latency_p95_ms"] <= result["update_latency_max_ms"]
    assert table_ui.HOSTING is None  # the run put back what the app was configured with


@pytest.mark.parametrize("args, message", [
    (["--phones", "browser"], "--phones is one of both, sse, flet, not 'browser'"),
    (["--seats", "5"], "--seats: a table has 2 to 4 seats, not 5"),
    (["--flet-games", "0"], "--flet-games must be at least 1 (got 0)"),
])
def test_bench_table_refuses_bad_options_before_running(args, message):
    result = CliRunner().invoke(cli_app, ["bench", "table", *args])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def text(phone: table_flet.Phone, identifier: str) -> str:
    control = table_flet.hooked(phone.page, identifier)
    return control.content.value if hasattr(control, "content") else control.value


def test_two_phones_at_one_table_show_the_same_game_each_in_its_own_language(hosting):
    service, store = hosting
    rounds, _ = scripted_rounds(load_edition("usa"), 2, seed=11)

    async def run():
        async with ann_and_bob(service, store, "usa") as (code, ann, bob):
            _context_page.set(ann.page)
            ann.app.set_language("fr")  # what Ann's language switch (or her phone's locale) does
            await asyncio.sleep(0.01)
            assert text(ann, "round-status") == "Manche 1 sur 4"
            assert text(bob, "round-status") == "Round 1 of 4"

            # Ann saves first: Bob's phone, redrawn from the table's writer thread, says so in English, and
            # Ann's own in French
            ann_entered = bob.connection.shows("Ann: entered")
            await save(ann, 0, *rounds[0][0])
            await asyncio.wait_for(ann_entered, PATIENCE_SECONDS)
            assert text(bob, "waiting-for") == "Waiting for Bob"
            assert text(ann, "waiting-for") == "On attend Bob"

            # Bob's save closes round 1: both phones show its summary, the same points, each in its language
            ann_closed = ann.connection.shows("Manche 1 close")
            await save(bob, 0, *rounds[0][1])
            await asyncio.wait_for(ann_closed, PATIENCE_SECONDS)
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
