"""Sicilian Tarocchi (seed 000, RULINGS.md R1-R17) as a registered game. Its rules engine
stays in ``tarocchi.engine.sicilian`` and its deck in ``tarocchi.engine.cards``, compiled
with mypyc where they were first written; this module names them."""

from __future__ import annotations

from ..engine.actions import action_text, parse_action
from ..engine.cards import DECK
from ..engine.game import Game, register
from ..engine.sicilian import DISCARD_RULE, Deal, Options

SICILIAN = register(Game(
    name="sicilian", title="Tarocchi Siciliani", seats=(3, 4), deck=DECK, deal=Deal, options=Options,
    parse_action=parse_action, action_text=action_text, discard_rule=DISCARD_RULE,
))
