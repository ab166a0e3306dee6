"""The table API served for real by tests: uvicorn on a thread at a free loopback port (real HTTP, real event
stream), stopped when the test is done."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from scorer.ports import free_port
from scorer.table import api


def serve_table_api(service) -> Iterator[str]:
    """Yields the base URL of `service`'s API while it is served (use with `yield from` in a fixture)."""
    import uvicorn

    port = free_port("127.0.0.1")
    server = uvicorn.Server(uvicorn.Config(api.create_app(service), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
