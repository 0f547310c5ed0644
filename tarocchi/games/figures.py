"""What a finished deal was for each seat, as a player's archive counts it (issue 58, "Your
games"): the contract the deal was played under and the seat's part in it, whether it was made,
the seat's score for the deal, and the game's own extras (Sicilian's Scommessa and Rivanto,
Ottocento's declarations). One function per game, reading the deal's count as the engine left
it; the server stores what they give when a match ends (server/archive.py) and again from the
stored events (``tarocchi archive backfill``).

>>> from tarocchi.games.sicilian import Deal
>>> d = Deal.from_seed(seats=3, dealer=0, seed=1)
>>> d.apply("passo"); d.apply("passo"); d.apply("passo")    # all pass at five: thrown in (R6)
>>> [f.thrown and f.contract is None and f.points == 0 for f in deal_figures("sicilian", d)]
[True, True, True]

Contract kinds are the game's own words, kept Italian (the seeds'): Sicilian ``solo`` (vado solo
at 10, 15 or 20 cards, or a four-seat solo), ``stata`` (vado solo on five cards, R5, R7),
``chiamo`` (R8) and ``forced`` (all four passed: the 20's holder must call, R10); Calabresella
``chiamo``, ``solo``, ``solissimo``, ``solissimo dividete``, ``solissimo scegliete`` (C9-C12).
The Renaissance game has no bidding (A8) and Ottocento none either (fixed partnerships, B1).

This module is not compiled with the games (setup.py): it reads their counts and changes none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DECLARER, PARTNER, OPPONENT = "declarer", "partner", "opponent"


@dataclass(frozen=True)
class SeatFigures:
    """One seat's figures of one finished deal."""

    points: int  # the seat's score for the deal (``returns()``: Sicilian's payment in jochi...)
    thrown: bool = False  # thrown in, not played out (all passed: R6, C9; B7)
    contract: str | None = None  # the deal's contract kind (above); None: none (thrown in, or no bidding)
    role: str | None = None  # DECLARER, PARTNER (Sicilian's called partner, R9) or OPPONENT
    made: bool | None = None  # the declaring side made its contract; None without one
    announce: str | None = None  # what this seat announced: "scommessa" (the bidder, R12) or "rivanto"
    announce_made: bool | None = None  # its side scored what it announced (R15)
    declared: int | None = None  # Ottocento: the points of the seat's declaration (B9, B18)

    def to_row(self) -> dict[str, Any]:
        return {"points": self.points, "thrown": self.thrown, "contract": self.contract, "role": self.role,
                "made": self.made, "announce": self.announce, "announce_made": self.announce_made,
                "declared": self.declared}


def sicilian(deal) -> list[SeatFigures]:
    """R6-R15: the bidder is the declarer (soloist or caller), the called trump's holder its
    partner (R9: none when it lay in the monte or the discard); made when the bidder's side's
    net is above zero (R15: at zero nobody pays). A thrown-in deal may still carry pago and
    prendo payments (R6)."""
    count, payments = deal.count, deal.returns()
    if count.abandoned:
        return [SeatFigures(points=p, thrown=True) for p in payments]
    kind = "stata" if deal.contract == "solo" and deal.stata else deal.contract
    made = count.net > 0
    jochi = {j.name: j.side for j in count.jochi}
    out = []
    for seat, p in enumerate(payments):
        role = DECLARER if seat == count.bidder else PARTNER if seat == count.partner else OPPONENT
        announce = announce_made = None
        if seat == count.bidder and deal.scommessa:
            announce, announce_made = "scommessa", jochi.get("scommessa") == "bidder"
        elif seat == deal.rivanto:  # (the Vanto, worth 2 after a Rivanto, to the side of the last trick)
            announce, announce_made = "rivanto", jochi.get("vanto") == deal.side_of(seat)
        out.append(SeatFigures(points=p, contract=kind, role=role, made=made, announce=announce,
                               announce_made=announce_made))
    return out


def calabresella(deal) -> list[SeatFigures]:
    """C9-C19: the challenger against the other two; made when it won (C17, C19). Three passes
    throw the deal in (C9)."""
    count, payments = deal.count, deal.returns()
    if count.thrown_in:
        return [SeatFigures(points=p, thrown=True) for p in payments]
    kind = count.to_json()["contract"]
    return [SeatFigures(points=p, contract=kind, role=DECLARER if seat == count.challenger else OPPONENT,
                        made=count.won) for seat, p in enumerate(payments)]


def renaissance(deal) -> list[SeatFigures]:
    """A8: no bidding, nothing announced: each seat's score alone (points - 26, A15)."""
    return [SeatFigures(points=p) for p in deal.returns()]


def ottocento(deal) -> list[SeatFigures]:
    """B1: no bidding; each seat's side's hand score (B24) and the seat's own declaration
    (B9, B18). A deal thrown in (B7) scores nothing."""
    count = deal.count
    return [SeatFigures(points=p, thrown=count.thrown_in, declared=count.declared[seat])
            for seat, p in enumerate(deal.returns())]


FIGURES: dict[str, Callable[[Any], list[SeatFigures]]] = {
    "sicilian": sicilian, "calabresella": calabresella, "renaissance": renaissance, "ottocento": ottocento,
}


def deal_figures(game: str, deal) -> list[SeatFigures]:
    """Each seat's figures of a finished deal of ``game``, by seat; [] for a deal not finished
    (or a game this module does not know: its deals count as played, with no figures)."""
    if not deal.done or game not in FIGURES:
        return []
    return FIGURES[game](deal)
