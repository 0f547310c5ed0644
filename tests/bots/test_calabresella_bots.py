"""The Calabresella computer players (CALABRESELLA.md C1-C22): only legal actions in every
phase over whole deals (the rare contracts too), decisions a function of the view and the seed,
the search's worlds consistent with what the seat has seen, and the rule bot's choices on
hand-built deals."""

from __future__ import annotations

import pickle
import random

import pytest

from tarocchi.bots import levels_for, make_player
from tarocchi.bots.calabresella.rule_bot import THRESHOLDS, CalabresellaRuleBot, choose_lay
from tarocchi.bots.calabresella.search_bot import CalabresellaKnowledge, CalabresellaSearchBot
from tarocchi.bots.duel import run
from tarocchi.bots.sicilian.policy import hand_strength
from tarocchi.engine.cards import NEVER_DISCARD
from tarocchi.games.calabresella import DECK, LAY_RULES, Deal

from ..games.calabresella_builders import dealt

BIDS = ["chiamo", "vado solo", "vado solissimo", "vado solissimo dividete", "vado solissimo scegliete"]
PHASES = {"speak", "call", "give", "discard", "lay", "take", "play"}


def play_deal(deal: Deal, players: list, phases: set | None = None, views: list | None = None) -> Deal:
    while not deal.done:
        seat = deal.to_act
        view = deal.view(seat)
        if views is not None:
            views.append(view)
        action = players[seat](view)
        assert deal.refusal(seat, action) is None, (view["phase"], seat, action)
        if phases is not None:
            phases.add(view["phase"])
        deal.apply(action, seat)
    return deal


def forced(seed: int, dealer: int, bid: str) -> Deal:
    """A deal whose first speaker says ``bid`` and the others accept (C8): every contract is
    reached, not only those the bots would choose."""
    d = Deal.from_seed(dealer, seed)
    d.apply(bid)
    while d.phase == "speak":
        d.apply("sta bene")
    return d


def test_every_level_plays_calabresella():
    assert list(levels_for("calabresella")) == ["random", "rule", "search", "learned", "expert"]
    with pytest.raises(ValueError, match="unknown player 'oracle' for calabresella"):
        make_player("oracle", game="calabresella")


@pytest.mark.parametrize("level", ["random", "rule"])
def test_random_and_rule_play_only_legal_actions_in_every_phase(level):
    phases: set = set()
    for i in range(60):
        players = [make_player(level, seed=i * 10 + s, game="calabresella") for s in range(3)]
        deal = forced(i, i % 3, BIDS[i % 5]) if i % 2 else Deal.from_seed(i % 3, i)
        play_deal(deal, players, phases)
        assert sum(deal.returns()) == 0
    assert phases == PHASES


def test_the_rule_bot_lays_legally_when_short_of_cards_it_may_lay():
    # C13: seat 1 holds the trumps 20-5, the Fool and Kings; the monte brings 5S, Miseria and
    # a King: it lays 5S, the only card it may, then the lowest of Miseria and trumps 2-15
    trumps = [str(n) for n in range(20, 0, -1)]
    d = dealt(0, {1: trumps[:16] + ["F", "KC", "KO", "KS"]}, monte=["5S", "0", "KB"])
    d.apply("vado solo")
    d.apply("sta bene")
    d.apply("sta bene")
    action = CalabresellaRuleBot()(d.view(1))
    assert d.refusal(1, action) is None
    laid = DECK.mask_of(action.split()[1:])
    assert laid == DECK.mask_of(["5S", "0", "5"])


def test_the_search_plays_only_legal_actions_and_decides_from_the_view_and_seed_alone():
    views: list = []
    for i, bid in enumerate(BIDS):
        players = [CalabresellaSearchBot(seed=s, worlds=3, time_limit=None) if s != 1
                   else make_player("rule", seed=s, game="calabresella") for s in range(3)]
        play_deal(forced(40 + i, i % 3, bid), players, views=views)
    again = CalabresellaSearchBot(seed=0, worlds=3, time_limit=None)
    pickled = pickle.loads(pickle.dumps(CalabresellaSearchBot(seed=0, worlds=3, time_limit=None)))
    checked = 0
    for view in views[3::11]:
        if view["seat"] == 0 and view["phase"] == "play":
            assert again(view) == pickled(view)
            checked += 1
    assert checked >= 5


def test_a_view_holds_no_other_hand_and_the_bots_decide_the_same_on_any_hidden_cards():
    """Two deals that differ only in cards seat 0 has not seen give it the same view, and every
    bot decides the same in both."""
    rng = random.Random(3)
    for trial in range(6):
        d = Deal.from_seed(trial % 3, 500 + trial)
        rule = [CalabresellaRuleBot(s) for s in range(3)]
        play_deal_until = 10 + trial * 5
        while len(d.history) < play_deal_until or d.phase != "play" or d.to_act != 0:
            if d.done:
                break
            d.apply(rule[d.to_act](d.view(d.to_act)), d.to_act)
        if d.done:
            continue
        view = d.view(0)
        for s in (1, 2):
            assert not any(c in view["hand"] for c in DECK.codes_of(d.hands[s]))
        # swap two cards seat 0 has not seen between the other hands and replay the actions
        seen = CalabresellaKnowledge(view)
        a = [c for c in DECK.codes_of(d.hands[1]) if seen.where.get(DECK.card(c), 0) == 0b110]
        b = [c for c in DECK.codes_of(d.hands[2]) if seen.where.get(DECK.card(c), 0) == 0b110]
        if not a or not b:
            continue
        x, y = rng.choice(a), rng.choice(b)
        deck = [DECK.codes[c] for c in d.deck]
        i, j = deck.index(x), deck.index(y)
        deck[i], deck[j] = y, x
        e = Deal(3, d.dealer, [DECK.card(c) for c in deck])
        for seat, act in d.history:
            e.apply(act, seat)
        assert e.view(0) == view and e.hands[1] != d.hands[1]
        for make in (lambda: CalabresellaRuleBot(1), lambda: CalabresellaSearchBot(1, worlds=3, time_limit=None),
                     lambda: make_player("random", seed=1, game="calabresella")):
            assert make()(e.view(0)) == make()(view)  # a fresh bot each time: the same seed


@pytest.mark.parametrize("bid", BIDS)
def test_sampled_worlds_keep_what_the_seat_has_seen(bid):
    rule = [CalabresellaRuleBot(s) for s in range(3)]
    for seed in range(4):
        d = forced(300 + seed, seed % 3, bid)
        while not d.done and sum(d.tricks_won) < 3 + 2 * seed:
            d.apply(rule[d.to_act](d.view(d.to_act)), d.to_act)
        me = d.to_act
        seen = CalabresellaKnowledge(d.view(me))
        found = 0
        for k in range(10):
            world = seen.world(random.Random(k))
            if world is None:
                continue
            found += 1
            assert world.hands[me] == d.hands[me] and world.played == d.played and world.trick == d.trick
            assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in d.hands]
            assert world.challenger == d.challenger and world.called == d.called and world.giver == d.giver
            for s in range(3):
                if s != me:
                    assert world.hands[s] & seen.void[s] == 0  # a suit not followed is not held (R13)
            assert world.laid[me] == d.laid[me]
            if bid != "vado solissimo":
                assert world.monte & NEVER_DISCARD == 0  # C13
            if d.given_back >= 0 and me != d.giver and not d.played[d.giver] >> d.given_back & 1:
                assert world.hands[d.giver] >> d.given_back & 1  # C10: the card given back is the giver's
            assert world.face_up == d.face_up
        assert found >= 5


# --- the rule bot's choices on hand-built deals -------------------------------------------

STRONG = ["20", "19", "18", "17", "16", "15", "14", "13", "12", "11", "1", "F", "KC", "KO", "KS", "KB", "QC",
          "QO", "QS", "10"]
WEAK = ["0", "2", "5C", "6C", "7C", "8C", "9C", "5O", "6O", "7O", "8O", "4O", "5S", "6S", "7S", "8S", "5B", "6B",
        "7B", "8B"]


def test_the_rule_bot_bids_with_a_clearly_strong_hand_and_passes_with_a_weak_one():
    assert hand_strength(DECK.mask_of(STRONG), 3) > 30 > 5 > hand_strength(DECK.mask_of(WEAK), 3)
    d = dealt(0, {1: WEAK, 2: STRONG})
    bot = CalabresellaRuleBot()
    assert bot(d.view(1)) == "passo"
    d.apply("passo")
    bid = bot(d.view(2))
    assert bid == THRESHOLDS[0][0] and bid.startswith("vado solissimo")  # the dearest contract
    # a hand good for solo, not more: solo, over a chiamo too; after a solo it accepts (C8)
    solo = ["20", "19", "18", "17", "14", "12", "1", "3", "KC", "KO", "QC", "QO", "HC", "5S", "6S", "5B", "6B",
            "7B", "8B", "9B"]
    s = hand_strength(DECK.mask_of(solo), 3)
    levels = dict(THRESHOLDS)
    assert levels["vado solo"] <= s < min(levels[w] for w in BIDS[2:])
    for first, answer in (("passo", "vado solo"), ("chiamo", "vado solo"), ("vado solo", "sta bene")):
        d = dealt(0, {2: solo})
        d.apply(first)
        assert bot(d.view(2)) == answer


def test_the_rule_bot_calls_a_card_it_lacks_and_never_gives_it_back():
    # seat 1 holds every trump but the 20 and the 19: it calls the 20, held by seat 2
    hand = [str(n) for n in range(18, 0, -1)] + ["0", "KC", "5S"][:2]
    d = dealt(0, {1: hand, 2: ["20"]})
    d.apply("chiamo")
    d.apply("sta bene")
    d.apply("sta bene")
    bot = CalabresellaRuleBot()
    call = bot(d.view(1))
    assert call == "chiamo 20" and not DECK.mask_of(d.view(1)["hand"]) >> DECK.card("20") & 1
    d.apply(call)
    give = bot(d.view(1))
    assert d.phase == "give" and give != "restituisco 20" and d.refusal(1, give) is None
    d.apply(give)
    lay = bot(d.view(1))
    assert d.refusal(1, lay) is None  # C13: three cards it may lay
    d.apply(lay)
    assert d.phase == "play" and d.hand_size(1) == 20


def test_the_rule_lay_empties_a_short_suit_of_blanks_and_keeps_the_points():
    hand = DECK.mask_of(["20", "19", "18", "KC", "QC", "HC", "10C", "9C", "5S", "6S", "KO", "QO", "4O", "5O",
                         "6O", "7O", "KB", "QB", "5B", "8B", "9B", "10B", "MB"])
    laid = choose_lay(hand, 3)
    assert LAY_RULES[3].refusal(hand, laid) is None
    assert DECK.mask_of(["5S", "6S"]) & laid == DECK.mask_of(["5S", "6S"])  # swords emptied
    assert laid & DECK.mask_of(["QC", "QO", "QB", "HC", "MB"]) == 0


def test_a_small_duel_runs_and_the_rule_bot_beats_random():
    rep = run(3, 20, 1, "rule", "random", game="calabresella")
    assert rep["deals"] == 20 and rep["diff"][0] > 0
    for name, bot in rep["bots"].items():
        tally = bot["by_contract"]
        assert sum(n for n, _ in tally.values()) == bot["contracts"]
        assert all(0 <= made <= n for n, made in tally.values())
        assert set(tally) <= {"chiamo", "solo", "solissimo", "solissimo dividete", "solissimo scegliete"}


def test_worlds_when_the_caller_gives_back_a_card_of_the_monte():
    """C10: the card given back may be one the monte brought; it was dealt to the monte, not to
    the caller, and the worlds of both opponents still rebuild the deal."""
    hand = [str(n) for n in range(18, 0, -1)] + ["0", "KC"]
    d = dealt(0, {1: hand, 2: ["20"]}, monte=["5S", "6S", "QB"])
    for step in ("chiamo", "sta bene", "sta bene", "chiamo 20", "restituisco QB", "scarto 5S 6S KC"):
        assert d.refusal(d.to_act, step) is None or step == "scarto 5S 6S KC", step
        if step.startswith("scarto"):
            step = CalabresellaRuleBot()(d.view(1))
        d.apply(step)
    d.apply(d.view(1)["choices"][0]["action"] if d.to_act == 1 else CalabresellaRuleBot()(d.view(d.to_act)))
    for _ in range(2):
        me = d.to_act
        seen = CalabresellaKnowledge(d.view(me))
        worlds = [w for w in (seen.world(random.Random(k)) for k in range(10)) if w is not None]
        assert len(worlds) >= 5, me
        assert all(w.hands[2] >> DECK.card("QB") & 1 for w in worlds if not d.played[2] >> DECK.card("QB") & 1)
        d.apply(CalabresellaRuleBot()(d.view(me)))
