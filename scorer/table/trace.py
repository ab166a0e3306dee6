"""Where a submission's time goes on the host: timestamps along its way, kept only when asked for.

`TOURPAD_TABLE_TRACE=FILE tourpad host …` makes the host note, for every submission, the moment it passes
each step (the request reaching the app, the endpoint, the service lock, validation, the queued write, the
commit, the hand-off to the event loop, each event stream's encoding and write) and write them to FILE as
JSON lines when it shuts down (the API's lifespan; atexit too, for a service without a server).
`tourpad bench table --profile` sets it and joins the host's marks with its own (sent, acknowledged,
received, parsed) into a per-step breakdown (`benchmarks/table.py`).

Off (the default), every call site is one test of the module's `TRACER` against None. Times are
`time.perf_counter()`, which on Linux is CLOCK_MONOTONIC: the same clock in every process of the machine,
so the bench's client and the host can be compared.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from contextvars import ContextVar
from pathlib import Path

TRACE_ENV = "TOURPAD_TABLE_TRACE"

#: The marks of the request being handled (a list shared by the threads that work on it, in stage order).
_request_marks: ContextVar[list | None] = ContextVar("table_trace_request", default=None)


class Tracer:
    """Marks per (table code, version): each a (stage, time, detail) row; `detail` names the event stream (its
    client's port) for the per-stream stages, the number of writes for a commit, else None."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.by_version: dict[tuple[str, int], list] = {}
        self._lock = threading.Lock()

    def begin_request(self) -> None:
        """A request starts (on the event loop): the marks until `bind` collect in its own list."""
        _request_marks.set([("received", time.perf_counter(), None)])

    def mark_request(self, stage: str) -> None:
        marks = _request_marks.get()
        if marks is not None:
            marks.append((stage, time.perf_counter(), None))

    def bind(self, code: str, version: int) -> None:
        """The request's change became `version` of table `code`: its marks so far (and later) belong there."""
        marks = _request_marks.get()
        if marks is None:
            return
        with self._lock:
            earlier = self.by_version.setdefault((code, version), [])
            marks.extend(earlier)  # the writer thread may already have noted the commit
            self.by_version[code, version] = marks

    def mark(self, code: str, version: int, stage: str, detail: int | None = None) -> None:
        row = (stage, time.perf_counter(), detail)
        with self._lock:
            self.by_version.setdefault((code, version), []).append(row)

    def dump(self) -> None:
        with self._lock:
            rows = [{"code": code, "version": version, "marks": sorted(marks, key=lambda m: m[1])}
                    for (code, version), marks in self.by_version.items()]
        with open(self.path, "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


#: The host's tracer, or None (tracing off).
TRACER: Tracer | None = None


def trace_if_asked() -> Tracer | None:
    """Turn tracing on when TRACE_ENV names a file: `tourpad host` calls this as it starts, so the environment
    read is the command's own, whatever it was when this module was first imported."""
    global TRACER
    path = os.environ.get(TRACE_ENV)
    if path and TRACER is None:
        TRACER = Tracer(Path(path))
        atexit.register(TRACER.dump)
    return TRACER
