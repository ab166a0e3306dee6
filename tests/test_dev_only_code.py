"""The benchmarks (with the photo generators and scripted games the tests share) are dev-only code: the wheel
leaves them out, and `tourpad bench` finds them beside scorer/ in a checkout, or says plainly it needs one."""

from __future__ import annotations

import warnings
from pathlib import Path

from setuptools.config.pyprojecttoml import read_configuration
from typer.testing import CliRunner

from scorer.cli import app
from scorer.commands import bench

ROOT = Path(__file__).resolve().parents[1]


def wheel_packages() -> list[str]:
    """The packages `pip wheel .` puts in the wheel: setuptools' own reading of pyproject.toml's find config."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # [tool.setuptools] in pyproject.toml is "beta" to setuptools
        config = read_configuration(ROOT / "pyproject.toml", expand=True)
    return config["tool"]["setuptools"]["packages"]


def test_the_wheel_installs_no_benchmarks():
    packages = wheel_packages()
    assert {"rules", "scorer", "scorer.ui", "printables", "assets"} <= set(packages)
    assert (ROOT / "benchmarks" / "__init__.py").is_file()  # the checkout has them; the wheel does not
    assert [name for name in packages if name.split(".")[0] == "benchmarks"] == []


def test_bench_finds_the_benchmarks_beside_scorer_in_a_checkout(tmp_path):
    assert bench.checkout_root() == ROOT
    assert bench.checkout_root(tmp_path / "site-packages") is None


def test_bench_without_a_checkout_says_so_on_one_line(tmp_path, monkeypatch):
    (tmp_path / "scorer").mkdir()  # an installed tourpad: scorer/ in site-packages, no benchmarks beside it
    in_checkout = bench.checkout_root
    monkeypatch.setattr(bench, "checkout_root", lambda: in_checkout(tmp_path))
    result = CliRunner().invoke(app, ["bench", "race"])
    assert result.exit_code == 2
    assert "tourpad bench runs from a checkout of tourpad's repository" in result.output
    assert "Traceback" not in result.output
