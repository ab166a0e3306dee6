"""The published app's bytecode bundle (scorer/web/bytecode.py): what the first visit compiles is what a later
visit imports, without compiling and without trusting anything outside the wheels' folder. In the browser:
tests/e2e/test_publish_e2e.py and `tourpad bench publish` (its cached visit starts with the bundle)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import io
import shutil
import sys
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.web.bytecode import bundle, install, loaded_sources

PACKAGE = "tourpad_bytecode_probe"


def run_apart(coroutine):
    """`asyncio.run` on a thread of its own: the browser tests' Playwright keeps an event loop running on the
    main thread when random ordering runs them first in this worker."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def wheels_folder(tmp_path):
    """A site-packages folder with one package, imported from it (as Pyodide imports the app's wheels)."""
    site = tmp_path / "site-packages"
    (site / PACKAGE).mkdir(parents=True)
    (site / PACKAGE / "__init__.py").write_text("")
    (site / PACKAGE / "answer.py").write_text("VALUE = 'compiled on the first visit'\n")
    sys.path.insert(0, str(site))
    importlib.import_module(f"{PACKAGE}.answer")
    yield site
    sys.path.remove(str(site))
    _forget_package()


def _forget_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_the_bundle_holds_the_bytecode_of_exactly_the_modules_loaded_from_the_wheels(wheels_folder):
    assert [p.relative_to(wheels_folder).as_posix() for p in loaded_sources(wheels_folder)] == [
        f"{PACKAGE}/__init__.py", f"{PACKAGE}/answer.py"]
    with zipfile.ZipFile(io.BytesIO(run_apart(bundle(wheels_folder)))) as archive:
        names = sorted(archive.namelist())
        tag = sys.implementation.cache_tag
        assert names == [f"{PACKAGE}/__pycache__/__init__.{tag}.pyc", f"{PACKAGE}/__pycache__/answer.{tag}.pyc"]
        header = archive.read(names[1])[:16]
    assert header[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(header[4:8], "little") == 0b01  # hash-based, source not checked (PEP 552)


def test_a_later_visit_imports_the_bundled_bytecode_without_the_source_time_stamps(wheels_folder, tmp_path):
    data = run_apart(bundle(wheels_folder))
    sys.path.remove(str(wheels_folder))
    _forget_package()
    # the next visit: the wheels unpacked afresh (new time stamps), then the bundle put in place
    again = tmp_path / "again" / "site-packages"
    shutil.copytree(wheels_folder, again, ignore=shutil.ignore_patterns("__pycache__"))
    assert install(data, again) == 2
    # what the module runs is the bundle's code: a changed source (never the case for one set of wheels,
    # which the bundle's key guarantees) is not even read
    (again / PACKAGE / "answer.py").write_text("VALUE = 'compiled again'\n")
    sys.path.insert(0, str(again))
    try:
        assert importlib.import_module(f"{PACKAGE}.answer").VALUE == "compiled on the first visit"
    finally:
        sys.path.remove(str(again))
        sys.path.insert(0, str(wheels_folder))  # the fixture's teardown removes it


@given(st.sampled_from(["../evil.pyc", "/etc/evil.pyc", "pkg/evil.pyc", "pkg/__pycache__/evil.py",
                        "pkg/__pycache__/../../../evil.pyc"]))
def test_a_bundle_with_anything_but_pycache_bytecode_is_refused_and_nothing_is_written(tmp_path_factory, bad):
    site = tmp_path_factory.mktemp("site-packages")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("pkg/__pycache__/good.cpython-314.pyc", b"bytecode")
        archive.writestr(bad, b"anything")
    with pytest.raises(ValueError, match=r"may only hold __pycache__/\*\.pyc files in .*, not "):
        install(buffer.getvalue(), site)
    assert list(site.rglob("*")) == []
