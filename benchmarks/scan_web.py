"""`tourpad bench scan --reader web`: the web app's code reader (zxing-wasm in Chromium, the page's own
`code-reader.js`) against `tourpad scan` on the same synthetic row photos (`benchmarks.scan.photo_set`).

Each photo's JPEG file goes to the reader in one headless Chromium page served from 127.0.0.1 (the same
files `tourpad publish` puts in the site, the page fetching each photo), with the card codes the game may
show; the codes it returns go through the same row logic as the app's (`scorer.scan.rows.row_of_codes`).
Reported for each reader: rows complete and in order, wrong letters (a letter shown where the photo has
another card: must be 0), and the median time per photo (in the browser: decoding the photo and reading its
codes, every call timed in the page, plus the row logic, timed here; for tourpad scan, which reads the same
photo in a thread meanwhile, its wall clock and its thread's CPU time).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
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
window.readPhoto = async ([name, known]) => {
  const bytes = new Uint8Array(await (await fetch("photos/" + encodeURIComponent(name))).arrayBuffer());
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
def reader_page(photos: Path, browser=None) -> Iterator:
    """A Chromium page with the web app's code reader loaded, served from a loopback server with the photos
    of the folder `photos` (the page fetches each: handing it over as text through the browser's protocol
    took seconds for a 4 MB photo on a busy machine); yields the page. `browser`: a Playwright browser
    already running (the tests'), else one is started here."""
    with tempfile.TemporaryDirectory(prefix="tourpad-reader-") as folder:
        copy_into(Path(folder))
        (Path(folder) / "index.html").write_text(PAGE, encoding="utf-8")
        (Path(folder) / "photos").symlink_to(photos.resolve(), target_is_directory=True)
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


def read_in_page(page, photo: Path, edition: Edition) -> tuple[list[FoundCode], tuple[int, int], float]:
    """The codes the page's reader finds in one photo of `edition`'s cards (a file in the page's photo
    folder), with the close looks the app's Python asks for (`scorer.scan.browser.CloseLooks`, as
    `scan_photo` drives them), the photo's size, and the time in ms the page spent."""
    answer = page.evaluate("(photo) => window.readPhoto(photo)", [photo.name, known_codes_json(edition)])
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
    native = {"read": 0, "wrong": 0, "ms": [], "cpu_ms": [], "failures": []}
    agree = 0

    def host_scan(data: bytes):
        started, cpu_started = time.perf_counter(), time.thread_time()
        result = scan_row(data, edition)
        return result, (time.perf_counter() - started) * 1000, (time.thread_time() - cpu_started) * 1000

    # tourpad scan reads each photo in a thread of its own while the page reads it (the browser is a process
    # of its own): on two cores the bench takes about as long as the slower reader, not both in turn.
    with reader_page(files[0][0].parent, browser) as page, ThreadPoolExecutor(1) as pool:
        read_in_page(page, files[0][0], edition)  # the first read compiles the wasm: not a photo's time
        for path, letters, case in files:
            hosted = pool.submit(host_scan, path.read_bytes()) if host else None
            codes, size, ms = read_in_page(page, path, edition)
            started = time.perf_counter()
            result = result_of_codes(codes, size, edition)
            web["ms"].append(ms + (time.perf_counter() - started) * 1000)
            _tally(web, result, letters, f"{path.name} ({case})")
            if hosted is not None:
                host_result, host_ms, host_cpu_ms = hosted.result()
                native["ms"].append(host_ms)
                native["cpu_ms"].append(host_cpu_ms)
                _tally(native, host_result, letters, f"{path.name} ({case})")
                agree += host_result.letters == result.letters
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
            **({"median_cpu_ms_per_photo": round(statistics.median(tally["cpu_ms"]))} if tally.get("cpu_ms") else {}),
            "failures": tally["failures"], "ms_each": [round(ms, 1) for ms in tally["ms"]]}
