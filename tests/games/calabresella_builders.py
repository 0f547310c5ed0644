"""Calabresella deals built from chosen deck orders (C7), so that the rulings' cases are real
deals played through the engine, not hand-made states.

``deck_order`` lays out the 63 codes from the hands each seat should get: packets of five from
dealer + 1, four rounds, then the 3 monte cards (C7). ``played`` goes further: from a plan of
the tricks (which seat plays which card, trick by trick) it deals every seat exactly the cards
it will play, says the auction and the monte steps given, then plays the plan through
``apply``, so that the engine itself checks every card and decides who leads. ``won_by`` makes
a trick of one suit (always legal: everyone follows) won by the seat that plays its top card.
"""

from __future__ import annotations

from tarocchi.games.calabresella import DECK, Deal

CODES = DECK.codes


def deck_order(dealer: int, hands: dict[int, list[str]], monte: list[str] = ()) -> list[str]:
    """63 codes, top first, that deal ``hands[seat]`` (20 each) and ``monte`` (deck order: the
    cards 1-3 of C11); what is not given is filled in code order, the seats first."""
    given = [c for h in hands.values() for c in h] + list(monte)
    assert len(given) == len(set(given)) and set(given) <= set(CODES), given
    rest = iter([c for c in CODES if c not in set(given)])
    full = {s: list(hands.get(s, [])) for s in range(3)}
    for s in range(3):
        full[s] += [next(rest) for _ in range(20 - len(full[s]))]
    monte = list(monte) + [next(rest) for _ in range(3 - len(monte))]
    packets = [full[(dealer + 1 + i) % 3][5 * p:5 * p + 5] for p in range(4) for i in range(3)]  # C7
    return [c for packet in packets for c in packet] + monte


def dealt(dealer: int, hands: dict[int, list[str]], monte: list[str] = ()) -> Deal:
    return Deal(3, dealer, [DECK.card(c) for c in deck_order(dealer, hands, monte)])


def won_by(winner: int, *cards: str) -> dict[int, str]:
    """A trick of three cards of one suit: ``winner`` plays the highest, the next seats the others."""
    top, a, b = sorted(cards, key=DECK.card, reverse=True)  # a higher bit is a higher card (R1)
    return {winner: top, (winner + 1) % 3: a, (winner + 2) % 3: b}


def played(dealer: int, plan: list[dict[int, str]], monte: list[str], steps: list[str]) -> Deal:
    """The deal whose tricks are ``plan`` (each trick: seat -> card) after ``steps`` (the
    auction and the monte's actions, said by whoever is to act), played through the engine
    (an illegal card raises). Each seat is dealt the cards it plays; the monte is ``monte``, so
    a challenger who takes it lays the same three back."""
    assert len(plan) == 20
    hands = {s: [t[s] for t in plan] for s in range(3)}
    d = dealt(dealer, hands, monte)
    for step in steps:
        d.apply(step)
    assert d.phase == "play", d.phase
    while not d.done:  # the engine says whose turn it is; the plan, what that seat plays
        seat = d.to_act
        d.apply(plan[sum(d.tricks_won)][seat], seat)
    return d
