"""Renaissance deals built from chosen deck orders (A6), so that the rulings' cases are real
deals played through the engine, not hand-made states.

``deck_order`` lays out the 78 codes from the hands each seat should get: packets of five from
dealer + 1, five rounds, then the dealer's three extra cards (A6). ``played`` goes further: from
a plan of the tricks (which seat plays which card, trick by trick) it gives every seat exactly
the cards it will play (the dealer also its discard), then plays the plan through ``apply``, so
the engine itself checks every card and decides who leads. ``triples`` fills a plan: it lays the
cards left into tricks of one suit each (always legal: everyone follows) won by the seats asked
for, and at most one mixed trick, the last (one card each: always legal).
"""

from __future__ import annotations

from itertools import cycle

from tarocchi.games.renaissance import DECK, Deal

CODES = DECK.codes


def deck_order(dealer: int, hands: dict[int, list[str]], extra: list[str] = ()) -> list[str]:
    """78 codes, top first, that deal ``hands[seat]`` (25 each, the first five its first packet)
    and ``extra`` as the dealer's cards 76-78; what is not given is filled in code order."""
    hands = {s: list(h) for s, h in hands.items()}
    extra = list(extra)
    used = [c for h in hands.values() for c in h] + extra
    assert len(used) == len(set(used)) and set(used) <= set(CODES), used
    rest = [c for c in CODES if c not in set(used)]
    for s in range(3):
        h = hands.setdefault(s, [])
        while len(h) < 25:
            h.append(rest.pop(0))
    while len(extra) < 3:
        extra.append(rest.pop(0))
    order: list[str] = []
    for packet in range(5):
        for i in range(3):
            order += hands[(dealer + 1 + i) % 3][5 * packet:5 * packet + 5]
    return order + extra


def dealt(dealer: int, hands: dict[int, list[str]], extra: list[str] = ()) -> Deal:
    return Deal(3, dealer, [DECK.card(c) for c in deck_order(dealer, hands, extra)])


def suit_of(code: str) -> str:
    return "T" if code[-1].isdigit() or code == "F" else code[-1]


def triples(cards: list[str], winners: list[int]) -> list[dict[int, str]]:
    """Tricks of one suit each for ``cards``, won in turn by ``winners`` (cycled): the winner
    plays the trick's top card. Cards left over (fewer than three of a suit) make one last
    mixed trick, which must be the deal's last."""
    by_suit: dict[str, list[str]] = {}
    for c in sorted(cards, key=DECK.card, reverse=True):  # a higher bit is a higher card (A2)
        by_suit.setdefault(suit_of(c), []).append(c)
    plan, rest, turn = [], [], cycle(winners)
    for suit_cards in by_suit.values():
        while len(suit_cards) >= 3:
            top, a, b = suit_cards.pop(0), suit_cards.pop(), suit_cards.pop()
            w = next(turn)
            plan.append({w: top, (w + 1) % 3: a, (w + 2) % 3: b})
        rest += suit_cards
    assert len(rest) in (0, 3), f"{rest} do not make one last trick: choose another discard"
    if rest:
        plan.append(dict(enumerate(rest)))
    return plan


def played(dealer: int, plan: list[dict[int, str]], discard: list[str]) -> Deal:
    """The deal whose tricks are ``plan`` (each trick: seat -> card), after the dealer's
    ``discard``, played through the engine (an illegal card would raise)."""
    assert len(plan) == 25
    hands = {s: [t[s] for t in plan] for s in range(3)}
    extra = list(discard)  # the discard as the dealer's three extra cards
    d = dealt(dealer, hands, extra)
    d.apply("discard " + " ".join(discard), dealer)
    for trick in plan:
        for _ in range(3):
            seat = d.to_act
            d.apply(trick[seat], seat)
    assert d.done
    return d


def rest_of(*used: list[str] | dict[int, str]) -> list[str]:
    """The codes not in any of ``used`` (lists of codes or planned tricks)."""
    taken = {c for u in used for c in (u.values() if isinstance(u, dict) else u)}
    return [c for c in CODES if c not in taken]


def discard_for(*used: list[str] | dict[int, str]) -> list[str]:
    """Three plain suit cards, not in ``used``, that leave the rest in tricks of one suit and
    at most one last mixed trick (for ``triples``)."""
    from itertools import combinations_with_replacement

    rest = rest_of(*used)
    for suits in combinations_with_replacement("COSB", 3):
        pick = []
        for s in suits:
            pick.append(next(c for c in rest if c.endswith(s) and c[:-1].isdigit() and c not in pick))
        left = [c for c in rest if c not in pick]
        counts = [sum(suit_of(c) == s for c in left) for s in "TCOSB"]
        if sum(n % 3 for n in counts) in (0, 3):
            return pick
    raise AssertionError("no discard fits")
