"""`tourpad bench scan --reader web`: the web app's code reader (zxing-wasm in Chromium, the page's own
`code-reader.js`) against `tourpad scan` on the same synthetic row photos (`benchmarks.scan.photo_set`).

Each photo's JPEG bytes go to the reader in a headless Chromium page served from 127.0.0.1 (the same files
`tourpad publish` puts in the site); the codes it returns go through the same row logic as the app's
(`scorer.scan.rows.row_of_codes`). Reported for each reader: rows complete and in order, wrong letters
(a letter shown where the photo has another card: must be 0), and the median time per photo (in the browser:
decoding the photo and reading its codes, every call timed in the page, plus the row logic, timed here).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from benchmarks.chromium import CHROME_ARGS, CHROMIUM
from benchmarks.scan import DEFAULT_PHOTOS, _percentile, photo_set
from rules.edition import Edition
from scorer.scan.browser import CloseLooks, codes_of, result_of_codes
from scorer.scan.known import known_codes_json
from scorer.scan.rows import FoundCode
from scorer.web.code_reader import copy_into

#: The web app must read this share of rows complete and in order (issue 40), never a wrong letter.
SHARE_BAR = 0.98

PAGE = """<!doctype html><meta charset="utf-8"><title>code reader bench</title>
<script type="module">
import {readAround, readCodes} from "./code-reader.js";
window.readPhoto = async ([text, known]) => {
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const started = performance.now();
  const found = await readCodes(bytes, known);
  return {found, ms: performance.now() - started};
};
window.readAround = async ([x, y, size, doubt, edges]) => {
  const started = performance.now();
  const found = await readAround(x, y, size, doubt, edges);
  return {found, ms: performance.now() - started};
};
window.readerReady = true;
</script>"""


@contextlib.contextmanager
def reader_page(browser=None) -> Iterator:
    """A Chromium page with the web app's code reader loaded, served from a loopback server; yields the page.
    `browser`: a Playwright browser already running (the tests'), else one is started here."""
    with tempfile.TemporaryDirectory(prefix="tourpad-reader-") as folder:
        copy_into(Path(folder))
        (Path(folder) / "index.html").write_text(PAGE, encoding="utf-8")
        handler = functools.partial(_QuietHandler, directory=folder)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with contextlib.ExitStack() as stack:
                if browser is None:
                    from playwright.sync_api import sync_playwright

                    playwright = stack.enter_context(sync_playwright())
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
                    stack.callback(browser.close)
                context = browser.new_context()
                stack.callback(context.close)
                page = context.new_page()
                page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
                    "http://127.0.0.1:") else route.abort())
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                page.wait_for_function("() => window.readerReady === true")
                yield page
        finally:
            server.shutdown()
            server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".wasm": "application/wasm"}

    def log_message(self, format, *args) -> None:
        pass


def read_in_page(page, data: bytes, edition: Edition) -> tuple[list[FoundCode], tuple[int, int], float]:
    """The codes the page's reader finds in one photo of `edition`'s cards, with the close looks the app's
    Python asks for (`scorer.scan.browser.CloseLooks`, as `scan_photo` drives them), the photo's size, and
    the time in ms the page spent."""
    answer = page.evaluate("(photo) => window.readPhoto(photo)",
                           [base64.b64encode(data).decode(), known_codes_json(edition)])
    ms = float(answer["ms"])
    codes, size = codes_of(answer["found"])
    looks = CloseLooks(codes, size)
    while (place := looks.next()) is not None:
        (x, y), code_size, doubt, edges = place
        answer = page.evaluate("(place) => window.readAround(place)", [x, y, code_size, doubt, json.dumps(edges)])
        ms += float(answer["ms"])
        looks.add(place, codes_of(answer["found"])[0])
    return looks.codes, size, ms


def _wrong(read: str, truth: str) -> int:
    return sum(1 for got, want in zip(read, truth, strict=False) if got != "?" and got != want)


def run(edition: Edition, photos: int = DEFAULT_PHOTOS, seed: int = 2026, cache_dir: Path | None = None,
        host: bool = True, browser=None, first: int = 0) -> dict:
    """The report over photos first..first+photos-1 of the set `seed` (`first`: to run a long set in parts)."""
    if photos < 1:
        raise ValueError(f"--photos must be at least 1, not {photos}")
    from scorer.scan.photo import scan_row

    files = photo_set(edition, first + photos, seed, cache_dir)[first:]
    web = {"read": 0, "wrong": 0, "ms": [], "failures": []}
    native = {"read": 0, "wrong": 0, "ms": [], "failures": []}
    agree = 0
    with reader_page(browser) as page:
        read_in_page(page, files[0][0].read_bytes(), edition)  # the first read compiles the wasm: not a photo's time
        for path, letters, case in files:
            data = path.read_bytes()
            codes, size, ms = read_in_page(page, data, edition)
            started = time.perf_counter()
            result = result_of_codes(codes, size, edition)
            web["ms"].append(ms + (time.perf_counter() - started) * 1000)
            _tally(web, result, letters, f"{path.name} ({case})")
            if host:
                started = time.perf_counter()
                hosted = scan_row(data, edition)
                native["ms"].append((time.perf_counter() - started) * 1000)
                _tally(native, hosted, letters, f"{path.name} ({case})")
                agree += hosted.letters == result.letters
    out = {"photos": len(files), "web_reader": _summary(web, SHARE_BAR)}
    if host:
        out["tourpad_scan"] = _summary(native, None)
        out["same_letters_both"] = f"{agree / len(files):.1%}"
    out["photo_folder"] = str(files[0][0].parent)
    return out


def _tally(tally: dict, result, letters: str, name: str) -> None:
    tally["wrong"] += _wrong(result.letters, letters)
    if result.letters == letters and result.complete:
        tally["read"] += 1
    else:
        tally["failures"].append(f"{name}: read {result.letters}, laid out {letters}")


def _summary(tally: dict, bar: float | None) -> dict:
    share = tally["read"] / len(tally["ms"])
    shown = f"{share:.1%}"
    if bar is not None:
        shown += f" (bar ≥ {bar:.0%}: {'met' if share >= bar else 'NOT met'})"
    return {"complete_and_in_order": shown, "rows_read": tally["read"], "wrong_letters": tally["wrong"],
            "median_ms_per_photo": round(statistics.median(tally["ms"])),
            "p95_ms_per_photo": round(_percentile(tally["ms"], 0.95)),
            "failures": tally["failures"], "ms_each": [round(ms, 1) for ms in tally["ms"]]}
