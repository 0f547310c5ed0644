"""The rules engine: pure, no I/O, deterministic from a deck order.

``game`` is the Game value, its registry and the State protocol; ``deck``, ``tricks``,
``discards`` serve any tarot game; ``records`` reads and writes game records of any game;
``match`` runs a match; ``playout`` plays at random; ``trickplay`` is the trick play every game
shares (hands, trick, leader, play, close, rollout). ``cards`` is the Sicilian pack and
``actions`` its notation, which Sicilian and Calabresella share; the games themselves live in
``tarocchi.games``, and nothing here imports them.

The hot modules are usually compiled with mypyc (``setup.py``); the sources are the reference.
"""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path


def stale_compiled(folder: Path) -> list[str]:
    """The compiled modules in ``folder`` whose source has changed since they were built
    (``_compiled.json`` holds the hash of each source at build time)."""
    built = {p for suffix in EXTENSION_SUFFIXES for p in folder.glob(f"*{suffix}")}
    if not built:
        return []
    record = folder / "_compiled.json"
    hashes = json.loads(record.read_text()) if record.exists() else {}
    stale = []
    for path in built:
        source = folder / (path.name.split(".")[0] + ".py")
        if source.exists() and hashes.get(source.name) != hashlib.sha256(source.read_bytes()).hexdigest():
            stale.append(source.name)
    return sorted(stale)


# The compiled group (setup.py) is the engine and the compiled games beside it: one check for all.
if _stale := stale_compiled(Path(__file__).parent) + stale_compiled(Path(__file__).parent.parent / "games"):
    # The compiled module would shadow its source and run rules the source no longer has.
    raise ImportError(
        f"tarocchi.engine: {', '.join(_stale)} changed since it was compiled; compile again with "
        "`bash scripts/setup.sh`, or run the sources as they are with `TAROCCHI_PURE=1 bash scripts/setup.sh`")

from .game import IllegalAction  # noqa: E402

__all__ = ["IllegalAction", "stale_compiled"]
