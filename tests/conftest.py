"""Shared fixtures: every test gets its own tourpad data folder, never the user's."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=25)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path, monkeypatch):
    data = tmp_path / "tourpad-data"
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(data))
    return data


@pytest.fixture(autouse=True)
def warm_tourpad_processes(monkeypatch):
    """`tourpad host` processes the tests start (benchmarks.table) are forked from a process that has their
    imports done (tests/forked_tourpad.py): the same command, a second of a core less each."""
    from forked_tourpad import fork_tourpad

    from benchmarks import table

    monkeypatch.setattr(table, "launch_tourpad", fork_tourpad)


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """The CLI follows the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and makes it the process's
    default: tests that read its English run in an English terminal whatever the machine's (a test of French
    sets its own), and every test starts from the English default, whatever a French command before it chose."""
    from rules.i18n import DEFAULT_LANGUAGE, set_default_language

    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    yield
    set_default_language(DEFAULT_LANGUAGE)


@pytest.fixture
def hosting(tmp_path, monkeypatch):
    """The app's table mode hosting on a table service in this test's folder; yields (service, the pad's
    store), both closed after the test."""
    from benchmarks import table_flet
    from scorer.pad.store import EventStore
    from scorer.table.service import TableService
    from scorer.ui import table as table_ui

    service = TableService(tmp_path / "tables.sqlite3")
    store = EventStore(tmp_path / "games.sqlite3")
    monkeypatch.setattr(table_ui, "HOSTING", table_ui.Hosting(service, table_flet.HOST_URL))
    yield service, store
    store.close()
    service.close()


@pytest.fixture(scope="session")
def australia():
    from rules.editions import load_edition

    return load_edition("australia")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The browser tests (10–360 s each) come first, the longest of them (marked `minutes`, longest first by the
    marker's estimate) before the rest, then the other slow ones (marked `slow`), and the short tests after:
    with `--dist worksteal` (Makefile) the worker that runs out takes tests from the end of the other's queue,
    so the short ones even out the finish instead of a long test starting last while the other worker has
    nothing left. The four-phone test (4–6 minutes in the suite) started fifth of the six long ones in one run
    and ran its last four minutes alone. The order within each group stays pytest-randomly's (this hook runs
    after its shuffle; the sort is stable)."""
    def group(item) -> tuple[int, float]:
        if "e2e" in item.keywords:
            minutes = item.get_closest_marker("minutes")
            return (0, -float(minutes.args[0]) if minutes.args else -1.0) if minutes else (1, 0.0)
        return (2, 0.0) if "slow" in item.keywords else (3, 0.0)

    items.sort(key=group)


def pytest_terminal_summary(terminalreporter, config):
    """Tests run in a random order (pytest-randomly); its seed goes at the end of the run, where a failure
    is read (`-q` hides the plugin's header line), so the same order can be replayed."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"test order: pytest -p randomly --randomly-seed={seed} replays it")
