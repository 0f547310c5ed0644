"""The Renaissance game, ruling by ruling (RENAISSANCE.md A1-A17) and the hand-built cases
T1-T9, each a real deal built from a chosen deck order (tests/games/builders.py)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tarocchi.engine.deck import CardError
from tarocchi.engine.game import IllegalAction, get_game
from tarocchi.engine.match import Match
from tarocchi.engine.playout import play_out, random_action
from tarocchi.engine.records import replay
from tarocchi.games.renaissance import DECK, DISCARD, RULES, Deal, Options, parse_action

from .builders import dealt, discard_for, played, rest_of, triples

LUCIA, BARTOLO, CECCO = 0, 1, 2  # A17: Lucia deals


def mask(*codes: str) -> int:
    return DECK.mask_of(codes)


def points(*codes: str) -> int:
    return DECK.points(mask(*codes))


# --- cards (A1-A4) ----------------------------------------------------------------------

def test_A1_the_78_codes_are_trumps_1_to_21_the_fool_and_rank_plus_suit():
    ranks = "K Q H M 10 9 8 7 6 5 4 3 2 1".split()
    expected = {str(n) for n in range(1, 22)} | {"F"} | {r + s for r in ranks for s in "COSB"}
    assert len(DECK.codes) == 78 and set(DECK.codes) == expected
    assert DECK.card("kc") == DECK.card("KC") and DECK.codes[DECK.card("10S")] == "10S"
    for not_a_card in ("0", "22", "AC", "11C", "KX", "", "1 0"):
        with pytest.raises(CardError, match="is not a card code"):
            DECK.card(not_a_card)


def test_A2_cups_and_pentacles_run_ace_high_swords_and_wands_ten_high_trumps_by_number():
    def beats(a: str, b: str) -> bool:
        return DECK.card(a) > DECK.card(b)  # within a suit, the higher bit is the higher card

    for s in "CO":
        order = ["K", "Q", "H", "M"] + [str(n) for n in range(1, 11)]
        assert all(beats(x + s, y + s) for x, y in zip(order, order[1:]))
    for s in "SB":
        order = ["K", "Q", "H", "M"] + [str(n) for n in range(10, 0, -1)]
        assert all(beats(x + s, y + s) for x, y in zip(order, order[1:]))
    assert all(beats(str(n + 1), str(n)) for n in range(1, 21))  # 21 over 20: no Bologna order
    assert DECK.codes_of(DECK.full)[:3] == ["21", "20", "19"]  # shown high to low, F apart
    assert DECK.codes_of(DECK.full)[-1] == "F"


def test_A3_values_kings_21_1_fool_5_queens_4_knights_3_pages_2_else_1():
    value = dict(zip(DECK.codes, DECK.values))
    assert {c for c, v in value.items() if v == 5} == {"21", "1", "F", "KC", "KO", "KS", "KB"}
    assert all(value["Q" + s] == 4 and value["H" + s] == 3 and value["M" + s] == 2 for s in "COSB")
    assert sum(v >= 2 for v in value.values()) == 19 and sum(v == 1 for v in value.values()) == 59
    assert sum(value.values()) == 130


def test_A4_T1_a_pile_is_its_values_less_two_a_three_and_the_deck_is_78():
    assert points("KC", "5S", "7B") == 5
    assert points("2C", "3C", "4C") == 1
    assert points("KB", "QB", "HB") == 10
    assert DECK.points(DECK.full) == 78
    # how the cards are grouped never matters: the value of any 3k cards less 2k
    rng = random.Random(4)
    for _ in range(200):
        pile = rng.sample(DECK.codes, 3 * rng.randrange(1, 27))
        assert DECK.points(mask(*pile)) == sum(DECK.values[DECK.card(c)] for c in pile) - 2 * len(pile) // 3


# --- seats and the deal (A5-A8) ---------------------------------------------------------

def test_A5_A16_each_deal_is_dealt_by_the_next_seat_a_match_is_rounds_of_three_deals():
    m = Match(3, first_dealer=2, options=Options(rounds=2), game="renaissance")
    assert m.length == 6 and [m.dealer_of(i) for i in range(6)] == [2, 0, 1, 2, 0, 1]
    rng = random.Random(3)
    scores = []
    while not m.over:
        d = play_out(m.start_deal(rng), rng)
        scores.append(d.returns())
    assert [d.dealer for d in m.deals] == [2, 0, 1, 2, 0, 1]
    assert m.totals == [sum(s[i] for s in scores) for i in range(3)] and sum(m.totals) == 0
    assert m.winners() == [s for s in range(3) if m.totals[s] == max(m.totals)]  # a tie is shared
    with pytest.raises(ValueError):
        m.start_deal(rng)


@pytest.mark.parametrize("rounds", [0, 5, "2", True])
def test_A16_rounds_is_1_to_4(rounds):
    with pytest.raises(ValueError, match="rounds"):
        Options.from_json({"rounds": rounds})
    assert Options.from_json(None).rounds == 1 and Options.from_json({"rounds": 4}).rounds == 4


def test_A6_packets_of_five_from_dealer_plus_one_and_the_last_three_to_the_dealer():
    order = list(range(78))
    for dealer in range(3):
        d = Deal(3, dealer, order)
        for seat in range(3):
            k = (seat - dealer - 1) % 3  # 0 for dealer + 1
            packets = {c for r in range(5) for c in range(15 * r + 5 * k, 15 * r + 5 * k + 5)}
            if seat == dealer:
                packets |= {75, 76, 77}
            assert d.hands[seat] == sum(1 << c for c in packets)
        assert d.extra == (1 << 75) | (1 << 76) | (1 << 77)


def test_A7_A8_the_dealer_discards_first_nothing_is_said():
    d = Deal.from_seed(dealer=1, seed=2)
    assert (d.phase, d.to_act, d.hand_size(1)) == ("discard", 1, 28)
    assert d.refusal(1, "passo").startswith("'passo' is not an action")  # A8: no bidding
    assert d.refusal(1, "7B") == "now is the time to discard three cards"
    assert d.refusal(2, "discard 2C 3C 4C") == "it is not your turn"


def test_A7_T9_the_discard_never_holds_a_king_a_trump_or_the_fool_but_for_the_fallback():
    # T9: the dealer holds all 21 trumps, F, four Kings, QC, 10S
    hand = [str(n) for n in range(1, 22)] + ["F", "KC", "KO", "KS", "KB", "QC", "10S"]
    d = dealt(LUCIA, {LUCIA: hand[:25]}, extra=hand[25:])
    assert d.hand_size(LUCIA) == 28
    assert DECK.codes_of(d.discardable()) == [str(n) for n in range(20, 1, -1)] + ["QC", "10S"]
    for bad in ("21", "1", "KC", "F"):
        assert d.refusal(LUCIA, f"discard QC 10S {bad}") in (
            "only trumps 2 to 20, and no more than you must", "you may not discard a King, a trump or the Fool")
    assert d.refusal(LUCIA, "discard QC 7 8") == "only trumps 2 to 20, and no more than you must"  # no more than needed
    assert d.refusal(LUCIA, "discard QC 10S") == "a discard names three different cards, e.g. 'discard 10C 9O 2S'"
    assert d.refusal(LUCIA, "discard QC 10S 7") is None
    d.apply("discard QC 10S 7")
    assert d.phase == "play" and d.hand_size(LUCIA) == 25 and d.discarded == mask("QC", "10S", "7")


def test_A7_T9_every_discard_listed_for_the_short_dealer_is_taken():
    # the T9 dealer: its 2 other cards go, and one of trumps 2-20 (no more than needed)
    hand = [str(n) for n in range(1, 22)] + ["F", "KC", "KO", "KS", "KB", "QC", "10S"]
    d = dealt(LUCIA, {LUCIA: hand[:25]}, extra=hand[25:])
    listed = d.legal_actions()
    assert {a - DISCARD for a in listed} == {mask("QC", "10S", str(n)) for n in range(2, 21)}
    for a in listed:
        assert d.refusal(LUCIA, a) is None
        d.copy().apply(a, LUCIA)


def test_A7_a_hand_of_trumps_the_fool_and_kings_only_discards_three_of_trumps_2_to_20():
    # No dealt hand is this short (28 cards, 26 never discarded: at least 2 others); A7's rule
    # holds for it all the same, the missing three all from trumps 2-20 (issue 19)
    rule = get_game("renaissance").discard_rule
    hand = mask(*[str(n) for n in range(1, 22)], "F", "KC", "KO", "KS", "KB")
    middle = [str(n) for n in range(2, 21)]
    assert set(rule.discards(hand)) == {mask(*t) for t in combinations(middle, 3)}
    assert all(rule.refusal(hand, m) is None for m in rule.discards(hand))
    for bad in (("1", "2", "3"), ("21", "2", "3"), ("F", "2", "3"), ("KC", "2", "3")):
        assert rule.refusal(hand, mask(*bad)) == "only trumps 2 to 20, and no more than you must"


def test_A7_with_enough_other_cards_no_trump_goes():
    d = Deal.from_seed(dealer=0, seed=5)
    allowed = d.discardable()
    assert allowed == d.hands[0] & ~(DECK.trumps | DECK.fool_bit | DECK.kings)
    assert all(a & ~(1 << 80) & (DECK.trumps | DECK.fool_bit | DECK.kings) == 0 for a in d.legal_actions())
    n = allowed.bit_count()
    assert len(d.legal_actions()) == n * (n - 1) * (n - 2) // 6


# --- play (A9-A12) ----------------------------------------------------------------------

def test_A9_dealer_plus_one_leads_then_each_trick_winner_25_tricks():
    d = Deal.from_seed(dealer=2, seed=9)
    d.apply(d.legal_actions()[0])
    assert d.to_act == 0 and d.leader == 0
    rng = random.Random(1)
    while not d.done:
        if not d.trick:
            assert d.to_act == (d.last_trick[2] if d.last_trick else 0)
        d.apply(rng.choice(d.legal_actions()))
    assert sum(d.tricks_won) == 25


def in_play(leader_card: str, hand: list[str], dealer: int = LUCIA) -> Deal:
    """Bartolo (dealer + 1) leads ``leader_card``; Cecco holds ``hand`` (and filler)."""
    d = dealt(dealer, {BARTOLO: [leader_card], CECCO: hand}, extra=["2S", "3S", "4S"])
    d.apply("discard 2S 3S 4S")
    d.apply(leader_card, BARTOLO)
    return d


def test_A10_T4_follow_the_suit_else_a_trump_else_anything_and_the_fool_always():
    # T4: cups led, the seat holds 3C: only cups or F
    d = dealt(LUCIA, {BARTOLO: ["7C"], CECCO: ["3C", "F", "5", "KO"] + [f"{n}B" for n in range(1, 11)]
                      + ["QB", "HB", "MB", "KB", "6O", "7O", "8O", "9O", "10O", "QO", "HO"]}, extra=["2S", "3S", "4S"])
    d.apply("discard 2S 3S 4S")
    d.apply("7C", BARTOLO)
    assert DECK.codes_of(d.legal_cards()) == ["3C", "F"]
    assert d.refusal(CECCO, "5") == "follow cups" and d.reason(CECCO, "5").id == "follow_cups"
    with pytest.raises(IllegalAction) as e:
        d.apply("5", CECCO)
    assert (e.value.reason, e.value.reason_id, type(e.value.reason)) == ("follow cups", "follow_cups", str)
    # no cups, holds trumps: only trumps or F
    d = in_play("7C", ["F", "5", "KO", "KB"] + [f"{n}B" for n in range(1, 11)] + ["QB", "HB", "MB", "6O", "7O", "8O", "9O"])
    assert DECK.codes_of(d.legal_cards()) == ["5", "F"]
    assert d.refusal(CECCO, "KO") == "play a trump"
    # trumps led, holds trump 1 only: 1 or F
    d = in_play("20", ["1", "F", "KO", "KB"] + [f"{n}B" for n in range(1, 11)] + ["QB", "HB", "MB", "6O", "7O", "8O", "9O"])
    assert DECK.codes_of(d.legal_cards()) == ["1", "F"]
    # nobody has to beat: the lowest of the suit is as good as the highest
    d = in_play("KC", ["2C", "QC"])
    assert d.legal_cards() & mask("2C", "QC") == mask("2C", "QC")


def test_A10_the_fool_may_lead_any_trick_and_holding_it_is_no_suit():
    d = in_play("F", [])
    assert d.trick == [DECK.card("F")]
    d2 = dealt(LUCIA, {BARTOLO: ["F"]}, extra=["2S", "3S", "4S"])
    d2.apply("discard 2S 3S 4S")
    assert d2.legal_cards() == d2.hands[BARTOLO]  # the lead: any card, the Fool included


def test_A11_T5_after_a_led_fool_the_second_card_fixes_what_the_third_follows():
    d = dealt(LUCIA, {BARTOLO: ["F"], CECCO: ["9S"], LUCIA: ["10S", "21"]}, extra=["2C", "3C", "4C"])
    d.apply("discard 2C 3C 4C")
    d.apply("F", BARTOLO)
    assert d.legal_cards() == d.hands[CECCO]  # the second seat plays as if leading
    d.apply("9S", CECCO)
    assert d.refusal(LUCIA, "21") == "follow swords"  # a trump is refused: Lucia holds swords
    assert d.legal_cards() == d.hands[LUCIA] & DECK.suit_masks[2]
    d.apply("10S", LUCIA)
    assert d.last_trick[2] == LUCIA and d.fool_to == LUCIA  # 10S beats 9S (A12)
    e = dealt(LUCIA, {BARTOLO: ["F"], CECCO: ["9S"], LUCIA: ["8S", "21"]}, extra=["2C", "3C", "4C"])
    e.apply("discard 2C 3C 4C")
    for seat, c in ((BARTOLO, "F"), (CECCO, "9S"), (LUCIA, "8S")):
        e.apply(c, seat)
    assert e.last_trick[2] == CECCO  # 9S wins unless the sword is higher


def test_A12_T3_the_highest_trump_wins_else_the_highest_of_the_suit():
    def winner(*cards: str) -> str:
        return cards[RULES.winner([DECK.card(c) for c in cards])]

    assert winner("7B", "KB", "3") == "3"
    assert winner("2O", "9O", "QO") == "QO"
    assert winner("9O", "2O", "3C") == "2O"  # in pentacles the 2 beats the 9
    assert winner("9S", "10S", "KC") == "10S"
    assert winner("2C", "1C", "5S") == "1C"
    assert winner("1C", "MC", "KS") == "MC"
    assert winner("F", "6B", "KC") == "6B"  # the Fool never wins; the 6 fixed wands
    assert winner("1", "F", "KB") == "1"


# --- the Fool and the count (A13-A15, A17) ---------------------------------------------

def plan_with_fool(fool_trick: dict[int, str], lead: list[dict[int, str]], winners: list[int],
                   discard: list[str]) -> list[dict[int, str]]:
    return lead + [fool_trick] + triples(rest_of(discard, fool_trick, *lead), winners)


def test_A13_T6_the_fool_stays_and_one_plain_card_moves_to_its_tricks_winner():
    # Bartolo leads the Fool into trick 1, Lucia wins it; Bartolo wins tricks later
    fool = {BARTOLO: "F", CECCO: "6C", LUCIA: "5C"}  # in cups the 5 beats the 6 (A2)
    discard = discard_for(fool)
    d = played(LUCIA, [fool] + triples(rest_of(discard, fool), [LUCIA, BARTOLO, CECCO]), discard)
    c = d.count
    assert c.fool_by == BARTOLO and c.fool_to == LUCIA
    first_plain = next(x for w, cards in d.wins if w == BARTOLO for x in cards if DECK.values[x] == 1)
    assert c.paid == first_plain  # A13: the first 1-point card of his tricks, in play order
    assert c.piles[BARTOLO] == d.won[BARTOLO] & ~(1 << first_plain) | DECK.fool_bit
    assert c.piles[LUCIA] == d.won[LUCIA] | d.discarded | 1 << first_plain
    assert all(p.bit_count() % 3 == 0 for p in c.piles) and sum(c.scores) == 0


def test_A13_the_dealers_fool_pays_from_the_discard_first_in_display_order():
    discard = ["10C", "MO", "9C"]  # in display order 9C, 10C (cups run ace high), then MO
    fool = {LUCIA: "F", BARTOLO: "6S", CECCO: "5S"}
    d = played(LUCIA, [fool] + triples(rest_of(discard, fool), [BARTOLO, CECCO, LUCIA]), discard)
    assert d.count.fool_by == LUCIA and DECK.codes[d.count.paid] == "9C"
    assert d.count.piles[d.count.fool_to] >> DECK.card("9C") & 1


def test_A14_T7_a_fool_whose_player_wins_nothing_goes_itself_to_the_winner():
    fool = {BARTOLO: "6C", CECCO: "F", LUCIA: "5C"}  # trick 1: Lucia wins, Cecco's Fool in it
    discard = discard_for(fool)
    d = played(LUCIA, [fool] + triples(rest_of(discard, fool), [LUCIA, BARTOLO]), discard)
    c = d.count
    assert d.tricks_won[CECCO] == 0 and c.paid == -1
    assert c.piles[LUCIA] >> DECK.fool and c.piles[CECCO] == 0
    assert c.scores[CECCO] == -26 and c.scores[LUCIA] + c.scores[BARTOLO] == 26
    assert d.count.to_json()["fool"] == {"seat": CECCO, "trick_winner": LUCIA, "paid": None, "surrendered": True}


def test_A14_T8_a_pile_of_court_cards_only_gives_the_fool_itself():
    fool = {BARTOLO: "5C", CECCO: "F", LUCIA: "6C"}  # Bartolo wins the Fool's trick
    wands = {CECCO: "KB", BARTOLO: "QB", LUCIA: "HB"}  # Cecco's only trick
    discard = discard_for(fool, wands)
    d = played(LUCIA, [fool, wands] + triples(rest_of(discard, fool, wands), [LUCIA, BARTOLO]), discard)
    c = d.count
    assert d.tricks_won[CECCO] == 1 and c.fool_to == BARTOLO and c.paid == -1
    assert c.piles[BARTOLO] >> DECK.fool & 1 and c.piles[CECCO] == mask("KB", "QB", "HB")
    assert c.scores[CECCO] == 10 - 26 == -16


def test_A15_A17_T2_the_worked_example_counts_plus_10_minus_1_minus_9():
    # Lucia deals; the tricks are laid out so that each pile holds A17's cards: court cards as
    # listed, the rest one-pointers; Bartolo's Fool goes into a trick Lucia wins.
    L, B, C = LUCIA, BARTOLO, CECCO
    discard = ["10O", "9S", "10B"]  # plain cards, the start of Lucia's pile
    courts = [  # (winner, the trick's top card): each with two plain cards of its suit
        (C, "KC"), (L, "QC"), (C, "HC"), (B, "MC"),
        (B, "KO"), (B, "QO"), (L, "HO"), (C, "MO"),
        (L, "KS"), (L, "QS"), (B, "HS"), (B, "MS"),
        (L, "KB"), (C, "QB"), (B, "HB"), (L, "MB"),
    ]
    pips = {s: [c for c in DECK.codes_of(DECK.suit_masks[i]) if c[:-1].isdigit() and c not in discard]
            for i, s in enumerate("COSB")}
    plan = []
    for w, top in courts:
        low = pips[top[-1]]
        plan.append({w: top, (w + 1) % 3: low.pop(), (w + 2) % 3: low.pop()})
    fool = {B: "F", L: pips["C"].pop(0), C: pips["C"].pop()}  # Lucia's cup is the higher
    trumps = [  # (winner, top, two lower): 21 and 1 in Lucia's tricks
        (L, "21", "2", "3"), (L, "20", "1", "4"), (L, "19", "5", "6"),
        (B, "18", "7", "8"), (B, "17", "9", "10"), (C, "16", "11", "12"), (C, "15", "13", "14"),
    ]
    for w, top, a, b in trumps:
        plan.append({w: top, (w + 1) % 3: a, (w + 2) % 3: b})
    last = [pips[s].pop() for s in "OSB"]  # one plain card each: Cecco leads it and wins
    assert not any(pips.values())
    # Cecco must lead the last trick: put his last trump trick just before it.
    plan = [fool] + plan
    plan.append({C: last[0], L: last[1], B: last[2]})
    d = played(L, plan, discard)
    c = d.count
    assert d.tricks_won == [10, 8, 7]
    piles = c.to_json()["piles"]
    assert sorted(piles[L]["counting"]) == sorted("KS KB 21 1 QS QC HO MB".split())
    assert sorted(piles[B]["counting"]) == sorted("F KO QO HS HB MS MC".split())
    assert sorted(piles[C]["counting"]) == sorted("KC QB HC MO".split())
    assert [len(p["cards"]) for p in piles] == [33, 24, 21]
    assert [p["ones"] for p in piles] == [25, 17, 17]
    assert c.points == [36, 25, 17] and c.scores == [10, -1, -9] == d.returns()


# --- records and views -------------------------------------------------------------------

def test_records_name_the_game_and_replay_to_the_same_count():
    d = play_out(Deal.from_seed(dealer=1, seed=12), random.Random(12))
    r = d.record()
    assert r["game"] == "renaissance" and len(r["deck"]) == 78 and r["options"] == {"rounds": 1}
    assert r["actions"][0]["action"].startswith("discard ") and len(r["actions"]) == 76
    again = replay(r)
    assert again.count.to_json() == d.count.to_json() and again.history == d.history
    assert get_game("renaissance").deal is Deal


def test_the_discard_is_the_dealers_alone_until_the_count():
    d = Deal.from_seed(dealer=0, seed=3)
    d.apply(d.legal_actions()[5])
    text = "discard " + " ".join(DECK.codes_of(d.discarded))
    assert d.view(0)["discard"] == DECK.codes_of(d.discarded) and d.view(0)["actions"][0]["action"] == text
    assert d.view(0)["extra"] == DECK.codes_of(d.extra)
    for seat in (1, 2):
        v = d.view(seat)
        assert v["discard"] is None and v["extra"] is None and v["actions"][0]["action"] == "discard"
    play_out(d, random.Random(3))
    assert all(d.view(s)["discard"] == DECK.codes_of(d.discarded) for s in range(3))


def test_refused_actions_leave_the_deal_unchanged_and_say_why():
    d = Deal.from_seed(dealer=0, seed=4)
    before = d.view(0)
    for bad, seat in (("discard KC KO KS", 0), ("7C", 1), ("zz", 0), (None, 0), (3.5, 0), (10**30, 0)):
        with pytest.raises(IllegalAction) as e:
            d.apply(bad, seat)
        assert e.value.reason and d.view(0) == before
    assert parse_action(" discard 10c 9o 2s ") == parse_action("discard 2S 9O 10C")


def test_views_and_refusals_are_plain_json_with_the_reason_ids_beside():
    import msgspec

    d = Deal.from_seed(dealer=0, seed=6)
    rng = random.Random(6)
    refused = 0
    while not d.done:
        views = [d.view(s) for s in range(3)]
        assert msgspec.json.decode(msgspec.json.encode(views)) == views  # the server's encoder
        refused += sum(c["reason"] is not None for v in views for c in v["choices"])
        d.apply(random_action(d, rng))
    assert refused and type(d.refusal(0, "7C")) is str


def test_choices_name_the_reason_and_its_id():
    d = dealt(LUCIA, {BARTOLO: ["7C"], CECCO: ["3C", "5", "KO"]}, extra=["2S", "3S", "4S"])
    d.apply("discard 2S 3S 4S")
    d.apply("7C")
    choices = {c["action"]: c for c in d.view(CECCO)["choices"]}
    assert choices["3C"]["reason"] is None
    assert choices["5"]["reason"] == "follow cups" and choices["5"]["reason_id"] == "follow_cups"
    assert d.view(LUCIA)["choices"] == []


def test_the_deck_describes_itself_for_a_client():
    desc = DECK.describe()
    assert desc["codes"] == DECK.codes and desc["counting"] == 3
    assert [g["name"] for g in desc["groups"]] == ["trumps", "cups", "pentacles", "swords", "wands", "fool"]
    assert desc["groups"][0]["cards"][0] == "21" and desc["groups"][1]["cards"][4] == "1C"
    assert desc["names"]["1"] == {"en": "Magician", "it": "Il Bagatto"}
    assert desc["names"]["21"] == {"en": "World", "it": "Il Mondo"}
    assert desc["names"]["HO"] == {"en": "Knight of Pentacles", "it": "Cavallo di Denari"}
    assert sum(desc["points"].values()) == 130


@pytest.mark.parametrize("change, message", [
    ({"seats": 4}, "seats is 3"),
    ({"options": {"rounds": 9}}, "rounds is a number of rounds, 1 to 4 (A16), not 9"),
    ({"options": {"forced_call": True}}, "unknown table options forced_call"),
    ({"deck": DECK.codes[:-1] + ["KC"]}, "KC more than once, missing KB"),
    ({"dealer": 3}, "dealer is a seat number 0..2"),
])
def test_a_malformed_renaissance_record_says_what_is_wrong(change, message):
    from tarocchi.engine.records import RecordError

    r = play_out(Deal.from_seed(dealer=0, seed=2), random.Random(2)).record()
    r.update(change)
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(r)


@pytest.mark.parametrize("name", ["sicilian", "renaissance"])
def test_every_game_names_its_refusals_by_stable_ids(name):
    game = get_game(name)
    assert len(set(game.reasons.values())) == len(game.reasons) >= 10  # one id per text
    assert all(game.reason_id(text) == i for i, text in game.reasons.items())
    assert game.reason_id("it is not your turn") == "not_your_turn" and game.reason_id("no such words") is None
    rng = random.Random(1)
    d = game.shuffled(game.seats[0], 0, rng)
    with pytest.raises(IllegalAction) as e:
        d.apply(d.legal_actions()[0], (d.to_act + 1) % d.seats)
    assert game.reason_id(e.value.reason) == "not_your_turn"


@pytest.mark.parametrize("name", ["sicilian", "renaissance"])
def test_a_game_describes_itself_once_for_a_client(name):
    import msgspec

    desc = get_game(name).describe()
    assert msgspec.json.decode(msgspec.json.encode(desc)) == desc
    assert desc["name"] == name and len(desc["deck"]["codes"]) == {"sicilian": 63, "renaissance": 78}[name]
    shown = [c for g in desc["deck"]["groups"] for c in g["cards"]]
    assert sorted(shown) == sorted(desc["deck"]["codes"])  # every card in exactly one group
    assert desc["reasons"]["not_your_turn"] == "it is not your turn"
