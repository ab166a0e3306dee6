"""A host phone's tables (scorer/table/phone_store.py): the table service with no thread, each change kept
(`durable`: in the browser, IndexedDB) before it is published or acknowledged, resumed from its file."""

from __future__ import annotations

import queue
import threading

import pytest

from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.table.errors import Forbidden, Unavailable
from scorer.table.phone_store import FILE_NAME, InlineTableStore, phone_table_service
from scorer.table.service import TableService
from scorer.table.sheet import SeatSheetSession
from scorer.table.transport import ServiceTransport


@pytest.fixture
def no_threads(monkeypatch):
    """The browser's Python: a thread cannot start."""
    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


def test_a_phone_plays_a_whole_europe_game_with_no_thread_and_keeps_each_change_before_it_counts(tmp_path,
                                                                                                  no_threads):
    happened: list[str] = []
    path = tmp_path / FILE_NAME
    service = TableService(path, store=InlineTableStore(path, durable=lambda: happened.append("kept")))
    code, host_token = service.create_table("europe", 3, credential=service.host_credential)
    tokens = [service.claim_seat(code, s, name) for s, name in ((1, "Ann"), (2, "Bob"), (3, "Zoé"))]
    loop: queue.Queue = queue.Queue()  # the page's loop: the seats' updates wait there, as in the browser
    seats = [SeatSheetSession(ServiceTransport(service, code, token), s) for s, token in enumerate(tokens)]
    for seat in seats:
        seat.watch(loop.put)
    service.subscribe(code, lambda event: happened.append(f"published {event['kind']}"))

    edition = load_edition("europe")
    rounds, totals = scripted_rounds(edition, 3, seed=7)
    happened.clear()
    seats[0].enter_letters(0, *rounds[0][0])
    happened.append("acknowledged")
    assert happened == ["kept", "published entry", "acknowledged"]  # kept before anyone hears of it
    for r, entries in enumerate(rounds):
        for s, (cards, choice) in enumerate(entries):
            if (r, s) != (0, 0):
                seats[s].enter_letters(s, cards, choice)
            while not loop.empty():
                loop.get()()
    view = service.view(code)
    assert view["finished"] and view["round"] is None
    assert [seat.state.sheet.totals() for seat in seats] == [list(totals)] * 3  # every phone: the engine's scores

    # the host's controls are the service's: end, play again, close joining
    service.end_game(code, host_token)
    service.play_again(code, host_token)
    service.set_joining(code, False, host_token)
    with pytest.raises(Forbidden, match="closed this table"):
        service.claim_seat(code, 2, "Eve")
    service.close()

    resumed = TableService(path, host_credential=service.host_credential, store=InlineTableStore(path))
    try:  # the page reloaded: the table is back from its file, game 2, closed to newcomers, seats kept
        again = resumed.view(code)
        assert (again["game"], again["locked"]) == (2, True)
        assert [seat["name"] for seat in again["seats"]] == ["Ann", "Bob", "Zoé"]
        assert resumed.role(code, tokens[2]) == 2 and resumed.host_codes() == [again["code"]]
    finally:
        resumed.close()


def test_a_change_the_phone_could_not_keep_is_neither_acknowledged_nor_published(tmp_path, no_threads):
    failing = [False]

    def durable() -> None:
        if failing[0]:
            raise OSError("IndexedDB refused the write")

    path = tmp_path / FILE_NAME
    service = TableService(path, store=InlineTableStore(path, durable=durable))
    try:
        code, _host = service.create_table("australia", 2, credential=service.host_credential)
        token = service.claim_seat(code, 1, "Ann")
        heard: list[dict] = []
        service.subscribe(code, heard.append)
        failing[0] = True
        with pytest.raises(Unavailable, match="IndexedDB refused the write"):
            service.submit(code, 1, 1, "ABCDEFG", None, 0, token)
        assert heard == []
        failing[0] = False
        with pytest.raises(Unavailable):  # memory may be ahead of what was kept: nothing more until reopened
            service.submit(code, 1, 1, "ABCDEFG", None, 0, token)
    finally:
        service.close()


def test_the_phone_keeps_its_host_credential_so_a_reload_resumes_its_own_tables(tmp_path):
    service = phone_table_service(tmp_path)
    code, _host = service.create_table("usa", 2, credential=service.host_credential)
    service.close()
    resumed = phone_table_service(tmp_path)
    try:
        assert resumed.host_codes() == [resumed.view(code)["code"]]
        assert (tmp_path / FILE_NAME).is_file()
    finally:
        resumed.close()
