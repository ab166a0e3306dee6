"""The web app's table mode, phone to phone (issue 41): a host phone keeps the table in its own storage and shows a
code per guest; a guest scans it, shows its answer, and plays its seat on the pad's own sheet screens over the
data channel. Two real Flet sessions with no client (the harness of test_table_screens); the pages' data channels
are played by `LinkedPages` (what peer.js does in Chromium is tests/e2e/test_peer_e2e.py's business), and a
scanned code is handed to the screen as the camera's reader would hand it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
from pathlib import Path

import pytest
from eventually import until
from flet.pubsub.pubsub_hub import PubSubHub
from test_pad_screens import run_session, texts
from test_page_channel import Answered
from test_peer_code import CHROMIUM_OFFER, OTHER_ANSWER

from benchmarks import table_flet
from benchmarks.table import scripted_rounds
from rules.editions import load_edition
from scorer.pad.store import EventStore
from scorer.table.page_channel import PageChannels
from scorer.table.peer_code import expand
from scorer.table.phone_links import unreachable
from scorer.table.phone_store import FILE_NAME, InlineTableStore
from scorer.table.service import TableService
from scorer.table.sheet import TableSheetSession
from scorer.ui import table as table_ui
from scorer.ui.main import make_main


class LinkedPages:
    """Phones' pages with data channels between them, as peer.js behaves: the host's `offer`, a guest's (or a
    board's) `answer`, and once the host `accept`s, both channels open; a text sent on one arrives on the other."""

    def __init__(self) -> None:
        self.host = _Page(self, "host")
        self.guest = _Page(self, "guest")
        self.board = _Page(self, "board")
        #: the pages whose channels the app makes next: the host phone opens its table first, then the guest
        #: scans (then the board, when there is one)
        self.opening = [self.host, self.guest, self.board]
        self.made = 0
        self.pairs: dict[str, str] = {}  # channel → the other end's channel
        self.answered: list[str] = []  # the answering pages' channels, waiting for the host's accept
        #: how many of the next table events sent are lost on the way (sent, never delivered)
        self.events_to_lose = 0

    def deliver(self, channel: str, kind: str, detail=None) -> None:
        for page in (self.host, self.guest, self.board):
            if channel in page.channels:
                page.listener(kind, channel, detail)

    def reload_host(self) -> None:
        """The host phone's page reloads: its channels die with it (each guest told), a new page opens."""
        for channel in list(self.host.channels):
            if channel in self.pairs:
                self.drop(channel)
        self.host = _Page(self, "host")
        self.opening.append(self.host)

    def drop(self, channel: str) -> None:
        """The channel closes (a locked screen, a reload): both ends are told."""
        other = self.pairs.pop(channel)
        self.pairs.pop(other, None)
        self.deliver(channel, "closed")
        self.deliver(other, "closed")


class _Page:
    def __init__(self, pages: LinkedPages, side: str) -> None:
        self.pages, self.side = pages, side
        self.channels: set[str] = set()
        self.listener = None

    def listen(self, listener) -> None:
        self.listener = listener

    def _new(self) -> str:
        self.pages.made += 1
        channel = f"peer-{self.pages.made}"
        self.channels.add(channel)
        return channel

    def call(self, name, *args):
        pages = self.pages
        if name == "offer":
            return Answered({"id": self._new(), "sdp": CHROMIUM_OFFER})
        if name == "answer":
            channel = self._new()
            pages.answered.append(channel)
            return Answered({"id": channel, "sdp": OTHER_ANSWER})
        if name == "accept":
            host_channel = args[0]
            guest_channel = pages.answered.pop()
            pages.pairs[host_channel], pages.pairs[guest_channel] = guest_channel, host_channel
            pages.deliver(host_channel, "open")
            pages.deliver(guest_channel, "open")
            return Answered(None)
        if name == "send":
            channel, text = args
            other = pages.pairs.get(channel)
            if other is None:
                return Answered(False)
            if pages.events_to_lose and text.startswith('{"event"'):
                pages.events_to_lose -= 1
                return Answered(True)
            pages.deliver(other, "message", text)
            return Answered(True)
        if name == "close":
            self.channels.discard(args[0])
            return Answered(None)
        raise AssertionError(f"no call {name}")


@pytest.fixture
def phone_hosting(tmp_path, monkeypatch):
    """The web app's table mode on this test's host phone: its tables on the phone's thread-free store, the
    pages' channels linked; yields (pages, the table file, the pad's store)."""
    pages = LinkedPages()
    path = tmp_path / FILE_NAME
    service = TableService(path, store=InlineTableStore(path))
    store = EventStore(tmp_path / "games.sqlite3")
    monkeypatch.setattr(table_ui, "HOSTING", table_ui.Hosting(service, "", lambda: PageChannels(pages.opening.pop(0))))
    yield pages, path, store
    store.close()
    table_ui.HOSTING.service.close()  # the one the host phone opened last


@contextlib.asynccontextmanager
async def phones_of(store: EventStore):
    """What a test's phones share, as one Flet server's sessions do: the pad's main over `store`, one pubsub hub
    and a pool of two threads: (main, hub, executor)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        yield make_main(lambda: store), PubSubHub(loop=asyncio.get_running_loop(), executor=executor), executor


async def host_phone(main, hub, executor, edition: str, seats: int = 2):
    """A phone opened at the table's start screen that hosts a table of `edition` (2 seats) in its own storage:
    (its connection, kept by the caller: a session whose connection is collected is destroyed; its page; its
    storage; the host screen's place; the table's code), once the host screen shows a code for a guest."""
    storage: dict = {}
    connection, page = await table_flet.open_phone(main, "/table", storage, hub, executor)
    screens = page.data.table_screens
    await until(lambda: "Host a table" in texts(page), "the start screen")
    await screens.host(table_ui.TablePlace(), edition, seats)
    await until(lambda: screens.host_place is not None and screens.host_place.offer, "a code")
    return connection, page, storage, screens.host_place, screens.host_place.view["code"]


async def guest_phone(main, hub, executor, tables: Path, offer: str):
    """A second phone, whose own tables are in `tables` (none of them the host's), opened at the start screen
    and scanning the host's code `offer`: (its connection, kept by the caller; its page; the place showing its
    answer code), the answer not yet scanned by the host."""
    hosting = table_ui.HOSTING
    table_ui.HOSTING = table_ui.Hosting(TableService(tables, store=InlineTableStore(tables)), "", hosting.channels)
    connection, page = await table_flet.open_phone(main, "/table", {}, hub, executor)
    await until(lambda: "Scan a code" in texts(page), "the guest's start screen")
    table_ui.HOSTING = hosting
    answer_place = table_ui.TablePlace(shows="start")
    await page.data.table_screens.scan_host_code(answer_place, [offer])
    return connection, page, answer_place


@contextlib.asynccontextmanager
async def ann_and_zoe_at_one_table(store: EventStore, path: Path, seats: int, zoes_seat: int):
    """A host phone hosting an Australia table of `seats` seats, Ann in seat 1, and a guest phone joined by codes
    with Zoé in `zoes_seat`, once the guest's sheet is open: yields (the host's token, the table's code, the
    guest's page); both phones' screens closed after."""
    async with phones_of(store) as (main, hub, executor):
        # the connections are kept while the phones are used: a session whose connection is collected is destroyed
        host, host_page, host_storage, place, code = await host_phone(main, hub, executor, "australia", seats)
        host_screens = host_page.data.table_screens
        await host_screens.seat_player(place, 1, "Ann")
        guest, guest_page, answer_place = await guest_phone(main, hub, executor,
                                                            path.with_name("guest-" + FILE_NAME), place.offer)
        await host_screens.scan_guest_answer(place, [answer_place.offer])
        await until(lambda: f"Take seat {zoes_seat}" in texts(guest_page), "the free seat")
        await guest_page.data.table_screens.take_seat(table_ui.TablePlace(), code, zoes_seat, "Zoé")
        await until(lambda: guest_page.data.table_screens.sheet is not None, "the guest's sheet")
        yield json.loads(host_storage[table_ui.PREFS_PREFIX + code])["token"], code, guest_page
        host_screens.close()
        guest_page.data.table_screens.close()
        guest_page.data.table_screens.service.close()
        del host, guest


def test_a_guest_phone_joins_the_host_phone_by_codes_plays_its_seat_and_rejoins(phone_hosting):
    pages, path, store = phone_hosting
    service = table_ui.HOSTING.service
    rounds, _ = scripted_rounds(load_edition("europe"), 2, seed=11)

    async def run():
        nonlocal service
        async with phones_of(store) as (main, hub, executor):
            # "Host a table" on the host phone: the table in its storage, its host controls, a code for a guest
            _host, host_page, host_storage, place, code = await host_phone(main, hub, executor, "europe")
            host_screens = host_page.data.table_screens
            assert host_page.data.route == ("table_host", {"code": code})
            assert "0 phones connected" in texts(host_page)
            for control in ("Close joining", "Remove seat", "End game", "Play again", "Scan a code"):
                assert control in texts(host_page), control
            assert not any(text.startswith("http") for text in texts(host_page))  # no address to join by
            await host_screens.seat_player(place, 1, "Ann")  # the host phone's own player
            assert place.message == "Seat 1 is Ann's: enter their rounds on the score sheets."

            # "Join a table" on the guest phone (its own tables, none of them this one): the host's code scanned,
            # its answer shown, scanned back
            _guest, guest_page, answer_place = await guest_phone(main, hub, executor,
                                                                 path.with_name("guest-" + FILE_NAME), place.offer)
            guest_screens = guest_page.data.table_screens
            assert answer_place.shows == "answer" and expand(answer_place.offer)[0] == "answer"
            first_offer = host_screens.host_links.waiting
            await host_screens.scan_guest_answer(place, [answer_place.offer])
            await until(lambda: guest_page.data.route == ("table_seats", {"code": code}), "the seat picker")
            await until(lambda: "Take seat 2" in texts(guest_page), "the free seat, from the host phone")
            await until(lambda: place.guests == 1, "one phone connected")
            assert place.message == "A phone joined the table"
            assert host_screens.host_links.waiting not in (None, first_offer)  # the next guest: a code of its own

            # the guest takes seat 2 and plays it on the pad's own sheet, over the channel
            await guest_screens.take_seat(table_ui.TablePlace(), code, 2, "Zoé")
            await until(lambda: guest_screens.sheet is not None, "the guest's sheet")
            sheet = guest_screens.sheet
            assert sheet.transport is guest_screens.guest.transport and sheet.seat == 1
            sheet.enter_letters(1, *rounds[0][1])  # acknowledged once the host phone kept it
            assert service.view(code)["rounds"][0]["entries"][1]["cards"] == rounds[0][1][0]
            ann = TableSheetSession(service, code, json.loads(
                host_storage[table_ui.PREFS_PREFIX + code])["token"], None)
            ann.enter_letters(0, *rounds[0][0])  # the host phone enters its own player's round: it closes
            await until(lambda: sheet.state.rounds_done == 1, "the closed round on the guest")
            assert sheet.view["sheet"] == service.view(code)["sheet"]

            # the guest's channel drops: one scan each way and it is back in its seat, token kept
            guest_channel = guest_screens.guest.channel
            pages.drop(guest_channel)
            await until(lambda: place.guests == 0, "the host sees the phone gone")
            await until(lambda: guest_page.data.route == ("table", {}), "the guest's start screen, to rescan")
            assert any(text.startswith("The connection to the host's phone dropped") for text in texts(guest_page))
            again = table_ui.TablePlace(shows="start")
            await guest_screens.scan_host_code(again, [place.offer])
            await host_screens.scan_guest_answer(place, [again.offer])
            await until(lambda: guest_page.data.route == ("table_seat", {"code": code, "seat": 2}),
                        "the guest back in seat 2")
            await until(lambda: guest_screens.sheet is not None and guest_screens.sheet.state.rounds_done == 1,
                        "the guest's sheet again")
            assert service.view(code)["seats"][1]["name"] == "Zoé"

            # the host phone's page reloads mid-round: its table comes back from its storage, with a code to
            # rejoin by, and the guest continues after one scan each way
            sheet = guest_screens.sheet
            sheet.enter_letters(1, *rounds[1][1])
            pages.reload_host()
            host_screens.close()
            service.close()
            service = TableService(path, store=InlineTableStore(path))
            table_ui.HOSTING = table_ui.Hosting(service, "", table_ui.HOSTING.channels)
            _host, host_page = await table_flet.open_phone(main, f"/table/{code}/host", host_storage, hub, executor)
            host_screens = host_page.data.table_screens
            await until(lambda: host_screens.host_place is not None and host_screens.host_place.offer, "a code")
            place = host_screens.host_place
            assert place.view["rounds"][1]["entries"][1]["cards"] == rounds[1][1][0]  # kept by the host phone
            assert any(text.startswith("2: Zoé") for text in texts(host_page))
            again = table_ui.TablePlace(shows="start")
            await guest_screens.scan_host_code(again, [place.offer])
            await host_screens.scan_guest_answer(place, [again.offer])
            await until(lambda: place.guests == 1, "the guest back")
            await until(lambda: guest_screens.sheet is not None and guest_screens.sheet is not sheet, "its sheet")
            TableSheetSession(service, code, json.loads(host_storage[table_ui.PREFS_PREFIX + code])["token"],
                              None).enter_letters(0, *rounds[1][0])
            await until(lambda: guest_screens.sheet.state.rounds_done == 2, "round 2 closed on the guest")

            # no channel opens: plain words, and what works instead
            third = table_ui.TablePlace(shows="start")
            await guest_screens.scan_host_code(third, [place.offer])
            pages.deliver(guest_screens.guest.channel, "failed", "timeout")
            await until(lambda: third.message == unreachable(), "the guest told why")
            assert "hotspot" in third.message and "tourpad host" in third.message
            host_page.data.table_screens.close()
            guest_page.data.table_screens.close()
            guest_screens.service.close()

    run_session(run)


def test_a_code_a_guest_answered_is_off_the_host_screen_before_the_phone_is_counted(phone_hosting):
    """A second guest scanning the host's screen while the first guest's channel opens must not get the first
    guest's code: its answer would open no channel, and it would be told the phones cannot reach each other."""
    _pages, path, store = phone_hosting

    async def run():
        async with phones_of(store) as (main, hub, executor):
            _host, host_page, _storage, place, _code = await host_phone(main, hub, executor, "europe")
            host_screens = host_page.data.table_screens
            answered = place.offer
            _guest, _guest_page, answer_place = await guest_phone(main, hub, executor,
                                                                  path.with_name("guest-" + FILE_NAME), answered)
            links = host_screens.host_links
            first, make, shown = links.waiting, links.offer, []

            async def watched_offer() -> str:
                shown.append(place.offer)  # what the host's screen shows while the next code is made
                return await make()

            links.offer = watched_offer
            await host_screens.scan_guest_answer(place, [answer_place.offer])
            await until(lambda: place.guests == 1, "one phone connected")
            assert shown == [""]  # "Making a code…", not the code answered
            assert place.offer == links.offer_code and links.waiting not in (None, first)  # then the next one
            host_screens.close()
            _guest_page.data.table_screens.close()
            _guest_page.data.table_screens.service.close()

    run_session(run)


def test_a_guest_whose_event_was_lost_on_the_way_is_back_in_step_at_the_next_catch_up(phone_hosting, monkeypatch):
    """The host phone's save closes the round, and its event never reaches the guest: the guest's phone reads the
    table again on its own and shows the round's summary, as if the event had come."""
    pages, path, store = phone_hosting
    service = table_ui.HOSTING.service
    monkeypatch.setattr(table_ui, "CATCH_UP_SECONDS", 0.05)

    async def run():
        async with ann_and_zoe_at_one_table(store, path, 2, 2) as (host_token, code, guest_page):
            guest_screens = guest_page.data.table_screens
            guest_screens.sheet.enter_letters(1, "HIJKLMN", None)
            pages.events_to_lose = 1
            TableSheetSession(service, code, host_token, None).enter_letters(0, "ABCDEFG", None)  # closes round 1
            assert pages.events_to_lose == 0  # its event was sent, and lost
            await until(lambda: guest_page.data.route == ("table_seat_summary", {"code": code, "seat": 2,
                                                                                  "round_index": 0}),
                        "the round's summary on the guest")
            assert guest_screens.sheet.state.rounds_done == 1

    run_session(run)


def test_a_guest_whose_seat_moved_down_unheard_follows_it_at_the_next_catch_up(phone_hosting, monkeypatch):
    """The host phone removes the free seat before the guest's, and the event never reaches the guest: the guest's
    phone finds its seat by its mark when it reads the table again, and shows its sheet one seat down."""
    pages, path, store = phone_hosting
    service = table_ui.HOSTING.service
    monkeypatch.setattr(table_ui, "CATCH_UP_SECONDS", 0.05)

    async def run():
        async with ann_and_zoe_at_one_table(store, path, 3, 3) as (host_token, code, guest_page):
            await until(lambda: guest_page.data.route == ("table_seat", {"code": code, "seat": 3}),
                        "the guest's sheet")
            pages.events_to_lose = 1
            await until(lambda: service.feed.listening(code) == 2, "the guest following the table")
            service.remove_seat(code, 2, host_token)
            await until(lambda: pages.events_to_lose == 0, "the removal's event sent, and lost")
            await until(lambda: guest_page.data.route == ("table_seat", {"code": code, "seat": 2}),
                        "the guest's sheet one seat down")
            sheet = guest_page.data.table_screens.sheet
            assert sheet.state.players == ("Ann", "Zoé") and sheet.gone is None

    run_session(run)


def test_a_guest_phone_reads_the_table_with_the_host_phones_own_deck(phone_hosting, tmp_path, monkeypatch):
    """The host phone plays its owner's own USA deck (other numbers, a region renamed); the guest phone has a
    deck of its own under the same id (the family's untouched copy of tourpad's USA). Over the channel the
    guest gets the host's deck and reads the table with it: its seat picker names it, its sheet's state (what
    the keypad checks letters against and the summaries explain with) is that very version, and the guest's
    phone keeps it. Read with the guest's own deck, the same letters score differently."""
    from test_decks import install, usa_pack

    from rules.editions import deck_version
    from rules.record import GameRecord, score_record
    from scorer.packs import resolve_deck

    _pages, _path, store = phone_hosting
    service = table_ui.HOSTING.service
    ours = usa_pack(2)
    ours["name"] = "Our USA box"
    ours["regions"][0]["name"] = "Far West"
    for card in ours["cards"]:
        card["region"] = "Far West" if card["region"] == "Green region" else card["region"]
    played = install(ours)  # on the host phone
    rounds, _ = scripted_rounds(played, 2, seed=11)

    async def run():
        async with phones_of(store) as (main, hub, executor):
            _host, host_page, host_storage, place, code = await host_phone(main, hub, executor, "usa-mine")
            host_screens = host_page.data.table_screens

            # from here on this process's files are the guest phone's: its own "usa-mine", not the host's
            monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path / "guest-phone"))
            theirs = install(usa_pack())
            assert deck_version(theirs) != deck_version(played)
            _guest, guest_page, answer_place = await guest_phone(main, hub, executor,
                                                                 tmp_path / "guest-phone" / FILE_NAME, place.offer)
            guest_screens = guest_page.data.table_screens
            await host_screens.scan_guest_answer(place, [answer_place.offer])
            await until(lambda: "Take seat 2" in texts(guest_page), "the free seat, from the host phone")
            assert "Our USA box · 2 players" in texts(guest_page)  # the host's deck, by its name

            await guest_screens.take_seat(table_ui.TablePlace(), code, 2, "Zoé")
            await until(lambda: guest_screens.sheet is not None, "the guest's sheet")
            sheet = guest_screens.sheet
            edition = sheet.state.edition
            assert deck_version(edition) == deck_version(played)
            assert "Far West" in [region.name for region in edition.regions]
            assert resolve_deck("usa-mine", deck_version(played)) == (edition, True)  # kept on the guest phone
            sheet.enter_letters(1, *rounds[0][1])
            service.submit(code, 1, 1, *rounds[0][0], 0, json.loads(host_storage[table_ui.PREFS_PREFIX + code])
                           ["token"])
            await until(lambda: sheet.state.rounds_done == 1, "the closed round on the guest")
            # what the guest's phone works out with its deck (the explanations, the keypad's preview) is what the
            # host scored; the guest's own deck would score these very letters otherwise
            game = GameRecord.model_validate(service.record(code))
            assert score_record(sheet.state.record(), edition).totals == sheet.state.totals()
            assert score_record(game, played).totals == sheet.state.totals()
            assert score_record(game, theirs).totals != sheet.state.totals()
            host_screens.close()
            guest_screens.close()
            guest_screens.service.close()

    run_session(run)


def test_a_board_joins_the_host_phone_by_codes_follows_every_save_and_can_save_nothing(phone_hosting, tmp_path):
    """A TV or tablet joins the host phone as a board: one scan each way, its answer a board's. It shows the
    table read-only and follows it live: a round saved by the guest phone, then one saved by the host phone.
    The host phone's link to it refuses a seat and a save, even one naming a real seat's token. Its channel
    dropped, it is back with one scan each way."""
    from scorer.table.errors import Forbidden
    from scorer.table.transport import SeatSave

    pages, path, store = phone_hosting
    service = table_ui.HOSTING.service
    rounds, _ = scripted_rounds(load_edition("europe"), 2, seed=11)

    async def run():
        async with phones_of(store) as (main, hub, executor):
            _host, host_page, host_storage, place, code = await host_phone(main, hub, executor, "europe")
            host_screens = host_page.data.table_screens
            await host_screens.seat_player(place, 1, "Ann")

            async def other_device(name: str):
                """A device of its own (its own tables), at its start screen: its connection (kept by the caller:
                a session whose connection is collected is destroyed), page and table screens."""
                hosting = table_ui.HOSTING
                own = path.with_name(f"{name}-{FILE_NAME}")
                table_ui.HOSTING = table_ui.Hosting(TableService(own, store=InlineTableStore(own)), "",
                                                    hosting.channels)
                phone, page = await table_flet.open_phone(main, "/table", {}, hub, executor)
                await until(lambda: "Scan a code" in texts(page), f"the {name}'s start screen")
                table_ui.HOSTING = hosting
                return phone, page, page.data.table_screens

            _guest, guest_page, guest_screens = await other_device("guest")
            joining = table_ui.TablePlace(shows="start")
            await guest_screens.scan_host_code(joining, [place.offer])
            await host_screens.scan_guest_answer(place, [joining.offer])
            await until(lambda: "Take seat 2" in texts(guest_page), "the free seat")
            await guest_screens.take_seat(table_ui.TablePlace(), code, 2, "Zoé")
            await until(lambda: guest_screens.sheet is not None, "the guest's sheet")

            # the board: "Show a table on this screen", the host's code scanned, its board's answer scanned back
            _board, board_page, board_screens = await other_device("board")
            assert "Show a table on this screen" in texts(board_page)
            showing = table_ui.TablePlace(shows="start")
            await board_screens.scan_host_code(showing, [place.offer], board=True)
            assert expand(showing.offer)[0] == "board"
            await host_screens.scan_guest_answer(place, [showing.offer])
            await until(lambda: board_page.data.route == ("table_board", {"code": code}), "the board's screen")
            await until(lambda: "Round 1 · still entering: Ann, Zoé" in texts(board_page), "the board, live")
            await until(lambda: place.boards == 1, "the host counts the board")
            assert place.guests == 1 and place.message == "A board is showing the table (it can save nothing)"
            assert "1 board showing the table" in texts(host_page)

            # a round saved by the guest phone, then one by the host phone: the board follows both
            guest_screens.sheet.enter_letters(1, *rounds[0][1])
            await until(lambda: "Round 1 · still entering: Ann" in texts(board_page), "the guest's save, drawn")
            assert any(text.startswith(f"R1  {rounds[0][1][0]}") for text in texts(board_page))
            host_token = json.loads(host_storage[table_ui.PREFS_PREFIX + code])["token"]
            TableSheetSession(service, code, host_token, None).enter_letters(0, *rounds[0][0])
            await until(lambda: "Round 2 · still entering: Ann, Zoé" in texts(board_page), "the host's save, drawn")
            totals = [player["total"] for player in service.view(code)["scores"]["players"]]
            assert f"{totals[1]} pts" in texts(board_page)

            # the board's link saves nothing: not with a seat's token, and it takes no seat
            board_link = board_screens.guest.transport
            version = service.view(code)["version"]
            board_link.token = guest_screens.sheet.token  # Zoé's, as if copied onto the board
            with pytest.raises(Forbidden, match=r"^a board only shows the table"):
                board_link.save(SeatSave(1, 2, 2, *rounds[1][1], 0))
            board_link.token = ""
            with pytest.raises(Forbidden):
                board_link.claim(2, "Mallory")
            assert service.view(code)["version"] == version

            # the board's channel drops: its start screen says how to show the table again, one scan each way
            pages.drop(board_screens.guest.channel)
            await until(lambda: board_page.data.route == ("table", {}), "the board's start screen")
            assert any(text.startswith("The connection to the host's phone dropped. To show the table again")
                       for text in texts(board_page))
            await until(lambda: place.boards == 0, "the host sees the board gone")
            again = table_ui.TablePlace(shows="start")
            await board_screens.scan_host_code(again, [place.offer], board=True)
            await host_screens.scan_guest_answer(place, [again.offer])
            await until(lambda: board_page.data.route == ("table_board", {"code": code}), "the board again")
            await until(lambda: "Round 2 · still entering: Ann, Zoé" in texts(board_page), "the board, live again")
            for screens in (host_screens, guest_screens, board_screens):
                screens.close()
            guest_screens.service.close()
            board_screens.service.close()

    run_session(run)


def test_a_phone_on_the_hosts_own_app_plays_its_seat_over_the_hosts_api(tmp_path, monkeypatch):
    """A phone that opened `tourpad host`'s own `/app/` scans the host's join link: rather than leave for the
    table's served page, it reads the table over the host's API (same origin), takes a free seat and plays it
    on its own screens; its save is committed on the laptop, and a round the laptop closes reaches its sheet
    through the event stream. The page's `fetch` and `EventSource` are stood in for as in test_fetch_seat."""
    from live_api import serve_table_api
    from test_fetch_seat import event_source, fetch

    from scorer.routes import join_link
    from scorer.table.fetch_seat import FetchSeatTransport

    laptop = TableService(tmp_path / "laptop.sqlite3")
    serving = serve_table_api(laptop)
    url = next(serving)
    code, _host = laptop.create_table("europe", 2, credential=laptop.host_credential)
    ann = laptop.claim_seat(code, 1, "Ann")
    rounds, _ = scripted_rounds(load_edition("europe"), 2, seed=11)
    own = tmp_path / FILE_NAME
    phone_service = TableService(own, store=InlineTableStore(own))
    pages = LinkedPages()
    monkeypatch.setattr(table_ui, "HOSTING", table_ui.Hosting(
        phone_service, "", lambda: PageChannels(pages.opening.pop(0)), url,
        lambda code: FetchSeatTransport(code, "", fetch, event_source, lambda seconds, fn: None, url)))
    store = EventStore(tmp_path / "games.sqlite3")

    async def run():
        async with phones_of(store) as (main, hub, executor):
            _phone, page = await table_flet.open_phone(main, "/table", {}, hub, executor)
            screens = page.data.table_screens
            await until(lambda: "Scan a code" in texts(page), "the start screen")
            await screens.scan_host_code(table_ui.TablePlace(shows="start"), [join_link(url, code)])
            await until(lambda: page.data.route == ("table_seats", {"code": code}), "the seat picker")
            assert "Take seat 2" in texts(page) and "Seat 1: Ann" in texts(page)  # read over the API
            await screens.take_seat(table_ui.TablePlace(), code, 2, "Zoé")
            await until(lambda: screens.sheet is not None, "the phone's sheet")
            sheet = screens.sheet
            assert sheet.transport is screens.http.transport and sheet.seat == 1
            sheet.enter_letters(1, *rounds[0][1])  # acknowledged once the laptop committed it
            assert laptop.view(code)["rounds"][0]["entries"][1]["cards"] == rounds[0][1][0]
            assert laptop.view(code)["seats"][1]["name"] == "Zoé"
            laptop.submit(code, 1, 1, *rounds[0][0], 0, ann)
            await until(lambda: sheet.state.rounds_done == 1, "the round the laptop closed, on the phone")
            assert sheet.view["sheet"] == laptop.view(code)["sheet"]
            screens.close()

    try:
        run_session(run)
    finally:
        next(serving, None)
        store.close()
        phone_service.close()
        laptop.close()


def test_the_web_apps_origin_is_its_pages_address_up_to_the_path():
    """What a scanned join link's origin is compared with (the worker's own `location` is not the page's)."""
    assert table_ui.page_origin("http://192.168.1.5:8000/app/#/table") == "http://192.168.1.5:8000"
    assert table_ui.page_origin("https://tourpad.example/") == "https://tourpad.example"
    assert table_ui.page_origin(None) == "" and table_ui.page_origin("file:///app/index.html") == ""
