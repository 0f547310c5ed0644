"""The rules engine: pure, no I/O, deterministic from a deck order.

``cards`` and ``tricks`` serve any tarot game of this pack; ``sicilian`` is the Sicilian game;
``records`` reads and writes game records; ``match`` runs one deal per seat.
"""

from .actions import parse_action, action_text
from .sicilian import Deal, IllegalAction, Options

__all__ = ["Deal", "IllegalAction", "Options", "parse_action", "action_text"]
