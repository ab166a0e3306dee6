"""Seats' phones as real Flet sessions of the app (the harness of `tourpad bench table --phones flet`):
each follows the round as the others save, and the bench's tiny run counts every update and ends on the
engine's totals."""

from __future__ import annotations

import asyncio
import concurrent.futures

import pytest
from flet.controls.context import _context_page
from flet.pubsub.pubsub_hub import PubSubHub
from test_pad_screens import run_session
from typer.testing import CliRunner

from benchmarks import table_flet
from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.cli import app as cli_app
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
    """What the keypad's Save does on the phone (`submit_round`): the seat's submission, then where it leads."""
    _context_page.set(phone.page)
    sheet = phone.sheet
    await submit_round(phone.app, sheet, lambda: sheet.enter_letters(phone.seat - 1, cards, choice, round_index),
                       round_index, phone.seat - 1)


def test_the_phone_that_closes_a_round_stays_on_the_next_round_when_others_save(hosting):
    """Bob's Save closes round 1 (his phone shows its summary), he starts round 2, then Ann saves her round
    2: Bob's phone shows Ann entered on his round 2 sheet, not round 1's summary again."""
    service, store = hosting
    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=7)

    async def run():
        code, _ = service.create_table("australia", 2, credential=service.host_credential)
        tokens = [service.claim_seat(code, 1, "Ann"), service.claim_seat(code, 2, "Bob")]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
            hub = PubSubHub(loop=asyncio.get_running_loop(), executor=executor)
            main = make_main(lambda: store)
            ann, bob = [await table_flet.seat_phone(main, service, code, s, tokens[s - 1], hub, executor)
                        for s in (1, 2)]
            ann_closed = ann.connection.shows("Round 1 closed")
            await save(ann, 0, *rounds[0][0])
            await save(bob, 0, *rounds[0][1])
            assert bob.app.path == f"/table/{code}/seat/2/round/1"
            await asyncio.wait_for(ann_closed, 5)
            for phone in (ann, bob):
                await table_flet.tap(phone, table_flet.button(phone.page, "Start round 2"))
            ann_entered = bob.connection.shows("Ann: entered")
            await save(ann, 1, *rounds[1][0])
            await asyncio.wait_for(ann_entered, 5)
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
