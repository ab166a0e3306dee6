"""Where the app runs: a Python process (`tourpad app`, `tourpad host`) or a phone's browser on Pyodide
(`tourpad publish`). Features that need the computer say so through `needs_host` instead of failing."""

from __future__ import annotations

import sys

from scorer.locale import _

#: True inside the published web app (Pyodide in the browser): no threads, no sockets, no native libraries
#: beyond the wheels the site ships.
IN_BROWSER = sys.platform == "emscripten"


def needs_host(feature: str) -> str:
    """What the browser-only app says about a feature it cannot offer."""
    return _("{feature} needs the hosted app: run `tourpad host` on a computer on the same Wi-Fi and open "
             "the address it prints. Everything else works here, offline.").format(feature=feature)
