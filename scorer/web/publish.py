"""`tourpad publish`: the score pad as a static site that runs on Pyodide in the browser, offline.

DIR gets the Flet web client (from the installed `flet_web`), the Pyodide runtime it ships, every wheel
Pyodide loads (ours, built here from the installed package, and each browser dependency, downloaded once
into the cache), a web app manifest with our icons, and a service worker that caches the whole site.
Pyodide finds the wheels through the site's own `pyodide-lock.json`, so nothing is fetched from another
host. Routes use the URL's hash, so any static file server (and any path prefix) can serve every screen.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from rules.i18n import LANGUAGES, babel_locale, compiled_catalog
from scorer.locale import _
from scorer.ui.app import SEED_COLOR
from scorer.ui.text_size import PAGE_SCRIPT

APP_NAME = "tourpad score pad"
SHORT_NAME = "tourpad"
#: Marks a folder `publish` wrote, so publishing again may clear it (and never clears anything else).
MARKER = ".tourpad-site"
#: What the browser build imports beyond the standard library, as (distribution, native): native ones are
#: built for Pyodide (`pyemscripten` wheels); the versions are those installed here, so both builds agree.
BROWSER_DEPENDENCIES = (("flet", False), ("msgpack", True), ("repath", False), ("six", False),
                        ("pydantic", False), ("pydantic-core", True), ("annotated-types", False),
                        ("typing-extensions", False), ("typing-inspection", False), ("tomli-w", False),
                        ("platformdirs", False), ("segno", False), ("babel", False))
#: The Babel locales `rules.i18n` formats numbers and dates for (English and French); the site's Babel wheel
#: keeps only these and the locales they inherit from (Babel's whole CLDR data is ~30 MB).
BABEL_LOCALES = tuple(babel_locale(language) for language in LANGUAGES)
PYODIDE_PLATFORM = "pyemscripten_2026_0_wasm32"
#: Our packages in the browser wheel, and what they leave out (the computer-only parts are never imported
#: there; fonts are for the PDFs). A message catalog ships compiled (`.mo`), made from its `.po` as the
#: wheel is written, so the site never carries a stale one; the `.po` itself stays behind.
OWN_PACKAGES = ("rules", "scorer", "printables", "assets")
OWN_SKIPPED = ("assets/fonts/", "__pycache__/", "scorer/web/client/")
OWN_SKIPPED_SUFFIXES = (".pyc", ".pyo", ".po", ".mo")
#: Parts of the Flet client and Pyodide folder a browser never loads (CLI runners, debug symbols, types,
#: renderers only chosen by an explicit setting, Flutter's own service worker, which the site replaces).
CLIENT_SKIPPED = re.compile(r"(\.symbols|\.map|\.d\.ts)$|^pyodide/(python|python\.bat|python\.exe|"
                            r"python_cli_entry\.mjs|package\.json|micropip-.*\.whl|packaging-.*\.whl)$|"
                            r"^canvaskit/(experimental_webparagraph|wimp)|^flutter_service_worker\.js$")
#: Our own start-up in place of the Flet client's (python.js, python-worker.js): Python boots with the page,
#: in parallel with Flutter's engine, and loads the wheels straight from the lock (no micropip, no app archive).
CLIENT_REPLACED = ("python.js", "python-worker.js")
#: The page's own scripts, loaded when a screen first needs them: the data channel between the phones of a table
#: with no computer (issue 41).
CLIENT_OWN = ("peer.js",)
#: What the browser never reads in a wheel: type stubs, tests, Babel's catalog tools (rules.i18n uses them only
#: to maintain the .po files), pydantic's v1 API, software bills of materials. Licence files leave the wheels
#: for one file at the site's root (LICENSES). Each cut is measured by `tourpad bench publish`.
WHEEL_SKIPPED = re.compile(r"\.pyi$|(^|/)tests?/|^babel/messages/|^pydantic/v1/|\.dist-info/sboms/")
LICENCE_FILE = re.compile(r"\.dist-info/(licenses/.*|LICEN[CS]E[^/]*|COPYING[^/]*|NOTICE[^/]*|AUTHORS[^/]*)$")
#: Standard-library modules of Pyodide's python_stdlib.zip the app never imports in the browser: developer
#: tools (REPL, debugger, docs, tests), GUI toolkits, mail and other network protocols.
STDLIB_SKIPPED = re.compile(r"^(_pyrepl|pydoc_data|unittest|idlelib|tkinter|turtledemo|ensurepip|venv|lib2to3|"
                            r"xmlrpc|wsgiref|curses|dbm)/|^(pydoc|doctest|pdb|turtle|imaplib|mailbox|ftplib|"
                            r"smtplib|poplib|nntplib|pickletools)\.py$")
LICENCES = "LICENSES.txt"
#: Files worth compressing for the wire (text, WebAssembly, fonts, Python's standard library), which get a
#: `.br` and a `.gz` beside them; images, woff2 and wheels are compressed already.
COMPRESSIBLE = re.compile(r"\.(html|js|mjs|json|wasm|css|txt|otf|ttf|zip|whl|bin|frag|map)$|^NOTICES$")
#: Brotli's and gzip's strongest settings: compressed once per release, read by every visitor.
BROTLI_QUALITY = 11
GZIP_LEVEL = 9
#: Flutter packages whose fonts Flutter would load at every start although the app never shows them: KaTeX's
#: (math in Markdown) and Cupertino's icons (the app draws Material icons). Left out of the font list and site.
UNUSED_FONT_PACKAGES = ("flutter_math_fork", "cupertino_icons")
ICON_SIZES = (192, 512)
RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/"
APPLE_ICON_SIZE = 180


class PublishError(Exception):
    """Publishing cannot go on (a folder we must not clear, a wheel we cannot get); the message says why."""


@dataclass(frozen=True)
class Site:
    folder: Path
    files: int
    bytes: int
    version: str


def cache_dir() -> Path:
    """Downloaded wheels are kept here, keyed by file name (which holds the version)."""
    override = os.environ.get("TOURPAD_CACHE_DIR")
    path = Path(override) if override else \
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tourpad" / "wheels"
    path.mkdir(parents=True, exist_ok=True)
    return path


def flet_web_folder() -> Path:
    import flet_web

    return Path(flet_web.__file__).parent / "web"


def publish(out: Path, base_url: str = "/") -> Site:
    """The site, written to `out`. It is built in a new folder beside `out` and put in its place only once
    complete: a publish that fails part-way leaves `out` as it was (the previous site, or nothing) and none
    of its own half-built files, so the next publish goes ahead."""
    out = Path(out)
    _check_folder(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    building = _new_folder_beside(out, "publishing")
    try:
        site = _build(building, base_url)
        _swap_in(building, out)
    except BaseException as err:
        shutil.rmtree(building, ignore_errors=True)
        if isinstance(err, PublishError | OSError | zipfile.BadZipFile):
            raise PublishError(_("{reason}; {folder} is as it was before this publish").format(
                reason=err, folder=out)) from err
        raise
    return Site(out, site.files, site.bytes, site.version)


def _build(out: Path, base_url: str) -> Site:
    """Every file of the site, written into the new folder `out`."""
    client = flet_web_folder()
    for src in sorted(client.rglob("*")):
        rel = src.relative_to(client).as_posix()
        if src.is_file() and not CLIENT_SKIPPED.search(rel):
            dest = out / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
    for name in CLIENT_REPLACED + CLIENT_OWN:
        shutil.copyfile(Path(__file__).parent / "client" / name, out / name)
    _copy_code_reader(out)
    wheels = [slimmed_zip(wheel, cache_dir(), WHEEL_SKIPPED) for wheel in browser_wheels()]
    with tempfile.TemporaryDirectory() as scratch:  # our wheel is this tree's own: never shared through the cache
        wheels.append(slimmed_zip(own_wheel(Path(scratch)), cache_dir(), WHEEL_SKIPPED))
    for wheel in wheels:
        shutil.copyfile(wheel, out / "pyodide" / wheel.name)
    _write_licences(out, browser_wheels())
    stdlib = out / "pyodide" / "python_stdlib.zip"
    shutil.copyfile(slimmed_zip(stdlib, cache_dir(), STDLIB_SKIPPED), stdlib)
    _write_lock(out / "pyodide", client / "pyodide" / "pyodide-lock.json", wheels)
    _write_icons(out)
    _write_manifest(out)
    prefix = "/" + base_url.strip("/") + "/" if base_url.strip("/") else "/"
    _patch_index(out, prefix)
    _patch_bootstrap(out)
    return seal(out)


def _copy_code_reader(out: Path) -> None:
    """The page's QR code reader (zxing-wasm) and camera view, which the keypad's scan uses (issue 40): extra
    site files, listed in scorer.web.code_reader."""
    from scorer.web.code_reader import ReaderMissing, copy_into

    try:
        copy_into(out)
    except ReaderMissing as err:
        raise PublishError(str(err)) from err


def seal(out: Path) -> Site:
    """The service worker for the site's files as they are now: any change makes a new version, which
    phones pick up on their next visit online."""
    # every other file and its compressed copies first, the worker that names them last: a browser that
    # checks for a release meanwhile gets the old worker, or the new one with every file it names ready
    precompress(out)
    version = _write_service_worker(out)
    precompress(out, files=[out / "sw.js"])
    (out / MARKER).write_text(version + "\n")
    files = [p for p in out.rglob("*") if p.is_file() and p.suffix not in (".br", ".gz")]  # not the copies
    return Site(out, len(files), sum(p.stat().st_size for p in files), version)


def release_changed_code(out: Path, note: str = "a release that changes our code only") -> str:
    """The published site as a release that changes one module of our own code (`note` appended to
    scorer/web/app.py as a comment), sealed: what `tourpad bench publish` and the update test serve to a
    browser that has the previous release. Returns the new version."""
    lock_path = out / "pyodide" / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    wheel = out / "pyodide" / lock["packages"]["tourpad"]["file_name"]
    with zipfile.ZipFile(wheel) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    with zipfile.ZipFile(wheel, "w") as whl:
        for info, data in members:
            if info.filename == "scorer/web/app.py":
                data += f"# {note}\n".encode()
            whl.writestr(info, data)
    lock["packages"]["tourpad"]["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock_path.write_text(json.dumps(lock, indent=1))
    return seal(out).version


def precompress(out: Path, cache: Path | None = None, files: list[Path] | None = None) -> None:
    """A `.br` and a `.gz` beside each file that compresses well (hosts that serve precompressed files send one
    of them when the browser accepts it; `tourpad host --site` does); a copy that would not be smaller is not
    written. Brotli's strongest setting takes minutes over the Flutter and Pyodide runtimes, which are the same
    in every release: each compressed copy is kept in the cache under its content's hash and reused. `files`:
    only these (default: every file of the site)."""
    import gzip

    import brotli

    store = (cache or cache_dir()).parent / "compressed"
    store.mkdir(parents=True, exist_ok=True)
    squeezers = ((".br", lambda d: brotli.compress(d, quality=BROTLI_QUALITY)),
                 (".gz", lambda d: gzip.compress(d, GZIP_LEVEL, mtime=0)))
    for path in sorted(out.rglob("*")) if files is None else files:
        if not path.is_file() or path.suffix in (".br", ".gz") or not COMPRESSIBLE.search(path.name):
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        for suffix, squeeze in squeezers:
            sibling = path.with_name(path.name + suffix)
            kept = store / (digest + suffix)
            if not kept.is_file():
                tmp = _scratch_beside(kept)
                tmp.write_bytes(squeeze(data))
                os.replace(tmp, kept)
            if kept.stat().st_size < len(data):
                shutil.copyfile(kept, sibling)
            else:
                sibling.unlink(missing_ok=True)


def check_site(folder: Path, prefix: str) -> Path:
    """A folder `publish` wrote for this path prefix (`tourpad host --site` serves it under /app/)."""
    folder = Path(folder)
    if not (folder / MARKER).is_file() or not (folder / "index.html").is_file():
        raise PublishError(f"{folder} is not a site from tourpad publish (run: tourpad publish -o {folder} "
                           f"--base-url {prefix})")
    if f'<base href="{prefix}">' not in (folder / "index.html").read_text(encoding="utf-8"):
        raise PublishError(f"{folder} was published for another path prefix; publish it again with "
                           f"--base-url {prefix}")
    return folder


def _check_folder(out: Path) -> None:
    """Refuse a folder a publish must not replace: a file, or a folder of someone else's files."""
    if out.exists() and not out.is_dir():
        raise PublishError(f"{out} is a file; give a folder for the site")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise PublishError(f"{out} is not empty and was not written by tourpad publish; "
                           "give an empty or new folder")


def _new_folder_beside(out: Path, purpose: str) -> Path:
    """A new, empty folder of this publish's own beside `out` (on the same disk, so a rename moves it whole),
    made as `out` would be (the permissions a static file server reads the site with)."""
    while True:
        folder = out.parent / f".{out.name}.{purpose}-{os.getpid()}-{os.urandom(4).hex()}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue


def _swap_in(built: Path, out: Path) -> None:
    """Put the complete site `built` where `out` is (an earlier site, an empty folder, or nothing)."""
    if not out.exists():
        built.rename(out)
        return
    previous = _new_folder_beside(out, "previous")
    out.rename(previous)  # onto its own empty folder: a rename of a folder may replace an empty one
    try:
        built.rename(out)
    except OSError:
        previous.rename(out)
        shutil.rmtree(built, ignore_errors=True)
        raise
    shutil.rmtree(previous, ignore_errors=True)


# --- wheels ----------------------------------------------------------------------------------------------

def browser_wheels() -> list[Path]:
    """Each browser dependency as a wheel Pyodide can load, from the cache or downloaded into it."""
    cache = cache_dir()
    found = []
    for dist, native in BROWSER_DEPENDENCIES:
        version = metadata.version(dist)
        stem = re.sub(r"[-_.]+", "_", dist).lower() + "-" + version + "-"
        hits = [p for p in cache.glob("*.whl") if p.name.lower().startswith(stem)
                and (PYODIDE_PLATFORM in p.name if native else p.name.endswith("-none-any.whl"))]
        if not hits:
            _download(dist, version, native, cache)
            hits = [p for p in cache.glob("*.whl") if p.name.lower().startswith(stem)
                    and (PYODIDE_PLATFORM in p.name if native else p.name.endswith("-none-any.whl"))]
        if not hits:
            raise PublishError(f"no browser wheel of {dist} {version} in {cache}")
        found.append(trimmed_babel_wheel(hits[0], cache) if dist == "babel" else hits[0])
    return found


def slimmed_zip(archive: Path, cache: Path, skipped: re.Pattern) -> Path:
    """`archive` (a wheel, or Pyodide's standard library) without the members `skipped` or licence files
    match, and stored uncompressed: Brotli or gzip over the whole file, as the host sends it, packs it
    smaller than each member deflated alone (and nothing is inflated in the browser). A wheel's RECORD
    follows. Written once per archive into the cache's `slim/` folder, under the same name (Pyodide's lock
    and loader name it)."""
    digest = hashlib.sha256(archive.read_bytes() + skipped.pattern.encode()).hexdigest()[:16]
    out = cache / "slim" / digest / archive.name
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    kept: list[tuple[zipfile.ZipInfo, bytes]] = []
    with zipfile.ZipFile(archive) as source:
        for info_ in source.infolist():
            if not skipped.search(info_.filename) and not LICENCE_FILE.search(info_.filename):
                kept.append((info_, source.read(info_)))
    records = [i.filename for i, _data in kept if i.filename.endswith(".dist-info/RECORD")]
    if records:
        record = "".join(f"{i.filename},sha256={_b64_digest(data)},{len(data)}\n" for i, data in kept
                         if i.filename != records[0]) + f"{records[0]},,\n"
        kept = [(i, record.encode() if i.filename == records[0] else data) for i, data in kept]
    tmp = _scratch_beside(out)
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as slim:
        for info_, data in kept:
            info_.compress_type = zipfile.ZIP_STORED
            slim.writestr(info_, data)
    os.replace(tmp, out)
    return out


def _scratch_beside(path: Path) -> Path:
    """A new file of its own beside `path`, to be moved onto it once written (publishes running at once share
    the cache: each writes its own file, and the last move wins with a complete one)."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    os.close(handle)
    return Path(name)


def _write_licences(out: Path, wheels: list[Path]) -> None:
    """Every licence file of the wheels the site ships, in one text file at the site's root."""
    parts = []
    for wheel in sorted(wheels, key=lambda w: w.name.lower()):
        with zipfile.ZipFile(wheel) as whl:
            for name in sorted(n for n in whl.namelist() if LICENCE_FILE.search(n)):
                text = whl.read(name).decode("utf-8", errors="replace").strip()
                parts.append(f"==== {wheel.name}: {name} ====\n\n{text}\n")
            if not any(LICENCE_FILE.search(n) for n in whl.namelist()):  # only named in its metadata
                metadata_name = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
                lines = whl.read(metadata_name).decode("utf-8", errors="replace").split("\n\n")[0].splitlines()
                named = [line for line in lines if line.startswith(("License", "Classifier: License"))]
                parts.append(f"==== {wheel.name}: {metadata_name} ====\n\n" + "\n".join(named) + "\n")
    (out / LICENCES).write_text("\n".join(parts), encoding="utf-8")


def _download(dist: str, version: str, native: bool, cache: Path) -> None:
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
               "--dest", str(cache), f"{dist}=={version}"]
    if native:
        command += ["--platform", PYODIDE_PLATFORM, "--python-version", "3.14", "--implementation", "cp"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise PublishError(f"cannot download the browser wheel of {dist} {version}: {last}")


def own_wheel(folder: Path) -> Path:
    """tourpad's own code as a pure-Python wheel, written from the installed source tree."""
    root = Path(__file__).resolve().parents[2]
    version = metadata.version("tourpad")
    files: list[tuple[str, bytes]] = []
    for package in OWN_PACKAGES:
        for path in sorted((root / package).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and rel.endswith(".po") and "/locale/" in rel:
                files.append((rel.removesuffix(".po") + ".mo", compiled_catalog(path)))
            elif path.is_file() and not any(skip in rel + "/" for skip in OWN_SKIPPED) \
                    and not rel.endswith(OWN_SKIPPED_SUFFIXES):
                files.append((rel, path.read_bytes()))
    info = f"tourpad-{version}.dist-info"
    files.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: tourpad\nVersion: {version}\n".encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tourpad publish\nRoot-Is-Purelib: true\n"
                                   b"Tag: py3-none-any\n"))
    record = "".join(f"{name},sha256={_b64_digest(data)},{len(data)}\n" for name, data in files)
    files.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    path = folder / f"tourpad-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as whl:
        for name, data in files:
            info_ = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # same input, same wheel
            info_.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info_, data)
    return path


def babel_locales_needed(locales: tuple[str, ...] = BABEL_LOCALES) -> set[str]:
    """`locales` and every locale Babel loads to complete them (en_GB inherits from en_001, en, root)."""
    from babel.core import get_global

    exceptions = get_global("parent_exceptions")
    needed: set[str] = set()
    for name in locales:
        while name not in needed:
            needed.add(name)
            if name == "root":
                break
            name = exceptions.get(name) or ("_".join(name.split("_")[:-1]) if "_" in name else "root")
    return needed


def trimmed_babel_wheel(wheel: Path, cache: Path) -> Path:
    """Babel's wheel with only the locale data tourpad formats with (`BABEL_LOCALES`): the code and
    `global.dat` stay whole; every other locale's `.dat` is left out. Written once per Babel version into
    the cache's `trimmed/` folder, under the same file name (Pyodide's lock names it)."""
    keep = {f"babel/locale-data/{name}.dat" for name in babel_locales_needed()}
    out = cache / "trimmed" / wheel.name
    stamp = out.with_suffix(".locales")
    if out.is_file() and stamp.is_file() and stamp.read_text() == " ".join(sorted(keep)):
        return out
    out.parent.mkdir(exist_ok=True)
    kept: list[tuple[zipfile.ZipInfo, bytes]] = []
    with zipfile.ZipFile(wheel) as source:
        for info_ in source.infolist():
            name = info_.filename
            if name.startswith("babel/locale-data/") and name not in keep:
                continue
            kept.append((info_, source.read(name)))
    record_name = next(i.filename for i, _data in kept if i.filename.endswith(".dist-info/RECORD"))
    record = "".join(f"{i.filename},sha256={_b64_digest(data)},{len(data)}\n" for i, data in kept
                     if i.filename != record_name) + f"{record_name},,\n"
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as whl:
        for info_, data in kept:
            whl.writestr(info_, record.encode() if info_.filename == record_name else data,
                         compress_type=zipfile.ZIP_DEFLATED)
    os.replace(tmp, out)
    stamp.write_text(" ".join(sorted(keep)))
    return out


def _b64_digest(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_lock(folder: Path, flet_lock: Path, wheels: list[Path]) -> None:
    """Pyodide's package list, cut down to what the site ships: our wheels, each with its hash, so loading
    never looks anywhere else."""
    lock = json.loads(flet_lock.read_text())
    ours = {}
    for wheel in wheels:
        dist = wheel.name.split("-")[0].replace("_", "-").lower()
        ours[dist] = {"name": dist, "version": wheel.name.split("-")[1], "file_name": wheel.name,
                      "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
                      "package_type": "package", "imports": [], "depends": [], "unvendored_tests": False,
                      "shared_library": False}
    ours["tourpad"]["depends"] = sorted(d for d in ours if d != "tourpad")
    lock["packages"] = ours
    (folder / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))


# --- PWA: icons, manifest, index, service worker ---------------------------------------------------------

def render_icon(size: int, maskable: bool = False):
    """Our kangaroo pictogram (assets/icons) on the app's colour; maskable icons keep it in the safe zone."""
    from PIL import Image, ImageDraw

    from printables.icons import load_icon

    scale = 4  # drawn large, then reduced: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    background = SEED_COLOR
    if maskable:
        draw.rectangle((0, 0, big, big), fill=background)
        inner = big * 0.5
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, fill=background)
        inner = big * 0.66
    offset = (big - inner) / 2

    def point(x: float, y: float) -> tuple[float, float]:
        return offset + x / 100 * inner, offset + y / 100 * inner

    for shape in load_icon("kangaroo"):
        colour = background if shape.knock else "#FFFFFF"
        for polygon in _polygons(shape.ops, point):
            if shape.fill and len(polygon) > 2:
                draw.polygon(polygon, fill=colour)
            if shape.stroke and len(polygon) > 1:
                draw.line(polygon, fill=colour, width=max(1, round(shape.stroke_width / 100 * inner)),
                          joint="curve")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _polygons(ops, point) -> list[list[tuple[float, float]]]:
    polygons: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = []
    x = y = 0.0
    for op in ops:
        if op[0] == "M":
            if current:
                polygons.append(current)
            x, y = op[1], op[2]
            current = [point(x, y)]
        elif op[0] == "L":
            x, y = op[1], op[2]
            current.append(point(x, y))
        elif op[0] == "C":
            x1, y1, x2, y2, x3, y3 = op[1:]
            for i in range(1, 13):
                t = i / 12
                u = 1 - t
                current.append(point(u ** 3 * x + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                     u ** 3 * y + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
            x, y = x3, y3
        elif current:
            current.append(current[0])
    if current:
        polygons.append(current)
    return polygons


def _write_icons(out: Path) -> None:
    icons = out / "icons"
    icons.mkdir(exist_ok=True)
    for size in ICON_SIZES:
        render_icon(size).save(icons / f"icon-{size}.png")
        render_icon(size, maskable=True).save(icons / f"icon-maskable-{size}.png")
    render_icon(APPLE_ICON_SIZE, maskable=True).convert("RGB").save(icons / "apple-touch-icon-180.png")
    render_icon(192, maskable=True).convert("RGB").save(icons / "apple-touch-icon-192.png")
    render_icon(512).save(icons / "loading-animation.png")
    render_icon(32).save(out / "favicon.png")


def _write_manifest(out: Path) -> None:
    icons = [{"src": f"icons/icon-{s}.png", "sizes": f"{s}x{s}", "type": "image/png"} for s in ICON_SIZES]
    icons += [{"src": f"icons/icon-maskable-{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
               "purpose": "maskable"} for s in ICON_SIZES]
    manifest = {"name": APP_NAME, "short_name": SHORT_NAME, "id": ".", "start_url": ".", "scope": ".",
                "display": "standalone", "orientation": "portrait", "background_color": "#FFFFFF",
                "theme_color": SEED_COLOR, "prefer_related_applications": False, "icons": icons,
                "description": "Score pad, solo play against bots and the Race Around Europe journey checker "
                               "for the Boomerang card games, on this phone, offline."}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


#: Added to the page: the iOS icon, and the service worker (the site's offline cache) and persistent storage
#: requests. The app's scripts (python.js, flutter_bootstrap.js) load once the service worker handles the
#: page's requests: on a first visit it stores each file as the app fetches it (see client/sw.js), so nothing
#: is fetched twice; on later visits it is there already, and nothing waits.
PAGE_ADDITIONS = """  <meta name="theme-color" content="__THEME__">
  <link rel="apple-touch-icon" sizes="180x180" href="icons/apple-touch-icon-180.png">
  <script>
    // The Flet client loads Rive's animation runtime from a CDN at start; the app shows no Rive animation,
    // and nothing may come from another host: that one script is never requested (as when offline).
    (() => {
      const src = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
      Object.defineProperty(HTMLScriptElement.prototype, "src", {
        get() { return src.get.call(this); },
        set(url) { if (!String(url).startsWith("__RIVE_CDN__")) src.set.call(this, url); },
      });
    })();
    // A new release installs while this page runs the one it has, and takes over once this page's start is
    // done (python.js says so), never during it: a start must not load files of two releases (see sw.js).
    const tourpadStartDone = new Promise((done) => addEventListener("tourpad:start-done", done, {once: true}));
    function tourpadTakeOverWhenStarted(registration) {
      const offer = (worker) => tourpadStartDone.then(() => worker.postMessage("tourpad:take-over"));
      if (registration.waiting) offer(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        if (worker) worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(worker); });
      });
    }
    // Resolves once the site's service worker handles this page's requests (or there is none to wait for).
    const tourpadCaching = new Promise((ready) => {
      const workers = navigator.serviceWorker;
      if (!workers) return ready();
      workers.addEventListener("controllerchange", () => ready(), {once: true});
      if (workers.controller) {
        ready();
        // a returning visit: look for a new version of the site now, not only when the browser gets round to it
        workers.getRegistration().then((registration) => {
          if (!registration) return;
          tourpadTakeOverWhenStarted(registration);
          return registration.update();
        }).catch((e) => console.warn("offline cache:", e));
        return;
      }
      // sw.js is always asked of the host, never taken from the HTTP cache (whatever the host's Cache-Control)
      workers.register("sw.js", {updateViaCache: "none"}).then((registration) => {
        tourpadTakeOverWhenStarted(registration);
        const installing = registration.installing || registration.waiting;
        if (installing) {
          installing.addEventListener("statechange", () => { if (installing.state === "redundant") ready(); });
        } else if (registration.active && registration.active.state === "activated" && !workers.controller) {
          ready();  // a reload that bypassed the worker (shift-reload): it will not take this page
        }
      }).catch((e) => { console.warn("offline cache:", e); ready(); });
    });
    // The app's scripts, in order, once the offline cache sees their requests.
    tourpadCaching.then(() => {
      for (const name of ["python.js", "flutter_bootstrap.js"]) {
        const script = document.createElement("script");
        script.src = name;
        script.async = false;
        document.head.append(script);
      }
    });
    // Games live in IndexedDB; ask the browser not to evict it under storage pressure (where it allows).
    if (navigator.storage && navigator.storage.persist) {
      navigator.storage.persist().then((granted) => console.log("persistent storage:", granted));
    }
  </script>
"""
#: The Flet client's own script tags, loaded by PAGE_ADDITIONS instead.
APP_SCRIPT_TAGS = ('  <script src="python.js"></script>\n', '  <script src="flutter_bootstrap.js" async></script>\n')


def _patch_index(out: Path, prefix: str) -> None:
    from flet.controls.types import RouteUrlStrategy
    from flet_web.patch_index import patch_font_manifest_json, patch_index_html

    # the bundled Roboto is the app's font offline (as `tourpad app` serves it); without it text has no glyphs
    patch_font_manifest_json(str(out / "assets" / "FontManifest.json"))
    _drop_unused_fonts(out / "assets")
    index = out / "index.html"
    patch_index_html(str(index), base_href=prefix, app_name=APP_NAME, app_description=APP_NAME, pyodide=True,
                     pyodide_script_path="main.py", pyodide_version="local", app_package_url="app.tar.gz",
                     route_url_strategy=RouteUrlStrategy.HASH, no_cdn=True)
    text = index.read_text(encoding="utf-8")
    # a module worker imports Pyodide: a bare relative name is not a URL there, so give the full one
    text = text.replace('flet.pyodideUrl="pyodide/pyodide.mjs";',
                        'flet.pyodideUrl=new URL("pyodide/pyodide.mjs", document.baseURI).href;')
    if "</head>" not in text:
        raise PublishError("the Flet client's index.html has no </head>; this flet_web is not supported")
    for tag in APP_SCRIPT_TAGS:
        if text.count(tag) != 1:
            raise PublishError(f"the Flet client's index.html has no {tag.strip()}; this flet_web is not supported")
        text = text.replace(tag, "")
    additions = PAGE_ADDITIONS.replace("__RIVE_CDN__", RIVE_CDN).replace("__THEME__", SEED_COLOR)
    index.write_text(text.replace("</head>", additions + PAGE_SCRIPT + "</head>", 1), encoding="utf-8")


def _drop_unused_fonts(assets: Path) -> None:
    manifest = assets / "FontManifest.json"
    unused = tuple(f"packages/{name}/" for name in UNUSED_FONT_PACKAGES)
    families = json.loads(manifest.read_text())
    manifest.write_text(json.dumps([f for f in families if not f["family"].startswith(unused)]))
    for name in UNUSED_FONT_PACKAGES:
        for font in [*(assets / "packages" / name).rglob("*.ttf"), *(assets / "packages" / name).rglob("*.otf")]:
            font.unlink()


def _patch_bootstrap(out: Path) -> None:
    """Flutter's loader would replace our service worker with its own, which unregisters itself."""
    path = out / "flutter_bootstrap.js"
    text = path.read_text(encoding="utf-8")
    patched, count = re.subn(r"\n\s*serviceWorkerSettings:\s*\{[^{}]*\},", "", text)
    if count != 1:
        raise PublishError("cannot find Flutter's service worker settings in flutter_bootstrap.js; "
                           "this flet_web is not supported")
    path.write_text(patched, encoding="utf-8")


#: The service worker's list names each file with this many bytes of its SHA-256 (as hex).
HASH_BYTES = 8
#: Never in the worker's list: the worker itself, publish's marker, and the precompressed copies (a host sends
#: one in place of its file; the browser never asks for them by name).
UNLISTED = re.compile(r"^(sw\.js|" + re.escape(MARKER) + r")$|\.(br|gz)$")


def site_files(out: Path) -> dict[str, str]:
    """Every file a browser may fetch from the site, with the hash of its content (what the service worker
    compares between releases)."""
    files = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if path.is_file() and not UNLISTED.search(rel):
            files[rel] = hashlib.sha256(path.read_bytes()).hexdigest()[:HASH_BYTES * 2]
    return files


def _write_service_worker(out: Path) -> str:
    files = site_files(out)
    template = (Path(__file__).parent / "client" / "sw.js").read_text(encoding="utf-8")
    listing = json.dumps(files, indent=0)
    version = hashlib.sha256((template + listing).encode()).hexdigest()[:16]
    text = template.replace("__VERSION__", version).replace("__HASH_BYTES__", str(HASH_BYTES)) \
        .replace("__FILES__", listing)
    (out / "sw.js").write_text(text, encoding="utf-8")
    return version
