"""Quick taps on the letter keypad in Chromium, and what the page drew: shared by `tourpad bench taps`
(benchmarks/taps.py) and the browser tests that hold every tap to count (tests/e2e/test_taps_e2e.py).

The taps are real input (Playwright's mouse, through the DevTools protocol) on the keys' centres, sent on a
fixed schedule, never waiting for the screen: a player's thumb does not wait either. The page itself notes
when each tap reached it (`pointerdown`, captured before Flutter sees it) and each time the keypad's
"Cards: …" line (the `entry-cards` semantics node) changed, by the page's own clock, so tap → drawn is
measured where the player sees it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

#: Installs the page's own record: `window.tourpadTaps = {downs: [ms], drawn: [[ms, text]]}`.
RECORD_JS = """() => {
  if (window.tourpadSocket) { window.tourpadSocket.sent.length = 0; window.tourpadSocket.received.length = 0; }
  if (window.tourpadTaps) { window.tourpadTaps.downs = []; window.tourpadTaps.drawn = []; return; }
  const record = window.tourpadTaps = {downs: [], drawn: [], last: null};
  if (window.tourpadSocket) { window.tourpadSocket.sent.length = 0; window.tourpadSocket.received.length = 0; }
  window.addEventListener('pointerdown', () => record.downs.push(performance.now()), true);
  const look = () => {
    const node = document.querySelector('[flt-semantics-identifier="entry-cards"]');
    const text = node ? node.innerText : null;
    if (text !== null && text !== record.last) { record.last = text; record.drawn.push([performance.now(), text]); }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true,
                                                     attributes: true});
  look();
}"""
READ_JS = """() => ({downs: window.tourpadTaps.downs, drawn: window.tourpadTaps.drawn,
  sent: (window.tourpadSocket || {sent: []}).sent, received: (window.tourpadSocket || {received: []}).received})"""
#: An init script (before the page opens its socket to a served app): when each message to the server left
#: and each one from it arrived, so a tap's time splits into the way there and back and the drawing.
SOCKET_JS = """(() => {
  const times = window.tourpadSocket = {sent: [], received: []};
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { times.sent.push(performance.now()); return send.call(this, data); };
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type === 'message') {
      const inner = listener;
      listener = function (e) { times.received.push(performance.now()); return inner.call(this, e); };
    }
    return add.call(this, type, listener, options);
  };
  const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {configurable: true, get: onmessage.get,
    set(listener) { onmessage.set.call(this, function (e) { times.received.push(performance.now());
                                                            return listener.call(this, e); }); }});
})()"""
#: The letters of "Cards: ABC (3 of 7)" in any language: the run of card letters before the count.
CARDS = re.compile(r":\s*([A-Z@#$%&*0-9]*)\s*\(")
#: How long the screen may stay unchanged after the last tap before the run counts as over.
QUIET_S = 2.0


@dataclass
class TapRun:
    sent: str
    shown: str
    interval_ms: int
    #: Per registered letter, ms from its tap reaching the page to the keypad showing it.
    tap_to_drawn_ms: list[float]
    #: Per tap on a served app: ms from its tap reaching the page to the first message from the server after
    #: the page sent the tap (the way there, the server's work, the way back); empty in the web app.
    tap_to_answer_ms: list[float]

    @property
    def registered(self) -> int:
        return len(self.shown)

    @property
    def in_order(self) -> bool:
        return self.shown == self.sent


def letters_of(text: str) -> str:
    found = CARDS.search(text)
    return found.group(1) if found else ""


def key_centres(page, letters: str) -> dict[str, tuple[float, float]]:
    """Where each letter's key is on screen (the keys do not move while the row fills)."""
    centres = {}
    for letter in letters:
        box = page.get_by_role("button", name=letter, exact=True).first.bounding_box()
        if box is None:
            raise RuntimeError(f"the keypad has no key {letter!r} on screen")
        centres[letter] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    return centres


def tap_quickly(page, letters: str, interval_ms: int, timeout_s: float = 20.0) -> TapRun:
    """Tap `letters` on the keypad on screen, one every `interval_ms`, then wait until the keypad shows them
    all (or nothing changed for QUIET_S); returns what it showed and how long each letter took to show."""
    centres = key_centres(page, letters)
    page.evaluate(RECORD_JS)
    start = time.perf_counter()
    for i, letter in enumerate(letters):
        delay = start + i * interval_ms / 1000 - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        page.mouse.click(*centres[letter])
    last_tap = time.perf_counter()
    deadline = last_tap + timeout_s
    last_change, seen = last_tap, None
    while time.perf_counter() < deadline:
        record = page.evaluate(READ_JS)
        shown = letters_of(record["drawn"][-1][1]) if record["drawn"] else ""
        if shown == letters:
            break
        if record["drawn"] != seen:
            seen, last_change = record["drawn"], time.perf_counter()
        elif time.perf_counter() - last_change > QUIET_S:
            break
        time.sleep(0.05)
    record = page.evaluate(READ_JS)
    shown = letters_of(record["drawn"][-1][1]) if record["drawn"] else ""
    return TapRun(letters, shown, interval_ms, tap_to_drawn(letters, record["downs"], record["drawn"]),
                  tap_to_answer(record["downs"], record["sent"], record["received"]))


def tap_to_drawn(sent: str, downs: list[float], drawn: list[list]) -> list[float]:
    """For each sent letter that showed: from its tap reaching the page to the first frame showing it."""
    latencies = []
    for letter, down in zip(sent, downs, strict=False):
        first = next((at for at, text in drawn if at >= down and letter in letters_of(text)), None)
        if first is not None:
            latencies.append(first - down)
    return latencies


def tap_to_answer(downs: list[float], sent: list[float], received: list[float]) -> list[float]:
    """For each tap: from reaching the page to the server's first message after the page sent it on."""
    latencies = []
    for down in downs:
        out = next((at for at in sent if at >= down), None)
        back = next((at for at in received if out is not None and at >= out), None)
        if back is not None:
            latencies.append(back - down)
    return latencies
