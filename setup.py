"""Compiles the rules engine's hot modules to C with mypyc (bench/engine_bench.py --sources: about three times
as fast). The Python sources stay the reference: with ``TAROCCHI_PURE=1`` nothing is compiled
and they run as they are.

Every other setting of the package lives in pyproject.toml; this file only adds the extensions
and a ``_compiled.json`` in each compiled package, the hashes of the sources they were built
from, which the package checks so that a compiled module never runs rules its source no longer
has (``tarocchi.engine.stale_compiled``)."""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

# The modules random playouts, search and the server spend their time in, by package. The
# games' deals inherit the compiled engine's trick play (trickplay.TrickPlay), so a compiled game is compiled
# with the engine, in one group.
COMPILED = {
    Path("tarocchi/engine"): ["bits.py", "deck.py", "cards.py", "tricks.py", "playout.py", "trickplay.py"],
    Path("tarocchi/games"): ["sicilian.py", "renaissance.py", "calabresella.py", "ottocento.py"],
}
RECORD = "_compiled.json"


def remove_compiled() -> None:
    """Leftovers of an earlier compiled build would shadow the sources."""
    for folder in COMPILED:
        for path in [*folder.glob("*.so"), *folder.glob("*.pyd"), folder / RECORD]:
            path.unlink(missing_ok=True)
    for path in Path().glob("tarocchi_engine__mypyc*"):
        path.unlink()


def remove_stale() -> None:
    """A module compiled once and since moved or no longer compiled would still be imported
    from its leftover .so (``tarocchi.engine.sicilian`` after Sicilian moved to the games)."""
    for folder, names in COMPILED.items():
        for path in [*folder.glob("*.so"), *folder.glob("*.pyd")]:
            if path.name.split(".")[0] + ".py" not in names:
                path.unlink()


ext_modules = []
if os.environ.get("TAROCCHI_PURE", "") in ("", "0"):
    from mypyc.build import mypycify

    remove_stale()

    ext_modules = mypycify([str(folder / name) for folder, names in COMPILED.items() for name in names],
                           opt_level="3", group_name="tarocchi_engine")
    for folder, names in COMPILED.items():
        (folder / RECORD).write_text(json.dumps(
            {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in names}, indent=1) + "\n")
else:
    remove_compiled()

setup(ext_modules=ext_modules)
