"""Every player can use the eight main screens: axe-core finds nothing serious or critical, nothing is wider
than a 320 px phone, every control is at least 44×44 px and the screen's title is not cut short, at the normal
and at the largest text size.

What axe-core sees here: Flet's web client draws on a canvas; what a screen reader reads is Flutter's
semantics tree, which the page only builds once accessibility is switched on (the conftest does, as a
screen reader would). axe checks that tree's DOM: names and roles of buttons, switches, text fields and
images, ARIA use, focusable scroll regions. It cannot see colours (the canvas: tests/test_contrast.py
computes those) nor the order the canvas draws things in. Sizes and overflow are read from the same
nodes' rectangles, scrolling the page down to reach every one; screenshots of each step go to
$TOURPAD_SHOTS/a11y when that is set, to be looked at.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import POLL_MS, AppServer, open_pad

from benchmarks.table import host_auth, start_host, stop_host
from scorer.pad.game import GameSession
from scorer.pad.store import EventStore
from scorer.ports import free_port
from scorer.solo.view import new_game
from scorer.ui.text_size import APP_BAR_TITLE_MAX_SCALE, TEXT_SIZE_KEY, TITLE_SIZE

pytestmark = pytest.mark.e2e

#: where each scroll step's screenshot goes, to be looked at; none are taken unless TOURPAD_SHOTS is set
SHOTS = Path(os.environ["TOURPAD_SHOTS"]) / "a11y" if os.environ.get("TOURPAD_SHOTS") else None
WIDTH, HEIGHT = 320, 640
MIN_TARGET = 44
GAME = [("ABCDEFG", "Indigenous Culture", "HIJKLMN", "Bushwalking"),
        ("OPQRSTU", "Sightseeing", "VWXYZ@#", None),
        ("ABCDIJK", "Bushwalking", "EFGHLMN", "Swimming"),
        ("UVWXYZ@", "Swimming", "OPQRST#", "Sightseeing")]
#: screen → (served by the table host?, path with {placeholders}, a node that is there once it is drawn)
SCREENS = {
    "home": (False, "/", "resume-info"),
    "new-game": (False, "/new", "start"),
    "end": (False, "/game/{done}/end", "winner"),
    "solo": (False, "/solo/{solo}", "solo-step"),
    "sheet": (False, "/game/{playing}", "round-status"),
    "keypad": (False, "/game/{playing}/round/2/player/1", "slot-1"),
    "table-seat": (True, "/seat/{code}/{seat_token}", "round-status"),
    "board": (True, "/table/{code}/board", "board-status"),
}
SERIOUS = ("serious", "critical")

#: Interactive nodes smaller than MIN_TARGET, and nodes reaching past the window's sides (outside a region
#: that scrolls sideways): [problem, role, name, width, height or left, right]. A node cut by the edge of
#: the area it scrolls in is only partly shown: its size is read when it is scrolled fully into view.
LAYOUT_JS = """([minTarget]) => {
  const W = window.innerWidth, found = [];
  const interactive = '[role=button], [role=switch], [role=checkbox], [role=radio], [role=link], [role=tab], '
    + '[role=slider], [role=menuitem], input, textarea';
  // Flutter marks a scrolling node with an inline overflow-x or overflow-y: scroll
  const scrollers = e => {
    const boxes = [];
    for (let p = e.parentElement; p; p = p.parentElement)
      if (p.style.overflowX === 'scroll' || p.style.overflowY === 'scroll')
        boxes.push([p.getBoundingClientRect(), p.style.overflowX === 'scroll']);
    return boxes;
  };
  for (const e of document.querySelectorAll('flt-semantics, input, textarea')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = (e.getAttribute('aria-label') || e.innerText || '').trim().slice(0, 50).replace(/\\n/g, ' ');
    const role = e.getAttribute('role') || e.tagName.toLowerCase();
    const boxes = scrollers(e);
    const sideways = boxes.some(([, x]) => x);
    if ((r.left < -0.5 || r.right > W + 0.5) && !sideways)
      found.push(['past the side', role, name, Math.round(r.left), Math.round(r.right),
                  boxes.map(([b, x]) => (x ? 'x' : 'y') + Math.round(b.left) + '-' + Math.round(b.right)).join(' ')]);
    const cut = r.top <= 0.5 || r.bottom >= window.innerHeight - 0.5 || boxes.some(([b]) =>
      r.top <= b.top + 0.5 || r.bottom >= b.bottom - 0.5 || r.left <= b.left + 0.5 || r.right >= b.right - 0.5);
    if (e.matches(interactive) && !cut && (r.width < minTarget - 0.5 || r.height < minTarget - 0.5))
      found.push(['too small', role, name, Math.round(r.width), Math.round(r.height)]);
  }
  return found;
}"""
#: Scrolls the screen (its tallest region that scrolls up and down) by `by` px, as a screen reader does;
#: false at the foot. (No mouse: a pointer makes Flutter take scrolling over from the page, and its scrolling
#: regions then lose their overflow style, which LAYOUT_JS reads.)
SCROLL_JS = """(by) => {
  const regions = Array.from(document.querySelectorAll('flt-semantics')).filter(e => e.style.overflowY === 'scroll');
  if (!regions.length) return false;
  const region = regions.reduce((a, b) => a.clientHeight >= b.clientHeight ? a : b);
  const before = region.scrollTop;
  region.scrollTop = before + by;
  return region.scrollTop !== before; }"""

#: The screen's title as drawn: [text, its width in the title's font (px), the width and the lines it is
#: given]. Flutter paints on a canvas; its semantics node only tells the text and the box the title was
#: laid out in, so the text is measured here in the font Flutter draws it with (the app's own Roboto) at
#: the title's size under the page's text scale. A title cut short with "…" needs more than its lines hold.
TITLE_JS = """async ([titlePx, lineHeight, barScale]) => {
  const face = new FontFace('tourpad-title', 'url(/assets/fonts/roboto.woff2)');
  document.fonts.add(await face.load());
  const scale = parseFloat(getComputedStyle(document.documentElement).fontSize) / 16;
  const ctx = document.createElement('canvas').getContext('2d');
  return Array.from(document.querySelectorAll('[flt-semantics-identifier="screen-title"]')).map(e => {
    const r = e.getBoundingClientRect(), text = e.innerText.trim();
    // in the app bar (56 px tall), Material caps the title's text scale
    const px = titlePx * (r.bottom <= 57 ? Math.min(scale, barScale) : scale);
    ctx.font = `${px}px tourpad-title`;
    return [text, ctx.measureText(text).width, r.width, Math.max(1, Math.round(r.height / (px * lineHeight)))];
  }); }"""
#: Material 3's title-large line height, as a share of its size (28 px for 22)
TITLE_LINE_HEIGHT = 28 / 22


@pytest.fixture(scope="module")
def urls(tmp_path_factory):
    """A score pad with a finished game, a game in round 2 and a solo game; a table host with a table whose
    seat 1 is Ann's. Yields every screen's URL."""
    pad_dir, host_dir = tmp_path_factory.mktemp("pad"), tmp_path_factory.mktemp("host")
    store = EventStore(pad_dir / "games.sqlite3")
    done = GameSession.new(store, "australia", ["Ann", "Bob"])
    for a, ca, b, cb in GAME:
        done.enter_letters(0, a, ca)
        done.enter_letters(1, b, cb)
    playing = GameSession.new(store, "australia", ["Ann", "Bob", "Cat", "Dan"])
    for p, cards in enumerate(("ABCDEFG", "HIJKLMN", "OPQRSTU", "VWXYZ@#")):
        playing.enter_letters(p, cards, None)
    solo_id, _game = new_game(store, "australia", ["easy"], False)
    store.close()
    pad = AppServer(pad_dir)
    pad_url = pad.start().rstrip("/")
    port = free_port("127.0.0.1")
    host = start_host(host_dir, port, extra=())
    host_url = f"http://127.0.0.1:{port}"
    try:
        table = httpx.post(f"{host_url}/api/tables", json={"edition": "europe", "seats": 3},
                           headers=host_auth(host_dir)).json()
        seat_token = httpx.post(f"{host_url}/api/tables/{table['code']}/seats/1/claim",
                                json={"name": "Ann"}).json()["seat_token"]
        params = {"done": done.game_id, "playing": playing.game_id, "solo": solo_id, "code": table["code"],
                  "seat_token": seat_token}
        yield {name: (host_url if on_host else pad_url) + path.format(**params)
               for name, (on_host, path, _ready) in SCREENS.items()}
    finally:
        stop_host(host)
        pad.stop()


def open_screen(new_context, url: str, ready: str, text_size: str):
    context = new_context(viewport={"width": WIDTH, "height": HEIGHT})
    # the size this device chose earlier, as the app keeps it (the page applies it as it loads)
    context.add_init_script(f"localStorage.setItem('flutter.{TEXT_SIZE_KEY}', {json.dumps(json.dumps(text_size))})")
    pad = open_pad(context, url)
    pad.ident(ready).first.wait_for(state="attached", timeout=30000)
    # Flutter marks the scrolling regions a frame or two after it draws them: wait for a second of calm
    pad.settle(1000)
    return pad


def serious_findings(page, screen: str) -> list[str]:
    results = Axe().run(page).response
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"axe-{screen}.json").write_text(json.dumps(
            [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"])} for v in results["violations"]]))
    return [f"{v['id']} ({v['impact']}): {v['help']}: " + " | ".join(n["html"][:120] for n in v["nodes"])
            for v in results["violations"] if v["impact"] in SERIOUS]


def title_fits(needs: float, width: float, lines: int) -> bool:
    """A wrapped title's lines hold its words (the spaces where it breaks aside); one line holds it only
    if it is no wider (Flutter cuts a title that overflows by a pixel)."""
    return needs <= width * lines + (lines - 1) * TITLE_SIZE + 0.5


def title_drawn(pad) -> list[list]:
    """TITLE_JS once the app has drawn the screen for this device's text size: it learns the size from the
    device's storage after its first screen (seconds on a busy machine), then draws the screen again."""
    for _ in range(30):
        titles = pad.page.evaluate(TITLE_JS, [TITLE_SIZE, TITLE_LINE_HEIGHT, APP_BAR_TITLE_MAX_SCALE])
        if len(titles) == 1 and title_fits(*titles[0][1:]):
            break
        pad.page.wait_for_timeout(500)
    return titles


def layout_problems(pad, screen: str) -> list[list]:
    """LAYOUT_JS at each scroll step, from the top of the screen to its foot; a screenshot of each step."""
    problems: list[list] = []
    for step in range(15):
        for problem in pad.page.evaluate(LAYOUT_JS, [MIN_TARGET]):
            if problem not in problems:
                problems.append(problem)
        if SHOTS is not None:
            pad.page.screenshot(path=str(SHOTS / f"{screen}-{step}.png"))
        if not pad.page.evaluate(SCROLL_JS, HEIGHT // 2):
            break
        pad.settle(300)
    return problems


#: Opens `path` in the page already showing the app, as the browser's Back / Forward do (a history entry and
#: its popstate): the app draws that screen without loading the page again (a page load is ~4 s of a core).
VISIT_JS = """(path) => {
  history.pushState(history.state, '', path);
  window.dispatchEvent(new PopStateEvent('popstate', {state: history.state})); }"""
#: The screen's title node as it is now, marked, so that the next screen's title can be told from it.
MARK_TITLE_JS = """() => { for (const e of document.querySelectorAll('[flt-semantics-identifier="screen-title"]'))
  e.tourpadBefore = true; }"""
NEW_TITLE_JS = """() => Array.from(document.querySelectorAll('[flt-semantics-identifier="screen-title"]'))
  .some(e => !e.tourpadBefore)"""


def visit(pad, url: str, ready: str) -> None:
    """The next screen in the same page, once drawn (see open_screen)."""
    pad.page.evaluate(MARK_TITLE_JS)
    pad.page.evaluate(VISIT_JS, "/" + url.split("/", 3)[3])
    pad.page.wait_for_function(NEW_TITLE_JS, timeout=30000, polling=POLL_MS)
    pad.ident(ready).first.wait_for(state="attached", timeout=30000)
    pad.settle(1000)


def screen_problems(pad, screen: str, text_size: str) -> list[str]:
    """What keeps a player from using the screen on show: axe's serious findings, a title cut short, a node
    past the sides or a target too small."""
    found: list[str] = []
    if text_size == "normal":  # names and roles are the same tree at every text size: axe reads it once
        found += serious_findings(pad.page, f"{screen}-{text_size}")
    titles = title_drawn(pad)
    if len(titles) != 1:
        found.append(f"not one title: {titles}")
    elif not title_fits(*titles[0][1:]):
        found.append(f"{titles[0][0]!r} is cut short: {titles}")
    found += map(str, layout_problems(pad, f"{screen}-{text_size}"))
    return found


@pytest.mark.parametrize("text_size", ["normal", "largest"])
@pytest.mark.parametrize("on_host", [False, True], ids=["score-pad", "table-host"])
def test_the_screens_are_usable_at_320_px(on_host, text_size, urls, new_context):
    """Each server's screens in one page, one after another (SCREENS' order: none is the screen below the
    one before it, so each is drawn anew): every problem of every screen is reported."""
    screens = [name for name, (host, _path, _ready) in SCREENS.items() if host == on_host]
    first = screens[0]
    pad = open_screen(new_context, urls[first], SCREENS[first][2], text_size)
    assert pad.page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == (
        "24px" if text_size == "largest" else "16px")
    problems = {}
    for screen in screens:
        if screen != first:
            visit(pad, urls[screen], SCREENS[screen][2])
        problems[screen] = screen_problems(pad, screen, text_size)
    assert problems == {screen: [] for screen in screens}, "\n".join(
        f"{screen}: {problem}" for screen, found in problems.items() for problem in found)
