"""A seat's score sheet at a table (`scorer.table.sheet.TableSheetSession`): the pad's `PadState`, folded
from the table and scored by the same rules, commands as submissions with the seat's own token, and every
seat's sheet following the table live. Played with the USA acceptance game of issue 13 (round 3: Ann and
Bob reach coast to coast together and share Great Plains)."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from rules.record import GameRecord
from scorer.pad.errors import EntryError
from scorer.pad.session import DraftBook
from scorer.table.service import TableService
from scorer.table.sheet import TableSheetSession

DATA = Path(__file__).parent / "data"


@pytest.fixture
def service(tmp_path):
    service = TableService(tmp_path / "tables.sqlite3")
    yield service
    service.close()


class Loop:
    """The screens' loop, for a test: the service hands each update over from its writer thread (where
    it must not work: the service may hold its lock waiting for that thread), and `run` runs them here."""

    def __init__(self) -> None:
        self.updates: queue.Queue = queue.Queue()

    def schedule(self, update) -> None:
        self.updates.put(update)

    def run(self) -> None:
        while not self.updates.empty():
            self.updates.get()()


def seated(service: TableService, record: GameRecord, loop: Loop
           ) -> tuple[list[TableSheetSession], TableSheetSession]:
    """Every seat's sheet session (claimed by name, each with its own token) and the host's, all live."""
    code, host_token = service.create_table(record.edition, len(record.players),
                                            credential=service.host_credential)
    seats = [TableSheetSession(service, code, service.claim_seat(code, s, name), s - 1)
             for s, name in enumerate(record.players, start=1)]
    host = TableSheetSession(service, code, host_token, None)
    for session in [*seats, host]:
        session.watch(loop.schedule)
    return seats, host


def test_every_seat_plays_the_usa_game_and_every_sheet_agrees_with_the_table(service):
    record = GameRecord.model_validate_json((DATA / "table_usa_acceptance.json").read_text())
    loop = Loop()
    seats, host = seated(service, record, loop)
    seen: list[list[int]] = [[] for _ in seats]
    for p, session in enumerate(seats):
        session.listeners.append(lambda state, p=p: seen[p].append(state.rounds_done))
    for r, row in enumerate(record.rounds):
        for p, name in enumerate(record.players):
            session = seats[p]
            assert session.may_enter(r, p) and not session.may_enter(r, (p + 1) % len(seats))
            session.enter_letters(p, row[name].cards, row[name].choice, r)
            loop.run()
        for session in [*seats, host]:
            assert session.state.rounds_done == r + 1
    view = service.view(seats[0].code)
    for session in [*seats, host]:
        state = session.state
        assert state.finished
        assert state.totals() == [p["total"] for p in view["scores"]["players"]] == [116, 79, 102]
        assert state.record().model_dump(exclude_none=True) == record.model_dump(exclude_none=True)
        summary = state.bonus_summary(2)
        assert "Ann and Bob both completed Great Plains this round: +3 each" in summary
        assert any(line.startswith("Ann and Bob both reached coast to coast") for line in summary)
    # each seat heard every other seat's submission as it was committed (its own it read back at once)
    assert [len(s) for s in seen] == [len(record.rounds) * (len(seats) - 1)] * len(seats)
    # the route's tiers on every sheet: first taken by Ann and Bob in round 3, second by Cy in round 4
    route = seats[2].state.bonus_marks().route
    assert [(t.points, [(k.round, k.players) for k in t.takings]) for t in route.tiers][:2] == [
        (7, [(3, (0, 1))]), (3, [(4, (2,))])]


def test_a_seat_changes_only_its_own_open_round_and_a_refusal_changes_nothing(service):
    record = GameRecord.model_validate_json((DATA / "table_usa_acceptance.json").read_text())
    loop = Loop()
    (ann, bob, cy), host = seated(service, record, loop)
    ann.enter_letters(0, record.rounds[0]["Ann"].cards, None, 0)
    loop.run()
    version = service.view(ann.code)["version"]
    taken = record.rounds[0]["Ann"].cards[0]
    with pytest.raises(EntryError, match=f"{taken}.*Ann"):
        bob.enter_letters(1, taken + record.rounds[0]["Bob"].cards[1:], None, 0)
    with pytest.raises(EntryError, match="seat 1"):
        bob.enter_letters(0, record.rounds[0]["Bob"].cards, None, 0)  # Ann's sheet, with Bob's token
    assert service.view(ann.code)["version"] == version
    assert bob.state.entries[0] == {0: {"cards": record.rounds[0]["Ann"].cards, "choice": None}}
    assert not bob.may_enter(0, 0) and not bob.may_enter(1, 1)  # another's sheet; a round not open yet
    for p, name in ((1, "Bob"), (2, "Cy")):
        entry = record.rounds[0][name]
        [ann, bob, cy][p].enter_letters(p, entry.cards, entry.choice, 0)
    loop.run()
    # round 1 closed: a seat may no longer edit it; the host corrects any seat's round so far
    assert not ann.may_enter(0, 0) and host.may_enter(0, 2) and host.may_enter(1, 0)
    with pytest.raises(EntryError, match="only the host can correct"):
        ann.enter_letters(0, record.rounds[0]["Ann"].cards, "Dining", 0)
    assert not ann.has_undo and ann.title == "USA · Ann" and host.title == "USA · host"
    assert ann.place.route("entry", round_index=1, player=0) == (
        "table_seat_entry", {"code": ann.code, "seat": 1, "round_index": 1, "player": 0})


def test_a_removed_seat_knows_it_is_gone_and_a_later_one_moves_down(service):
    code, host_token = service.create_table("australia", 3, credential=service.host_credential)
    tokens = [service.claim_seat(code, s, name) for s, name in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
    bob, cy = (TableSheetSession(service, code, tokens[s], s) for s in (1, 2))
    loop = Loop()
    for session in (bob, cy):
        session.watch(loop.schedule)
    service.remove_seat(code, 2, host_token)
    loop.run()
    assert bob.gone == "The host removed your seat"
    assert cy.gone is None and cy.seat == 1 and cy.state.players == ("Ann", "Cy")


def test_a_draft_is_kept_until_its_saved_entry_changes_elsewhere():
    book = DraftBook()
    key = ("table", "ABCDEFGH", 1, 0, 0, 0)
    book.keep(key, ["A", "B"], None, base=("", None))
    assert book.get(key).letters == ["A", "B"] and book.get(key).base == ("", None)
    book.drop(key)
    assert book.get(key) is None


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


def two_watched(service: TableService) -> tuple[str, Watched, Watched]:
    code, _host = service.create_table("australia", 2, credential=service.host_credential)
    tokens = [service.claim_seat(code, seat, name) for seat, name in ((1, "Ann"), (2, "Bob"))]
    ann, bob = (Watched(service, code, token, seat) for seat, token in enumerate(tokens))
    return code, ann, bob


def test_a_change_whose_event_never_came_reaches_the_screens_at_the_next_catch_up(service):
    _code, ann, bob = two_watched(service)
    bob.session.enter_letters(1, "HIJKLMN", None)
    bob.deliver(1)
    ann.deliver(1)
    views: list[int] = []  # the whole table read by Bob's phone (each read sends every sheet)
    read = bob.session.transport.view
    bob.session.transport.view = lambda: views.append(1) or read()
    assert not bob.session.catch_up() and bob.told == []  # in step: nothing read again is news
    assert views == []  # ...and only the table's version was asked
    ann.session.enter_letters(0, "ABCDEFG", None)  # closes round 1 on Ann's phone
    bob.updates.get(timeout=10)  # ...and its event never reaches Bob's
    assert bob.session.state.rounds_done == 0
    assert bob.session.catch_up()
    assert bob.told == [(0, 1)] and bob.session.state.rounds_done == 1  # Bob's phone: the round's summary
    assert views == [1]  # behind: the whole table, once
    assert not bob.session.catch_up() and bob.told == [(0, 1)]  # told once


def test_a_change_that_a_saves_read_back_brought_along_still_reaches_the_screens(service):
    """Bob saves; before his phone reads the table back, Ann's save closes the round. His screens draw what the
    read-back gave (after_save: the summary); the events of both saves then find the view has them, and still
    tell the screens the table as it is, once."""
    _code, ann, bob = two_watched(service)
    read = bob.session.transport.view

    def read_after_anns_save() -> dict:
        ann.session.enter_letters(0, "ABCDEFG", None)
        return read()

    bob.session.transport.view = read_after_anns_save
    after = bob.session.enter_letters(1, "HIJKLMN", None)
    bob.session.transport.view = read
    assert after.rounds_done == 1  # what Bob's save drew: round 1 closed
    bob.deliver(2)
    assert bob.told == [(1, 1)]  # told the table as it is, not sent back to a round it already shows closed


def test_a_read_back_overtaken_by_an_event_keeps_the_newer_table(service):
    code, ann, bob = two_watched(service)
    older = service.view(code)
    ann.session.enter_letters(0, "ABCDEFG", None)
    bob.deliver(1)
    newer = bob.session.view["version"]
    assert newer > older["version"]
    bob.session.transport.view = lambda: older  # an answer sent before Ann's save, read after its event
    bob.session.reload()
    assert bob.session.view["version"] == newer and bob.session.state.entered(0)[0]


def test_europe_passport_first_second_and_a_tie_on_every_seat_s_round_summary(service):
    """The passport settled 1st (round 2), 2nd (round 3) and tied 3rd (round 4) at a table: every seat's
    sheet tells it in the same words, and every sheet marks the tiers taken."""
    record = GameRecord.model_validate_json((DATA / "table_europe_passport.json").read_text())
    loop = Loop()
    seats, host = seated(service, record, loop)
    for r, row in enumerate(record.rounds):
        for p, name in enumerate(record.players):
            seats[p].enter_letters(p, row[name].cards, row[name].choice, r)
            loop.run()
    for session in [*seats, host]:
        state = session.state
        assert "Ann was first to complete the passport: +7" in state.bonus_summary(1)
        assert "Bob was second to complete the passport: +3" in state.bonus_summary(2)
        assert "Cy and Dee both completed the passport this round: third place, +1 each" in state.bonus_summary(3)
        tiers = state.bonus_marks().route.tiers
        assert [[(t.round, t.players) for t in tier.takings] for tier in tiers] == [
            [(2, (0,))], [(3, (1,))], [(4, (2, 3))]]



def test_the_seats_and_the_board_read_the_hosts_scores_as_sent_without_scoring_again(service, monkeypatch):
    """The host folds the closed rounds once (`rules.sheet`) and sends the result in its view; a seat's sheet
    and the board read it as it came: with the scoring taken away, they still show the host's scores."""
    import rules.scoring
    from scorer.table.board import board_from_view
    from scorer.table.sheet import state_from_view

    record = GameRecord.model_validate_json((DATA / "table_usa_acceptance.json").read_text())
    code, host_token = service.create_table(record.edition, len(record.players), credential=service.host_credential)
    for s, name in enumerate(record.players, start=1):
        service.claim_seat(code, s, name)
    for r, row in enumerate(record.rounds[:3], start=1):
        for s, name in enumerate(record.players, start=1):
            service.submit(code, r, s, row[name].cards, row[name].choice, 0, host_token)
    view = service.view(code)

    def scoring(*args, **kwargs):
        raise AssertionError("a seat or the board scored a round again")

    monkeypatch.setattr(rules.scoring, "score_throw_catch", scoring)
    monkeypatch.setattr(rules.scoring, "score_round", scoring)
    state = state_from_view(view)
    board = board_from_view(view)
    totals = [p["total"] for p in view["scores"]["players"]]
    assert state.rounds_done == 3 and state.totals() == totals
    assert [column.total for column in board.sheets] == totals
    assert state.notes == [p["explanations"] for p in view["scores"]["players"]]
    assert "Ann and Bob both completed Great Plains this round: +3 each" in state.bonus_summary(2)


def test_a_damaged_sheet_in_a_view_is_refused_with_what_is_wrong(service):
    from pydantic import ValidationError

    from scorer.table.sheet import state_from_view

    code, host_token = service.create_table("australia", 2, credential=service.host_credential)
    service.submit(code, 1, 1, "ABCDEFG", None, 0, host_token)
    service.submit(code, 1, 2, "HIJKLMN", None, 0, host_token)
    view = service.view(code)
    view["sheet"]["rounds"][0]["scores"][1] = [1, 2]
    with pytest.raises(ValidationError, match="round 1: 2 scores of 7 fields each expected"):
        state_from_view(view)


def test_a_sheet_whose_bonus_names_a_player_not_at_the_table_is_refused(service):
    from pydantic import ValidationError

    from scorer.table.board import board_from_view

    record = GameRecord.model_validate_json((DATA / "table_usa_acceptance.json").read_text())
    code, host_token = service.create_table(record.edition, len(record.players), credential=service.host_credential)
    for r, row in enumerate(record.rounds, start=1):
        for s, name in enumerate(record.players, start=1):
            service.submit(code, r, s, row[name].cards, row[name].choice, 0, host_token)
    view = service.view(code)
    awards = view["sheet"]["rounds"][2]["awards"]
    assert awards  # round 3 settles Great Plains and the coast to coast
    awards[0]["players"] = [7]
    with pytest.raises(ValidationError, match="a bonus names a player who is not one of the 3"):
        board_from_view(view)
