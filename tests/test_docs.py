"""The words for the next person stay readable (issue 37): the README is a front door that starts with the two
commands, and each guide in docs/ says what is true now in at most 25 KB (history lives in git)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: A guide longer than this has become a lab notebook: what was tried and when belongs in the commits.
MAX_DOC_BYTES = 25_000
MAX_README_LINES = 150


def test_the_readme_is_a_front_door_that_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines (at most {MAX_README_LINES})"
    first_block = lines[lines.index("```sh") + 1:lines.index("```")]
    assert [line.split()[:2] for line in first_block] == [["make", "run"], ["make", "test"]]


@pytest.mark.parametrize("doc", sorted(path.name for path in (ROOT / "docs").glob("*.md")))
def test_each_guide_fits_in_25_kb(doc):
    size = (ROOT / "docs" / doc).stat().st_size
    assert size <= MAX_DOC_BYTES, f"docs/{doc} is {size} bytes (at most {MAX_DOC_BYTES}): leave its history to git"
