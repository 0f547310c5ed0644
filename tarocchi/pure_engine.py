"""The engine run from its Python sources, beside the compiled one (setup.py compiles the hot
modules with mypyc). The sources are the reference: the tests compare the two, the docs'
examples are read from the sources (compiled functions keep no docstrings to find them in), and
the benchmark measures both in one run.

>>> from tarocchi.pure_engine import pure_game
>>> pure_game("sicilian").Deal.from_seed(3, 0, 7).phase
'speak'
"""

from __future__ import annotations

import atexit
import importlib
import shutil
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

import tarocchi.engine
import tarocchi.games

ENGINE = Path(tarocchi.engine.__file__).parent
GAMES = Path(tarocchi.games.__file__).parent
PACKAGE = "tarocchi_pure"
_home: str | None = None


def is_compiled(module: ModuleType) -> bool:
    return any(str(module.__file__).endswith(suffix) for suffix in EXTENSION_SUFFIXES)


def pure(name: str, package: str = "engine") -> ModuleType:
    """``tarocchi.<package>.<name>`` from its source, in a copy of the engine and the games of
    sources only (so that their relative imports are the sources too)."""
    global _home
    if _home is None:
        _home = tempfile.mkdtemp(prefix="tarocchi-pure-")
        atexit.register(shutil.rmtree, _home, ignore_errors=True)
        root = Path(_home) / PACKAGE
        root.mkdir()
        (root / "__init__.py").write_text("")
        for folder in (ENGINE, GAMES):
            (root / folder.name).mkdir()
            for source in folder.glob("*.py"):
                shutil.copy(source, root / folder.name / source.name)
        sys.path.insert(0, _home)
    return importlib.import_module(f"{PACKAGE}.{package}.{name}")


def pure_game(name: str) -> ModuleType:
    """``tarocchi.games.<name>`` from its source."""
    return pure(name, "games")
