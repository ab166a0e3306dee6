"""Serving a published site's files with their precompressed copies (`tourpad host --site`).

`tourpad publish` writes `name.br` and `name.gz` beside each file that compresses well; a browser that
accepts one of those encodings gets it (Brotli first, the smaller), with `Content-Encoding` and the original
file's type, so nothing is compressed per request. The file to serve is still found (and checked to lie in
the site's folder) by Starlette's StaticFiles; only then is its sibling looked up.
"""

from __future__ import annotations

import mimetypes
import os
import stat
from pathlib import Path

#: Encodings a sibling file may hold, best first, as (Content-Encoding, suffix of the sibling).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
#: Files a browser must check with the host at every use, never keep fresh from its HTTP cache: the service
#: worker, which names every other file of a release (browsers fetch it past their cache anyway; the page asks
#: them to with updateViaCache "none"; this header says so to any cache between).
REVALIDATED = frozenset({"sw.js"})


def accepted_encodings(accept_encoding: str) -> set[str]:
    """The codings an Accept-Encoding header allows (q=0 refuses one)."""
    accepted = set()
    for part in accept_encoding.split(","):
        name, _sep, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            allowed = float(q) > 0
        except ValueError:
            allowed = False
        if name.strip() and allowed:
            accepted.add(name.strip().lower())
    return accepted


def compressed_sibling(path: str | os.PathLike, accept_encoding: str,
                       encodings: tuple[tuple[str, str], ...] = ENCODINGS) -> tuple[Path, str] | None:
    """The precompressed copy of `path` to send for this Accept-Encoding, as (file, coding), if there is one."""
    accepted = accepted_encodings(accept_encoding)
    for coding, suffix in encodings:
        if coding in accepted:
            sibling = Path(str(path) + suffix)
            try:
                if stat.S_ISREG(sibling.stat().st_mode):
                    return sibling, coding
            except OSError:
                continue
    return None


def media_type(path: str | os.PathLike) -> str:
    """The type of the original file (WebAssembly is streamed only with its own type)."""
    name = str(path)
    if name.endswith(".wasm"):
        return "application/wasm"
    if name.endswith(".mjs"):
        return "text/javascript"
    return mimetypes.guess_type(name)[0] or "application/octet-stream"


def precompressed_static_files(directory: Path):
    """Starlette's StaticFiles for `directory` (its path checks unchanged) that answers with a file's `.br` or
    `.gz` sibling when the browser accepts that encoding."""
    from starlette.datastructures import Headers
    from starlette.responses import FileResponse
    from starlette.staticfiles import NotModifiedResponse, StaticFiles

    class PrecompressedStaticFiles(StaticFiles):
        def file_response(self, full_path, stat_result, scope, status_code: int = 200):
            response = self._file_response(full_path, stat_result, scope, status_code)
            if Path(full_path).name in REVALIDATED:  # on a "not modified" answer too
                response.headers["Cache-Control"] = "no-cache"
            return response

        def _file_response(self, full_path, stat_result, scope, status_code: int):
            request_headers = Headers(scope=scope)
            # a page goes plain: the host's security policy allows its inline scripts by their hashes, taken
            # from the text it sends (`scorer.table.api.SecurityHeaders`); a page is a few kilobytes
            found = (None if media_type(full_path) == "text/html" else
                     compressed_sibling(full_path, request_headers.get("accept-encoding", "")))
            if found is None:
                response = super().file_response(full_path, stat_result, scope, status_code)
                if any(Path(str(full_path) + suffix).is_file() for _coding, suffix in ENCODINGS):
                    response.headers["Vary"] = "Accept-Encoding"
                return response
            sibling, coding = found
            # the copy's own validators (ETag, Last-Modified), there before the "not modified" check reads them
            response = FileResponse(sibling, status_code=status_code, media_type=media_type(full_path),
                                    headers={"Content-Encoding": coding, "Vary": "Accept-Encoding"},
                                    stat_result=sibling.stat())
            if self.is_not_modified(response.headers, request_headers):
                return NotModifiedResponse(response.headers)
            return response

    return PrecompressedStaticFiles(directory=str(directory), html=True)
