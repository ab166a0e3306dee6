"""A seat over a `tourpad host`'s JSON API and event stream: the seat transport (`scorer.table.transport`) of a
phone whose screens run on the phone itself while the table is on a laptop.

The standard library only (no HTTP client package), so any Python runs it. A save is the API's `PUT` of the
seat's round with the seat's token, answered once the host has committed it; the feed is the table's
server-sent event stream, read on a thread of its own. A stream that ends (the host cut off a reader that fell
behind, or the network dropped) is opened again, and its first event, a `snapshot` of the whole table, brings
the seat up to date: nothing is missed, as every event carries the whole table.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

from scorer.locale import _
from scorer.table.errors import REFUSALS_BY_STATUS, NotFound, TableError, Unavailable
from scorer.table.transport import Deliver, SeatSave

#: Seconds a request may take; a stream waits longer (the host sends a keep-alive every 15 s).
REQUEST_TIMEOUT = 10
STREAM_TIMEOUT = 45
#: Seconds before a dropped stream is opened again.
RECONNECT_DELAY = 0.5


class ApiSeat:
    """What a seat asks of a `tourpad host`'s JSON API, whatever carries the request: a subclass's `_request`
    carries it (urllib on a thread here; the browser's fetch in `scorer.table.fetch_seat`)."""

    base_url: str
    token: str

    def _locate(self, code: str) -> None:
        """Table `code`'s address, in the host's own spelling of the code (read from the table itself)."""
        self._path = "/api/tables/" + urllib.parse.quote(code, safe="")
        self.code = self.view()["code"]
        self._path = "/api/tables/" + urllib.parse.quote(self.code, safe="")

    def _headers(self, has_body: bool) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "Accept": "application/json",
                **({"Content-Type": "application/json"} if has_body else {})}

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        raise NotImplementedError

    def view(self) -> dict:
        return self._request("GET", self._path)

    def version(self) -> int:
        return int(self._request("GET", self._path + "/version")["version"])

    def save(self, save: SeatSave) -> dict:
        return self._request("PUT", f"{self._path}/rounds/{save.round_no}/seats/{save.seat_no}", save.body())


class HttpSeatTransport(ApiSeat):
    """Table `code` on the host at `base_url` (e.g. ``http://192.168.1.5:8000``), as `token`'s holder."""

    def __init__(self, base_url: str, code: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self._locate(code)
        self._feed: _Feed | None = None

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers=self._headers(data is not None))
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
                return json.load(response)
        except urllib.error.HTTPError as err:
            raise refusal(err.code, err.read()) from None
        except OSError as err:
            raise unreachable(err) from None

    # --- the feed -------------------------------------------------------------------------------------------

    def follow(self, deliver: Deliver) -> dict:
        self.stop()
        self._feed = feed = _Feed(self.base_url + self._path + "/events")
        try:
            events = feed.open()
            snapshot = next(events)["table"]
        except (StopIteration, OSError, ValueError, KeyError, http.client.HTTPException):
            feed.stop()
            feed.close_stream()
            raise unreachable(OSError(_("the table's event stream ended at once"))) from None
        except TableError:
            feed.stop()
            feed.close_stream()
            raise
        threading.Thread(target=feed.read, args=(events, deliver), daemon=True, name=f"seat-feed-{self.code}").start()
        return snapshot

    def stop(self) -> None:
        if self._feed is not None:
            self._feed.stop()
            self._feed = None


class _Feed:
    """One `follow`'s event stream, read on its own thread until `stop`, opened again when it drops. Only the
    reading thread closes a stream: `stop` shuts its socket down, which ends the reader's read at once (a
    connection closed under a reader's feet breaks inside http.client)."""

    def __init__(self, url: str) -> None:
        self.url = urllib.parse.urlsplit(url)
        self.stopped = threading.Event()
        self.lock = threading.Lock()  # orders `stop` and a reopening: no stream is left open after a stop
        self.stream: tuple[http.client.HTTPConnection, socket.socket] | None = None

    def open(self) -> Iterator[dict]:
        kind = http.client.HTTPSConnection if self.url.scheme == "https" else http.client.HTTPConnection
        connection = kind(self.url.netloc, timeout=STREAM_TIMEOUT)
        try:
            connection.request("GET", self.url.path, headers={"Accept": "text/event-stream"})
            sock = connection.sock  # the response may take it over from the connection
            response = connection.getresponse()
            body = response.read() if response.status != 200 else b""
        except (OSError, http.client.HTTPException) as err:  # refused, reset, or a broken answer
            connection.close()
            raise unreachable(OSError(str(err) or type(err).__name__)) from None
        if response.status != 200:
            connection.close()
            raise refusal(response.status, body)
        with self.lock:
            self.stream = (connection, sock)
            if self.stopped.is_set():
                self._shut()
        return server_sent_events(response)

    def stop(self) -> None:
        with self.lock:
            self.stopped.set()
            self._shut()

    def _shut(self) -> None:
        if self.stream is not None:
            with contextlib.suppress(OSError):
                self.stream[1].shutdown(socket.SHUT_RDWR)

    def close_stream(self) -> None:
        """Close the current stream (the reading thread's, or `follow`'s before the reader starts)."""
        with self.lock:
            stream, self.stream = self.stream, None
        if stream is not None:
            stream[0].close()

    def read(self, events: Iterator[dict], deliver: Deliver) -> None:
        try:
            self._read(events, deliver)
        finally:
            self.close_stream()

    def _read(self, events: Iterator[dict], deliver: Deliver) -> None:
        while not self.stopped.is_set():
            try:
                for event in events:
                    if self.stopped.is_set():
                        return
                    deliver(event)  # a snapshot after a reconnection, too: the seat takes it if it is newer
                    if event["kind"] == "expired":
                        return
            except (OSError, ValueError, http.client.HTTPException):
                pass  # the stream dropped, broke off mid-chunk, or was shut by stop: open it again
            self.close_stream()
            if self.stopped.wait(RECONNECT_DELAY):
                return
            try:
                events = self.open()
            except NotFound:  # the table is gone: the seat is told as the feed would
                deliver({"kind": "expired", "version": 0, "table": None})
                return
            except TableError:
                events = iter(())  # the host is unreachable for now: try again


def server_sent_events(lines) -> Iterator[dict]:
    """The events of a server-sent event stream whose data is JSON, as they come (comments are keep-alives)."""
    data: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield json.loads("\n".join(data))
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


def unreachable(err: OSError) -> TableError:
    """What a seat is told when the host cannot be reached (also `scorer.table.fetch_seat`'s)."""
    return Unavailable(_("the table's host cannot be reached ({error}); check the Wi-Fi and try again").format(
        error=getattr(err, "reason", err)))


def refusal(status: int, body: bytes) -> TableError:
    """The host's refusal (its JSON `detail`) as the error a seat shows (also `scorer.table.fetch_seat`'s)."""
    try:
        message = json.loads(body)["detail"]
    except (ValueError, KeyError, TypeError):
        message = None
    if not isinstance(message, str):
        message = _("the table's host refused the request (HTTP {status})").format(status=status)
    return REFUSALS_BY_STATUS.get(status, TableError)(message)
