"""The rules text's worked example as real deals (R15).

"The soloist's side takes the Rimatura and the Vanto and captures the 1 and the 17 from the
others, and they capture the 18. That is four jochi to one, a net of three. Three seats: +6 for
the soloist, 3 paid by each opponent. As a stata, +12 and 6 each. Alone at four seats, +9 and 3
each. Two partners at four, +3 each and 3 paid by each opponent. Win the last trick but lose the
points with nothing else scored and it is one jocu each: nobody pays."

Each deal is built backwards from the tricks it plays (builders.deal_from_tricks), so the deck
order is chosen, and every card is checked by the engine as it is played.
"""

from __future__ import annotations

from .builders import deal_from_tricks, play, say

# The bidder picks up the monte and discards the same three cards (R11): low, no trump or King.
MONTE = ["5C", "5S", "5B"]

# Three seats, seat 0 the soloist, seat 2 the dealer, seat 1 leads (R13). Seat 0 ruffs the
# thirteenth trick, then seven tricks of trumps: seat 1's 20 takes seat 0's 18, seat 0's 19
# takes seat 1's 17, seat 0's 16 takes seat 2's 1; seat 0 wins the last.
NET_3_AT_THREE = [
    ["6C", "7C", "KC"], ["QC", "8C", "9C"], ["HC", "10C", "MC"],
    ["KS", "6S", "7S"], ["QS", "8S", "9S"], ["HS", "10S", "MS"],
    ["6B", "7B", "KB"], ["QB", "HB", "8B"], ["MB", "9B", "10B"],
    ["4O", "KO", "5O"], ["QO", "6O", "7O"], ["8O", "9O", "HO"], ["10O", "11", "MO"],
    ["18", "20", "2"], ["17", "3", "19"], ["16", "6", "1"], ["15", "7", "F"],
    ["14", "8", "0"], ["13", "9", "4"], ["12", "10", "5"],
]

# Three seats: the others win the suits and every counting trump is won by the side that
# played it; seat 0 wins only the last trick.
LAST_TRICK_ONLY = [
    ["KC", "6C", "7C"], ["QC", "8C", "9C"], ["HC", "10C", "MC"],
    ["KS", "6S", "7S"], ["QS", "8S", "9S"], ["HS", "10S", "MS"],
    ["6B", "KB", "7B"], ["QB", "8B", "9B"], ["HB", "10B", "MB"],
    ["QO", "KO", "4O"], ["5O", "HO", "6O"], ["MO", "7O", "8O"], ["9O", "10O", "11"],
    ["10", "20", "1"], ["18", "2", "12"], ["17", "3", "13"], ["9", "4", "19"],
    ["16", "8", "F"], ["15", "7", "5"], ["14", "6", "0"],
]

# Four seats, seat 0 the bidder, seat 3 the dealer, seat 1 leads. Alone (vado solo): seat 1's
# 20 takes seat 0's 18 (trick 13), seat 0's 19 takes seat 1's 17 and seat 2's 1 (trick 14).
ALONE_AT_FOUR = [
    ["6C", "7C", "8C", "KC"], ["QC", "9C", "10C", "MC"],
    ["KS", "6S", "7S", "8S"], ["QS", "9S", "10S", "MS"],
    ["6B", "7B", "KB", "8B"], ["QB", "9B", "10B", "MB"],
    ["4O", "5O", "KO", "6O"], ["QO", "7O", "8O", "9O"],
    ["HC", "13", "2", "3"], ["HO", "MO", "10O", "4"], ["HS", "7", "12", "5"],
    ["HB", "6", "16", "8"], ["18", "20", "0", "9"], ["17", "1", "10", "19"],
    ["15", "11", "F", "14"],
]

# Four seats with a partner: seat 0 lacks the 20 and calls it (R9); seat 1 holds it. Seat 2's 19
# takes seat 1's 18 (trick 11); seat 1's 20 takes seat 3's 17 (trick 13); seat 0's 14 takes
# seat 2's 1 (trick 14).
PARTNERS_AT_FOUR = ALONE_AT_FOUR[:8] + [
    ["HC", "13", "2", "3"], ["HO", "MO", "10O", "4"], ["HS", "18", "19", "5"],
    ["HB", "6", "16", "8"], ["15", "20", "0", "17"], ["11", "1", "9", "14"],
    ["12", "7", "F", "10"],
]


def jochi(deal) -> list[tuple[str, str, int, str | None]]:
    return sorted((j.side, j.name, j.value, j.card) for j in deal.count.jochi)


FOUR_TO_ONE = [
    ("bidder", "pigliata", 1, "1"), ("bidder", "pigliata", 1, "17"),
    ("bidder", "rimatura", 1, None), ("bidder", "vanto", 1, None),
    ("others", "pigliata", 1, "18"),
]


def answer_no(deal, seats: int) -> None:
    say(deal, "discard " + " ".join(MONTE), *["no"] * seats)


def test_net_3_three_seats_single_stake_pays_6_3_3_R15():
    deal = deal_from_tricks(3, 2, 0, NET_3_AT_THREE, MONTE, MONTE)
    say(deal, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")  # solo at 10
    answer_no(deal, 3)
    play(deal, NET_3_AT_THREE)
    c = deal.count
    assert jochi(deal) == FOUR_TO_ONE
    assert (c.net, c.stake, c.stata) == (3, 1, False)
    assert c.payments == [6, -3, -3]
    assert c.card_points == {"bidder": 70, "others": 39}
    assert sorted(c.to_json()["discard"]) == sorted(MONTE)  # shown at the count (R11)


def test_net_3_as_a_stata_pays_12_6_6_R5_R15():
    deal = deal_from_tricks(3, 2, 0, NET_3_AT_THREE, MONTE, MONTE)
    say(deal, "vado solo", "passo", "passo")  # solo on five cards: a stata
    answer_no(deal, 3)
    play(deal, NET_3_AT_THREE)
    assert jochi(deal) == FOUR_TO_ONE
    assert (deal.count.net, deal.count.stake, deal.count.stata) == (3, 2, True)
    assert deal.count.payments == [12, -6, -6]


def test_net_3_alone_at_four_pays_9_3_3_3_R15():
    deal = deal_from_tricks(4, 3, 0, ALONE_AT_FOUR, MONTE, MONTE)
    say(deal, "passo", "passo", "passo", "passo", "vado solo")  # R7 then R8
    answer_no(deal, 4)
    play(deal, ALONE_AT_FOUR)
    c = deal.count
    assert jochi(deal) == FOUR_TO_ONE
    assert c.alone and c.partner is None and c.called is None
    assert c.sides == {"bidder": [0], "others": [1, 2, 3]}
    assert c.payments == [9, -3, -3, -3]


def test_net_3_two_partners_at_four_pay_3_3_3_3_R9_R15():
    deal = deal_from_tricks(4, 3, 0, PARTNERS_AT_FOUR, MONTE, MONTE)
    say(deal, "passo", "passo", "passo", "passo", "chiamo", "passo", "passo", "passo")
    assert deal.called == 20  # seat 0 lacks the 20: it is the called trump (R9)
    answer_no(deal, 4)
    play(deal, PARTNERS_AT_FOUR)
    c = deal.count
    assert jochi(deal) == FOUR_TO_ONE
    assert (c.called, c.partner, c.alone) == ("20", 1, False)
    assert c.sides == {"bidder": [0, 1], "others": [2, 3]}
    assert c.payments == [3, 3, -3, -3]


def test_last_trick_only_while_losing_the_points_pays_nobody_R15():
    deal = deal_from_tricks(3, 2, 0, LAST_TRICK_ONLY, MONTE, MONTE)
    say(deal, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")
    answer_no(deal, 3)
    play(deal, LAST_TRICK_ONLY)
    c = deal.count
    assert jochi(deal) == [("bidder", "vanto", 1, None), ("others", "rimatura", 1, None)]
    assert c.card_points["others"] >= 55 and deal.last_trick[2] == 0
    assert c.net == 0 and c.payments == [0, 0, 0]


def test_the_partner_is_known_to_all_once_the_called_trump_is_played_R9():
    deal = deal_from_tricks(4, 3, 0, PARTNERS_AT_FOUR, MONTE, MONTE)
    say(deal, "passo", "passo", "passo", "passo", "chiamo", "passo", "passo", "passo")
    answer_no(deal, 4)
    play(deal, PARTNERS_AT_FOUR[:12])
    say(deal, "15")  # trick 13: seat 0 leads, seat 1 holds the 20
    assert [deal.view(s)["partner"] for s in range(4)] == [None] * 4  # the caller is not told either
    assert deal.view(1).get("i_am_partner") and not deal.view(0).get("i_am_partner")
    say(deal, "20")
    assert deal.public_events()[-2:] == [{"type": "play", "seat": 1, "card": "20"},
                                          {"type": "partner", "seat": 1}]
    assert [deal.view(s)["partner"] for s in range(4)] == [1] * 4
