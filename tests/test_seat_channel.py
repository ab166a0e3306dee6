"""Seats over a data channel to a host phone (scorer/table/channel.py): the messages both ends exchange, carried
here as the channel would carry them (text, in order), with the host phone's tables on its thread-free store."""

from __future__ import annotations

import json
import queue
import threading

import pytest

from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.pad.errors import EntryError
from scorer.table.channel import ChannelHostLink, ChannelSeatTransport
from scorer.table.errors import Forbidden, Unavailable
from scorer.table.phone_store import FILE_NAME, InlineTableStore
from scorer.table.service import TableService
from scorer.table.sheet import SeatSheetSession
from scorer.table.transport import SeatSave


@pytest.fixture
def phone(tmp_path, monkeypatch):
    """The host phone's tables, in a Python where no thread can start (the browser's)."""
    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    path = tmp_path / FILE_NAME
    service = TableService(path, store=InlineTableStore(path))
    yield service
    service.close()


class Guest:
    """A guest phone joined to table `code`: its channel to the host's link, every text kept as sent."""

    def __init__(self, service: TableService, code: str) -> None:
        self.sent: list[str] = []
        self.heard: list[str] = []
        self.link = ChannelHostLink(service, code, self._hear)
        self.transport = ChannelSeatTransport(self._say, code)
        self.updates: queue.Queue = queue.Queue()

    def _say(self, text: str) -> None:
        self.sent.append(text)
        self.link.receive(text)

    def _hear(self, text: str) -> None:
        self.heard.append(text)
        self.transport.receive(text)

    def sit(self, seat_no: int, name: str) -> SeatSheetSession:
        self.transport.claim(seat_no, name)
        self.sheet = SeatSheetSession(self.transport, seat_no - 1)
        self.sheet.watch(self.updates.put)
        return self.sheet

    def run(self) -> None:
        while not self.updates.empty():
            self.updates.get()()


def test_guests_claim_their_seats_and_play_over_the_channel_and_no_save_crosses_games(phone):
    code, host_token = phone.create_table("australia", 2, credential=phone.host_credential)
    ann, bob = Guest(phone, code), Guest(phone, code)
    ann.sit(1, "Ann")
    bob.sit(2, "Bob")
    assert [seat["name"] for seat in phone.view(code)["seats"]] == ["Ann", "Bob"]
    stranger = Guest(phone, code).transport
    stranger.token = bob.transport.token
    with pytest.raises(Forbidden):  # Bob's token on Ann's seat: the host's own check, over the channel
        stranger.save(SeatSave(1, 1, 1, "ABCDEFG", None, 0))

    rounds, _ = scripted_rounds(load_edition("australia"), 2, seed=5)
    ann.sheet.enter_letters(0, *rounds[0][0])
    bob.run()
    assert 0 in bob.sheet.state.entries[0]
    bob.sheet.enter_letters(1, *rounds[0][1])
    ann.run()
    assert ann.sheet.state.rounds_done == 1 and ann.sheet.rounds_done_before == 0
    assert ann.sheet.view["sheet"] == phone.view(code)["sheet"]

    phone.end_game(code, host_token)
    phone.play_again(code, host_token)
    with pytest.raises(EntryError, match=r"for game 1.*playing game 2"):
        ann.sheet.enter_letters(0, *rounds[1][0])  # drawn before the new game reached Ann's screen
    ann.run()
    assert ann.sheet.view["game"] == 2
    ann.sheet.enter_letters(0, *rounds[0][0])
    assert phone.view(code)["rounds"][0]["entries"][0]["revision"] == 1

    # every message is one JSON object; a save is a few hundred bytes
    saves = [json.loads(text) for text in ann.sent if '"save"' in text]
    assert saves and all(len(text) < 400 for text in ann.sent)
    assert saves[-1]["save"]["game"] == 2 and saves[-1]["token"]
    listening = phone.feed.listening(code)
    ann.sheet.stop()
    assert phone.feed.listening(code) == listening - 1


@pytest.mark.parametrize(("text", "message"), [
    ('{"ask": 3, "save": {"game": 1, "round_no": 1, "seat_no": 1, "cards": 7, "replaces_revision": 0}}',
     "cannot read"),
    ('{"ask": 4, "view": {}, "follow": {}}', "one request per message"),
    ('{"ask": 5, "drop_table": {}}', "cannot read"),
    ("not json", "cannot read"),
    ('{"ask": 6, "claim": {"seat": 1, "name": "' + "x" * 5000 + '"}}', "too long"),
])
def test_a_message_the_host_cannot_read_is_refused_and_changes_nothing(phone, text, message):
    code, _host = phone.create_table("australia", 2, credential=phone.host_credential)
    version = phone.view(code)["version"]
    answers: list[dict] = []
    ChannelHostLink(phone, code, lambda reply: answers.append(json.loads(reply))).receive(text)
    [answer] = answers
    assert answer["refused"]["status"] == 422 and message in answer["refused"]["message"]
    assert phone.view(code)["version"] == version


def test_a_seat_whose_host_phone_is_gone_is_told_so_in_plain_words():
    transport = ChannelSeatTransport(lambda text: None, "ABCD-EFGH", "token", timeout=0.01)
    with pytest.raises(Unavailable, match=r"host phone does not answer.*same Wi-Fi"):
        transport.view()


def test_a_save_waiting_when_the_channel_drops_is_told_the_host_is_unreachable():
    sent: list[str] = []

    def dropped_while_waiting(done, seconds):
        transport.closed()  # the page said the channel closed (a locked screen, a lost Wi-Fi)
        return done.is_set()

    transport = ChannelSeatTransport(sent.append, "ABCD-EFGH", "token", wait=dropped_while_waiting, timeout=60)
    with pytest.raises(Unavailable, match="host phone does not answer"):
        transport.save(SeatSave(1, 1, 1, "ABCDEFG", None, 0))
    assert len(sent) == 1 and json.loads(sent[0])["save"]["cards"] == "ABCDEFG"
    transport.receive(json.dumps({"answer": 1, "ok": {}}))  # a late answer to it is dropped, not misapplied


def test_a_deck_other_than_the_one_the_table_plays_is_refused_and_not_kept(phone, monkeypatch):
    """A guest keeps the host's deck only when it is the deck the table's view names (its id and version): a
    host phone that sent another (a damaged text, another version) is refused in one line, nothing kept, and
    the seat follows no table it cannot read."""
    from test_decks import install, usa_pack

    from rules.editions import deck_document, deck_version
    from scorer.packs import deck_versions_dir
    from scorer.table.board import keep_table_deck
    from scorer.table.errors import Invalid

    played = install(usa_pack(2))
    code, _host = phone.create_table("usa-mine", 2, credential=phone.host_credential)
    view = phone.view(code)
    assert phone.deck(code) == deck_document(played)
    other = deck_document(install(usa_pack(3)))  # the deck edited since
    for kept in deck_versions_dir().iterdir():  # the guest's phone: none of the host's decks
        kept.unlink()
    with pytest.raises(Invalid, match="other than the one its table plays"):
        keep_table_deck(view, other)
    guest = Guest(phone, code)
    with monkeypatch.context() as patched:
        patched.setattr(phone, "deck", lambda code: other)
        with pytest.raises(Invalid, match="other than the one its table plays"):
            guest.transport.follow(guest.updates.put)
    assert guest.link._unsubscribe is None and json.loads(guest.sent[-1])["stop"] == {}
    with pytest.raises(Invalid, match=r"^the host's deck cannot be read: "):
        keep_table_deck(view, {"id": "usa-mine", "cards": "no"})
    assert not any(deck_version(played) in kept.name for kept in deck_versions_dir().iterdir())
    assert deck_version(keep_table_deck(view, deck_document(played))) == deck_version(played)



@pytest.mark.parametrize("answers_the_ask", [True, False])
def test_a_seats_periodic_check_asks_the_version_alone_and_an_older_host_still_answers_it(phone, monkeypatch,
                                                                                          answers_the_ask):
    """A following seat checks now and then for a change whose event never came: over the channel it asks the
    table's version (a few bytes) and reads the whole table only when behind. A host phone on an earlier
    release cannot read that ask: it refuses it (or, older still, leaves it unanswered), and the seat asks it
    the whole table instead from then on, its catch-up working as before."""
    import scorer.table.channel as channel

    code, _host_token = phone.create_table("australia", 2, credential=phone.host_credential)
    ann = Guest(phone, code)
    ann.sit(1, "Ann")
    heard = len(ann.heard)
    assert not ann.sheet.catch_up()
    assert "version" in json.loads(ann.sent[-1]) and len(ann.heard) == heard + 1
    assert json.loads(ann.heard[-1])["ok"] == {"version": phone.view(code)["version"]}

    if not answers_the_ask:  # a release before unreadable requests were answered by their number
        monkeypatch.setattr(channel, "asked_number", lambda text: None)
        ann.transport.timeout = 0.2
    real = ann.link.receive
    ann.link.receive = lambda text: real(text.replace('"version":{}', '"not-yet-known":{}'))
    phone.claim_seat(code, 2, "Bob")  # a change the seat has not drawn (its event is left undelivered)
    assert ann.sheet.catch_up()
    assert [seat["name"] for seat in ann.sheet.view["seats"]] == ["Ann", "Bob"]
    sent = len(ann.sent)
    assert not ann.sheet.catch_up()  # in step again, and asked the whole table: no version ask is tried again
    assert ["view" in json.loads(text) for text in ann.sent[sent:]] == [True]
