"""`tourpad publish`: what the site holds (and what it must not), its PWA parts, and the browser's import path.
The site running in Chromium is tests/e2e/test_publish_e2e.py."""

from __future__ import annotations

import gettext
import gzip
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import brotli
import pytest
from fastapi.testclient import TestClient
from PIL import Image
from typer.testing import CliRunner

from scorer.cli import app as cli
from scorer.table.host import SITE_PREFIX, build_asgi
from scorer.table.service import TableService
from scorer.web.publish import (
    COMPRESSIBLE,
    LICENCE_FILE,
    LICENCES,
    MARKER,
    STDLIB_SKIPPED,
    PublishError,
    check_site,
    publish,
    release_changed_code,
)

#: Native or server-side libraries the browser build must never need (they have no Pyodide wheel here).
NOT_IN_BROWSER = ("reportlab", "uvicorn", "zxingcpp", "fastapi", "cryptography", "numpy", "PIL", "starlette",
                  "httpx", "cv2")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return publish(tmp_path_factory.mktemp("pub") / "www", base_url="/games/tourpad/").folder


def test_every_wheel_pyodide_loads_is_in_the_site_with_its_hash(site):
    lock = json.loads((site / "pyodide" / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    for name, entry in packages.items():
        wheel = site / "pyodide" / entry["file_name"]
        assert wheel.is_file(), name
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= set(packages), name
    assert {"tourpad", "flet", "pydantic", "pydantic-core", "msgpack"} <= set(packages)
    # the site's own worker loads the wheels from the lock: no micropip, no app archive to unpack
    assert "micropip" not in packages and not list(site.rglob("micropip-*")) and not (site / "app.tar.gz").exists()
    assert "pyemscripten_2026_0_wasm32" in packages["pydantic-core"]["file_name"]
    names = " ".join(packages).lower()
    for banned in ("reportlab", "uvicorn", "zxing", "fastapi", "cryptography", "numpy", "pillow"):
        assert banned not in names
    with zipfile.ZipFile(site / "pyodide" / packages["tourpad"]["file_name"]) as whl:
        files = whl.namelist()
    assert "scorer/web/app.py" in files and "rules/editions/australia.toml" in files
    assert not any(f.startswith("assets/fonts/") or "__pycache__" in f for f in files)


def test_the_page_runs_python_in_the_browser_under_the_prefix_with_nothing_from_a_cdn(site):
    index = (site / "index.html").read_text()
    assert '<base href="/games/tourpad/">' in index
    assert "flet.pyodide = true;" in index
    assert 'flet.routeUrlStrategy="hash";' in index  # every screen reloads on any static server
    assert 'flet.pyodideUrl=new URL("pyodide/pyodide.mjs", document.baseURI).href;' in index
    assert 'workers.register("sw.js", {updateViaCache: "none"})' in index and "navigator.storage.persist()" in index
    bootstrap = (site / "flutter_bootstrap.js").read_text()
    assert "serviceWorkerVersion: \"" not in bootstrap  # Flutter's own worker would unregister ours
    fonts = json.loads((site / "assets" / "FontManifest.json").read_text())
    assert {"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]} in fonts
    # Flutter's loader falls back to gstatic for CanvasKit and Google for fonts unless told where they are
    assert 'flet.canvasKitBaseUrl="/games/tourpad/canvaskit/";' in index
    assert 'flet.fontFallbackBaseUrl="assets/fonts/";' in index
    assert (site / "canvaskit" / "skwasm.wasm").is_file() and (site / "canvaskit" / "canvaskit.wasm").is_file()
    for path in (site / "index.html", site / "manifest.json", site / "pyodide" / "pyodide-lock.json"):
        text = path.read_text().replace("https://cdn.jsdelivr.net/npm/@rive-app/", "")  # the refused script
        assert "https://" not in text, path


def test_python_starts_with_the_page_through_the_sites_own_worker(site):
    """Flet's bridge creates its Python worker only once Flutter has loaded; the site's creates it as python.js
    loads, before flutter_bootstrap.js, so Pyodide boots while Flutter loads. Both load once the service worker
    sees the page's requests (then it stores each file as it is fetched: none is fetched twice)."""
    bridge = (site / "python.js").read_text()
    assert "\ntourpadPython.worker = tourpadStartWorker();\n" in bridge
    index = (site / "index.html").read_text()
    assert '<script src="python.js">' not in index and '<script src="flutter_bootstrap.js"' not in index
    assert 'tourpadCaching.then(() => {\n      for (const name of ["python.js", "flutter_bootstrap.js"])' in index
    worker = (site / "python-worker.js").read_text()
    assert 'pyodide.loadPackage("tourpad"' in worker
    assert "scorer.web.bytecode.install" in worker and "scorer.web.bytecode.bundle()" in worker
    with zipfile.ZipFile(next((site / "pyodide").glob("tourpad-*.whl"))) as whl:
        assert "scorer/web/bytecode.py" in whl.namelist()
        assert not any(name.startswith("scorer/web/client/") for name in whl.namelist())


def test_the_phones_data_channel_is_a_page_script_of_the_site_kept_for_offline(site):
    """Workers have no WebRTC: the page carries a table's data channel (issue 41), so its script is a site file
    beside python.js, in the service worker's list (a table with no computer is often a table with no internet)."""
    source = Path(__file__).resolve().parents[1] / "scorer" / "web" / "client" / "peer.js"
    assert (site / "peer.js").read_text() == source.read_text()
    assert '"peer.js":' in (site / "sw.js").read_text()
    # the page hands the worker's requests to it, and the worker gives Python its calls (the relay's protocol is
    # driven in Chromium by tests/e2e/test_peer_e2e.py)
    assert "peer.serve(worker, request)" in (site / "python.js").read_text()
    assert "self.tourpadPeer = {" in (site / "python-worker.js").read_text()


def test_manifest_makes_it_an_installable_app_with_our_icons(site):
    manifest = json.loads((site / "manifest.json").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "."
    assert manifest["theme_color"] == "#1F7A6D"
    sizes = set()
    for icon in manifest["icons"]:
        with Image.open(site / icon["src"]) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]
            # drawn, not blank: the app colour and the pictogram's white are both there
            colours = {c for _, c in image.convert("RGB").getcolors(1 << 20)}
            assert (31, 122, 109) in colours and (255, 255, 255) in colours
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    with Image.open(site / "icons" / "apple-touch-icon-180.png") as apple:
        assert apple.size == (180, 180)
    assert 'href="icons/apple-touch-icon-180.png"' in (site / "index.html").read_text()


def worker_files(site: Path) -> dict[str, str]:
    return json.loads(re.search(r"const FILES = (\{.*?\});", (site / "sw.js").read_text(), re.S).group(1))


def test_service_worker_lists_every_file_with_its_content_hash_and_a_new_build_is_a_new_version(site, tmp_path):
    worker = (site / "sw.js").read_text()
    listed = worker_files(site)
    on_disk = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert set(listed) == {f for f in on_disk - {"sw.js", MARKER} if not f.endswith((".br", ".gz"))}
    for name, digest in listed.items():  # what a new release compares to keep a stored file or fetch it anew
        assert hashlib.sha256((site / name).read_bytes()).hexdigest().startswith(digest), name
    version = re.search(r'const VERSION = "(\w+)";', worker).group(1)
    assert (site / MARKER).read_text().strip() == version
    assert "__" not in worker.split("const FILES")[0]  # every placeholder filled in
    # the same build again, another prefix: another index.html, so another version (picked up online)
    again = publish(tmp_path / "other", base_url="/")
    assert again.version != version
    changed = {name for name, digest in worker_files(again.folder).items() if listed.get(name) != digest}
    assert changed == {"index.html"}  # the only file a browser that has the first build fetches anew


def test_a_change_in_our_code_changes_only_our_wheel_and_the_lock(site, tmp_path):
    import shutil

    copy = Path(shutil.copytree(site, tmp_path / "www"))
    before = worker_files(copy)
    release_changed_code(copy)
    after = worker_files(copy)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == ["pyodide/pyodide-lock.json", "pyodide/tourpad-0.1.0-py3-none-any.whl"]
    # what an update of our code moves, gzipped as a host sends it (`tourpad bench publish` measures it served)
    size = sum((copy / (name + ".gz")).stat().st_size for name in changed)
    assert size < 1_000_000


def test_each_compressible_file_has_its_brotli_and_gzip_copy(site):
    import gzip

    import brotli

    compressible = [p for p in site.rglob("*") if p.is_file() and COMPRESSIBLE.search(p.name)
                    and p.suffix not in (".br", ".gz")]
    assert {"index.html", "sw.js", "main.dart.wasm", "pyodide.asm.wasm"} <= {p.name for p in compressible}
    for path in compressible:
        data = path.read_bytes()
        br, gz = path.with_name(path.name + ".br"), path.with_name(path.name + ".gz")
        if len(data) > 1000:  # a copy is written when it is smaller (a tiny file's gzip copy may not be)
            assert br.is_file() and gz.is_file(), path
        if br.is_file():
            assert brotli.decompress(br.read_bytes()) == data and br.stat().st_size < len(data), path
        if gz.is_file():
            assert gzip.decompress(gz.read_bytes()) == data and gz.stat().st_size < len(data), path
    assert not (site / "icons" / "icon-192.png.br").exists()  # a PNG is compressed already


def test_wheels_and_the_standard_library_are_stored_without_what_the_browser_never_reads(site):
    """Stored (uncompressed) zips, so the host's Brotli or gzip packs each whole; no stubs, tests, licence files
    or developer tools inside; the wheels' licences in one file at the site's root."""
    archives = [*(site / "pyodide").glob("*.whl"), site / "pyodide" / "python_stdlib.zip"]
    assert len(archives) > 10
    for archive in archives:
        with zipfile.ZipFile(archive) as zipped:
            names = zipped.namelist()
            assert {i.compress_type for i in zipped.infolist()} == {zipfile.ZIP_STORED}, archive.name
        assert not [n for n in names if n.endswith(".pyi") or "/tests/" in n or LICENCE_FILE.search(n)], archive
        assert (site / "pyodide" / (archive.name + ".br")).is_file(), archive.name
    with zipfile.ZipFile(site / "pyodide" / "python_stdlib.zip") as stdlib:
        names = set(stdlib.namelist())
    assert "pdb.py" not in names and not any(n.startswith(("unittest/", "_pyrepl/")) for n in names)
    assert {"asyncio/__init__.py", "email/utils.py", "sqlite3/__init__.py", "zipfile/__init__.py"} <= names
    # every module Python's worker imports before its snapshot is still there
    worker = (site / "python-worker.js").read_text()
    imports = re.search(r'const SNAPSHOT_IMPORTS = "import (.*?)";', worker, re.S).group(1)
    for module in re.sub(r'"\s*\+\s*"', "", imports).split(","):
        top = module.strip().split(".")[0]
        assert not STDLIB_SKIPPED.search(top + "/") and not STDLIB_SKIPPED.search(top + ".py"), top
    licences = (site / LICENCES).read_text()
    assert "==== pydantic-" in licences and "==== flet-" in licences and "Permission is hereby granted" in licences


def test_fonts_of_packages_the_app_never_shows_are_left_out(site):
    fonts = json.loads((site / "assets" / "FontManifest.json").read_text())
    families = {f["family"] for f in fonts}
    assert {"MaterialIcons", "Roboto"} <= families
    assert not any(name.startswith(("packages/flutter_math_fork/", "packages/cupertino_icons/")) for name in families)
    assert not list((site / "assets" / "packages").rglob("*.ttf"))


def test_publish_refuses_a_folder_it_did_not_write_and_changes_nothing(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(cli, ["publish", "-o", str(folder)])
    assert result.exit_code == 2
    words = " ".join(result.output.split())  # however the terminal wraps it
    assert "is not empty and was not written by tourpad publish; give an empty or new folder" in words
    assert "mine" in words
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    with pytest.raises(PublishError, match="not a site from tourpad publish"):
        check_site(folder, SITE_PREFIX)


def test_host_serves_a_published_site_under_app(tmp_path):
    site = tmp_path / "www"
    site.mkdir()
    (site / MARKER).write_text("v1\n")
    (site / "index.html").write_text('<html><head><base href="/app/"></head></html>')
    (site / "sw.js").write_text("// worker")
    assert check_site(site, SITE_PREFIX) == site
    with pytest.raises(PublishError, match="another path prefix"):
        check_site(site, "/other/")
    service = TableService(tmp_path / "tables.sqlite3")
    try:
        client = TestClient(build_asgi(service, web_app=None, site=site))
        assert client.get("/app/").text.startswith("<html><head><base href=\"/app/\">")
        assert client.get("/app/sw.js").text == "// worker"
        # a precompressed copy goes to a browser that takes its encoding, as the original file's type
        (site / "sw.js.br").write_bytes(brotli.compress(b"// worker"))
        (site / "sw.js.gz").write_bytes(gzip.compress(b"// worker"))
        for accept, coding in (("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip")):
            answer = client.get("/app/sw.js", headers={"Accept-Encoding": accept})
            assert answer.headers["content-encoding"] == coding, accept
            assert answer.headers["vary"] == "Accept-Encoding"
            assert answer.headers["content-type"].startswith("text/javascript")
            assert answer.text == "// worker"  # as the browser reads it, decoded
        plain = client.get("/app/sw.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == b"// worker"
        # the worker that names a release is checked with the host at every use, compressed or not, and its
        # "not modified" answer says so too; the files it names may be kept
        for accept in ("br", "identity"):
            answer = client.get("/app/sw.js", headers={"Accept-Encoding": accept})
            assert answer.headers["cache-control"] == "no-cache"
            again = client.get("/app/sw.js", headers={"Accept-Encoding": accept,
                                                      "If-None-Match": answer.headers["etag"]})
            assert (again.status_code, again.headers["cache-control"]) == (304, "no-cache")
        assert "cache-control" not in client.get("/app/index.html").headers
        # the path checks are the static files' own: nothing outside the site, compressed or not
        (tmp_path / "secret.txt.br").write_bytes(brotli.compress(b"secret"))
        assert client.get("/app/../secret.txt", headers={"Accept-Encoding": "br"}).status_code == 404
        assert client.get("/app/%2e%2e/secret.txt", headers={"Accept-Encoding": "br"}).status_code == 404
        assert client.get("/openapi.json").json()["paths"]  # the API is still there
    finally:
        service.close()


def test_the_browser_import_path_needs_no_native_or_server_library(tmp_path):
    """As in Pyodide: sys.platform is emscripten, and importing any library the site does not ship fails.
    Every screen `tourpad app` registers must still import, and the table and scan screens say they need
    the host."""
    script = textwrap.dedent(f"""
        import sys
        import flet, pydantic, sqlite3, zoneinfo  # what Pyodide ships; imported before the platform changes
        for name in {NOT_IN_BROWSER!r}:
            sys.modules[name] = None
        sys.platform = "emscripten"
        from scorer.pad.store import EventStore
        from scorer.ui.app import SCREENS
        from scorer.ui.main import make_main
        make_main(lambda: EventStore({str(tmp_path / "games.sqlite3")!r}))
        from scorer.ui import scan_entry
        from scorer.runtime import IN_BROWSER
        assert IN_BROWSER
        print(sorted(SCREENS))
        print(SCREENS["table"].__module__)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    screens, table_module = done.stdout.splitlines()[-2:]
    for name in ("home", "history", "sheet", "end", "solo_setup", "solo_game", "race_checker", "race_solo", "teach",
                 "teach_edition"):
        assert f"'{name}'" in screens
    assert table_module == "scorer.ui.table"  # a phone hosts its own tables


def test_the_wheel_ships_each_compiled_french_catalog_and_a_trimmed_babel(site, tmp_path):
    """The site speaks French offline: our wheel holds every package's `.mo` (compiled from the `.po`, which
    stays behind), and Babel's wheel only the locale data tourpad formats with, which still formats."""
    packages = json.loads((site / "pyodide" / "pyodide-lock.json").read_text())["packages"]
    with zipfile.ZipFile(site / "pyodide" / packages["tourpad"]["file_name"]) as whl:
        files = set(whl.namelist())
        french = gettext.GNUTranslations(io.BytesIO(whl.read("scorer/locale/fr/LC_MESSAGES/scorer.mo")))
    for domain in ("rules", "printables", "scorer"):
        assert f"{domain}/locale/fr/LC_MESSAGES/{domain}.mo" in files
    assert not any(f.endswith(".po") for f in files)
    assert french.gettext("New game") == "Nouvelle partie"
    assert "babel" in packages["tourpad"]["depends"]
    babel_wheel = site / "pyodide" / packages["babel"]["file_name"]
    with zipfile.ZipFile(babel_wheel) as whl:
        data = sorted(n.removeprefix("babel/locale-data/") for n in whl.namelist()
                      if n.startswith("babel/locale-data/"))
        assert "babel/global.dat" in whl.namelist()
        whl.extractall(tmp_path / "babel-site")
    assert data == ["en.dat", "en_001.dat", "en_GB.dat", "fr.dat", "root.dat"]  # en_GB's parents; French's
    assert len(brotli.compress(babel_wheel.read_bytes(), quality=5)) < 700_000  # the whole of Babel is ~10 MB
    # the trimmed Babel, first on the path, formats as tourpad asks in both languages
    script = textwrap.dedent("""
        import datetime, babel
        from rules import i18n
        assert babel.__file__.startswith(sys.argv[1]), babel.__file__
        moment = datetime.datetime(2026, 11, 24, 14, 5)
        print(i18n.format_number(1234.5), i18n.format_datetime(moment, "short"))
        with i18n.use_language("fr"):
            print(i18n.format_number(1234.5), i18n.format_datetime(moment, "short"))
    """)
    done = subprocess.run([sys.executable, "-c", "import sys\n" + script, str(tmp_path / "babel-site")],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "babel-site")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["1,234.5 24/11/2026, 14:05", "1\u202f234,5 24/11/2026 14:05"]


def test_the_trimmed_babel_keeps_every_locale_tourpad_formats_with():
    """A language added to rules.i18n must bring its Babel locale into the site (BABEL_LOCALES)."""
    from rules import i18n
    from scorer.web.publish import BABEL_LOCALES, babel_locales_needed

    for lang in i18n.LANGUAGES:
        with i18n.use_language(lang):
            assert i18n._locale() in BABEL_LOCALES, lang
    assert babel_locales_needed(("en_GB",)) == {"en_GB", "en_001", "en", "root"}
    assert babel_locales_needed(BABEL_LOCALES) == {"en_GB", "en_001", "en", "root", "fr"}


@pytest.mark.parametrize("earlier_site", [True, False])
def test_a_publish_that_fails_part_way_leaves_the_folder_as_it_was_and_the_next_one_goes_ahead(
        tmp_path, monkeypatch, earlier_site):
    """The disk fills up after the Flet client is copied: the earlier site (or no folder) is left as it was,
    no half-built files stay beside it, the message is one line, and the next publish replaces the site."""
    import scorer.web.publish as publishing

    out = tmp_path / "www"
    if earlier_site:
        out.mkdir()
        (out / MARKER).write_text("v1\n")
        (out / "index.html").write_text("the earlier site")
    before = sorted((p.relative_to(tmp_path).as_posix(), p.read_text()) for p in tmp_path.rglob("*") if p.is_file())

    def disk_full(folder: Path) -> None:
        assert (folder / "flutter_bootstrap.js").is_file()  # part-way: the client is already copied
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(publishing, "_copy_code_reader", disk_full)
    with pytest.raises(PublishError) as failed:
        publish(out)
    assert str(failed.value) == f"[Errno 28] No space left on device; {out} is as it was before this publish"
    result = CliRunner().invoke(cli, ["publish", "-o", str(out)])
    assert result.exit_code == 2
    words = " ".join(result.output.split())  # however the terminal wraps it
    assert f"error: [Errno 28] No space left on device; {out} is as it was before this publish" in words
    after = sorted((p.relative_to(tmp_path).as_posix(), p.read_text()) for p in tmp_path.rglob("*") if p.is_file())
    assert after == before
    assert [p.name for p in tmp_path.iterdir()] == (["www"] if earlier_site else [])

    def build(folder: Path, base_url: str) -> publishing.Site:  # the rest of a publish, as a stand-in
        (folder / MARKER).write_text("v2\n")
        (folder / "index.html").write_text("the new site")
        return publishing.Site(folder, 2, 20, "v2")

    monkeypatch.setattr(publishing, "_build", build)
    site = publish(out)
    assert site.folder == out and site.version == "v2"
    assert (out / "index.html").read_text() == "the new site"
    assert [p.name for p in tmp_path.iterdir()] == ["www"]
