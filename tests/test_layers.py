"""The layers hold (issue 39): import-linter's contracts in pyproject.toml (engine <- games <-
bots <- server <- cli; inside the server its core below its features below the app, the
features independent of each other, each store backend importing only the shared part), and
no module of the server reaches for another's private names. A cycle fails here."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SERVER = ROOT / "tarocchi" / "server"
NAMEDTUPLE = {"_replace", "_asdict", "_fields", "_make"}  # (a named tuple's public methods)


def test_the_import_contracts_are_kept():
    lint = pathlib.Path(sys.executable).with_name("lint-imports")  # (the test extra's, beside this Python)
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and "5 kept" in done.stdout


def test_no_module_of_the_server_uses_another_modules_private_names():
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} imports {a.name}"
                          for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            elif (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                  and node.attr not in NAMEDTUPLE
                  and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} reads {ast.unparse(node)}")
    assert found == []
