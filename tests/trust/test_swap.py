"""The swap test (issue 37): two deals equal in all that is public and different in what is
hidden give the same bytes to everyone who may not know the difference.

For every game and table size, hypothesis draws a deck order and a random legal play up to a
step; then two cards whose places nobody outside may know by then (two hands, or a hand and
the monte, the talon or a discard: no card played, turned up or declared) swap places in the
deck order, and the same actions are played on the second deck. Where they all replay, the
two tables differ only in what is hidden, and at every step:

- the spectator's state frame is byte-identical (keys and nulls included: an intersection of
  the seats' views fails this, as it leaked Sicilian's ``i_am_partner`` and a forced No);
- so are the lobby's listing of the table, its deal list, its records and the replay of the
  unfinished deal (none: it has no replay and is in no download);
- and each seat that knows neither card (never in its hand, its discard, a monte it looked
  at) gets the same view: what its frames, a hint (its view now) and a review (its view
  before each of its actions, ``advice.view_before``) are worked out from.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarocchi.bots.advice import view_before
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.playout import random_action
from tarocchi.server.lobby import Lobby
from tarocchi.server.core.tables import Table
from tarocchi.server.watch import deal_list, past_of, records_of, replay_of, spectator_frame, spectator_view
from tests.trust.harness import card_codes

TABLES = [(name, seats) for name in game_names() for seats in get_game(name).seats]
# A key that names a card without saying where it lies: Sicilian's called trump (R8) is named to
# all, and who holds it is the hidden partner until it is played (R9).
NAMING = {"sicilian": {"called"}}


def stream_of(game: str, seats: int, dealer: int, deck: list[str], actions: list[tuple[int, str]]) -> list:
    """The stored stream of a Play now table (a person at seat 0, computers in the others, so
    that it is listed in the lobby while it plays) with one deal from ``deck``."""
    rules = get_game(game)
    created = {"game": game, "kind": "room", "seats": seats, "names": ["host", "guest 1", "guest 2", "guest 3"][:seats],
               "bots": [None] * seats, "options": rules.options().to_json(), "watch": "w" * 32,
               "public": True, "quick": True, "fill_at": 1.0}
    kinds = [("created", created), ("join", {"seat": 0})]
    kinds += [("fill", {"seat": s, "level": "rule"}) for s in range(1, seats)]
    kinds += [("match", {"first_dealer": dealer}), ("deal", {"deck": deck})]
    kinds += [("act", {"seat": s, "action": a, "id": None}) for s, a in actions]
    return [(version, kind, data) for version, (kind, data) in enumerate(kinds, 1)]


def without(view: dict, keys: set[str]) -> dict:
    return {k: v for k, v in view.items() if k not in keys}


def public_cards(deal, naming: set[str]) -> set[str]:
    """The cards whose place anyone may know now: named in the public view or its events."""
    return card_codes(without(spectator_view(deal), naming)) | card_codes(
        [without(e, naming) for e in deal.events or []])


def tables_through(table_id: str, events: list) -> list[Table]:
    """The table after each event from the deal on (one Table per version, built afresh)."""
    from tarocchi.server.core.tables import replay

    first = next(i for i, (_, kind, _) in enumerate(events) if kind == "deal")
    return [replay(table_id, events[:i + 1]) for i in range(first, len(events))]


@pytest.mark.parametrize(("game", "seats"), TABLES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), depth=st.floats(0.0, 1.0), pick=st.integers(0, 2**32 - 1))
def test_two_deals_alike_in_all_that_is_public_give_the_same_bytes(game, seats, seed, depth, pick):
    rules = get_game(game)
    rng = random.Random(seed)
    dealer = rng.randrange(seats)
    order = rules.deck.shuffled(rng)
    deck = [rules.deck.codes[c] for c in order]
    deal = rules.new_deal(seats, dealer, order)
    naming = NAMING.get(game, set())
    # Play to a step, noting what is public and what each seat knows at every step up to it.
    known = [set() for _ in range(seats)]
    shown: set[str] = set()
    actions: list[tuple[int, str]] = []
    steps = 1 + int(depth * 80)
    while True:
        shown |= public_cards(deal, naming)
        for s in range(seats):
            known[s] |= card_codes(without(deal.view(s), naming))
        if deal.to_act is None or len(actions) >= steps:
            break
        seat = deal.to_act
        action = random_action(deal, rng)
        actions.append((seat, rules.action_text(action)))
        deal.apply(action)
    holders = {c: s for s in range(seats) for c in deal.view(s)["hand"]}  # a card in no hand: elsewhere
    hidden = sorted(set(deck) - shown)
    chooser = random.Random(pick)
    pairs = [(a, b) for a in hidden for b in hidden if a < b and holders.get(a, -1) != holders.get(b, -1)]
    chooser.shuffle(pairs)
    # A card named to all but placed to none (the called trump) moves first: where it lies is
    # the hidden partner.
    named = card_codes([deal.view(0).get(k) for k in naming])
    pairs.sort(key=lambda p: not named & set(p))
    for a, b in pairs[:30]:
        swapped = [b if c == a else a if c == b else c for c in deck]
        events_a = stream_of(game, seats, dealer, deck, actions)
        events_b = stream_of(game, seats, dealer, swapped, actions)
        try:
            tables_b = tables_through("t", events_b)
        except ValueError:
            continue  # an action the other hands do not allow: the deals differ in what is public
        break
    else:
        return  # nothing hidden to swap here (the count shows every card), or no swap replays
    tables_a = tables_through("t", events_a)
    blind = [s for s in range(seats) if a not in known[s] and b not in known[s]]
    connected = [True] * seats
    for ta, tb in zip(tables_a, tables_b):
        for since in (0, ta.version - 1):
            assert (spectator_frame(ta, spectator_view(ta.deal), since, connected)
                    == spectator_frame(tb, spectator_view(tb.deal), since, connected)), (ta.version, a, b)
        assert Lobby.listing(ta) == Lobby.listing(tb)
        for s in blind:
            assert ta.deal.view(s) == tb.deal.view(s), (ta.version, s, a, b)
    if not tables_a[-1].deal.done:  # (a finished deal is public: its replay shows every hand)
        past_a, past_b = past_of("t", events_a), past_of("t", events_b)
        assert deal_list(past_a) == deal_list(past_b) and records_of(past_a) == records_of(past_b) == ""
        for past in (past_a, past_b):
            with pytest.raises(LookupError):
                replay_of(past, 1)
    record_a, record_b = tables_a[-1].deal.record(), tables_b[-1].deal.record()
    for index, (seat, _) in enumerate(actions):
        if seat in blind:
            assert view_before(record_a, index) == view_before(record_b, index), (index, seat, a, b)


@pytest.mark.slow
def test_the_swap_test_catches_an_intersection_of_the_seats_views(monkeypatch):
    """Put the old spectator view back (what every seat's view has alike, key by key): the swap
    test fails on it (four Sicilian seats: ``i_am_partner`` where seat 0 holds the called trump,
    or a forced No's ``possible``)."""
    import tarocchi.server.watch as watch

    def common(values):
        first = values[0]
        if all(v == first for v in values[1:]):
            return first
        if all(isinstance(v, dict) for v in values):
            return {k: common([v[k] for v in values]) for k in first if all(k in v for v in values[1:])}
        return None

    def intersection(deal):
        views = [deal.view(s) for s in range(deal.seats)]
        for v in views:
            v.pop("actions", None)
        out = {k: common([v.get(k) for v in views]) if all(k in v for v in views) else None for k in views[0]}
        return dict(out, hand=[], choices=[])

    monkeypatch.setattr(watch, "spectator_view", intersection)
    monkeypatch.setitem(globals(), "spectator_view", intersection)
    inner = test_two_deals_alike_in_all_that_is_public_give_the_same_bytes.hypothesis.inner_test
    with pytest.raises(AssertionError):
        for seed in range(200):  # fixed seeds, until one fails
            inner("sicilian", 4, seed=seed, depth=0.3, pick=seed)
