"""Drive the score pad in Debian's Chromium through the Flutter semantics tree.

Each test gets its own app server (free port, own TOURPAD_DATA_DIR), so the tests are independent under
xdist. Recipe from the Flet field notes: enable semantics through the placeholder, find buttons by role
and name, read state through `ft.Semantics(identifier=...)` (DOM attribute flt-semantics-identifier).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections import deque
from pathlib import Path

import pytest
from forked_tourpad import Forked, fork_tourpad

from benchmarks.chromium import CHROME_ARGS, CHROMIUM, ENABLE_SEMANTICS_JS

# Resolves once the page's DOM (where the semantics tree lives) has been quiet for `quiet` ms, or after 5 s
# of constant change: a tap on a node Flutter is about to replace goes to a stale node and is lost.
SETTLE_JS = """(quiet) => new Promise(resolve => {
  let timer;
  const done = () => { observer.disconnect(); clearTimeout(timer); resolve(true); };
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  timer = setTimeout(done, quiet);
  setTimeout(done, 5000); })"""
# Marks an input once Flutter has configured it for editing (it sets `autocomplete` on the input it takes over
# after the browser focused it): from then on what is typed there reaches the app. Focus clears the mark.
TAKEOVER_JS = """() => {
  if (window.tourpadTakeover) return;
  document.addEventListener('focusin', e => { e.target.tourpadEdited = false; }, true);
  window.tourpadTakeover = new MutationObserver(records => {
    for (const r of records) if (r.target === document.activeElement) r.target.tourpadEdited = true; });
  window.tourpadTakeover.observe(document.body, {subtree: true, attributes: true, attributeFilter: ['autocomplete']});
}"""
#: How long (ms) a click's focus may wait for Flutter's takeover before the field is clicked again. A takeover
#: comes on Flutter's next frame, seconds late at worst on a loaded machine; a click that missed it (the field
#: redrawn under the click) never gets one, and waiting a whole SLOW for it cost a Stats run a minute.
TAKEOVER_MS = 15000
#: How often (ms) a wait checks the page. Playwright's default checks on every animation frame, which keeps
#: the page drawing frames for as long as the test waits: on the four-phone table test that was an eighth of
#: all the CPU the browsers used (254 → 222 CPU-seconds), on a served-app game a quarter (71 → 52).
POLL_MS = 100
THEME_BUTTON_JS = "document.querySelector('[flt-semantics-identifier=\"theme\"]')"
#: How long a step may take (ms) on a loaded two-core machine before the test fails rather than waits on.
SLOW = 60000
#: The browser console lines of each context a failure's report shows (the last ones: where it went wrong).
CONSOLE_LINES = 80
#: Where screenshots go. `Pad.shot` takes them only when TOURPAD_SHOTS names a folder (each costs ~0.7 s of
#: waiting for a settled frame, 133 of them in the suite); a failed test's pages are photographed always.
SHOTS = Path(os.environ.get("TOURPAD_SHOTS") or "/tmp/shots/app")
TAKE_SHOTS = bool(os.environ.get("TOURPAD_SHOTS"))
#: Device pixels per CSS pixel of a test's phone. Chromium draws Flutter's canvas in software here (SwiftShader),
#: so a phone's 2× screen costs four times the pixels on every frame, about an eighth of the browser tests' time;
#: layout, taps and what a test reads are in CSS pixels and do not change with it. Screenshots taken to be
#: looked at (TOURPAD_SHOTS) are drawn at a phone's 2×.
PHONE_SCALE = 2 if TAKE_SHOTS else 1


def phone_options(**options) -> dict:
    """A 390×844 phone's browser-context options (touch, mobile layout), with `options` added or replacing."""
    return {"viewport": {"width": 390, "height": 844}, "device_scale_factor": PHONE_SCALE, "is_mobile": True,
            "has_touch": True, **options}


def pytest_collection_modifyitems(items):
    missing = pytest.mark.skip(reason=f"{CHROMIUM} is missing: `make system-deps` installs it")
    for item in items:
        if "e2e" not in item.keywords:
            continue
        if not Path(CHROMIUM).exists():
            item.add_marker(missing)


class AppServer:
    """`tourpad app --web --no-browser` on a free localhost port with its own data folder (forked warm: its
    imports are done once per test process, tests/forked_tourpad.py)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.proc: Forked | None = None
        self.url = ""

    def start(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "TOURPAD_DATA_DIR": str(self.data_dir)}
        for key in ("DISPLAY", "WAYLAND_DISPLAY"):
            env.pop(key, None)
        log = self.data_dir / f"server-{port}.log"
        self.proc = fork_tourpad(["app", "--web", "--no-browser", "--port", str(port)], env, log)
        self.url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url, timeout=1)
                return self.url
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)  # a forked server answers in about 0.15 s: every browser test waits for it
        self.stop()
        raise RuntimeError(f"the app server did not start: {log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when a phone kills the app."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Pad:
    """One browser page on the app, with helpers named after what a player does."""

    def __init__(self, page) -> None:
        self.page = page

    def ident(self, identifier: str):
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]')

    def screen_words(self) -> list[str]:
        """Every text the screen shows or reads out: each semantics node's label and text."""
        self.settle()
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('flt-semantics'))
            .flatMap(e => [e.getAttribute('aria-label') || '', Array.from(e.childNodes)
              .filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join(' ')])
            .concat(Array.from(document.querySelectorAll('input, textarea'))
              .map(e => e.getAttribute('aria-label') || e.placeholder || ''))
            .filter(t => t.trim())""")

    def english_left(self, names: list[str]) -> list[str]:
        """Common English words on this screen (a French one should have none), names taken out first."""
        from test_french_screens import english_words

        return english_words(self.screen_words(), names)

    def text(self, identifier: str) -> str:
        return self.ident(identifier).inner_text()

    def wait_text(self, identifier: str, pattern: str, timeout: float = 30000) -> str:
        """Wait until the identified node's text matches the regex `pattern`; returns the text."""
        self.page.wait_for_function(
            "([i, p]) => { const e = document.querySelector(`[flt-semantics-identifier=\"${i}\"]`);"
            " return !!e && new RegExp(p).test(e.innerText); }", arg=[identifier, pattern], timeout=timeout,
            polling=POLL_MS)
        return self.text(identifier)

    def wait_any(self, *identifiers: str, timeout: float = 30000) -> None:
        """Wait until one of the identified nodes is on the screen (whichever the game brings next)."""
        self.page.wait_for_function(
            "ids => ids.some(i => document.querySelector(`[flt-semantics-identifier=\"${i}\"]`))",
            arg=list(identifiers), timeout=timeout, polling=POLL_MS)

    def button(self, name: str | re.Pattern, exact: bool = True):
        return self.page.get_by_role("button", name=name, exact=exact if isinstance(name, str) else None)

    def settle(self, quiet_ms: int = 150) -> None:
        """Wait until the semantics tree stops changing (see SETTLE_JS)."""
        self.page.evaluate(SETTLE_JS, quiet_ms)

    def tap(self, name: str | re.Pattern, exact: bool = True) -> None:
        self.settle()
        self.button(name, exact).first.click()

    def tap_ident(self, identifier: str) -> None:
        self.settle()
        node = self.ident(identifier)
        inner = node.locator("[role=button]")
        (inner.first if inner.count() else node).click()

    def toggle_theme(self) -> None:
        """The app bar's light / dark button. The screen is drawn anew in the other theme, every control
        replaced: a field typed into before the new screen arrives would be thrown away with the old one, so
        this returns once the new screen is there (its theme button is a new node)."""
        self.settle()
        before = self.backdrop()
        self.page.evaluate(f"() => {{ {THEME_BUTTON_JS}.tourpadBefore = true; }}")
        self.tap_ident("theme")
        self.page.wait_for_function(f"() => {{ const e = {THEME_BUTTON_JS}; return !!e && !e.tourpadBefore; }}",
                                    timeout=SLOW, polling=POLL_MS)
        # A new button node alone can come first (its tooltip's semantics): the new screen is there once the
        # screen's background has changed colour too.
        deadline = time.monotonic() + SLOW / 1000
        while self.backdrop() == before:
            if time.monotonic() > deadline:
                raise AssertionError("the light / dark button did not change the screen's theme")
            self.page.wait_for_timeout(50)
        self.settle()

    def backdrop(self) -> bytes:
        """One pixel of the screen's background (its left edge, half way down: no screen draws there)."""
        height = self.page.viewport_size["height"] if self.page.viewport_size else 600
        return self.page.screenshot(clip={"x": 1, "y": height // 2, "width": 1, "height": 1})

    def tap_until(self, tap, landed, timeout: float = 10000, attempts: int = 3) -> None:
        """`tap()`, then `landed(timeout_ms)` waits for the sign the tap worked; tap again, with more patience,
        if it times out: a tap during a redraw can miss. The last attempt's timeout error propagates.
        A repeated tap that finds no button is fine: the earlier tap may have landed late and moved on."""
        for attempt in range(attempts):
            try:
                tap()
            except Exception:
                if attempt == 0:
                    raise
            try:
                landed(timeout * (attempt + 1))
                return
            except Exception:
                if attempt == attempts - 1:
                    raise

    def focus_field(self, label: str, attempts: int = 3) -> bool:
        """Click a text field until the browser's focus is in it and Flutter edits it (a click right after a
        redraw can miss). The browser focuses the input at once, but Flutter takes it over for editing a
        moment later, on its next frame (it configures the input then: `autocomplete` and the rest); text
        filled in before that never reaches the app, though the input shows it. On a busy machine that frame
        can come long after the DOM went quiet, so the takeover itself is waited for (TAKEOVER_JS)."""
        box = self.page.get_by_role("textbox", name=label)
        for _ in range(attempts):
            self.settle()
            self.page.evaluate(TAKEOVER_JS)
            box.click()
            try:
                self.page.wait_for_function(
                    # the accessible name is the label, then the hint on the next line; some focused inputs carry
                    # none, so a missing name is accepted (type_into's value check proves the text went in)
                    "l => { const e = document.activeElement; if (e?.tagName !== 'INPUT') return false;"
                    " const name = e.getAttribute('aria-label'); return !name || name.split('\\n')[0] === l; }",
                    arg=label, timeout=5000, polling=POLL_MS)
                self.page.wait_for_function("() => document.activeElement?.tourpadEdited === true",
                                            timeout=TAKEOVER_MS, polling=POLL_MS)
                return True
            except Exception:
                self.page.wait_for_timeout(300)
        return False

    def type_into(self, label: str, text: str) -> None:
        """Focus the field first (a bare fill on a fresh page is unreliable), then fill and check it took."""
        box = self.page.get_by_role("textbox", name=label)
        for _ in range(3):
            if not self.focus_field(label, attempts=1):
                continue
            box.fill(text)
            try:
                # case-insensitive: some fields capitalize what is typed (the table's join code)
                self.page.wait_for_function(  # on every frame, not every POLL_MS: the keypad's field empties
                    # as soon as the app has taken its letters, so the text is there for a moment only
                    "([l, t]) => document.activeElement?.value?.toUpperCase() === t.toUpperCase()",
                    arg=[label, text], timeout=3000)
                self.page.wait_for_timeout(150)  # let the change event reach the server
                return
            except Exception:
                continue
        active = self.page.evaluate("() => [document.activeElement?.tagName, "
                                    "document.activeElement?.getAttribute('aria-label'), "
                                    "document.activeElement?.value]")
        raise AssertionError(f"could not type {text!r} into {label!r}; focused element: {active}")

    def reload(self) -> None:
        """The browser's reload: the page loads again (the server keeps the tab's session)."""
        self.page.reload()
        attach(self.page)

    def goto(self, url: str) -> None:
        """A URL typed or pasted into this tab's address bar."""
        self.page.goto(url)
        attach(self.page)

    def failure_shot(self, test_name: str) -> None:
        """SHOTS/FAILED-<test>.png, always (new_context takes one of each of its pages; a test with a browser
        of its own takes its page's)."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"FAILED-{test_name}.png"))

    def shot(self, name: str, splash_ms: int = 0) -> Path | None:
        """The page as a person sees it, in SHOTS/<name>.png, when screenshots were asked for (TAKE_SHOTS).
        `splash_ms`: how long a page just opened can still paint Flet's loading screen over a ready semantics
        tree; only a picture waits it out (nothing a test reads is under it)."""
        if not TAKE_SHOTS:
            # the screen still settles: tests read the next step off a screen they would have photographed
            self.settle()
            return None
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.wait_for_timeout(splash_ms)
        self.page.wait_for_timeout(400)  # a frame right after a change can be half drawn
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        self.page.wait_for_timeout(300)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=False)
        return path


def open_pad(context, url: str) -> Pad:
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    page = context.new_page()
    page.goto(url)
    return attach(page)


def attach(page) -> Pad:
    """A loaded (or reloaded) app page, its semantics tree switched on."""
    page.wait_for_function("() => !document.getElementById('loading')", timeout=60000, polling=POLL_MS)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30000)
    page.evaluate(ENABLE_SEMANTICS_JS)
    page.wait_for_selector("flt-semantics[role], flt-semantics[flt-semantics-identifier]",
                           state="attached", timeout=30000)
    return Pad(page)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    srv = AppServer(tmp_path)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def host(tmp_path):
    """A real `tourpad host` (app and API) on loopback with its own data folder; yields its base URL."""
    from benchmarks.table import start_host
    from scorer.ports import free_port

    port = free_port("127.0.0.1")
    proc = start_host(tmp_path, port, extra=())
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(15)


@pytest.fixture
def open_app():
    return open_pad


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed
        if item.failed_call:
            consoles = getattr(item, "browser_consoles", [])
            for n, lines in enumerate(consoles):
                if lines:  # what the app said in the browser: read with the failure, wherever it is printed
                    report.sections.append((f"browser console of context {n} (last {len(lines)} lines)",
                                            "\n".join(lines)))
            # kept beside the failure's screenshots, so the step and the screen it failed on are read together
            SHOTS.mkdir(parents=True, exist_ok=True)
            (SHOTS / f"FAILED-{item.name}.txt").write_text(report.longreprtext, encoding="utf-8")


@pytest.fixture
def new_context(browser, request):
    """Makes browser contexts that close after the test; when the test fails, each of their pages is
    screenshotted first (FAILED-<test>-<n>.png).

    Their pages ask for reduced motion, as a phone's accessibility setting does: Flutter then skips most of its
    animations, whose frames Chromium draws in software here: a sixth of a served-app game's CPU (79 → 66
    CPU-seconds for `test_full_australia_game_by_letters`), the same screens and taps. A test that wants the
    animations passes `reduced_motion="no-preference"`; contexts made straight from `browser` (the killed pad,
    the screens tour, the camera's) keep them."""
    made = []
    request.node.browser_consoles = []

    def make(**options):
        made.append(browser.new_context(**{"reduced_motion": "reduce", **options}))
        # each context's console (its pages', and their workers' where the web app's Python prints its
        # warnings), the last lines kept for a failure's report
        console: deque[str] = deque(maxlen=CONSOLE_LINES)
        started = time.monotonic()
        made[-1].on("console", lambda message: console.append(
            f"{time.monotonic() - started:7.2f} s {message.type}: {message.text[:300]}"))
        request.node.browser_consoles.append(console)
        return made[-1]

    yield make
    if getattr(request.node, "failed_call", False):
        for i, page in enumerate(page for ctx in made for page in ctx.pages):
            Pad(page).failure_shot(f"{request.node.name}-{i}")
    for ctx in made:
        ctx.close()


@pytest.fixture
def phone(new_context):
    """A 390×844 phone-sized context (touch, mobile layout)."""
    return new_context(**phone_options())
