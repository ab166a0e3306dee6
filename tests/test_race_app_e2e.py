"""The Race Around Europe screens in headless Chromium: tap a journey in, see why it breaks; play solo."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

CHROMIUM = "/usr/bin/chromium"
CHROME_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run"]
ENABLE_SEMANTICS_JS = """() => {
  const e = document.querySelector('flt-semantics-placeholder'); if (!e) return false;
  const r = e.getBoundingClientRect();
  e.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.left + r.width / 2,
                                           clientY: r.top + r.height / 2}));
  return true; }"""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is needed for the browser tests")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "FLET_FORCE_WEB_SERVER": "1",
           "TOURPAD_DATA_DIR": str(tmp_path_factory.mktemp("race-data"))}
    proc = subprocess.Popen([sys.executable, "-m", "scorer.cli", "race-app", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def page(app_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        context = browser.new_context(viewport={"width": 430, "height": 1400})
        context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda r: r.abort())
        page = context.new_page()
        page.goto(app_url)
        page.wait_for_function("() => !document.getElementById('loading')", timeout=60000)
        page.evaluate(ENABLE_SEMANTICS_JS)
        page.wait_for_selector('[flt-semantics-identifier="race-headline"]', state="attached", timeout=30000)
        yield page
        browser.close()


def text(page, identifier: str) -> str:
    return page.locator(f'[flt-semantics-identifier="{identifier}"]').inner_text()


def wait_text(page, identifier: str, pattern: str) -> None:
    page.wait_for_function(
        "([i, p]) => { const e = document.querySelector(`[flt-semantics-identifier=\"${i}\"]`);"
        " return e && new RegExp(p).test(e.innerText); }", arg=[identifier, pattern], timeout=10000)


def test_checker_explains_the_rulebook_example(page):
    for name in ["Spain", "France", "Atlantic ship", "Norway", "Greece", "Macedonia", "Greece",
                 "Mediterranean ship", "Turkey", "Ukraine"]:
        page.get_by_role("button", name=name, exact=True).last.click()
        time.sleep(0.4)
    wait_text(page, "race-headline", "Not complete: 8 of 9 links connect")
    assert page.get_by_text("Norway and Greece do not border").count() == 1
    assert "replace trip 5 with" in text(page, "fix-0")


def test_solo_setup_then_draw(page):
    page.get_by_role("button", name="Solo game").click()
    page.wait_for_selector('[flt-semantics-identifier="solo-status"]', state="attached", timeout=20000)
    for slot in range(1, 11):
        page.locator(f'[flt-semantics-identifier="solo-trip-{slot}"]').click()
        time.sleep(0.4)
    wait_text(page, "solo-status", "Your turn: draw")
    page.get_by_role("button", name=re.compile("Draw from the draw pile")).click()
    wait_text(page, "solo-status", "You drew ")
