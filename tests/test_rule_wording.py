"""Every rule sentence is worded in `rules/wording.py`: no string of the app, the table, the command line or
the printables holds a rule word `rules.wording.RULE_WORDS` names, nor a hard-coded round count."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rules import wording

ROOT = Path(__file__).resolve().parent.parent
#: "4 rounds", "1 round": the number of rounds is the rules' (`rules.engine.ROUNDS`), said by `rules.wording`.
ROUND_COUNT = re.compile(r"\b\d+ rounds?\b", re.IGNORECASE)


def strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module (f-strings' literal parts too), its docstrings left out: they speak to
    maintainers, not players."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def rule_words_outside_rules(root: Path) -> list[str]:
    found = []
    for package in ("scorer", "printables"):
        for path in sorted((root / package).rglob("*.py")):
            for line, text in strings(path):
                said = [word for word in sorted(wording.RULE_WORDS) if word in text.casefold()]
                said += ROUND_COUNT.findall(text)
                found += [f"{path.relative_to(root)}:{line}: {word!r} in {text[:80]!r}" for word in said]
    return found


def test_no_rule_sentence_is_worded_outside_rules():
    assert rule_words_outside_rules(ROOT) == []


def test_every_rule_word_is_one_rules_wording_says():
    """The list is of words `rules/wording.py` owns: each is in one of its messages."""
    tree = ast.parse((ROOT / "rules" / "wording.py").read_text(encoding="utf-8"))
    messages = " ".join(arg.value.casefold() for node in ast.walk(tree)
                        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("_", "N_", "ngettext")
                        for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    assert [word for word in sorted(wording.RULE_WORDS) if word not in messages] == []
