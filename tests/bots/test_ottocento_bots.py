"""The Ottocento computer players (B1-B27): only legal actions in every phase (a monte, the
discard, the declarations, play with signals), decisions a function of the view and the seed,
the search's worlds consistent with what the seat has seen (declarations, voids, Volo), the
mask count equal to the engine's, the rule bot's policy on hand-built deals, and duels by
partnership."""

from __future__ import annotations

import pickle
import random

import pytest

from tarocchi.bots import levels_for, make_player
from tarocchi.bots.duel import run
from tarocchi.bots.ottocento.common import FULL, PlayState, Seen, combo_points
from tarocchi.bots.ottocento.rule_bot import OttocentoRuleBot
from tarocchi.bots.ottocento.search_bot import Knowledge, OttocentoSearchBot, finish
from tarocchi.games import ottocento_combos as combos
from tarocchi.games.ottocento import DECK, FIVES, Deal, Options

from ..games.ottocento_builders import dealt, to_play

VALUES = DECK.values


def play_deal(deal: Deal, players: list, views: list | None = None) -> Deal:
    while not deal.done:
        seat = deal.to_act
        view = deal.view(seat)
        if views is not None:
            views.append(view)
        action = players[seat](view)
        assert deal.refusal(seat, action) is None, (seat, view["phase"], action)
        deal.apply(action, seat)
    return deal


def test_every_level_plays_ottocento():
    assert set(levels_for("ottocento")) == {"random", "rule", "search", "learned", "expert"}
    with pytest.raises(ValueError, match="unknown player 'oracle' for ottocento"):
        make_player("oracle", game="ottocento")


@pytest.mark.parametrize("levels,signals", [(["random"] * 4, True), (["rule", "random", "rule", "random"], True),
                                            (["random", "rule", "random", "rule"], False), (["rule"] * 4, True)])
def test_random_and_rule_play_only_legal_actions_in_every_phase(levels, signals):
    # B7-B9, B19-B22: the engine's refusal is None for every action, over whole deals
    rng = random.Random(len(levels[0]) + signals)
    phases: dict[str, int] = {}
    made = 0
    for i in range(60):
        players = [make_player(lv, seed=i * 10 + s, game="ottocento") for s, lv in enumerate(levels)]
        views: list = []
        deal = play_deal(Deal.shuffled(4, i % 4, rng, Options(signals=signals)), players, views)
        for v in views:
            phases[v["phase"]] = phases.get(v["phase"], 0) + 1
        made += len(deal.signals)
        if not deal.thrown_in and not deal.count.at_declarations:
            assert sum(deal.count.card_points) + 6 == 93  # O1
    assert set(phases) == {"monte", "discard", "declare", "play"}
    assert (made > 0) == signals  # B22: the bots lead with signals where the table allows them


def test_the_rule_bot_signals_volo_and_trionfi_in_play():
    rng = random.Random(11)
    words = set()
    for i in range(30):
        deal = play_deal(Deal.shuffled(4, i % 4, rng), [OttocentoRuleBot(s) for s in range(4)])
        words |= {g for _, _, g in deal.signals}
    assert words == {1, 2}  # volo and trionfi made (busso only read)


def test_search_plays_only_legal_actions_and_decides_from_the_view_and_seed_alone():
    rng = random.Random(5)
    views: list = []
    for i in range(2):
        players = [OttocentoSearchBot(seed=s, worlds=4, time_limit=None) if s % 2 == 0
                   else make_player("random", seed=s, game="ottocento") for s in range(4)]
        play_deal(Deal.shuffled(4, i, rng), players, views)
    again = OttocentoSearchBot(seed=0, worlds=4, time_limit=None)
    pickled = pickle.loads(pickle.dumps(OttocentoSearchBot(seed=0, worlds=4, time_limit=None)))
    checked = 0
    for view in views[::7]:
        if view["seat"] == 0:
            assert again(view) == pickled(view)
            checked += 1
    assert checked >= 3


def position(seed: int, tricks_left: int) -> Deal:
    """A deal played by rule bots (with signals) until ``tricks_left`` tricks remain, mid-trick."""
    rng = random.Random(seed)
    deal = Deal.shuffled(4, seed % 4, rng)
    bots = [OttocentoRuleBot(s) for s in range(4)]
    while not deal.done and (deal.phase != "play" or deal.tricks_left > tricks_left or not deal.trick):
        deal.apply(bots[deal.to_act](deal.view(deal.to_act)), deal.to_act)
    return deal


@pytest.mark.parametrize("seed,tricks_left", [(1, 15), (2, 13), (3, 10), (4, 7), (5, 4), (6, 12), (7, 9)])
def test_sampled_worlds_agree_with_the_view(seed, tricks_left):
    # A world is another deal that shows the seat exactly the same view: the same hand, the
    # same declarations (B9), the same cards played and signals (B22); the bot's decision on
    # it is the same. Declared cards stay with their declarer; voids and Volo hold (B19, B22);
    # a hidden discard is never a 5-point card (B8).
    deal = position(seed, tricks_left)
    if deal.done:
        pytest.skip("decided before the play")
    me = deal.to_act
    view = deal.view(me)
    seen = Knowledge(view)
    sampled = 0
    for k in range(12):
        world = seen.world(random.Random(k))
        if world is None:
            continue
        sampled += 1
        assert world.view(me) == view
        for s in range(4):
            assert world.hands[s] & seen.void[s] == 0
            assert world.hands[s] & seen.held[s] == seen.held[s]  # declared, not yet played
        assert world.discarded & FIVES == 0
        if me == deal.dealer:
            assert world.discarded == deal.discarded
    assert sampled >= 6
    # the real deal is one of the worlds the seat allows
    for s in range(4):
        assert deal.hands[s] & seen.void[s] == 0 and deal.hands[s] & seen.held[s] == seen.held[s]


def test_volo_reads_as_a_void():
    # B22: seat 0 leads its last cup with volo; from then on no world gives it a cup
    d = dealt(3, {0: ["6C", "5", "6", "7", "1S", "6S", "7S", "8S", "9S", "10S", "1B", "6B", "7B", "8B", "9B"]})
    to_play(d, "MS MB")
    assert OttocentoRuleBot()(d.view(0)) == "6C volo"
    d.apply("6C volo")
    seen = Knowledge(d.view(1))
    assert seen.void[0] & DECK.suit_mask_of[DECK.card("KC")] == DECK.suit_mask_of[DECK.card("KC")]
    for k in range(5):
        world = seen.world(random.Random(k))
        assert world is not None and world.hands[0] & DECK.suit_mask_of[DECK.card("KC")] == 0


def test_the_mask_count_of_combinations_is_the_engines():
    # B10-B18, B25: combo_points equals ottocento_combos' best_all scored, on random sets
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.getrandbits(62) & rng.getrandbits(62) | (rng.getrandbits(62) if rng.random() < 0.3 else 0)
        assert combo_points(cards) == combos.score(combos.best_all(DECK.codes_of(cards))), DECK.codes_of(cards)


def engine_finish(deal: Deal, policy: OttocentoRuleBot) -> list[int]:
    """The reference for ``finish``: the same play applied to the engine's deal, its count read."""
    d = deal.copy()
    while not d.done:
        s = d.to_act
        legal = d.legal_cards()
        st = PlayState(s, d.hands[s], legal, d.trick, d.leader, (d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3])
                       & ~d.hands[s], [FULL & ~h for h in d.hands], d.hands, signals=False)
        d.apply(policy.play(st)[0] if legal & (legal - 1) else legal.bit_length() - 1)
    return d.count.scores


def test_the_search_playout_counts_as_the_engine():
    # B8 (the discard's side), B21 (the Matto's card), B24, B25 on masks, as Deal._count
    policy = OttocentoRuleBot()
    checked = 0
    for seed in range(40):
        deal = position(100 + seed, 15 - seed % 15)
        if deal.done:
            continue
        assert finish(deal, policy) == engine_finish(deal, policy)
        checked += 1
    assert checked > 30


# --- the rule bot's policy on hand-built deals ----------------------------------------------

def test_the_rule_bot_never_discards_a_five_point_card():
    rng = random.Random(2)
    bot = OttocentoRuleBot()
    for i in range(200):  # B8
        d = Deal.shuffled(4, i % 4, rng)
        d.apply("gioco")
        action = bot(d.view(d.dealer))
        assert d.refusal(d.dealer, action) is None
        assert DECK.mask_of(action.split()[1:]) & FIVES == 0


def test_the_rule_discard_banks_lone_queens_and_empties_their_suits():
    # the Queens are worth 4 each and in no combination here; the 5-point cards may not go (B8)
    d = dealt(0, {0: ["20", "19", "KO", "KB", "0", "F", "QC", "QS", "HB", "5", "6", "7", "8", "6O", "7O", "8O",
                      "9B"]})
    d.apply("gioco")
    assert sorted(OttocentoRuleBot()(d.view(0)).split()[1:]) == ["QC", "QS"]


def test_the_rule_bot_declares_the_full_best_declaration_when_the_begato_is_guarded():
    rng = random.Random(9)
    bot = OttocentoRuleBot()
    for i in range(120):  # B9-B18: every declaration made is valid; full unless the Bégato hides
        d = Deal.shuffled(4, i % 4, rng)
        d.apply("gioco")
        d.apply(bot(d.view(d.dealer)))
        for _ in range(4):
            seat = d.to_act
            hand = d.hands[seat]
            action = bot(d.view(seat))
            assert d.refusal(seat, action) is None, action
            full = d.view(seat)["choices"][0]["action"]
            if not hand >> DECK.card("0") & 1 or (hand & DECK.trumps).bit_count() > 4:
                assert action == full
            d.apply(action, seat)
            if d.done:
                break


def test_the_rule_bot_hides_a_poorly_guarded_begato_when_it_costs_5_points():
    # B9: KC QC HC 1C + 0 is 20 points; without the 0, 15; the 0 has only two trumps beside it
    hand = ["0", "5", "6", "KC", "QC", "HC", "1C", "6S", "7S", "8S", "9S", "10S", "6B", "7B", "8B"]
    d2 = dealt(3, {0: hand})
    d2.apply("gioco")
    d2.apply("discard MS MB")
    assert d2.view(0)["choices"][0]["action"] == "declare cups:0,KC,QC,HC,1C"
    assert OttocentoRuleBot()(d2.view(0)) == "declare cups:KC,QC,HC,1C"
    # well guarded (five other trumps): the full declaration
    strong = ["0", "5", "6", "7", "8", "9", "KC", "QC", "HC", "1C", "6S", "7S", "8S", "9S", "10S"]
    d3 = dealt(3, {0: strong})
    d3.apply("gioco")
    d3.apply("discard MS MB")
    assert OttocentoRuleBot()(d3.view(0)) == "declare cups:0,KC,QC,HC,1C"


NO_TRUMPS = ["KO", "QO", "HO", "MO", "1O", "6O", "7O", "8O", "9O", "10O", "KS", "QS", "6S", "7S", "8S"]


def test_the_rule_bot_feeds_a_king_to_the_partners_sure_trick_when_it_cannot_follow():
    # dealer 1: seat 2 leads the 20 (nobody can beat it); seat 0, no trumps, gives a 5-pointer
    d = dealt(1, {1: ["9B", "10B"], 0: NO_TRUMPS, 2: ["20", "10"], 3: ["5"]})
    to_play(d, "9B 10B")
    d.apply("20", 2)
    d.apply("5", 3)
    card = OttocentoRuleBot()(d.view(0))
    assert card in ("KO", "KS")


def test_the_rule_bot_does_not_feed_a_trick_an_opponent_may_still_take():
    # the partner's 15 may be beaten by seat 1, still to play (16-19 unseen): the cheapest card
    d = dealt(1, {1: ["9B", "10B"], 0: NO_TRUMPS, 2: ["15", "10"], 3: ["5"]})
    to_play(d, "9B 10B")
    d.apply("15", 2)
    d.apply("5", 3)
    card = OttocentoRuleBot()(d.view(0))
    assert VALUES[DECK.card(card)] == 1 and card not in ("1O",)


def test_the_rule_bot_feeds_the_begato_to_the_partners_sure_trick():
    # void in cups, trumps 0 and 7: partner's KC... trumped? no: partner leads the 20, seat 0
    # must play a trump: the Bégato, banked in the partner's trick
    d = dealt(1, {1: ["9B", "10B"], 0: ["0", "7"] + NO_TRUMPS[:13], 2: ["20"], 3: ["5"]})
    to_play(d, "9B 10B")
    d.apply("20", 2)
    d.apply("5", 3)
    assert OttocentoRuleBot()(d.view(0)) == "0"


def test_the_rule_bot_keeps_the_begato_from_an_opponents_trick():
    # seat 3 leads the 12; seat 0 holds the 0 and the 7: the 7 goes, the Bégato stays
    d = dealt(2, {2: ["9B", "10B"], 3: ["12"], 0: ["0", "7"] + NO_TRUMPS[:13]})
    to_play(d, "9B 10B")
    d.apply("12", 3)
    assert OttocentoRuleBot()(d.view(0)) == "7"


def test_the_rule_bot_plays_the_matto_rather_than_lose_the_begato():
    # B20, B21: the only trump is the 0; the Matto goes instead (a 1-point card is paid later)
    d = dealt(2, {2: ["9B", "10B"], 3: ["12"], 0: ["0", "F"] + NO_TRUMPS[:13]})
    to_play(d, "9B 10B")
    d.apply("12", 3)
    assert OttocentoRuleBot()(d.view(0)) == "F"


def test_the_rule_bot_takes_a_trick_with_a_sure_winner():
    # seat 3 leads the 12; seat 0 holds the 20: nobody can beat it
    d = dealt(2, {2: ["9B", "10B"], 3: ["12"], 0: ["20", "5"] + NO_TRUMPS[:13]})
    to_play(d, "9B 10B")
    d.apply("12", 3)
    assert OttocentoRuleBot()(d.view(0)) == "20"


def test_the_rule_bot_answers_busso_with_its_highest_card():
    # B22: partner leads 6C busso; seat 0 holds QC and 9C: the QC (else the cheap 9C: the KC
    # is out, the partner's trick not sure)
    hand0 = ["QC", "9C"] + NO_TRUMPS[:13]
    d = dealt(1, {1: ["9B", "10B"], 0: hand0, 2: ["6C"], 3: ["10C"]})
    to_play(d, "9B 10B")
    d.apply("6C busso", 2)
    d.apply("10C", 3)
    assert OttocentoRuleBot()(d.view(0)) == "QC"
    d = dealt(1, {1: ["9B", "10B"], 0: hand0, 2: ["6C"], 3: ["10C"]})
    to_play(d, "9B 10B")
    d.apply("6C", 2)
    d.apply("10C", 3)
    assert OttocentoRuleBot()(d.view(0)) == "9C"


def test_the_rule_bot_leads_trumps_when_partner_asked_with_trionfi():
    # B22: partner's 6C trionfi; seat 0 wins with the KC and leads a trump
    d = dealt(1, {0: ["KC", "8C", "5", "6", "7", "8"] + NO_TRUMPS[:9], 1: ["9C", "9B", "10B"], 2: ["6C"], 3: ["10C"]})
    to_play(d, "9B 10B")
    d.apply("6C trionfi", 2)
    d.apply("10C", 3)
    assert OttocentoRuleBot()(d.view(0)) == "KC"
    d.apply("KC", 0)
    d.apply("9C", 1)
    lead = OttocentoRuleBot()(d.view(0))
    assert DECK.card(lead.split()[0]) in [DECK.card(c) for c in ("5", "6", "7", "8")]


def test_the_knowledge_reads_the_partners_signals():
    d = dealt(1, {0: ["KC", "8C", "5", "6", "7", "8"] + NO_TRUMPS[:9], 1: ["9C", "9B", "10B"], 2: ["6C"], 3: ["10C"]})
    to_play(d, "9B 10B")
    d.apply("6C trionfi", 2)
    st = Seen(d.view(0)).state(0)
    assert st.trionfi and not st.busso_now
    assert not Seen(d.view(1)).state(0).trionfi  # an opponent's signal asks nothing of seat 1


# --- duels by partnership -------------------------------------------------------------------

def test_a_partnership_duel_of_a_bot_against_itself_is_even():
    # the same deterministic bot on both sides: each side's cards are played the same way
    # twice, so every duplicate deal's margin is exactly 0
    rep = run(4, 6, 1, "rule", "rule", game="ottocento")
    assert rep["diff"][0] == 0
    assert rep["bots"]["A"]["decisions"] > 0


def test_a_small_duel_rule_beats_random():
    rep = run(4, 10, 3, "rule", "random", game="ottocento")
    m, h = rep["diff"]
    assert m - h > 0  # about +190 points a deal (docs/benchmarks.md)


def test_a_tiny_search_duel_runs():
    rep = run(4, 1, 4, "search", "rule", game="ottocento")
    assert rep["deals"] == 1 and rep["bots"]["search"]["decisions"] > 0
