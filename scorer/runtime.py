"""Where the app runs: a Python process (`tourpad app`, `tourpad host`) or a phone's browser on Pyodide
(`tourpad publish`). Features that need the computer say so through `needs_host` instead of failing."""

from __future__ import annotations

import sys

from scorer.locale import _

#: True inside the published web app (Pyodide in the browser): no threads, no sockets, no native libraries
#: beyond the wheels the site ships.
IN_BROWSER = sys.platform == "emscripten"


def needs_host(feature: str, instead: str | None = None) -> str:
    """What the browser-only app says about a feature it cannot offer, to a person holding a phone: what it
    needs, in plain words (no command to run), and what they can do `instead` here, if anything."""
    if instead:
        return _("{feature} needs a computer at the table running tourpad. {instead}").format(
            feature=feature, instead=instead)
    return _("{feature} needs a computer at the table running tourpad: open the address it shows on this "
             "phone. Everything else works here, offline.").format(feature=feature)
