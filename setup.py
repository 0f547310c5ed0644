"""Compiles the rules engine's hot modules to C with mypyc (bench/engine_bench.py --sources: about three times
as fast). The Python sources stay the reference: with ``TAROCCHI_PURE=1`` nothing is compiled
and they run as they are.

Every other setting of the package lives in pyproject.toml; this file only adds the extensions
and ``tarocchi/engine/_compiled.json``, the hashes of the sources they were built from, which
``tarocchi.engine`` checks so that a compiled module never runs rules its source no longer has."""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

ENGINE = Path("tarocchi/engine")
# The modules random playouts, search and the server spend their time in.
COMPILED = ["bits.py", "deck.py", "cards.py", "tricks.py", "actions.py", "sicilian.py", "playout.py"]
RECORD = ENGINE / "_compiled.json"


def remove_compiled() -> None:
    """Leftovers of an earlier compiled build would shadow the sources."""
    for path in [*ENGINE.glob("*.so"), *ENGINE.glob("*.pyd"), *Path().glob("tarocchi_engine__mypyc*"), RECORD]:
        path.unlink(missing_ok=True)


ext_modules = []
if os.environ.get("TAROCCHI_PURE", "") in ("", "0"):
    from mypyc.build import mypycify

    ext_modules = mypycify([str(ENGINE / name) for name in COMPILED], opt_level="3",
                           group_name="tarocchi_engine")
    RECORD.write_text(json.dumps(
        {name: hashlib.sha256((ENGINE / name).read_bytes()).hexdigest() for name in COMPILED},
        indent=1) + "\n")
else:
    remove_compiled()

setup(ext_modules=ext_modules)
