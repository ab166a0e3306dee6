"""A seat's sheet over the table service (scorer/table/sheet.py), without Flet: what its screens are told."""

from __future__ import annotations

import pytest

from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.table.service import TableService
from scorer.table.sheet import TableSheetSession


@pytest.fixture
def service(tmp_path):
    s = TableService(tmp_path / "tables.sqlite3")
    yield s
    s.close()


def seated(service: TableService, seats: int) -> tuple[str, list[str]]:
    code, _ = service.create_table("australia", seats, credential=service.host_credential)
    return code, [service.claim_seat(code, s, f"P{s}") for s in range(1, seats + 1)]


def watched(service: TableService, code: str, token: str, seat: int):
    """A sheet whose updates wait in `queued` (as on a phone's busy loop) until the test runs them."""
    sheet = TableSheetSession(service, code, token, seat)
    queued, told = [], []
    sheet.listeners.append(lambda state: told.append((sorted(state.entries[0]), state.rounds_done)))
    sheet.watch(queued.append)  # the service calls back before submit returns (after the commit)
    return sheet, queued, told


@pytest.mark.parametrize("burst", [3, 4])
def test_a_burst_of_entries_reaches_a_busy_phone_as_one_change(service, burst):
    """Seats save while seat 4's phone is busy: when it gets to their changes, its screens are told once,
    with every entry (and, when the burst closed the round, the round closed)."""
    code, tokens = seated(service, 4)
    rounds, _ = scripted_rounds(load_edition("australia"), 4, seed=3)
    _sheet, queued, told = watched(service, code, tokens[3], 3)
    for seat in range(burst):
        cards, choice = rounds[0][seat]
        service.submit(code, 1, seat + 1, cards, choice, 0, tokens[seat])
    assert len(queued) == burst
    for update in queued:
        update()
    assert told == [(list(range(burst)), 1 if burst == 4 else 0)]


def test_changes_a_phone_gets_to_one_at_a_time_are_each_told(service):
    code, tokens = seated(service, 3)
    rounds, _ = scripted_rounds(load_edition("australia"), 3, seed=5)
    _sheet, queued, told = watched(service, code, tokens[2], 2)
    for seat in range(2):
        cards, choice = rounds[0][seat]
        service.submit(code, 1, seat + 1, cards, choice, 0, tokens[seat])
        queued.pop()()
    assert told == [([0], 0), ([0, 1], 0)]


def test_a_sheet_left_on_the_last_game_cannot_write_into_the_next(service):
    """A phone still showing game 1 (its update not yet run) enters its round after the host's "play again":
    refused, naming the games, and game 2 stays as it was."""
    from scorer.pad.errors import EntryError

    code, tokens = seated(service, 2)
    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=5)
    sheet = TableSheetSession(service, code, tokens[0], 0)  # not watching: it shows game 1 until reloaded
    host = service.host_credential
    service.end_game(code, host)
    service.play_again(code, host)
    with pytest.raises(EntryError, match=r"for game 1.*playing game 2"):
        sheet.enter_letters(0, *rounds[0][0])
    assert service.view(code)["rounds"][0]["entries"] == [None, None]
    sheet.reload()
    sheet.enter_letters(0, *rounds[0][0])
    assert service.view(code)["rounds"][0]["entries"][0]["revision"] == 1
