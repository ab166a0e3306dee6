"""`tourpad bench publish`: the published web app's size, start times in headless Chromium, and the hard bot's
decision time inside Pyodide.

The site is served from 127.0.0.1 by a plain static file server; every request to another host is refused
and counted. First visit: a fresh browser profile, from navigation until the home screen's New game button
is on screen (Pyodide started, the app's first screen drawn). Cached visit: the same profile once the
service worker holds the site, navigated again. The bot: `benchmarks.bots.run` itself, run by Pyodide in
the page (the same runtime and wheels the app uses). Goals: cached start ≤ 5 s, hard-bot median ≤ 150 ms.

Where a start's time goes: the site's Python worker and bridge (scorer/web/client) leave performance marks
in the page (`tourpad:…`, from navigation); each visit reports them, and `breakdown` the cached visit's
steps. The first visit waits for the compiled bytecode to be kept (`tourpad:bytecode-saved`), as a phone
does when the app stays open a few seconds, so the cached visit is the one a returning user gets.
"""

from __future__ import annotations

import functools
import http.server
import re
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


def run(site: Path | None = None, bot_games: int = 1) -> dict:
    from playwright.sync_api import sync_playwright

    from scorer.web.publish import publish

    with tempfile.TemporaryDirectory() as scratch:
        if site is None:
            site = publish(Path(scratch) / "site").folder
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        server = _serve(site)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        outside: list[str] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                              has_touch=True, device_scale_factor=2)
                context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"),
                              lambda route: (outside.append(route.request.url), route.abort()))
                page = context.new_page()
                first = _time_to_home(page, url)
                first_marks = page.evaluate(MARKS_JS)
                page.evaluate("() => navigator.serviceWorker.ready")
                if "worker-started" in first_marks:  # a site with the start-up caches (not an older one)
                    page.wait_for_function("() => performance.getEntriesByName('tourpad:bytecode-saved').length",
                                           timeout=TIMEOUT_MS)
                page.close()
                page = context.new_page()
                cached = _time_to_home(page, url)
                cached_marks = {**page.evaluate(MARKS_JS), "home": round(cached, 2)}
                page.goto(url + "manifest.json")  # the site's origin, without the app running
                bot = __import__("json").loads(page.evaluate(BOT_IN_PYODIDE_JS, {
                    "games": bot_games, "source": (Path(__file__).parent / "bots.py").read_text()}))
                browser.close()
        finally:
            server.shutdown()
    median_ms = round(bot["median_seconds"] * 1000, 1)
    return {
        "site_mb": round(size / 1e6, 1),
        "first_visit_seconds": round(first, 2),
        "cached_visit_seconds": round(cached, 2),
        "hard_bot_decisions": bot["decisions"],
        "hard_bot_median_ms": median_ms,
        "hard_bot_p95_ms": round(bot["p95_seconds"] * 1000, 1),
        "requests_to_other_hosts": len(outside),
        "first_visit_marks": first_marks,
        "cached_visit_marks": cached_marks,
        "cached_breakdown_seconds": breakdown(cached_marks),
        "goal": "cached start <= 5 s, hard-bot median <= 150 ms",
        "meets_goal": cached <= 5.0 and median_ms <= 150,
    }


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


def _serve(folder: Path) -> http.server.ThreadingHTTPServer:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
