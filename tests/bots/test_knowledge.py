"""What a seat knows from its view (voids, the called trump), and the sampled worlds built
from it: each must look exactly like the real deal from that seat."""

from __future__ import annotations

import random

import pytest

from tarocchi.bots import make_player
from tarocchi.bots.sicilian.knowledge import read_view, trumps_above
from tarocchi.bots.sicilian.sampler import parse_log, sample_world
from tarocchi.engine.cards import CARD_OF, SUIT_MASKS, TRUMPS, mask_of
from tarocchi.games.sicilian import Deal

from .positions import deck_for, reach
from .test_regression import MONTE, STATA_OPENING


def test_voids_shown_in_play_are_tracked():
    """R13: the soloist trumped a batons lead, so it has no batons; seat 2 threw a cup on a
    coins lead, so it has neither coins nor trumps."""
    fixed = {0: ["2", "KO"], 1: ["5B", "8O"], 2: ["6B", "5C"]}
    deck = deck_for(3, 2, fixed, monte=MONTE, voids={0: "B", 2: "OT"}, seed=21)
    deal = reach(3, 2, deck, STATA_OPENING + [(1, "5B"), (2, "6B"), (0, "2"),
                                              (0, "KO"), (1, "8O"), (2, "5C")])
    seen = read_view(deal.view(1))
    assert seen.cannot[0] & SUIT_MASKS[3] == SUIT_MASKS[3]
    assert not seen.cannot[0] & TRUMPS
    assert seen.cannot[2] & SUIT_MASKS[1] == SUIT_MASKS[1]
    assert seen.cannot[2] & TRUMPS == TRUMPS
    assert seen.trick == [] and seen.tricks_left == 18


def test_caller_holds_every_trump_above_the_called_one():
    """R9: seat 0 called the 18, so (to the other seats) it holds the 20 and the 19 and not the 18."""
    fixed = {0: ["20", "19"], 2: ["18"]}
    deck = deck_for(4, 3, fixed, monte=MONTE, seed=5)
    actions = [(s, "passo") for s in range(4)] + [(0, "chiamo"), (1, "passo"), (2, "passo"), (3, "passo")]
    deal = reach(4, 3, deck, actions)
    seen = read_view(deal.view(1))
    assert seen.called == 18
    assert seen.must[0] & trumps_above(18) == mask_of(["20", "19"])
    assert seen.cannot[0] >> 18 & 1
    assert seen.cannot[3] & mask_of(["20", "19"])


def positions(seats: int, seed: int, every: int) -> list[tuple[Deal, int]]:
    """Positions from a deal played by rule bots (with a forced contract at three seats)."""
    out = []
    deal = Deal.from_seed(seats, seed % seats, seed)
    players = [make_player("rule", seed=s) for s in range(seats)]
    if seats == 3:
        deal.apply("altre cinque")
    k = 0
    while not deal.done:
        if k % every == 0:
            out.append((deal.copy(log=True), deal.to_act))
        deal.apply(players[deal.to_act](deal.view(deal.to_act)))
        k += 1
    return out


@pytest.mark.parametrize("seats", [3, 4])
def test_sampled_worlds_look_like_the_real_deal(seats):
    """Every sampled world gives the deciding seat exactly its real view (hand, log, monte,
    choices, ...) and respects every void and forced card the seat knows of."""
    rng = random.Random(seats)
    checked = 0
    for seed in range(6):
        for deal, me in positions(seats, 40 + seed, every=5):
            view = deal.view(me)
            seen = read_view(view)
            log = parse_log(seen)
            for _ in range(3):
                world = sample_world(seen, rng, log)
                assert world is not None
                assert world.view(me) == view
                for s in range(seats):
                    if s != me:
                        assert not world.hands[s] & seen.cannot[s] & ~seen.must[s]
                        assert world.hands[s] & seen.must[s] == seen.must[s]
                checked += 1
    assert checked > 50


def test_sampled_worlds_vary_the_hidden_cards():
    """The sampler really samples: the other hands differ between worlds."""
    deal, me = positions(3, 7, every=1000)[0]
    seen = read_view(deal.view(me))
    log = parse_log(seen)
    rng = random.Random(0)
    hands = {tuple(sample_world(seen, rng, log).hands) for _ in range(10)}
    assert len(hands) > 5
    assert all(h[me] == deal.hands[me] for h in hands)
    assert CARD_OF["F"] == 21
