"""The games, each in its own module, each registered by name (``tarocchi.engine.game``):

- ``sicilian``: Tarocchi Siciliani, 63 cards, three or four seats (seed 000, RULINGS.md R1-R17);
  its rules engine is ``tarocchi.games.sicilian``, where it was written first.
- ``renaissance``: the Renaissance three-hand game, 78 cards (seed 001, RENAISSANCE.md A1-A17).
- ``calabresella``: Calabresella with the Sicilian cards, three seats (seed 003, CALABRESELLA.md C1-C22).
- ``ottocento``: the Bolognese Tarocchino for four in two partnerships, to 800 (seed 002, OTTOCENTO.md B1-B27).

docs/games.md says how to add one.
"""

# Importing a game registers it, in this order: the order games are offered in, Sicilian first.
# (tarocchi.engine refuses to import when a compiled game is older than its source.)
from . import sicilian  # noqa: F401, I001
from . import renaissance  # noqa: F401, E402
from . import calabresella  # noqa: F401, E402
from . import ottocento  # noqa: F401, E402
