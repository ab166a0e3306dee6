"""A seat over a `tourpad host`'s JSON API from the web app's worker (issue 41): the fetch-based twin of
`scorer.table.http_seat`, for a phone that opened `tourpad host`'s own `/app/` (same origin: no mixed-content or
cross-origin refusal), so its taps stay on the phone until Save.

The worker has no sockets and no threads. A request is the browser's `fetch`, which Python waits for by
suspending on its promise (JSPI, as `scorer.table.phone_links.page_wait` does); the feed is the browser's
`EventSource`, which calls back on the worker's one thread for every event and reconnects by itself after a
drop (its first event, a `snapshot` of the whole table, brings the seat up to date: every event carries the
whole table). A stream the browser gave up on (the host answered it with an error) is opened again a little
later. Both are handed in (`Fetch`, `OpenStream`, `Later`): the browser's are `browser_fetch`, `browser_stream`
and `browser_later`; a test hands in its own over a live API. The web app's table mode joins over it when it
was opened from the host's own `/app/` (`scorer.ui.table`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from scorer.locale import _
from scorer.table.http_seat import ApiSeat, refusal, unreachable
from scorer.table.transport import Deliver

log = logging.getLogger(__name__)

#: `fetch(method, url, body, headers)` → (status, text); raises OSError when the host cannot be reached.
Fetch = Callable[[str, str, "str | None", dict], tuple[int, str]]
#: `open_stream(url, on_message, on_closed)` → what closes it: `on_message(data)` for every event's data,
#: `on_closed()` once the browser gives the stream up (it retries a dropped one by itself).
OpenStream = Callable[[str, Callable[[str], None], Callable[[], None]], Callable[[], None]]
#: `later(seconds, fn)`: run `fn` on this thread after `seconds`.
Later = Callable[[float, Callable[[], None]], None]
#: Seconds before a stream the browser gave up on is opened again.
REOPEN_DELAY = 2.0
#: The names the host's stream gives its events (each event's kind, `scorer.table.api.sse`): `EventSource`
#: hands a named event only to a listener of that name, never to `onmessage`.
EVENT_NAMES = ("snapshot", "seat", "entry", "locked", "unlocked", "seat_removed", "ended", "new_game", "expired")


class FetchSeatTransport(ApiSeat):
    """Table `code` on the host at `base_url` ("" in the browser: the page's own origin), as `token`'s holder."""

    def __init__(self, code: str, token: str, fetch: Fetch, open_stream: OpenStream, later: Later,
                 base_url: str = "") -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.fetch = fetch
        self.open_stream = open_stream
        self.later = later
        self._locate(code)
        self._deliver: Deliver | None = None
        self._close: Callable[[], None] | None = None
        self._following = 0  # which `follow` the stream's callbacks belong to: a stopped one's are dropped

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        try:
            status, text = self.fetch(method, self.base_url + path, None if body is None else json.dumps(body),
                                      self._headers(body is not None))
        except OSError as err:
            raise unreachable(err) from None
        if status != 200:
            raise refusal(status, text.encode("utf-8"))
        try:
            return json.loads(text)
        except ValueError:
            raise unreachable(OSError(_("the host's answer is not one"))) from None

    def claim(self, seat_no: int, name: str) -> str:
        """Take free seat `seat_no` (or, holding its token, rename it); the seat's token is kept for the saves."""
        self.token = self._request("POST", f"{self._path}/seats/{seat_no}/claim", {"name": name})["seat_token"]
        return self.token

    # --- the feed -------------------------------------------------------------------------------------------

    def follow(self, deliver: Deliver) -> dict:
        """The table now; every change after it comes to `deliver` from the event stream (its first event, a
        snapshot at least as new as this view, is skipped by a seat that already has it)."""
        self.stop()
        view = self.view()
        self._deliver = deliver
        self._following += 1
        self._open(self._following)
        return view

    def _open(self, following: int) -> None:
        def message(data: str) -> None:
            if following != self._following or self._deliver is None:
                return
            try:
                event = json.loads(data)
            except ValueError:
                log.warning("dropped an event of the table's stream that is not one: %.80s", data)
                return
            self._deliver(event)
            if event.get("kind") == "expired":
                self.stop()

        def closed() -> None:
            if following == self._following and self._deliver is not None:
                self._close = None
                self.later(REOPEN_DELAY, lambda: self._reopen(following))

        self._close = self.open_stream(self.base_url + self._path + "/events", message, closed)

    def _reopen(self, following: int) -> None:
        if following == self._following and self._deliver is not None and self._close is None:
            self._open(following)

    def stop(self) -> None:
        self._following += 1
        self._deliver = None
        close, self._close = self._close, None
        if close is not None:
            close()


# --- the browser's (Pyodide's) own ------------------------------------------------------------------------------


def browser_fetch(method: str, url: str, body: str | None, headers: dict) -> tuple[int, str]:
    """The page's `fetch`, waited for by suspending Python on its promise (JSPI). A browser that cannot suspend
    Python (Safari, Firefox) cannot wait for the host: that is said as the host being out of reach."""
    from pyodide.ffi import can_run_sync, run_sync
    from pyodide.http import pyfetch

    if not can_run_sync():
        raise OSError(_("this browser cannot wait for the host's answer; use the table's page instead"))

    async def fetched() -> tuple[int, str]:
        try:
            response = await pyfetch(url, method=method, headers=headers, body=body)
            return response.status, await response.string()
        except Exception as err:  # the browser's network error, raised into Python as a JS error
            raise OSError(str(err)) from None

    return run_sync(fetched())


def browser_stream(url: str, on_message: Callable[[str], None], on_closed: Callable[[], None]
                   ) -> Callable[[], None]:
    """The browser's `EventSource` on `url`: each event's data to `on_message`; `on_closed` once it gave up."""
    import js
    from pyodide.ffi import create_proxy

    source = js.EventSource.new(url)
    message = create_proxy(lambda event: on_message(str(event.data)))
    error = create_proxy(lambda event: on_closed() if source.readyState == 2 else None)  # 2: CLOSED
    source.onmessage, source.onerror = message, error
    for name in EVENT_NAMES:
        source.addEventListener(name, message)

    def close() -> None:
        source.close()
        message.destroy()
        error.destroy()

    return close


def browser_later(seconds: float, fn: Callable[[], None]) -> None:
    import asyncio

    asyncio.get_event_loop().call_later(seconds, fn)
