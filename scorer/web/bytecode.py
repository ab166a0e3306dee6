"""Compiled bytecode for the published app's start, kept by the browser between visits.

Pyodide installs the wheels as source, and Python compiles every module the first screen imports at every
start (CPython's own .pyc cache lives in Pyodide's in-memory file system, gone with the page). So on the
first visit, once the app is up, `bundle()` compiles the modules then loaded from the wheels into one
archive, which the site's Python worker keeps in the browser's Cache storage (keyed by the wheels' hashes,
so a new version of the site never reads an old bundle); on later visits `install()` puts each .pyc in its
`__pycache__` before the app is imported.

The .pyc files are "unchecked hash" ones (PEP 552): Python uses them without reading the source's time
stamps, which Pyodide sets afresh when it unpacks a wheel. That is safe only because the bundle belongs to
exactly the wheels it was compiled from (the key above).
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import os
import py_compile
import sys
import tempfile
import zipfile
from pathlib import Path


def site_packages() -> Path:
    """Where the wheels are unpacked: the folder holding this package (in the browser, site-packages)."""
    return Path(__file__).resolve().parents[2]


def loaded_sources(site: Path) -> list[Path]:
    """The source file of every module now imported from `site` (the wheels), in a stable order."""
    found = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None)
        if origin and origin.endswith(".py") and Path(origin).is_relative_to(site):
            found.add(Path(origin))
    return sorted(found)


async def bundle(site: Path | None = None) -> bytes:
    """A zip of the .pyc of every module loaded from the wheels, each at its path under `site`. It yields
    to the event loop between modules, so the app stays responsive while it compiles."""
    site = site or site_packages()
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory() as scratch, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        compiled = Path(scratch) / "module.pyc"
        for source in loaded_sources(site):
            py_compile.compile(str(source), cfile=str(compiled), doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            target = Path(importlib.util.cache_from_source(str(source))).relative_to(site)
            archive.writestr(target.as_posix(), compiled.read_bytes())
            await asyncio.sleep(0)
    return buffer.getvalue()


def install(data: bytes, site: Path | None = None) -> int:
    """Put each .pyc of a bundle in place; returns how many. A bundle naming a path outside `site` is refused
    whole before anything is written. (Paths are checked as text: resolving each one on Pyodide's file system
    costs more than the rest of the install.)"""
    site_text = os.path.normpath(site or site_packages())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        targets = []
        for member in members:
            target = os.path.normpath(os.path.join(site_text, member.filename))
            folder, name = os.path.split(target)
            if not target.startswith(site_text + os.sep) or not name.endswith(".pyc") \
                    or os.path.basename(folder) != "__pycache__":
                raise ValueError(f"a bytecode bundle may only hold __pycache__/*.pyc files in {site_text}, "
                                 f"not {member.filename}")
            targets.append(target)
        made: set[str] = set()
        for member, target in zip(members, targets, strict=True):
            folder = os.path.dirname(target)
            if folder not in made:
                os.makedirs(folder, exist_ok=True)
                made.add(folder)
            with open(target, "wb") as file:
                file.write(archive.read(member))
    return len(members)
