"""Bad input to a live deal: refused with a clear reason, and the deal left unchanged."""

from __future__ import annotations

import random

import pytest

from tarocchi.games.sicilian import parse_action
from tarocchi.engine.cards import codes
from tarocchi.engine.playout import play_out, random_action
from tarocchi.games.sicilian import STATE_FIELDS, Deal, IllegalAction

from .builders import deal_of, say


def snapshot(d: Deal):
    return ([d.view(s) for s in range(d.seats)], list(d.history), list(d.public_events()),
            d.hands[:], d.to_act, d.phase)


def state(d: Deal):
    """Every field of the deal: cheaper than the views, for the many random refusals."""
    return [(name, len(d.events) if name == "events" else repr(getattr(d, name))) for name in STATE_FIELDS]


def refused(d: Deal, action, seat=None, reason: str = "", cheap: bool = False) -> None:
    shot = state if cheap else snapshot
    before = shot(d)
    with pytest.raises(IllegalAction) as e:
        d.apply(action, seat)
    assert reason in e.value.reason and str(e.value) == e.value.reason
    assert shot(d) == before


def in_play() -> Deal:
    d = deal_of(3, 2, {0: ["KC", "5B", "6B", "7B", "20"], 1: ["KO", "QO"]}, monte=["MC", "MO", "MS"])
    say(d, "vado solo", "passo", "passo")
    return d


def test_an_unknown_card_code_is_refused_R1():
    d = in_play()
    say(d, "discard MC MO MS", "no", "no", "no")
    refused(d, "AC", reason="'AC' is not an action")
    refused(d, "4C", reason="not an action")
    refused(d, "discard AC 5B 6B", reason="'AC' is not a card code")


def test_a_card_not_in_hand_is_refused():
    d = in_play()
    say(d, "discard MC MO MS", "no", "no", "no")
    assert d.to_act == 1
    refused(d, "KC", reason="that card is not in your hand")


def test_out_of_turn_is_refused_in_every_phase():
    d = in_play()
    refused(d, "discard MC MO MS", seat=1, reason="it is not your turn")
    say(d, "discard MC MO MS")
    refused(d, "no", seat=2, reason="it is not your turn")
    say(d, "no", "no", "no")
    refused(d, "KC", seat=0, reason="it is not your turn")  # seat 0 holds it, but seat 1 leads
    fresh = Deal.from_seed(3, 0, 1)
    refused(fresh, "passo", seat=0, reason="it is not your turn")


def test_a_second_discard_is_refused_R11():
    d = in_play()
    say(d, "discard MC MO MS")
    refused(d, "discard 5B 6B 7B", reason="now is the time to answer yes or no")


def test_words_out_of_their_phase_are_refused():
    d = in_play()
    refused(d, "passo", reason="now is the time to discard three cards")
    refused(d, "5B", reason="now is the time to discard three cards")
    say(d, "discard MC MO MS")
    refused(d, "KC", reason="now is the time to answer yes or no")
    say(d, "no", "no", "no")
    refused(d, "passo", reason="now is the time to play a card")
    refused(d, "scommessa", reason="now is the time to play a card")


@pytest.mark.parametrize("bad", [None, 3.0, True, [1], -5, 10**30])
def test_values_that_are_no_action_are_refused(bad):
    d = in_play()
    say(d, "discard MC MO MS", "no", "no", "no")
    refused(d, bad)
    fresh = Deal.from_seed(4, 0, 2)
    refused(fresh, bad)


def test_nothing_is_accepted_once_the_deal_is_over():
    d = play_out(Deal.from_seed(3, 0, 3), random.Random(3))
    refused(d, "passo", seat=0, reason="")
    assert d.refusal(0, "passo") == "the deal is over"


def test_random_bad_actions_never_change_a_deal():
    # at random points of random deals, every action that is not legal is refused, unchanged
    rng = random.Random(12)
    words = ["passo", "altre cinque", "vado solo", "pago", "prendo", "chiamo", "scommessa", "rivanto", "no"]
    for seed in range(30):
        d = Deal.shuffled(3 + seed % 2, seed % 3, rng)
        while not d.done:
            legal = set(d.legal_actions()) if d.phase != "discard" else None
            for text in rng.sample(words, 3) + [rng.choice(codes(d.hands[d.to_act]))]:
                if legal is not None and parse_action(text) in legal:
                    continue
                if d.phase == "discard":
                    continue
                refused(d, text, cheap=True)
            d.apply(random_action(d, rng))
