"""Sicilian Tarocchi (seed 000, RULINGS.md R1-R17) as a registered game. Its rules engine
stays in ``tarocchi.engine.sicilian`` and its deck in ``tarocchi.engine.cards``, compiled
with mypyc where they were first written; this module names them."""

from __future__ import annotations

from ..engine import sicilian, tricks
from ..engine.actions import action_text, parse_action
from ..engine.cards import DECK
from ..engine.game import Game, register
from ..engine.sicilian import DISCARD_RULE, Deal, Options

# Its refusals by stable id: the constant's name in lower case ("not_your_turn"). The engine's
# refusals are these texts, unchanged (R1-R17's wording is what players and tests know).
REASON_NAMES = (
    "NOT_YOUR_TURN", "DEAL_OVER", "ONLY_FIRST_TWO_PAGO", "PRENDO_WHO", "PRENDO_NEEDS_PAGO", "ONE_PRENDO",
    "ONLY_PASSO_AFTER_SOLO", "NO_ALTRE_AT_20", "PAGO_LATER", "CHIAMO_FOUR", "FIVE_CARDS_FOUR", "ONE_CALL",
    "NO_PAGO_FOUR", "NO_ALTRE_FOUR", "SPEAK_NOW", "DISCARD_NOW", "ANSWER_NOW", "PLAY_NOW", "DISCARD_THREE",
    "NO_TRUMP_DISCARD", "LOW_TRUMPS_ONLY", "SCOMMESSA_NEEDS", "SCOMMESSA_BIDDER", "RIVANTO_WHO",
    "RIVANTO_ONCE", "RIVANTO_BIDDER", "PARTNER_SILENT", "NOT_NOW",
)
TRICK_REASON_NAMES = ("FOLLOW_SUIT", "PLAY_TRUMP", "FOOL_CANNOT_LEAD", "NOT_IN_HAND")
REASONS = {**{n.lower(): getattr(sicilian, n) for n in REASON_NAMES},
           **{n.lower(): getattr(tricks, n) for n in TRICK_REASON_NAMES}}

SICILIAN = register(Game(
    name="sicilian", title="Tarocchi Siciliani", seats=(3, 4), deck=DECK, deal=Deal, options=Options,
    parse_action=parse_action, action_text=action_text, discard_rule=DISCARD_RULE, reasons=REASONS,
))
