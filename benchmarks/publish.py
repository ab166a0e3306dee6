"""`tourpad bench publish`: the published web app's size, start times in headless Chromium, and the hard bot's
decision time inside Pyodide.

The site is served from 127.0.0.1 as common static hosts serve one (`serve_site`: gzip, ETags), its answers
paced to a phone's link (10 Mbit/s, 40 ms before each answer) by the server itself, so the page, the service
worker and Python's worker share it (Chromium's network emulation is set per DevTools target, and the two
workers, which fetch most of the site, are targets of their own). Every request to another host is refused and
counted. First visit: a fresh browser profile, from navigation until the home screen's New game button is on
screen (Pyodide started, the app's first screen drawn); what the server sent meanwhile is its bytes on the
wire, and any file sent twice is named. Cached visit: the same profile once the service worker holds the site,
navigated again. Update: the site becomes a release changing only our code (`release_changed_code`), and the
next visit installs it; what it moved is reported. The first visit is repeated from a host that also sends
Brotli. The bot: `benchmarks.bots.run` itself, run by Pyodide in the page (the same runtime and wheels the app
uses). The first scan's download (the page's code reader, fetched when a player first scans, never on the first
visit) is reported apart and added to the first visit's. Goals: ≤ 15 MB and no file twice on a first visit,
usable ≤ 20 s, cached start ≤ 5 s, update ≤ 1 MB, hard-bot median ≤ 150 ms.

Where a start's time goes: the site's Python worker and bridge (scorer/web/client) leave performance marks
in the page (`tourpad:…`, from navigation); each visit reports them, and `breakdown` the cached visit's
steps. The first visit waits for the compiled bytecode to be kept (`tourpad:bytecode-saved`), as a phone
does when the app stays open a few seconds, so the cached visit is the one a returning user gets.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.chromium import CHROME_ARGS, CHROMIUM, ENABLE_SEMANTICS_JS

#: The hard bot's decision time in Pyodide, with the same benchmark as `tourpad bench bots`: the page gets
#: benchmarks/bots.py's source from here (the published site carries no benchmark code).
BOT_IN_PYODIDE_JS = """async ({games, source}) => {
  const {loadPyodide} = await import(new URL("pyodide/pyodide.mjs", document.baseURI).href);
  const pyodide = await loadPyodide();
  await pyodide.loadPackage("tourpad");
  pyodide.globals.set("bench_source", source);
  return pyodide.runPython(`
import json, sys, types
from rules.editions import load_edition
bots = sys.modules["bench_bots"] = types.ModuleType("bench_bots")
exec(compile(bench_source, "benchmarks/bots.py", "exec"), bots.__dict__)
json.dumps(bots.run(load_edition("australia"), games=${games}))`);
}"""
#: A first scan's download: the page's code reader (code-reader.js, zxing-wasm) imported and reading a QR code,
#: as the keypad's scan does it the first time (the site's worker keeps what it fetched for offline use).
FIRST_SCAN_JS = """async (png) => {
  const reader = await import(new URL("code-reader.js", document.baseURI).href);
  return JSON.parse(await reader.readCodes(new Uint8Array(png))).codes.map((code) => code.text);
}"""
FIRST_SCAN_TEXT = "tourpad bench publish"
TIMEOUT_MS = 180_000
MARKS_JS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("tourpad:"))
  .map((m) => [m.name.slice("tourpad:".length), Math.round(m.startTime) / 1000]))"""
#: The cached start's steps, each from one mark to the next (Python's steps in its worker run in parallel
#: with Flutter's engine loading in the page, until "flutter-connect").
STEPS = (("pyodide_boot", "worker-started", "pyodide-ready"), ("wheels", "pyodide-ready", "wheels-loaded"),
         ("bytecode_install", "wheels-loaded", "bytecode-installed"),
         ("python_imports", ("bytecode-installed", "wheels-loaded"), "app-imported"),
         ("app_start", "app-imported", "python-connected"), ("flutter_engine", None, "flutter-connect"),
         ("first_screen", "python-initialized", "home"))


#: The emulated phone link: 10 Mbit/s down, 40 ms before each answer.
LINK_MBIT = 10
LINK_LATENCY_MS = 40
LOCAL = re.compile(r"^(https?://127\.0\.0\.1[:/]|data:|blob:)")
SITE_CACHES_JS = "() => caches.keys().then(keys => keys.filter(k => k.startsWith('tourpad-')))"


def run(site: Path | None = None, bot_games: int = 1) -> dict:
    from playwright.sync_api import sync_playwright

    from scorer.web.publish import publish, release_changed_code

    with tempfile.TemporaryDirectory() as scratch:
        if site is None:
            site = publish(Path(scratch) / "site").folder
        else:  # the update below changes the site: a copy of the one given
            site = Path(shutil.copytree(site, Path(scratch) / "site"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz"))
        gzip_log, brotli_log = WireLog(), WireLog()
        server = serve_site(site, ("gzip",), gzip_log, Link(LINK_MBIT, LINK_LATENCY_MS))
        brotli_server = serve_site(site, ("br", "gzip"), brotli_log)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        outside: list[str] = []
        try:
            with sync_playwright() as p:
                # other hosts do not resolve; requests to them are recorded, not routed (Playwright's routing
                # turns the HTTP cache off, where the service worker takes the page's own files from)
                browser = p.chromium.launch(executable_path=CHROMIUM,
                                            args=[*CHROME_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, "
                                                                "EXCLUDE 127.0.0.1"])

                def phone():
                    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                  has_touch=True, device_scale_factor=2)
                    context.on("request", lambda request: None if LOCAL.match(request.url)
                               else outside.append(request.url))
                    return context

                context = phone()
                page = context.new_page()
                first = _time_to_home(page, url)
                first_marks = page.evaluate(MARKS_JS)
                page.evaluate("() => navigator.serviceWorker.ready")
                if "worker-started" in first_marks:  # a site with the start-up caches (not an older one)
                    page.wait_for_function("() => performance.getEntriesByName('tourpad:bytecode-saved').length",
                                           timeout=TIMEOUT_MS)
                first_sent = gzip_log.take()
                # the first scan fetches the code reader (never the first visit)
                scanned = page.evaluate(FIRST_SCAN_JS, list(qr_png(FIRST_SCAN_TEXT)))
                reader_sent = gzip_log.take()
                page.close()
                page = context.new_page()
                cached = _time_to_home(page, url)
                cached_marks = {**page.evaluate(MARKS_JS), "home": round(cached, 2)}
                page.close()
                gzip_log.take()
                # a release that changes our own code only: what the next visit moves
                version = release_changed_code(site)
                page = context.new_page()
                _time_to_home(page, url)
                deadline = time.monotonic() + TIMEOUT_MS / 1000
                while page.evaluate(SITE_CACHES_JS) != [f"tourpad-{version}"] and time.monotonic() < deadline:
                    page.wait_for_timeout(250)
                update_installed = page.evaluate(SITE_CACHES_JS) == [f"tourpad-{version}"]
                update_sent = gzip_log.take()
                page.goto(url + "manifest.json")  # the site's origin, without the app running
                bot = __import__("json").loads(page.evaluate(BOT_IN_PYODIDE_JS, {
                    "games": bot_games, "source": (Path(__file__).parent / "bots.py").read_text()}))
                context.close()
                # the same first visit from a host that sends Brotli where the browser takes it
                context = phone()
                page = context.new_page()
                _time_to_home(page, f"http://127.0.0.1:{brotli_server.server_address[1]}/")
                page.evaluate("() => navigator.serviceWorker.ready")
                page.wait_for_timeout(1000)
                brotli_sent = brotli_log.take()
                browser.close()
        finally:
            server.shutdown()
            brotli_server.shutdown()
    median_ms = round(bot["median_seconds"] * 1000, 1)
    wire_mb = round(sum(n for _path, n in first_sent) / 1e6, 2)
    reader_mb = round(sum(n for _path, n in reader_sent) / 1e6, 2)
    twice = sorted({path for path, _n in first_sent if sum(1 for p, _ in first_sent if p == path) > 1})
    update_mb = round(sum(n for _path, n in update_sent) / 1e6, 2)
    return {
        "site_mb": round(size / 1e6, 1),
        "first_visit_wire_mb_gzip": wire_mb,
        "first_visit_wire_mb_brotli": round(sum(n for _path, n in brotli_sent) / 1e6, 2),
        "first_visit_requests": len(first_sent),
        "first_scan_code_reader_wire_mb_gzip": reader_mb,
        "first_scan_fetched": sorted(path for path, _n in reader_sent),
        "first_scan_read": scanned == [FIRST_SCAN_TEXT],
        "first_visit_with_code_reader_wire_mb_gzip": round(wire_mb + reader_mb, 2),
        "files_fetched_twice": twice,
        "link": f"{LINK_MBIT} Mbit/s, {LINK_LATENCY_MS} ms (paced by the server, for every request)",
        "first_visit_seconds": round(first, 2),
        "cached_visit_seconds": round(cached, 2),
        "update_installed": update_installed,
        "update_of_our_code_wire_mb": update_mb,
        "update_fetched": sorted(path for path, _n in update_sent),
        "hard_bot_decisions": bot["decisions"],
        "hard_bot_median_ms": median_ms,
        "hard_bot_p95_ms": round(bot["p95_seconds"] * 1000, 1),
        "requests_to_other_hosts": len(outside),
        "first_visit_marks": first_marks,
        "cached_visit_marks": cached_marks,
        "cached_breakdown_seconds": breakdown(cached_marks),
        "goal": "first visit <= 15 MB on the wire, no file twice, usable <= 20 s on the link; cached start <= 5 s; "
                "an update of our code <= 1 MB; hard-bot median <= 150 ms",
        "meets_goal": wire_mb <= 15 and not twice and first <= 20 and cached <= 5.0 and update_installed
        and update_mb <= 1 and median_ms <= 150,
    }


def qr_png(text: str) -> bytes:
    """A QR code of `text` as a PNG, as a photo of one would be read."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=4)
    return out.getvalue()


def breakdown(marks: dict[str, float]) -> dict[str, float]:
    """Each step's seconds, from the marks of one start (a step whose marks are missing is left out)."""
    steps = {}
    for name, start, end in STEPS:
        starts = start if isinstance(start, tuple) else (start,)
        begin = next((marks[s] for s in starts if s in marks), 0.0 if start is None else None)
        if begin is not None and end in marks:
            steps[name] = round(marks[end] - begin, 2)
    return steps


def _time_to_home(page, url: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => !document.getElementById('loading')", timeout=TIMEOUT_MS)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=TIMEOUT_MS)
    page.evaluate(ENABLE_SEMANTICS_JS)
    page.get_by_role("button", name="New game").wait_for(timeout=TIMEOUT_MS)
    return time.perf_counter() - start


class WireLog:
    """What a static server sent: each request's site path and the bytes of its body on the wire (a request
    answered "not modified", a revalidation with no body, is kept apart in `revalidated`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int]] = []
        self.revalidated: list[str] = []

    def add(self, path: str, size: int) -> None:
        with self.lock:
            self.sent.append((path, size))

    def not_modified(self, path: str) -> None:
        with self.lock:
            self.revalidated.append(path)

    def take(self) -> list[tuple[str, int]]:
        """What was sent since the last take."""
        with self.lock:
            taken, self.sent, self.revalidated = self.sent, [], []
        return taken


class Link:
    """A shared downlink of `mbit` Mbit/s with `latency_ms` before each answer, paced by the server itself, so
    every request of the browser (page, service worker, Python's worker) shares it."""

    def __init__(self, mbit: float, latency_ms: float) -> None:
        self.bytes_per_second = mbit * 1e6 / 8
        self.latency = latency_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0

    def wait_latency(self) -> None:
        time.sleep(self.latency)

    def send(self, write, data: bytes, chunk: int = 16_384) -> None:
        for start in range(0, len(data), chunk):
            piece = data[start:start + chunk]
            with self.lock:
                now = time.monotonic()
                self.free_at = max(self.free_at, now) + len(piece) / self.bytes_per_second
                wait = self.free_at - now
            if wait > 0:
                time.sleep(wait)
            write(piece)


def serve_site(folder: Path, encodings: tuple[str, ...] = ("gzip",), log: WireLog | None = None,
               link: Link | None = None) -> http.server.ThreadingHTTPServer:
    """A static file server on 127.0.0.1 as common hosts run one: a file goes out compressed in the best of
    `encodings` the browser accepts (its precompressed sibling, else gzipped on the fly if it compresses
    well), or as it is. `log` records what was sent; `link` paces it."""
    from scorer.table.site_files import ENCODINGS, accepted_encodings, compressed_sibling, media_type
    from scorer.web.publish import COMPRESSIBLE

    offered = tuple((coding, suffix) for coding, suffix in ENCODINGS if coding in encodings)
    gzipped: dict[tuple[Path, bytes], bytes] = {}

    class Handler(http.server.SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args) -> None:
            pass

        def do_GET(self) -> None:
            rel = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
            file = Path(self.translate_path(self.path))
            if file.is_dir():
                file, rel = file / "index.html", rel + "index.html"
            if not file.is_file():
                self.send_error(404)
                return
            accept = self.headers.get("Accept-Encoding", "")
            found = compressed_sibling(file, accept, offered)
            coding = None
            if found:
                body, coding = found[0].read_bytes(), found[1]
            elif "gzip" in encodings and "gzip" in accepted_encodings(accept) and COMPRESSIBLE.search(file.name):
                content = file.read_bytes()
                key = (file, hashlib.sha256(content).digest())
                if key not in gzipped:
                    gzipped[key] = gzip.compress(content, 6)
                body, coding = gzipped[key], "gzip"
            else:
                body = file.read_bytes()
            # the validator of what is sent, as hosts give one (nginx's gzip_static: the .gz file's own): a browser
            # that has it revalidates for free, and one sent while a release is written never pairs another
            # body with it
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if etag in self.headers.get("If-None-Match", ""):
                if log is not None:  # logged first: once the browser has the answer, the log has it too
                    log.not_modified(rel)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            if log is not None:
                log.add(rel, len(body))
            if link:
                link.wait_latency()
            self.send_response(200)
            self.send_header("Content-Type", media_type(file))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("ETag", etag)
            if coding:
                self.send_header("Content-Encoding", coding)
            self.end_headers()
            if link:
                link.send(self.wfile.write, body)
            else:
                self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
