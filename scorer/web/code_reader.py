"""The files of the web app's code reader (the page's QR reader, `scorer/web/client/code-reader.js`, and the
camera's view, `camera.js`), for `tourpad publish` to copy into the site and for the bench to serve.

The reader is zxing-cpp built for WebAssembly: the npm package zxing-wasm, pinned in `webvendor/` and
installed by `make webvendor` (`npm ci`). Its ES module and `.wasm` are served from the site itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

CLIENT = Path(__file__).parent / "client"
#: The pinned npm install (`make webvendor`), in the source tree beside the packages.
ZXING = Path(__file__).resolve().parents[2] / "webvendor" / "node_modules" / "zxing-wasm"


class ReaderMissing(Exception):
    """zxing-wasm is not installed in webvendor/; the message says how to install it."""


def site_files() -> dict[str, Path]:
    """Site path → source file of everything the code reader and the camera need."""
    files = {"code-reader.js": CLIENT / "code-reader.js", "camera.js": CLIENT / "camera.js",
             "zxing/es/reader/index.js": ZXING / "dist" / "es" / "reader" / "index.js",
             "zxing/es/share.js": ZXING / "dist" / "es" / "share.js",
             "zxing/zxing_reader.wasm": ZXING / "dist" / "reader" / "zxing_reader.wasm",
             "zxing/LICENSE": ZXING / "LICENSE"}
    missing = [str(path) for path in files.values() if not path.is_file()]
    if missing:
        raise ReaderMissing(f"the web app's code reader is not installed ({missing[0]} is missing): run "
                            "`make webvendor` (npm ci in webvendor/)")
    return files


def copy_into(site: Path) -> None:
    """The code reader's files into a site folder."""
    for rel, source in site_files().items():
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
