"""The games, each in its own module, each registered by name (``tarocchi.engine.game``):

- ``sicilian``: Tarocchi Siciliani, 63 cards, three or four seats (seed 000, RULINGS.md R1-R17);
  its rules engine is ``tarocchi.engine.sicilian``, where it was written first.
- ``renaissance``: the Renaissance three-hand game, 78 cards (seed 001, RENAISSANCE.md A1-A17).

docs/games.md says how to add one.
"""

from pathlib import Path

from ..engine import stale_compiled

if _stale := stale_compiled(Path(__file__).parent):
    # The compiled module would shadow its source and run rules the source no longer has.
    raise ImportError(
        f"tarocchi.games: {', '.join(_stale)} changed since it was compiled; compile again with "
        "`bash scripts/setup.sh`, or run the sources as they are with `TAROCCHI_PURE=1 bash scripts/setup.sh`")

from . import renaissance, sicilian  # noqa: E402, F401 (importing a game registers it)
