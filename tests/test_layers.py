"""The import contracts in pyproject.toml (`lint-imports`, run by `make lint`) hold for the code as it is,
and break when someone adds an import that points up a layer or closes a circle."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.application import use_cases
from importlinter.application.app_config import settings
from importlinter.configuration import configure

PYPROJECT = str(Path(__file__).resolve().parents[1] / "pyproject.toml")


class GraphWithExtraImport:
    """The project's real import graph, plus one import the test pretends somebody wrote."""

    def __init__(self, builder, importer: str, imported: str) -> None:
        self.builder, self.importer, self.imported = builder, importer, imported

    def build(self, **options):
        graph = self.builder.build(**options)
        graph.add_import(importer=self.importer, imported=self.imported, line_number=1, line_contents="import")
        return graph


def keeps(contract: str | None = None, extra: tuple[str, str] | None = None) -> bool:
    """Whether the code (with `extra`, an import somebody pretends to add) keeps the contract with this id
    (every contract when None), through import-linter's own entry point, as `lint-imports` runs it."""
    configure()  # import-linter's settings, as lint-imports sets them
    builder = settings.GRAPH_BUILDER
    if extra is not None:
        settings.configure(GRAPH_BUILDER=GraphWithExtraImport(builder, *extra))
    try:
        # debug mode: a contract that cannot be checked raises, rather than reading as broken
        return use_cases.lint_imports(config_filename=PYPROJECT, limit_to_contracts=(contract,) if contract else (),
                                      cache_dir=None, is_debug_mode=True, no_logo=True)
    finally:
        configure()


def contract_names() -> dict[str, str]:
    configure()
    options = use_cases.read_user_options(PYPROJECT)
    return {c["id"]: c["name"] for c in options.contracts_options}


def test_the_code_keeps_every_contract():
    assert set(contract_names()) == {"layers", "scorer-placed", "acyclic", "flet-in-screens", "app-screens-light",
                                     "app-screens-no-photo-reader", "scan-rows-pure"}
    assert keeps()


@pytest.mark.parametrize(("importer", "imported", "contract"), [
    ("rules.scoring", "printables.scorepad", "layers"),  # the rules engine may not know its printables
    ("printables.scorepad", "scorer.pad.game", "layers"),
    ("scorer.solo.game", "benchmarks.engine", "layers"),  # the app never needs a benchmark
    ("benchmarks.table", "scorer.commands.common", "layers"),  # benchmarks use the library, not the CLI
    ("scorer.sim.boomerang", "scorer.commands.common", "scorer-placed"),  # library code printing through the CLI
    ("scorer.pad.errors", "scorer.pad.game", "acyclic"),  # pad.game imports pad.errors: a circle
    ("rules.edition", "rules.scoring", "acyclic"),  # rules.scoring imports rules.edition
    ("rules.engine", "rules.bots.hard", "acyclic"),  # a package-level circle: rules.bots imports rules.engine
    ("scorer.pad.game", "scorer.ui.app", "layers"),  # the pad stands under the screens
    ("scorer.pad.store", "scorer.table.store", "layers"),  # ... and under the table
    ("scorer.scan", "scorer.pad.game", "layers"),  # reading photos knows no game
    ("scorer.table.sheet", "scorer.solo.view", "layers"),  # the table and solo stand side by side, apart
    ("scorer.packs", "scorer.scan", "layers"),  # the core knows no feature
    ("scorer.routes", "flet", "flet-in-screens"),  # the routes, pad and table are plain Python, no Flet
    ("scorer.table.service", "scorer.ui.app", "flet-in-screens"),  # ... not even through a screen
    ("scorer.pad.townmap", "reportlab.lib.units", "app-screens-light"),
    ("scorer.ui.sheet", "scorer.table.api", "app-screens-light"),  # a screen that loads the server, through it
    ("scorer.ui.teach", "cv2", "app-screens-no-photo-reader"),  # the scanner loads OpenCV, never a screen
    ("scorer.scan.rows", "numpy", "scan-rows-pure"),  # the row logic runs in the browser's Python
])
def test_an_upward_import_or_a_new_cycle_breaks_a_contract(importer, imported, contract):
    assert keeps(contract)  # the contract holds for the code as it is
    assert not keeps(contract, (importer, imported))


def import_graph():
    """Every import in the contracts' packages, as import-linter reads them: those inside functions too."""
    configure()
    options = use_cases.read_user_options(PYPROJECT)
    return grimp.build_graph(*options.session_options["root_packages"], cache_dir=None)


def modules_in_a_cycle(graph) -> set[str]:
    """The modules that import themselves through others: an import of a module whose own imports lead back."""
    return {importer for importer in graph.modules for imported in graph.find_modules_directly_imported_by(importer)
            if imported != importer and graph.chain_exists(importer=imported, imported=importer)}


def test_no_module_imports_itself_through_others():
    # the acyclic contract compares siblings only: a package and the modules in it (a registry that imports
    # its entries, each importing the registry) could still go round, and that is checked here
    graph = import_graph()
    assert modules_in_a_cycle(graph) == set()
    # rules.edition imports rules.model inside a function only, and that import counts
    graph.add_import(importer="rules.model", imported="rules.edition")
    assert modules_in_a_cycle(graph) == {"rules.model", "rules.edition"}


def contract(contract_id: str) -> dict:
    configure()
    options = use_cases.read_user_options(PYPROJECT)
    return next(c for c in options.contracts_options if c["id"] == contract_id)


def test_scorer_has_the_same_layers_in_both_contracts():
    # `layers` orders the whole project, `scorer-placed` checks that every module of scorer has a place: a
    # module added to one and not the other would be half checked
    in_project = [layer.replace("scorer.", "") for layer in contract("layers")["layers"]
                  if layer.startswith("scorer.")]
    assert in_project == contract("scorer-placed")["layers"]


#: Imports every module of the packages named in argv[1] (a JSON list), then prints the top-level names of
#: every module the interpreter has loaded.
IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
for name in json.loads(sys.argv[1]):
    module = importlib.import_module(name)
    for found in pkgutil.walk_packages(getattr(module, "__path__", []), name + "."):
        importlib.import_module(found.name)
print(json.dumps(sorted({loaded.split(".")[0] for loaded in sys.modules})))
"""


def test_importing_every_screen_loads_no_server_pdf_or_photo_library():
    # what runs in the browser may import the scanner, which imports OpenCV and zxing-cpp only when it reads a
    # photo (neither has a browser build): importing the screens must load neither, nor a server or PDF library
    light, no_reader = contract("app-screens-light"), contract("app-screens-no-photo-reader")
    assert light["source_modules"] == no_reader["source_modules"]
    done = subprocess.run([sys.executable, "-c", IMPORT_EVERYTHING, json.dumps(light["source_modules"])],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    assert {"flet", "scorer", "rules"} <= loaded  # the screens were imported
    assert loaded & {*light["forbidden_modules"], *no_reader["forbidden_modules"]} == set()
