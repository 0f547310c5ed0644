"""Properties over thousands of random Ottocento deals, played by random legal actions from a
hypothesis-drawn seed (declarations shrunk at random too): the 62 cards accounted for at every
step, card points with the last trick make 93 (B4), scores as B24 adds them, a record replays
to the same count, every declaration a view shows is one its seat made (B9), and no view holds
a card its seat may not know: another's hand, the discard before the count (B8)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from tarocchi.engine.playout import random_action
from tarocchi.engine.records import replay
from tarocchi.games import ottocento_combos as combos
from tarocchi.games.ottocento import DECK, ONE_POINT, Deal, Options, action_text, pile_points

SEEDS = st.integers(0, 2**63)
CODE_SET = set(DECK.codes)


def shrunk_declaration(d: Deal, rng: random.Random) -> str:
    """A random declaration of the seat to act: each best combination kept, dropped, or shrunk
    by a random removable card, again and again (B9: a seat may declare less than it holds)."""
    kept = []
    for c in combos.best_all(DECK.codes_of(d.hands[d.to_act])):
        if rng.random() < 0.2:
            continue
        cards = list(c.cards)
        while rng.random() < 0.4:
            out = combos.shrinkable(combos.check(c.kind, cards))
            if not out:
                break
            cards.remove(rng.choice(out))
        kept.append(f"{c.kind}:{','.join(cards)}")
    return " ".join(["declare"] + kept)


def next_action(d: Deal, rng: random.Random) -> object:
    if d.phase == "declare" and rng.random() < 0.5:
        return shrunk_declaration(d, rng)
    if d.phase == "monte":
        return "a monte" if rng.random() < 0.3 else "gioco"
    return random_action(d, rng)


def check_cards(d: Deal) -> None:
    if d.count is not None and not d.thrown_in and not d.count.at_declarations:
        a, b = d.count.piles
        assert a & b == 0 and a | b == DECK.full
        return
    places = d.hands + d.won + [sum(1 << c for c in d.trick), d.discarded,
                                DECK.fool_bit if d.fool_to >= 0 else 0]
    union = 0
    for m in places:
        assert union & m == 0
        union |= m
    undealt = 0 if d.phase != "monte" and not d.thrown_in else DECK.full & ~union
    assert union | undealt == DECK.full
    if d.phase not in ("monte", "done"):
        assert union == DECK.full


def words(x) -> list[str]:
    if isinstance(x, str):
        return x.replace(",", " ").replace(":", " ").split()
    if isinstance(x, dict):
        return [w for k, v in x.items() for w in words(k) + words(v)]
    if isinstance(x, list):
        return [w for v in x for w in words(v)]
    return []


def may_know(d: Deal, seat: int) -> int:
    """Its hand, every card played, every declared card; the dealer its discard; at the count
    everything."""
    if d.count is not None and not d.thrown_in and not d.count.at_declarations:
        return DECK.full
    known = d.hands[seat] | sum(d.played) | sum(d.declared_cards)
    if seat == d.dealer:
        known |= d.discarded
    return known


@settings(max_examples=1500, deadline=None)
@given(seed=SEEDS, signals=st.booleans())
def test_every_deal_accounts_for_62_cards_makes_93_and_replays_B4_B24(seed, signals):
    rng = random.Random(seed)
    d = Deal.shuffled(4, rng.randrange(4), rng, Options(signals=signals))
    while not d.done:
        check_cards(d)
        d.apply(next_action(d, rng))
    check_cards(d)
    c = d.count
    if d.thrown_in:
        assert d.returns() == [0, 0, 0, 0]
    else:
        assert sum(c.card_points) + 6 == 93 and c.piles[0].bit_count() % 2 == 0  # B4
        moved = 1 << c.paid if c.paid >= 0 else 0  # B21: a discard card may pay for the Matto
        assert c.piles[c.discard_to] & c.discard == c.discard & ~moved and c.discard.bit_count() == 2
        for i in (0, 1):
            assert c.scores[i] == (c.declared[i] + c.declared[i + 2] + c.pile_scores[i] + c.card_points[i]
                                   + (6 if c.last == i else 0))
    again = replay(d.record())
    assert again.count.to_json() == c.to_json() and again.returns() == d.returns()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seed=SEEDS)
def test_no_view_holds_a_card_not_shown_and_declarations_are_the_seats_own_B8_B9(seed):
    rng = random.Random(seed)
    d = Deal.shuffled(4, rng.randrange(4), rng)
    said: dict[int, str] = {}
    while True:
        for seat in range(4):
            v = d.view(seat)
            assert v["hand"] == DECK.codes_of(d.hands[seat])
            shown = DECK.mask_of(w for w in words(v) if w in CODE_SET)
            assert shown & ~may_know(d, seat) == 0, (seat, DECK.codes_of(shown & ~may_know(d, seat)))
            for s, dec in enumerate(v["declarations"]):
                if dec is None:
                    assert s not in said
                    continue
                shown_combos = {c["kind"]: set(c["cards"]) for c in dec["combinations"]}
                parts = action_text(d.declaration_of(s)).split()[1:]
                made = {p.split(":")[0]: set(p.split(":")[1].split(",")) for p in parts}
                assert shown_combos == made and dec["points"] == d.declared[s]
                assert s in said
        if d.done:
            break
        seat = d.to_act
        action = next_action(d, rng)
        d.apply(action)
        if d.history[-1][1] >= 1 << 768:
            said[seat] = action_text(d.history[-1][1])
    for e in d.public_events():  # the events go to every seat
        if e["type"] != "count":
            shown = DECK.mask_of(w for w in words(e) if w in CODE_SET)
            assert shown & ~(sum(d.played) | sum(d.declared_cards)) == 0, e


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_the_mattos_card_is_b21s_choice_counted_in_full_B21(seed):
    """The engine's shortcut (only cards in a combination counted again) against every 1-point
    card of the Matto's side's pile counted in full."""
    rng = random.Random(seed)
    d = Deal.shuffled(4, rng.randrange(4), rng)
    while not d.done:
        d.apply("gioco" if d.phase == "monte" else random_action(d, rng))
    c = d.count
    if c.paid < 0:
        return
    mine = c.fool_by % 2
    own = c.piles[mine] & ~DECK.fool_bit | 1 << c.paid
    other = c.piles[1 - mine] & ~(1 << c.paid)
    keys = {x: (pile_points(own & ~(1 << x) | DECK.fool_bit)[1], -pile_points(other | 1 << x)[1])
            for x in DECK.display_order(own & ONE_POINT)}
    top = max(keys.values())
    assert c.paid == [x for x in keys if keys[x] == top][-1]
