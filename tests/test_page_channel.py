"""The page's data channels from the worker's Python (scorer/table/page_channel.py): what it asks of the page,
the codes it makes of the page's SDP, and where each channel's events go. The page itself (peer.js) is driven in
Chromium by tests/e2e/test_peer_e2e.py."""

from __future__ import annotations

import pytest
from test_pad_screens import run_session
from test_peer_code import CHROMIUM_OFFER, OTHER_ANSWER

from scorer.table.page_channel import ChannelEvents, PageChannels
from scorer.table.peer_code import PeerCodeError, pack, parse_sdp


class Answered:
    """An answer the page has already given (what `await` on the JS promise returns)."""

    def __init__(self, value) -> None:
        self.value = value

    def __await__(self):
        return self.value
        yield


class Page:
    """The worker's `tourpadPeer`, played by the test: every call kept, answers given by `answers`."""

    def __init__(self, **answers) -> None:
        self.answers = answers
        self.calls: list[tuple] = []
        self.listener = None

    def listen(self, listener) -> None:
        self.listener = listener

    def call(self, name, *args):
        self.calls.append((name, *args))
        return Answered(self.answers.get(name))


class Told:
    def __init__(self) -> None:
        self.log: list[tuple] = []
        self.events = ChannelEvents(lambda text: self.log.append(("text", text)),
                                    lambda: self.log.append(("opened",)), lambda: self.log.append(("closed",)),
                                    lambda reason: self.log.append(("failed", reason)))


def test_the_host_shows_its_offer_as_a_code_and_hears_its_channel():
    page = Page(offer={"id": "peer-1", "sdp": CHROMIUM_OFFER})
    channels, told = PageChannels(page), Told()
    channel, code = run_session(lambda: channels.offer(told.events))
    assert (channel, code) == ("peer-1", pack("offer", CHROMIUM_OFFER))
    run_session(lambda: channels.accept(channel, pack("answer", OTHER_ANSWER)))
    name, accepted, sdp = page.calls[-1]
    assert (name, accepted) == ("accept", "peer-1")
    assert parse_sdp("answer", sdp) == parse_sdp("answer", OTHER_ANSWER)  # the guest's answer, expanded
    for event in (("open", "peer-1", None), ("message", "peer-1", '{"ask": 1}'), ("message", "peer-9", "stray"),
                  ("failed", "peer-1", "timeout"), ("message", "peer-1", "after the end")):
        page.listener(*event)
    assert told.log == [("opened",), ("text", '{"ask": 1}'), ("failed", "timeout")]


def test_the_guest_answers_the_hosts_code_with_its_own():
    page = Page(answer={"id": "peer-3", "sdp": OTHER_ANSWER})
    channels, told = PageChannels(page), Told()
    channel, code = run_session(lambda: channels.answer(pack("offer", CHROMIUM_OFFER), told.events))
    assert (channel, code) == ("peer-3", pack("answer", OTHER_ANSWER))
    name, sdp = page.calls[-1]
    assert name == "answer" and parse_sdp("offer", sdp) == parse_sdp("offer", CHROMIUM_OFFER)
    channels.send(channel, "hello")
    page.listener("closed", "peer-3", None)
    assert page.calls[-1] == ("send", "peer-3", "hello") and told.log == [("closed",)]


def test_a_code_scanned_on_the_wrong_phone_says_which_to_scan():
    channels = PageChannels(Page())
    with pytest.raises(PeerCodeError, match="scan the code on the host's phone"):
        run_session(lambda: channels.answer(pack("answer", OTHER_ANSWER), Told().events))
    with pytest.raises(PeerCodeError, match="scan the code on the joining phone"):
        run_session(lambda: channels.accept("peer-1", pack("offer", CHROMIUM_OFFER)))
    assert channels.page.calls == []  # nothing reached the page
