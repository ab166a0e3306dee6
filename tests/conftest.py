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


@pytest.fixture(scope="session")
def australia():
    from rules.editions import load_edition

    return load_edition("australia")
