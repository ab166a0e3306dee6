"""`tourpad bench publish`'s static server: what it sends is what common static hosts send, and its log is what
the bench and the browser tests count."""

from __future__ import annotations

import gzip
import urllib.request

import brotli
import pytest

from benchmarks.publish import WireLog, serve_site


@pytest.fixture
def folder(tmp_path):
    text = b"const answer = 42;\n" * 200
    (tmp_path / "app.js").write_bytes(text)
    (tmp_path / "app.js.br").write_bytes(brotli.compress(text))
    (tmp_path / "app.js.gz").write_bytes(gzip.compress(text))
    (tmp_path / "plain.wasm").write_bytes(b"\0asm" + b"\1" * 3000)  # no copies: gzipped on the fly
    (tmp_path / "icon.png").write_bytes(b"\x89PNG" + bytes(range(256)))
    return tmp_path


def get(url: str, **headers) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), b""


def test_a_gzip_host_sends_the_gz_copy_or_gzips_on_the_fly_and_revalidates_for_free(folder):
    log = WireLog()
    server = serve_site(folder, ("gzip",), log)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        status, headers, body = get(url + "app.js", **{"Accept-Encoding": "gzip, br"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"  # Brotli is not this host's
        assert body == (folder / "app.js.gz").read_bytes()
        _status, headers, body = get(url + "plain.wasm", **{"Accept-Encoding": "gzip"})
        assert headers["Content-Type"] == "application/wasm" and headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == (folder / "plain.wasm").read_bytes()
        _status, headers, body = get(url + "icon.png", **{"Accept-Encoding": "gzip"})
        assert "Content-Encoding" not in headers and body == (folder / "icon.png").read_bytes()
        status, _headers, body = get(url + "app.js", **{"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
        assert status == 200  # another file's validator
        etag = get(url + "app.js")[1]["ETag"]
        status, _headers, body = get(url + "app.js", **{"If-None-Match": etag})
        assert status == 304 and body == b""
        assert log.revalidated == ["app.js"]
        sent = log.take()
        assert [path for path, _size in sent] == ["app.js", "plain.wasm", "icon.png", "app.js", "app.js"]
        assert sent[0][1] == (folder / "app.js.gz").stat().st_size  # bytes on the wire, compressed
        assert log.take() == [] and log.revalidated == []
    finally:
        server.shutdown()


def test_a_brotli_host_sends_the_br_copy_to_a_browser_that_takes_it(folder):
    server = serve_site(folder, ("br", "gzip"))
    url = f"http://127.0.0.1:{server.server_address[1]}/app.js"
    try:
        _status, headers, body = get(url, **{"Accept-Encoding": "gzip, deflate, br"})
        assert headers["Content-Encoding"] == "br" and brotli.decompress(body) == (folder / "app.js").read_bytes()
        _status, headers, body = get(url, **{"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in headers and body == (folder / "app.js").read_bytes()
    finally:
        server.shutdown()


def test_a_validator_names_the_bytes_sent_so_a_release_written_meanwhile_is_never_mixed(folder):
    """A browser that checked app.js while a release was half written (the file new, its .gz copy still the
    old one) got the old bytes: their validator must be the old bytes', or every later check would answer
    "not modified" for a file the browser never had."""
    server = serve_site(folder, ("gzip",))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        (folder / "app.js").write_bytes(b"const answer = 43;\n" * 200)  # the release: its file first
        _status, headers, body = get(url + "app.js", **{"Accept-Encoding": "gzip"})
        assert gzip.decompress(body) == b"const answer = 42;\n" * 200  # the old copy, still there
        (folder / "app.js.gz").write_bytes(gzip.compress((folder / "app.js").read_bytes()))  # then its copy
        status, _headers, body = get(url + "app.js", **{"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})
        assert status == 200 and gzip.decompress(body) == b"const answer = 43;\n" * 200
    finally:
        server.shutdown()
