"""`tourpad host --site`: the published web app's page under /app/ is served so that its own inline scripts may
run under the host's content security policy (allowed by their hashes), whatever encodings the browser takes."""

from __future__ import annotations

import base64
import gzip
import hashlib

import brotli
from fastapi.testclient import TestClient

from scorer.table.host import build_asgi
from scorer.table.service import TableService
from scorer.web.publish import MARKER


def test_the_published_pages_inline_scripts_are_allowed_even_when_the_browser_takes_compressed_files(tmp_path):
    site = tmp_path / "www"
    site.mkdir()
    (site / MARKER).write_text("v1\n")
    script = b"window.booted = true;"
    page = b'<html><head><base href="/app/"></head><body><script>' + script + b"</script></body></html>"
    (site / "index.html").write_bytes(page)
    # `tourpad publish` writes compressed copies beside each file that compresses well, the page included
    (site / "index.html.br").write_bytes(brotli.compress(page))
    (site / "index.html.gz").write_bytes(gzip.compress(page))
    allowed = f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
    service = TableService(tmp_path / "tables.sqlite3")
    try:
        client = TestClient(build_asgi(service, web_app=None, site=site))
        for accept in ("gzip, deflate, br", "gzip", "identity"):
            answer = client.get("/app/", headers={"Accept-Encoding": accept})
            assert answer.status_code == 200 and answer.content == page, accept
            assert allowed in answer.headers["content-security-policy"], accept
    finally:
        service.close()
