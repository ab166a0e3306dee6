"""Table mode in the browser: two Chromium pages on two seats of one table, live.

Drives `tourpad host` (the app and the API in one server) with Debian's Chromium through Playwright,
using Flutter's semantics tree (see the Flet field notes).
"""

from __future__ import annotations

import re

import httpx
import pytest

from benchmarks.table import free_port, start_host

pytestmark = pytest.mark.e2e

CHROME_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run"]
ENABLE_SEMANTICS = """() => {
  const e = document.querySelector('flt-semantics-placeholder'); if (!e) return false;
  const r = e.getBoundingClientRect();
  e.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.left + r.width / 2,
                                           clientY: r.top + r.height / 2}));
  return true; }"""
TEXT_CONTAINS = """([id, want]) => { const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  return !!e && e.innerText.includes(want); }"""


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    port = free_port()
    proc = start_host(tmp_path_factory.mktemp("host"), port, extra=())
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(15)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROME_ARGS)
        yield chromium
        chromium.close()


class Phone:
    def __init__(self, browser, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 420, "height": 860})
        # hermetic: nothing but the host may be reached
        self.context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
        self.page = self.context.new_page()
        self.url = url
        self.open()

    def open(self) -> None:
        self.page.goto(self.url)
        self.page.wait_for_function("() => !document.getElementById('loading')", timeout=60000)
        self.page.evaluate(ENABLE_SEMANTICS)
        self.page.wait_for_selector("flt-semantics[role], flt-semantics[flt-semantics-identifier]",
                                    state="attached", timeout=30000)

    def type_into(self, label: str, text: str) -> None:
        box = self.page.get_by_role("textbox", name=label)
        box.click()  # focus first: a bare fill() on a fresh Flutter page is unreliable
        self.page.wait_for_function("() => document.activeElement?.tagName === 'INPUT'", timeout=10000)
        box.fill(text)

    def tap(self, name: str) -> None:
        self.page.get_by_role("button", name=name).click()

    def wait_text(self, identifier: str, want: str, timeout: float = 40000) -> None:
        self.page.wait_for_function(TEXT_CONTAINS, arg=[identifier, want], timeout=timeout)

    def text(self, identifier: str) -> str:
        return self.page.locator(f'[flt-semantics-identifier="{identifier}"]').inner_text()

    def take_seat(self, code: str, seat: int, name: str) -> None:
        self.type_into("Join code", code.lower())
        self.tap("Join")
        self.type_into(f"Your name (seat {seat})", name)
        self.tap(f"Take seat {seat}")
        self.wait_text("status", "Round 1")


def test_a_submission_on_one_phone_appears_on_the_other(host, browser, tmp_path):
    code = httpx.post(f"{host}/api/tables", json={"seats": 2}).json()["code"]
    ann, bob = Phone(browser, host), Phone(browser, host)
    try:
        ann.take_seat(code, 1, "Ann")
        bob.take_seat(code, 2, "Bob")
        ann.wait_text("status", "waiting for Ann, Bob")

        ann.type_into("Your 7 cards", "abcdefg")
        ann.tap("Submit round 1")
        ann.wait_text("message", "Round 1 saved")
        bob.wait_text("sheet-1", "R1: ABCDEFG")
        bob.wait_text("status", "waiting for Bob")
        bob.page.screenshot(path=str(tmp_path / "bob-sees-ann.png"))

        # Bob's phone reloads (dropped off Wi-Fi): its seat comes back from the device's storage
        bob.open()
        bob.wait_text("sheet-2", "Bob (you)")
        bob.type_into("Your 7 cards", "GHIJKLM")
        bob.tap("Submit round 1")
        bob.wait_text("message", "already in Ann's round 1 cards")
        assert "R1" not in bob.text("sheet-2")
        bob.type_into("Your 7 cards", "HIJKLMN")
        bob.tap("Submit round 1")
        ann.wait_text("status", "Round 2")
        ann.wait_text("sheet-2", "R1: HIJKLMN")
        view = httpx.get(f"{host}/api/tables/{code}").json()
        assert [e["cards"] for e in view["rounds"][0]["entries"]] == ["ABCDEFG", "HIJKLMN"]
    finally:
        ann.context.close()
        bob.context.close()
