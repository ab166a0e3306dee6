"""A seat's live sheet (scorer/table/sheet.py): what its listeners are told about the rounds a change closed."""

from __future__ import annotations

import queue

import pytest

from scorer.table.service import TableService
from scorer.table.sheet import TableSheetSession


@pytest.fixture
def service(tmp_path):
    svc = TableService(tmp_path / "tables.sqlite3")
    yield svc
    svc.close()


class Watched:
    """Seat `seat`'s sheet, its updates run here when `deliver` is called (as the screens' loop would)."""

    def __init__(self, service: TableService, code: str, token: str, seat: int) -> None:
        self.session = TableSheetSession(service, code, token, seat)
        self.updates: queue.Queue = queue.Queue()
        self.told: list[tuple[int, int]] = []  # (rounds closed before the change, after it)
        self.session.listeners.append(
            lambda state: self.told.append((self.session.rounds_done_before, state.rounds_done)))
        self.session.watch(self.updates.put)

    def deliver(self, events: int) -> None:
        for _ in range(events):
            self.updates.get(timeout=10)()


def test_the_seat_whose_entry_closed_a_round_is_not_told_it_closed_again(service):
    code, _host = service.create_table("australia", 2, credential=service.host_credential)
    tokens = [service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
    ann, bob = (Watched(service, code, token, seat) for seat, token in enumerate(tokens))

    ann.session.enter_letters(0, "ABCDEFG", None)
    ann.deliver(1)
    bob.deliver(1)
    assert ann.told == [] and bob.told == [(0, 0)]  # Ann's own entry is no news to Ann's phone
    bob.session.enter_letters(1, "HIJKLMN", None)  # closes round 1 on Bob's phone: read back at once
    assert bob.session.state.rounds_done == 1
    ann.deliver(1)
    bob.deliver(1)
    assert ann.told == [(0, 1)]  # Ann's phone: round 1 closed elsewhere (it shows the round's summary)
    assert bob.told == [(0, 0)]

    ann.session.enter_letters(0, "OPQRSTU", None)  # round 2's first entry, on Ann's phone
    bob.deliver(1)
    assert bob.told[-1] == (1, 1)  # Bob is not sent back to round 1's summary
