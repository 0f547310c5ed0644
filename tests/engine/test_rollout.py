"""Deal.rollout plays exactly the moves apply() would accept (R13), and counts the same."""

import random

from hypothesis import given, settings, strategies as st

from tarocchi.engine.playout import random_action
from tarocchi.engine.records import replay
from tarocchi.games.sicilian import Deal


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([3, 4]))
def test_rollout_is_a_legal_deal_that_replays_to_the_same_count(seed, seats):
    rng = random.Random(seed)
    deal = Deal.shuffled(seats, seed % seats, rng)
    while deal.phase not in ("play", "done"):
        deal.apply(random_action(deal, rng))
    if deal.done:
        return
    deal.rollout(rng)
    assert deal.done
    again = replay(deal.record())  # every card re-checked through apply()
    assert again.count.to_json() == deal.count.to_json()
    assert again.events == deal.events


def test_rollout_refuses_outside_the_play():
    deal = Deal.from_seed(3, 0, 1)
    try:
        deal.rollout(random.Random(1))
    except ValueError as e:
        assert "rollout plays cards" in str(e)
    else:
        raise AssertionError("a rollout during the speaking must be refused")
