"""Every bot answers only legal actions, over many whole deals at both sizes; and a bot's
decision is a function of the view (and its seed) alone."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from tarocchi.bots import LEVELS, make_player
from tarocchi.bots.sicilian.search_bot import SearchBot
from tarocchi.games.sicilian import Deal


def play_deal(deal: Deal, players: list, views: list | None = None) -> Deal:
    while not deal.done:
        seat = deal.to_act
        view = deal.view(seat)
        action = players[seat](view)
        assert deal.refusal(seat, action) is None, (seat, action, view["phase"])
        deal.apply(action, seat)
        if views is not None:
            views.append(view)
    return deal


def test_levels_are_registered():
    assert {"random", "rule", "search"} <= set(LEVELS)
    with pytest.raises(ValueError):
        make_player("oracle")


@pytest.mark.parametrize("seats", [3, 4])
def test_rule_and_random_play_only_legal_actions(seats):
    rng = random.Random(seats)
    contracts = 0
    for i in range(60):
        levels = ["rule", "random", "rule", "random"][:seats] if i % 2 else ["rule"] * seats
        players = [make_player(lv, seed=i * 10 + s) for s, lv in enumerate(levels)]
        deal = play_deal(Deal.shuffled(seats, i % seats, rng), players)
        assert sum(deal.count.payments) == 0
        contracts += not deal.count.abandoned
    assert contracts >= 20  # the rule bot bids: most positions of play are reached


@pytest.mark.parametrize("seats", [3, 4])
def test_search_plays_only_legal_actions(seats):
    """A small budget keeps this quick; the code paths are those of the full bot."""
    rng = random.Random(100 + seats)
    played = 0
    for i in range(3):
        players = [SearchBot(seed=s, rollouts=12, bid_worlds=3, time_limit=None) if s % 2 == 0
                   else make_player("rule", seed=s) for s in range(seats)]
        deal = Deal.shuffled(seats, i % seats, rng)
        if seats == 3:  # make sure there is play: seat after the dealer goes solo
            deal.apply("vado solo")
        play_deal(deal, players)
        played += not deal.count.abandoned
    assert played >= 2


def collect_views(seats: int, seed: int) -> list[dict]:
    views: list[dict] = []
    deal = Deal.from_seed(seats, 0, seed)
    players = [make_player("rule", seed=s) for s in range(seats)]
    if seats == 3:
        deal.apply("vado solo")
    play_deal(deal, players, views)
    return views


@pytest.mark.parametrize("seats", [3, 4])
def test_same_view_same_decision(seats):
    """A decision depends only on the view and the seed: a fresh bot, a reused bot and a
    bot rebuilt from a pickle (as a worker process would) all answer the same; the view
    is not changed by deciding."""
    views = collect_views(seats, 31)
    picked = views[::7]
    for level in ("rule", "search"):
        bot = SearchBot(seed=9, rollouts=16, bid_worlds=3, time_limit=None) if level == "search" \
            else make_player(level, seed=9)
        clone = pickle.loads(pickle.dumps(bot))
        first = []
        for view in picked:
            before = copy.deepcopy(view)
            first.append(bot(view))
            assert view == before
        again = [clone(copy.deepcopy(v)) for v in reversed(picked)][::-1]
        assert first == again, level


def test_hidden_cards_do_not_change_a_decision():
    """Two deals that differ only in cards seat 1 cannot see give it the same view, and so
    the same decision: swap two unseen cards between the other hands before play."""
    deal = Deal.from_seed(3, 2, 77)
    deal.apply("vado solo")
    deal.apply("passo")
    deal.apply("passo")
    rule = make_player("rule", seed=1)
    deal.apply(rule(deal.view(0)))  # the soloist discards
    for s in (0, 1, 2):
        deal.apply("no")
    unseen0 = deal.hands[0] & ~deal.monte  # the monte was turned up: those cards stay put
    a, b = unseen0 & -unseen0, deal.hands[2] & -deal.hands[2]
    twin = deal.copy()
    twin.hands[0] ^= a | b
    twin.hands[2] ^= a | b
    assert twin.hands != deal.hands
    v1, v2 = deal.view(1), twin.view(1)
    assert v1 == v2
    bot = SearchBot(seed=4, rollouts=24, time_limit=None)
    assert bot(v1) == SearchBot(seed=4, rollouts=24, time_limit=None)(v2)
