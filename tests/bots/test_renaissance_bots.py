"""The Renaissance computer players: only legal actions over whole deals, decisions a function
of the view and the seed, the search's worlds consistent with what the seat has seen, and the
rule bot's heuristics (the discard banks points, the World hunts the Magician, the Fool
guards it)."""

from __future__ import annotations

import pickle
import random

import pytest

from tarocchi.bots import levels_for, make_player
from tarocchi.bots.renaissance.rule_bot import RenaissanceRuleBot
from tarocchi.bots.renaissance.search_bot import Knowledge, RenaissanceSearchBot
from tarocchi.games.renaissance import DECK, Deal

from ..games.builders import dealt


def play_deal(deal: Deal, players: list) -> Deal:
    while not deal.done:
        seat = deal.to_act
        action = players[seat](deal.view(seat))
        assert deal.refusal(seat, action) is None, (seat, action)
        deal.apply(action, seat)
    return deal


def test_every_level_plays_renaissance():
    assert set(levels_for("renaissance")) == {"random", "rule", "search", "learned", "expert"}
    with pytest.raises(ValueError, match="unknown player 'oracle' for renaissance"):
        make_player("oracle", game="renaissance")


@pytest.mark.parametrize("levels", [["random"] * 3, ["rule", "random", "rule"]])
def test_random_and_rule_play_only_legal_actions(levels):
    rng = random.Random(len(levels[0]))
    for i in range(40):
        players = [make_player(lv, seed=i * 10 + s, game="renaissance") for s, lv in enumerate(levels)]
        deal = play_deal(Deal.shuffled(3, i % 3, rng), players)
        assert sum(deal.returns()) == 0


def test_search_plays_only_legal_actions_and_decides_from_the_view_alone():
    rng = random.Random(5)
    for i in range(2):
        players = [RenaissanceSearchBot(seed=s, worlds=4, time_limit=None) if s != 1
                   else make_player("rule", seed=s, game="renaissance") for s in range(3)]
        deal = Deal.shuffled(3, i, rng)
        views = []
        while not deal.done:
            view = deal.view(deal.to_act)
            views.append(view)
            deal.apply(players[deal.to_act](view), deal.to_act)
    again = RenaissanceSearchBot(seed=0, worlds=4, time_limit=None)
    for view in views[1::17]:
        if view["seat"] == 0:
            assert again(view) == pickle.loads(pickle.dumps(players[0]))(view)


def test_sampled_worlds_keep_what_the_seat_has_seen():
    rng = random.Random(8)
    deal = Deal.shuffled(3, 0, rng)
    players = [make_player("random", seed=s, game="renaissance") for s in range(3)]
    while deal.tricks_left > 12:
        deal.apply(players[deal.to_act](deal.view(deal.to_act)), deal.to_act)
    me = deal.to_act
    seen = Knowledge(deal.view(me))
    for _ in range(20):
        world = seen.world(random.Random(_))
        if world is None:
            continue
        assert world.hands[me] == deal.hands[me] and world.history[1:] == deal.history[1:]
        if me == deal.dealer:
            assert world.discarded == deal.discarded
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in deal.hands]
        for s in range(3):
            assert world.hands[s] & seen.void[s] == 0  # a suit not followed is not held
        assert world.discarded & (DECK.trumps | DECK.fool_bit | DECK.kings) == 0  # A7


def test_the_rule_discard_banks_the_most_valuable_cards_allowed():
    # the dealer holds two Queens, a Knight and plain cards: they go, the Kings stay (A7)
    d = dealt(0, {0: ["QC", "QS", "HB", "KC", "KO", "2C", "3C", "4C", "5S", "6S"]}, extra=["7S", "8S", "9S"])
    action = RenaissanceRuleBot()(d.view(0))
    assert sorted(action.split()[1:]) == ["HB", "QC", "QS"]


def test_the_rule_bot_leads_the_world_while_the_magician_is_out():
    d = dealt(2, {0: ["21", "5", "KC", "2S", "3S"], 1: ["1"]}, extra=["2B", "3B", "4B"])
    d.apply("discard 2B 3B 4B")
    assert RenaissanceRuleBot()(d.view(0)) == "21"


def test_the_rule_bot_plays_the_fool_rather_than_lose_the_magician():
    # Bartolo leads a high trump; Cecco's only trump is the Magician, and he holds the Fool
    d = dealt(0, {1: ["20"], 2: ["1", "F"] + [f"{n}C" for n in range(1, 11)] + ["QC", "HC", "MC"]},
              extra=["2S", "3S", "4S"])
    d.apply("discard 2S 3S 4S")
    d.apply("20")
    assert RenaissanceRuleBot()(d.view(2)) == "F"


# --- the expert's playout: the rule bot's tests made on the world's hands ---------------------

TRUMP_CODES = [str(n) for n in range(1, 22)] + ["F"]
LEADER_HAND = ["KS", "1S", "2S"] + [f"{n}B" for n in range(1, 11)] + ["MB", "HB", "QB", "KB"] \
    + [f"{n}C" for n in range(1, 8)] + ["MC"]


def lead_of_the_first_trick(second_hand: list[str]) -> tuple[Deal, str, int]:
    """Seat 0 leads (dealer 2, A9) holding the King of Swords; seat 1 holds ``second_hand``.
    The deal, the rule bot's lead from seat 0's view and ``play_seeing``'s in full view."""
    from tarocchi.bots.renaissance.expert import play_seeing

    d = dealt(2, {0: LEADER_HAND, 1: second_hand})
    rule = RenaissanceRuleBot()
    d.apply(rule(d.view(2)), 2)  # the dealer's discard (A7)
    return d, rule(d.view(0)), play_seeing(rule, d)


def test_the_expert_playout_leads_a_king_only_where_no_seat_can_take_it():
    # Seat 1 holds every trump and no Sword: from its view the rule bot leads the King (the
    # suit is still held around); on the world's hands the King would be trumped (A10), so
    # the playout leads a plain card of its shortest suit instead.
    d, guessed, seen = lead_of_the_first_trick(TRUMP_CODES + ["10C", "9C", "8C"])
    assert guessed == "KS"
    assert DECK.codes[seen] != "KS" and DECK.values[seen] == 1
    assert d.legal_cards() >> seen & 1
    # Given one Sword, seat 1 must follow (A10); seat 2 holds Swords too: the King is sure.
    d, guessed, seen = lead_of_the_first_trick(TRUMP_CODES + ["10C", "9C", "3S"])
    assert d.hands[2] & DECK.suit_mask_of[DECK.card("KS")]
    assert DECK.codes[seen] == "KS"


def test_the_expert_playout_plays_every_deal_to_the_count():
    from tarocchi.bots.renaissance.expert import finish_seeing

    rule = RenaissanceRuleBot()
    for seed in range(20):
        d = Deal.from_seed(seed % 3, seed)
        d.apply(rule(d.view(d.to_act)), d.to_act)
        finish_seeing(d, rule)  # the engine refuses any illegal card
        assert d.done and sum(d.count.points) == 78 and sum(d.count.scores) == 0  # A4, A15


def test_the_expert_playout_cashes_a_court_card_no_seat_can_take():
    from tarocchi.bots.renaissance.expert import play_seeing

    leader = ["KB", "QB"] + [f"{n}B" for n in range(5, 11)] + ["MB", "HB"] \
        + [f"{n}C" for n in range(1, 11)] + ["MC", "HC", "QC", "KC", "1S"]
    second = ["1B", "2B"] + TRUMP_CODES + ["2S"]  # every trump, two Batons, no Cup
    d = dealt(2, {0: leader, 1: second})  # the dealer (2) holds no trump
    rule = RenaissanceRuleBot()
    d.apply(rule(d.view(2)), 2)
    # The King of Cups would be trumped (seat 1 has no Cup); the King of Batons cannot be.
    assert DECK.codes[play_seeing(rule, d)] == "KB"
    for _ in range(3):
        d.apply(play_seeing(rule, d))
    assert d.to_act == 0 and not d.trick
    # The King gone, the Queen of Batons is the top Baton and no seat can trump it (A10, A12):
    # cashed before the Knight, the dearer court; from its view the rule bot guesses otherwise.
    assert DECK.codes[play_seeing(rule, d)] == "QB"
    assert rule(d.view(0)) != "QB"
