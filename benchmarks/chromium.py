"""Headless Debian Chromium driving the Flet web client: how it is started and how Flutter's semantics tree
(what screen readers, and so Playwright, read) is switched on. Shared by the benchmarks and the browser tests.
"""

CHROMIUM = "/usr/bin/chromium"
#: No background networking, component updates or sync: the machine has no network beyond loopback, and a
#: refused connection per start slows every page.
CHROME_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Flutter's semantics tree is off until asked for. On a phone-sized page the placeholder covers the screen and
#: ignores a bare `el.click()`: it wants a click event whose coordinates fall inside it.
ENABLE_SEMANTICS_JS = """() => {
  const e = document.querySelector('flt-semantics-placeholder'); if (!e) return false;
  const r = e.getBoundingClientRect();
  e.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.left + r.width / 2,
                                           clientY: r.top + r.height / 2}));
  return true; }"""
