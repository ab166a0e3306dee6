"""End to end: the site `tourpad publish` writes, served by a plain static file server, in Chromium at phone
size, with every request to another host refused and counted (there must be none).

A 2-player Australia game by letters, a reload mid-round that resumes it with a half-tapped keypad; then the
server stops and the app still opens from the service worker's cache and resumes the game.
An update of our code fetches only what changed and keeps the game. A French phone plays a solo round against a
hard bot. The site is built once per session (wheels come from the cache
after the first build).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ENABLE_SEMANTICS_JS, POLL_MS, SLOW, Pad, phone_options
from test_pad_e2e import GAME, choose_and_save, enter_by_typing, play_round, start_game

from benchmarks.publish import SITE_CACHES_JS, WireLog, serve_site
from scorer.web.publish import publish, release_changed_code

pytestmark = pytest.mark.e2e
#: Pyodide starts in ~10-30 s on two busy cores; everything after is a local call.
START = 120000


class StaticServer:
    """`python -m http.server` on 127.0.0.1: what any static host does, nothing more."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
                                      "--directory", str(self.folder)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url, timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the static server did not start")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    return publish(tmp_path_factory.mktemp("site") / "www").folder


@pytest.fixture
def static(site, tmp_path):
    """The site (a copy each test may change) on its own static server."""
    server = StaticServer(Path(shutil.copytree(site, tmp_path / "www")))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def offline_phone(new_context):
    return offline_context(new_context)


def offline_context(new_context, **options):
    """A phone-sized context where any request to a host other than 127.0.0.1 is refused and recorded."""
    context = new_context(**phone_options(**options))
    context.outside = []
    local = re.compile(r"^(https?://127\.0\.0\.1[:/]|data:|blob:)")

    def refuse(route) -> None:
        context.outside.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), refuse)
    context.on("request", lambda request: None if local.match(request.url) or request.url in context.outside
               else context.outside.append(request.url))
    return context


def wait_usable(page) -> Pad:
    """Until the Python app has drawn its first screen and the semantics tree is on."""
    page.wait_for_function("() => !document.getElementById('loading')", timeout=START, polling=POLL_MS)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=START)
    page.evaluate(ENABLE_SEMANTICS_JS)
    page.wait_for_selector("flt-semantics[role], flt-semantics[flt-semantics-identifier]", state="attached",
                           timeout=START)
    return Pad(page)


def open_site(context, url: str) -> Pad:
    page = context.new_page()
    page.goto(url)
    return wait_usable(page)


def reload(pad: Pad) -> Pad:
    pad.page.reload()
    return wait_usable(pad.page)


def open_home(pad: Pad, url: str) -> Pad:
    """The app opened afresh at its address (the home screen), in the same tab."""
    pad.page.goto(url)
    return wait_usable(pad.page)


@pytest.mark.minutes
def test_published_game_survives_reload_and_opens_offline(static, offline_phone):
    pad = open_site(offline_phone, static.url)
    pad.button("New game").wait_for(timeout=START)
    start_game(pad)
    play_round(pad, 1)  # Ann by the keypad's taps, Bob typed, as the pad's own game
    # round 2 typed (each keypad tap is a round trip to the worker's Python, typing is one); Bob's keypad is
    # left half tapped
    pad.wait_text("round-status", r"^Round 2 of 4")
    pad.tap("Enter Ann")
    enter_by_typing(pad, GAME[1][0], GAME[1][1])
    pad.wait_text("entry-subtotal", r"^0 points so far")  # Bob's keypad: Ann's round 2 is confirmed
    half = GAME[1][2][:3]
    for i in range(len(half)):
        pad.tap(half[i])
        pad.wait_text("entry-cards", rf"^Cards: {re.escape(half[:i + 1])} ", timeout=SLOW)

    pad = reload(pad)  # the tab is reloaded: Python starts again from the browser's storage, on the same screen
    # a cached start: the interpreter comes from the first visit's snapshot, the modules from its bytecode
    marks = pad.page.evaluate("() => performance.getEntriesByType('mark').map(m => m.name)")
    assert {"tourpad:pyodide-restored", "tourpad:bytecode-installed"} <= set(marks), marks
    # Issue #34, item 6: the hosted app's server keeps a half-tapped keypad; here Python restarted, so the
    # draft came back from the browser's storage
    pad.wait_text("entry-cards", rf"^Cards: {re.escape(half)} \(3 of 7\)", timeout=START)
    pad.tap("Clear")
    pad.wait_text("entry-cards", r"^Cards: none")
    pad.tap_ident("back")
    pad.wait_text("round-status", r"^Round 2 of 4")
    assert pad.text("history-r2-p1") == f"{GAME[1][0]} · {GAME[1][1]}"
    pad.tap("Enter Bob")
    pad.type_into("Type the letters", GAME[1][2])
    pad.wait_text("entry-cards", rf"^Cards: {re.escape(GAME[1][2])} \(7 of 7\)")
    choose_and_save(pad, GAME[1][3])
    pad.wait_text("summary-title", "Round 2 closed")
    pad.shot("publish-round-summary")
    # (a whole game to its last round in the web app: the four phones of tests/e2e/test_phone_table_e2e.py)

    # the service worker has the whole site once it is active (it activates after caching every file)
    assert pad.page.evaluate("() => navigator.serviceWorker.ready.then(r => !!r.active)")
    static.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(static.url, timeout=2)
    pad = open_home(pad, static.url)  # offline: the app and the game in progress, from the browser alone
    pad.tap_until(lambda: pad.button("Resume: Ann · Bob").first.click(),
                  lambda ms: pad.wait_text("round-status", r"^Round 3 of 4", timeout=ms), timeout=START)
    assert pad.text("history-r2-p1") == f"{GAME[1][0]} · {GAME[1][1]}"
    assert pad.text("history-r2-p2") == GAME[1][2]  # Bob's round 2: no activity
    pad.shot("publish-offline-resumed")

    # a new release installed on the next visit, the games kept: test_an_update_of_our_code_fetches_only_what_…
    assert offline_phone.outside == []


@pytest.fixture
def gzip_host(site, tmp_path):
    """The site (a copy) served as common static hosts serve one, gzip where the browser takes it, with a log of
    every file sent and its bytes on the wire."""
    folder = Path(shutil.copytree(site, tmp_path / "www"))
    log = WireLog()
    server = serve_site(folder, ("gzip",), log)
    yield folder, f"http://127.0.0.1:{server.server_address[1]}/", log, server
    server.shutdown()


def settled_first_visit(context, url: str) -> Pad:
    """The app opened on its first visit, once it has fetched all it fetches (the service worker has the page
    and Python's bytecode is kept, which comes last)."""
    pad = open_site(context, url)
    pad.button("New game").wait_for(timeout=START)
    assert pad.page.evaluate("() => navigator.serviceWorker.ready.then(r => !!r.active)")
    pad.page.wait_for_function("() => performance.getEntriesByName('tourpad:bytecode-saved').length",
                               timeout=START, polling=POLL_MS)
    return pad


def recording_phone(new_context, url: str):
    """A phone-sized context with the browser's HTTP cache on, as a real phone has it: requests to other hosts
    are recorded in `outside`, not routed (Playwright's routing turns the HTTP cache off)."""
    context = new_context(**phone_options())
    context.outside = []
    context.on("request", lambda request: None if request.url.startswith((url, "data:", "blob:"))
               else context.outside.append(request.url))
    return context



def test_a_first_visit_fetches_each_file_once_and_the_first_scan_brings_the_reader(gzip_host, new_context,
                                                                                   tmp_path):
    """Issue 39: a first visit fetches each file once, one renderer's files only, and stores just those.
    Issue 40, items 3 and 4: it fetches no file of the code reader; the first scan (a shared deck's QR code,
    from Your decks) fetches each once, and the service worker keeps them: offline, the app opens and the table
    screen's scan still reads a table's join code, and opens the table's own page."""
    from scorer.packs import deck_share_code, duplicate_deck
    from scorer.routes import deck_link, join_link

    _folder, url, log, server = gzip_host
    phone = recording_phone(new_context, url)
    pad = settled_first_visit(phone, url)
    assert pad.page.evaluate("() => !!navigator.serviceWorker.controller")
    sent = log.take()
    paths = [path for path, _size in sent]
    assert sorted({p for p in paths if paths.count(p) > 1}) == [], sent
    assert {"index.html", "sw.js", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"} <= set(paths)
    assert not set(paths) & set(reader_files()), paths  # the code reader comes with the first scan
    # one of Flutter's two builds, and one CanvasKit variant of the renderer it picked
    assert len({"main.dart.js", "main.dart.wasm"} & set(paths)) == 1, paths
    assert len([p for p in paths if p.startswith("canvaskit/") and p.endswith(".wasm")]) == 1, paths
    # what the browser has stored is what it fetched (and the worker's own list), nothing more
    stored = pad.page.evaluate("""() => caches.keys()
      .then(keys => caches.open(keys.find(k => k.startsWith('tourpad-'))))
      .then(cache => cache.keys()).then(requests => requests.map(r => r.url))""")
    assert {u.removeprefix(url) for u in stored} == {*paths, "tourpad-files.json"} - {"sw.js"}

    deck = duplicate_deck("usa")
    pad.page.goto(url + "#/decks")
    pad.ident("deck-code-button").wait_for(timeout=SLOW)
    pad.shot("web-decks-scan-a-code")
    link = deck_link("https://another.phone", deck_share_code(deck))
    scan_photo_file(pad, "deck-code", qr_photo(tmp_path / "deck.png", link))
    pad.wait_text("shared-deck-name", r"^Boomerang: USA \(copy\)$", timeout=SLOW)
    fetched = [p for p, _size in log.take()]
    # each file the reader runs on, once (the camera's view waits for the camera; the licence is for people)
    assert sorted(p for p in fetched if p in reader_files()) == sorted(set(reader_files()) - {"camera.js",
                                                                                              "zxing/LICENSE"})
    pad.shot("web-scan-deck-code")

    server.shutdown()  # offline: the app and its reader come from the service worker's cache
    pad = open_home(pad, url)
    pad.tap_until(lambda: pad.tap("Table mode: host or join"),
                  lambda ms: pad.ident("join-code-button").wait_for(timeout=ms))
    pad.shot("web-table-scan-a-join-code")
    table = join_link("http://127.0.0.1:9", "ABCD-EFGH")  # a table's computer: its page is asked for, that is all
    with pad.page.expect_request(table, timeout=SLOW):
        scan_photo_file(pad, "join-code", qr_photo(tmp_path / "join.png", table))
    assert log.take() == [] and phone.outside == [table]


@pytest.mark.minutes
def test_an_update_of_our_code_fetches_only_what_changed_and_keeps_the_games(gzip_host, new_context):
    folder, url, log, _server = gzip_host
    phone = recording_phone(new_context, url)
    pad = settled_first_visit(phone, url)
    start_game(pad)
    log.take()
    version = release_changed_code(folder)
    # the next visit online: the release it has opens whole, with the game, while the new one installs
    pad = open_home(pad, url)
    pad.button("Resume: Ann · Bob").wait_for(timeout=START)
    deadline = time.monotonic() + START / 1000
    while pad.page.evaluate(SITE_CACHES_JS) != [f"tourpad-{version}"]:
        assert time.monotonic() < deadline, "the new release was not installed"
        pad.page.wait_for_timeout(500)
    fetched = [path for path, _size in log.take()]
    assert sorted(p for p in fetched if p != "sw.js") == ["pyodide/pyodide-lock.json",
                                                          "pyodide/tourpad-0.1.0-py3-none-any.whl"]
    pad = open_home(pad, url)  # the new release, from the cache: nothing more to fetch, the game still there
    pad.button("Resume: Ann · Bob").wait_for(timeout=START)
    assert [p for p, _size in log.take() if p != "sw.js"] == []
    assert phone.outside == []


def reader_files() -> list[str]:
    """The site's files of the page's code reader (zxing-wasm and ours), fetched the first time a player scans."""
    from scorer.web.code_reader import site_files as code_reader_files

    return list(code_reader_files())


def qr_photo(path: Path, text: str) -> Path:
    """A photo (PNG) of a QR code of `text`, as a phone's screen shows one."""
    import segno

    segno.make(text, error="m").save(str(path), kind="png", scale=6, border=4)
    return path


def scan_photo_file(pad: Pad, ident: str, photo: Path) -> None:
    """A screen's "Scan a code" (`ident`), then Photo file with `photo`."""
    pad.tap_until(lambda: pad.tap_ident(f"{ident}-button"),
                  lambda ms: pad.ident(f"{ident}-scan-button").wait_for(timeout=ms))
    with pad.page.expect_file_chooser(timeout=15000) as chooser:
        pad.tap_ident(f"{ident}-scan-button")
    chooser.value.set_files(str(photo))


def start_solo_against_one_bot(pad, play_solo: str, level: str) -> None:
    """From the home screen (its "Play solo" button in the page's language): one bot of `level`, started."""
    pad.button(play_solo).wait_for(timeout=START)
    pad.tap(play_solo)
    pad.ident("bots-1").wait_for(timeout=SLOW)
    pad.tap_ident("bots-1")
    pad.tap_ident(f"bot-1-{level}")
    pad.tap_ident("solo-start")


#: The solo screen's status and step lines as shown now, null for either not on the screen.
SOLO_STEP_JS = """() => ['solo-status', 'solo-step'].map(i =>
  document.querySelector(`[flt-semantics-identifier="${i}"]`)?.innerText ?? null)"""


def test_a_french_phone_plays_a_published_solo_round_against_a_hard_bot(static, new_context):
    """The browser-only app in French against the hard bot, a whole round: the catalogs from our wheel, and
    Babel's French number format (the Hint's values) from the trimmed Babel wheel, both inside Pyodide."""
    context = offline_context(new_context, locale="fr-FR")
    pad = open_site(context, static.url)
    start_solo_against_one_bot(pad, "Jouer en solo", "hard")
    pad.wait_text("solo-status", r"^Manche 1 sur 4\s: choisissez votre carte Lancer", timeout=SLOW)
    hint = ""
    while True:
        # something to tap: between two steps the bot plays and the hand is not on the screen yet
        pad.wait_any("hand-0", "choice-0", "summary-title", timeout=SLOW)
        if pad.ident("summary-title").count():
            break
        # read in one look, either missing if the screen has moved on meanwhile (the round's summary was on its
        # way, the hand seen above its last frame): then look again, rather than wait for a node that is gone
        status, before = pad.page.evaluate(SOLO_STEP_JS)
        if status is None or before is None:
            continue
        if "la carte Réception est arrivée" in status:
            pad.tap_ident("choice-0")
        else:
            if not hint and "carte à garder" in status:
                pad.tap_ident("solo-hint-button")
                hint = pad.wait_text("solo-hint", r"^Conseil\s: le bot difficile choisirait ", timeout=SLOW)
                pad.shot("fr-publish-solo-hint")
            pad.tap_ident("hand-0")
        pad.page.wait_for_function(
            "s => { const e = document.querySelector('[flt-semantics-identifier=\"solo-step\"]');"
            " return !e || e.innerText !== s; }", arg=before, timeout=SLOW, polling=POLL_MS)
    assert pad.wait_text("summary-title", "^Manche 1 close$")
    # French decimals from Babel inside Pyodide: "1,7 pts de moins · rapporte +3,0 pts maintenant"
    assert re.search(r"(le meilleur|\d+,\d pts de moins) · rapporte [+-]\d+,\d pts maintenant", hint), hint
    pad.shot("fr-publish-solo-round")
    assert context.outside == []
