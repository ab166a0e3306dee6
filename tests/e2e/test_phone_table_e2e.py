"""Issue 41's acceptance: four phones of the published web app (Pyodide, 390×844, loopback only) share a
Europe table with nothing between them but QR codes. The host phone hosts it in its own storage and shows a code;
each guest photographs it (the photo handed to the page's own code reader: the camera's boundary), shows its
answer, and the host photographs that. Each phone enters its own player's rounds by typing them on the keypad;
a guest's page is closed mid-round and reopened (one scan each way: back in its seat, its typed letters kept),
the host page is reloaded mid-round (the table resumes from its storage, every guest rejoins the same way), and
the record the host phone exports scores, the shared region and passport bonuses included, as `tourpad score`
scores it. No request leaves loopback.

Each phone boots Pyodide (about 20 s of a core), so this walks the whole story in one test."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import time

import pytest
import test_publish_e2e as published
from playwright.sync_api import Error as PlaywrightError
from test_pad_e2e import choose_and_save, type_letters
from test_publish_e2e import SLOW, offline_context, qr_photo, scan_photo_file, wait_usable

from benchmarks.table import scripted_rounds
from rules.editions import load_edition

pytestmark = pytest.mark.e2e

# The published site and its static server, as the web app's other tests have them (built once a session).
site = published.site
static = published.static

NAMES = ("Ann", "Zoé", "Bob", "Cy")  # the host phone's player first
#: seed 10: every player scores a region bonus and a passport bonus, so both shared bonuses are settled
ROUNDS, _TOTALS = scripted_rounds(load_edition("europe"), len(NAMES), seed=10)


def code_on(pad, identifier: str) -> str:
    """The connection code a phone shows (its QR image's accessible name is the code's text)."""
    node = pad.ident(identifier).locator("[aria-label]").first
    node.wait_for(timeout=SLOW)
    return node.get_attribute("aria-label")


def pick(pad, identifier: str, option: str) -> None:
    """A drop-down of the start form: opened (until its menu shows), `option` chosen."""
    pad.tap_until(lambda: pad.tap_ident(identifier), lambda ms: pad.button(option).first.wait_for(timeout=ms),
                  timeout=10000)
    pad.tap(option)


def scan(pad, identifier: str, text: str, tmp_path) -> None:
    """A "Scan a code" of this phone, with a photo of `text`'s QR code."""
    scan_photo_file(pad, identifier, qr_photo(tmp_path / f"{identifier}-{time.monotonic_ns()}.png", text))


def join(host, guest, tmp_path, connected: int) -> None:
    """One scan each way: the host's code on the guest, the guest's answer on the host; returns once the host
    counts `connected` guests' phones, when it shows a new code for the next guest."""
    scan(guest, "join-code", code_on(host, "guest-code"), tmp_path)
    scan(host, "guest-answer", code_on(guest, "answer-code"), tmp_path)
    host.wait_text("guests", rf"^{connected} phones? connected$", timeout=SLOW)


def open_keypad(pad, name: str, typed: str = "") -> None:
    """From the sheet, `name`'s keypad, showing the letters `typed` so far."""
    pad.tap_until(lambda: pad.tap(f"Enter {name}"),
                  lambda ms: pad.wait_text("entry-cards", rf"^Cards: {typed}", timeout=ms))


def enter(pad, name: str, row: tuple[str, str | None]) -> None:
    open_keypad(pad, name)
    type_letters(pad, row[0])
    choose_and_save(pad, row[1])


def host_desk(host, reload: bool = False):
    """The host phone's controls, its table's code on show: from its start screen, or (`reload`) the page
    reloaded there, when the phone goes back to the table it hosts by itself."""
    host.page.goto(host.page.url.split("#")[0] + "#/table")
    if reload:
        host.page.reload()
        host = wait_usable(host.page)
    code = host.ident("guest-code")
    for _attempt in range(3):
        if code.count():
            break
        with contextlib.suppress(PlaywrightError):
            host.button(re.compile("^Host screen: ")).first.click(timeout=5000)
        with contextlib.suppress(PlaywrightError):
            code.wait_for(timeout=15000)
    code.wait_for(timeout=SLOW)
    return host


RECORD_JS = """() => {
  const node = document.querySelector('[flt-semantics-identifier="record-text"]');
  if (!node) return "";
  const texts = [node, ...node.querySelectorAll('*')]
    .flatMap(e => [e.getAttribute('aria-label') || '', e.innerText || '', e.value || '', e.textContent || '']);
  return texts.map(t => t.trim()).find(t => t.startsWith('{')) || "";
}"""


def exported_record(host) -> str:
    """The record the host screen shows once exported, at the foot of the screen (scrolled down to it)."""
    host.page.mouse.move(195, 500)
    deadline = time.monotonic() + SLOW / 1000
    while time.monotonic() < deadline:
        # a selectable text: its words are in the node's label or text, or a child's
        text = host.page.evaluate(RECORD_JS)
        if text:
            return text
        host.page.mouse.wheel(0, 800)
        host.page.wait_for_timeout(250)
    raise AssertionError("the host screen never showed the exported record")


def host_sheets(host) -> None:
    host.tap_until(lambda: host.tap_ident("host-sheet"),
                   lambda ms: host.wait_text("sheet-status", "you are the host", timeout=ms))


def reopen(context, url: str):
    """A phone's page opened afresh on the table's start screen."""
    page = context.new_page()
    page.goto(url + "#/table")
    return wait_usable(page)


@pytest.mark.minutes(5)  # the suite's longest test: started before every other
def test_four_phones_share_a_table_by_codes_and_survive_a_closed_guest_and_a_reloaded_host(static, new_context,
                                                                                           tmp_path):
    started = time.monotonic()
    contexts = [offline_context(new_context) for _ in NAMES]
    pages = [context.new_page() for context in contexts]
    for page in pages:  # every phone boots at once
        page.goto(static.url + "#/table")
    host, *guests = (wait_usable(page) for page in pages)

    # the host phone hosts a 4-player Europe table in its own storage, and seats its own player
    pick(host, "edition-pick", "Europe")
    pick(host, "players-pick", str(len(NAMES)))
    host.tap_until(lambda: host.tap("Host a table"), lambda ms: host.ident("guest-code").wait_for(timeout=ms))
    host.type_into("Player's name", NAMES[0])
    host.tap("Seat player")
    host.wait_text("roster-1", f"^1: {NAMES[0]}", timeout=SLOW)
    host.shot("phone-table-host-code")

    # each guest joins by two codes and takes the next seat
    for seat, (guest, name) in enumerate(zip(guests, NAMES[1:], strict=True), start=2):
        join(host, guest, tmp_path, connected=seat - 1)
        guest.type_into(f"Your name (seat {seat})", name)
        guest.tap(f"Take seat {seat}")
        guest.wait_text("round-status", "Round 1", timeout=SLOW)
    guests[0].shot("phone-table-guest-sheet")
    host_sheets(host)
    connected = time.monotonic()

    for number, (mine, *theirs) in enumerate(ROUNDS, start=1):
        for g, (guest, name, row) in enumerate(zip(guests, NAMES[1:], theirs, strict=True)):
            if number == 2 and g == 0:
                # this guest's page closes mid-entry; reopened, one scan each way puts it back in its seat,
                # its letters kept
                open_keypad(guest, name)
                type_letters(guest, row[0][:3])
                guest.page.close()
                guest = guests[g] = reopen(contexts[1 + g], static.url)
                host = host_desk(host)
                join(host, guest, tmp_path, connected=len(guests))
                guest.wait_text("round-status", "Round 2", timeout=SLOW)
                open_keypad(guest, name, row[0][:3])
                guest.shot("phone-table-guest-rejoined-draft")
                type_letters(guest, row[0])
                choose_and_save(guest, row[1])
                host_sheets(host)
            else:
                enter(guest, name, row)
        for guest in guests:  # the host phone kept every guest's round
            guest.wait_text("waiting-for", f"^Waiting for {NAMES[0]}$", timeout=SLOW)
        if number == 3:
            # the host phone reloads mid-round: its table comes back from its storage with a code to rejoin by
            host = host_desk(host, reload=True)
            host.wait_text(f"roster-{len(NAMES)}", f"^{len(NAMES)}: {NAMES[-1]}", timeout=SLOW)
            for connected_now, guest in enumerate(guests, start=1):
                join(host, guest, tmp_path, connected=connected_now)
            host_sheets(host)
        enter(host, NAMES[0], mine)
        for pad in (*guests, host):  # the round's summary on every phone
            pad.wait_text("summary-title", rf"Round {number} closed", timeout=SLOW)
            if number < 4:
                pad.tap(f"Start round {number + 1}")
    shown = [[guest.text(f"summary-total-{seat}") for seat in range(1, len(NAMES) + 1)] for guest in guests]
    guests[-1].shot("phone-table-guest-final")
    played = time.monotonic()

    # the host phone's record, scored by `tourpad score`: the same totals every phone shows
    host = host_desk(host)
    host.tap("Export record")
    record = json.loads(exported_record(host))
    (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
    scored = json.loads(subprocess.run([sys.executable, "-m", "scorer.cli", "score", "--json",
                                        str(tmp_path / "record.json")], capture_output=True, text=True,
                                       check=True).stdout)
    players = scored["players"]
    assert [p["name"] for p in players] == list(NAMES)
    assert [p["total"] for p in players] == _TOTALS
    assert all(totals == [f"= {p['total']}" for p in players] for totals in shown)
    # every player scored a shared bonus of each kind (regions completed first, the passport), alike everywhere
    assert all(sum(r["regions"] for r in p["rounds"]) > 0 and sum(r["passport"] for r in p["rounds"]) > 0
               for p in players)
    assert all(context.outside == [] for context in contexts)
    print(f"\nfour phones: started and joined in {connected - started:.0f} s, four rounds with a rejoin and a "
          f"reload in {played - connected:.0f} s, the record in {time.monotonic() - played:.0f} s")
