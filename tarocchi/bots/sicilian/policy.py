"""Card sense on masks, shared by the rule bot (from a view) and the search bot's rollouts
(from a sampled world, where ``may_hold`` is simply every seat's sampled hand).

Nothing here reads a Deal: every function is told what the seat may know.
"""

from __future__ import annotations

from itertools import combinations

from tarocchi.engine.cards import (
    FOOL, FOOL_BIT, KINGS, LOW_TRUMPS, NEVER_DISCARD, SUIT_MASK_OF, SUIT_MASKS, TRUMPS, VALUES,
    cards_in,
)

ONE = 1
TWENTY = 20
HIGH_TRUMPS = sum(1 << t for t in (16, 17, 18, 19, 20))
# A card worth keeping out of the others' tricks: the 1, the arie, Kings, Queens, Horses.
COUNTING = sum(1 << c for c in range(63) if VALUES[c] >= 3 and c != FOOL)


def above(c: int) -> int:
    """The cards of ``c``'s suit (or trumps) that beat it."""
    return SUIT_MASK_OF[c] & ~((1 << (c + 1)) - 1)


def follow_mask(trick: list[int]) -> int:
    for x in trick:
        if x != FOOL:
            return SUIT_MASK_OF[x]
    return 0


def winning_index(trick: list[int]) -> int | None:
    """Index of the card winning the trick so far (R13); None if only the Fool lies there."""
    best = None
    for i, c in enumerate(trick):
        if c == FOOL:
            continue
        if best is None:
            best = i
            continue
        b = trick[best]
        if c <= 20 and (b > 20 or c > b):
            best = i
        elif c > 20 and b > 20 and SUIT_MASK_OF[c] == SUIT_MASK_OF[b] and c > b:
            best = i
    return best


def beats(c: int, best: int, follow: int) -> bool:
    """Would ``c`` beat the current best card ``best`` of a trick following ``follow``?"""
    if c == FOOL:
        return False
    if c <= 20:
        return best > 20 or c > best
    return best > 20 and SUIT_MASK_OF[c] == SUIT_MASK_OF[best] and c > best and bool(follow >> c & 1)


def can_overtake(seat_may: int, best: int, follow: int) -> bool:
    """Might a seat holding at most ``seat_may`` beat ``best`` in a trick following ``follow``?"""
    if best <= 20:  # a trump: only a higher trump, by a seat that cannot follow a plain suit
        higher = seat_may & above(best)
        if not higher:
            return False
        return follow == TRUMPS or not (seat_may & follow)
    if seat_may & follow & above(best):
        return True
    return bool(not (seat_may & follow) and seat_may & TRUMPS)


def _cheapest(cards: int, keep_fool: bool = True) -> int:
    """The card of ``cards`` that gives away least: lowest value, then lowest rank; the 1 and
    the Fool last."""
    best, key = None, None
    for c in cards_in(cards):
        k = (c == FOOL and keep_fool, c == ONE, VALUES[c], c <= 20, c % 64 if c > 20 else c)
        if key is None or k < key:
            best, key = c, k
    return best


def _richest(cards: int) -> int:
    """The card worth most to put on a friend's safe trick: points first, never a high trump
    that could still win a trick unless it is an aria at risk."""
    best, key = None, None
    for c in cards_in(cards):
        k = (c != FOOL, VALUES[c] if c > 20 or c == ONE else (VALUES[c] - 3 if c >= 16 else -c), -c)
        if key is None or k > key:
            best, key = c, k
    return best


def choose_card(hand: int, legal: int, trick: list[int], trick_seats: list[int], me: int, n: int,
                friends: list[bool], foes: list[bool], may_hold: list[int], tricks_left: int) -> int:
    """A sensible card: win what is worth winning cheaply and safely, put points on a
    friend's safe trick, give nothing to a foe, lead masters and keep the 1 out of danger."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not trick:
        return _lead(hand, legal, me, n, friends, foes, may_hold, tricks_left)
    follow = follow_mask(trick)
    wi = winning_index(trick)
    later = [(trick_seats[0] + k) % n for k in range(len(trick) + 1, n)]
    later_foes = [s for s in later if not friends[s]]
    trick_value = sum(VALUES[c] for c in trick if c != FOOL)
    if wi is None:  # the Fool was led (last trick): whatever we play fixes the suit
        return _lead(hand, legal & ~FOOL_BIT, me, n, friends, foes, may_hold, tricks_left) if legal & ~FOOL_BIT else FOOL
    best = trick[wi]
    winner = trick_seats[wi]

    def safe(c: int, top: int) -> bool:
        return not any(can_overtake(may_hold[s], top, follow or SUIT_MASK_OF[c]) for s in later_foes)

    if legal & FOOL_BIT and tricks_left <= 3:
        # R13: do not keep the Fool too long, or it must lead the last trick and lose it.
        return FOOL
    fool_late = False
    if friends[winner] and safe(best, best):
        # A friend holds the trick: feed it points (R2), never waste a trump on it.
        if fool_late:
            return FOOL
        plain = legal & ~TRUMPS & ~FOOL_BIT
        if plain:
            return _richest(plain)
        trumps = legal & TRUMPS
        if trumps >> ONE & 1:
            return ONE  # the 1 is safe on a friend's trick
        risky = trumps & HIGH_TRUMPS & ~(1 << TWENTY)
        if risky and len(later_foes) == 0:
            return risky.bit_length() - 1 if risky & (1 << 19) else _lowest(risky)
        return _lowest(trumps) if trumps else _cheapest(legal)
    winners = [c for c in cards_in(legal) if beats(c, best, follow)]
    safe_winners = [c for c in winners if safe(c, c)]
    if safe_winners:
        # The cheapest card that wins for sure; spend a high trump only on a trick worth it.
        c = min(safe_winners, key=lambda x: (x == ONE and False, _rank_cost(x)))
        worth = trick_value + VALUES[c] >= 3 or c > 20 or c <= 12 or tricks_left == 1
        if worth:
            return c
    elif winners and not later_foes:
        return min(winners, key=_rank_cost)
    if friends[winner] and not later_foes:
        plain = legal & ~TRUMPS & ~FOOL_BIT
        if plain:
            return _richest(plain)
    # Lose cheaply. The Fool saves a card worth points, and must go before the end (R13).
    cheap = _cheapest(legal)
    if legal & FOOL_BIT and (fool_late or VALUES[cheap] >= 3 or cheap == ONE):
        return FOOL
    if winners and (VALUES[cheap] >= 4 or cheap == ONE):
        # Better to try to win than to hand over the 1 or a court for nothing.
        return max(winners, key=_rank_cost)
    return cheap


def _rank_cost(c: int) -> int:
    """How dear a card is to spend: any plain card is cheaper than a trump."""
    if c == FOOL:
        return 10_000
    if c <= 20:
        return 100 + c + (40 if c == ONE else 0)
    return VALUES[c] * 10 + (c % 11)


def _lowest(trumps: int) -> int:
    """The lowest trump, sparing the 1 (worth 10 and a pigliata)."""
    rest = trumps & ~(1 << ONE)
    m = rest or trumps
    return (m & -m).bit_length() - 1


def _lead(hand: int, legal: int, me: int, n: int, friends: list[bool], foes: list[bool],
          may_hold: list[int], tricks_left: int) -> int:
    others = [s for s in range(n) if s != me]
    opp = [s for s in others if not friends[s]]
    out_cards = 0
    for s in others:
        out_cards |= may_hold[s]
    opp_trumps = 0
    for s in opp:
        opp_trumps |= may_hold[s] & TRUMPS

    def master(c: int) -> bool:
        if c <= 20:
            return not (opp_trumps & above(c))
        suit = SUIT_MASK_OF[c]
        for s in opp:
            m = may_hold[s]
            if m & suit & above(c):
                return False
            if not (m & suit) and m & TRUMPS:
                return False
        return True

    candidates = legal & ~FOOL_BIT or legal
    if tricks_left == 2 and candidates.bit_count() == 2:
        # Keep the card that surely wins for the last trick (R15: the Vanto and its 5 points).
        sure = [c for c in cards_in(candidates) if c <= 20 and master(c)]
        if len(sure) == 1 and not master(next(c for c in cards_in(candidates) if c != sure[0])):
            return next(c for c in cards_in(candidates) if c != sure[0])
    masters = [c for c in cards_in(candidates) if master(c)]
    my_trumps = hand & TRUMPS
    if masters:
        # Cash a master: trumps first when we hold more than the foes, to draw theirs.
        trump_masters = [c for c in masters if c <= 20]
        plain_masters = [c for c in masters if c > 20]
        if trump_masters and opp_trumps and my_trumps.bit_count() >= 2:
            return max(trump_masters)
        if plain_masters:
            return max(plain_masters, key=lambda c: VALUES[c])
        if trump_masters and (not opp_trumps or tricks_left <= 3):
            return min(trump_masters)
    # Lead low from a suit where a friend may trump or foes may still follow; never a court
    # into a seat known void (it would be trumped), never the 1 into trumps.
    best, key = None, None
    for c in cards_in(candidates):
        if c <= 20:
            danger = bool(opp_trumps & above(c))
            k = (2, c == ONE and danger, VALUES[c] if c != ONE else 10, c)
        else:
            suit = SUIT_MASK_OF[c]
            void_foes = sum(1 for s in opp if not (may_hold[s] & suit) and may_hold[s] & TRUMPS)
            friend_ruffs = any(friends[s] and not (may_hold[s] & suit) and may_hold[s] & TRUMPS for s in others)
            k = (1 if void_foes else 0, VALUES[c] >= 3 and void_foes > 0, VALUES[c] - 2 * friend_ruffs, c % 11)
        if key is None or k < key:
            best, key = c, k
    return best


def choose_discard(hand: int, allowed: int) -> int:
    """Three cards to put aside (R11): the discard counts for the bidder, so points are safe
    there; empty short suits to trump them later. ``allowed`` is ``Deal.discardable()``."""
    free = hand & ~NEVER_DISCARD
    if free.bit_count() < 3:  # short: all the free cards, then the lowest trumps
        out = free
        pool = allowed & LOW_TRUMPS & ~free
        for c in sorted(cards_in(pool), key=lambda t: (t == ONE, t)):
            if out.bit_count() == 3:
                break
            out |= 1 << c
        return out
    best, key = 0, None
    pool = list(cards_in(free))
    for combo in combinations(pool, 3):
        m = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2])
        left = hand & ~m
        score = sum(VALUES[c] for c in combo)
        for s in range(4):
            suit = SUIT_MASKS[s]
            before, after = hand & suit, left & suit
            if before and not after:
                score += 4  # a void to trump into
            elif after and after & ~KINGS == 0:
                score += 1  # only the King left: it stays a winner
            elif after.bit_count() == 1 and after & COUNTING:
                score -= 2  # a bare court is easily caught
        if key is None or score > key:
            best, key = m, score
    return best


def hand_strength(hand: int, seats: int) -> float:
    """A rough worth of a hand for playing alone: trumps, high trumps, Kings, the Fool,
    short suits to trump into."""
    s = 0.0
    for t in cards_in(hand & TRUMPS):
        s += 4.0 if t == 20 else 2.5 if t >= 16 else 1.3 if t >= 11 else 0.8
    if hand & FOOL_BIT:
        s += 2.0
    s += 2.0 * (hand & KINGS).bit_count()
    for suit_i in range(4):
        suit = hand & SUIT_MASKS[suit_i]
        k = suit.bit_count()
        s += 0.6 * bool(suit & ~KINGS & sum(1 << c for c in range(63) if VALUES[c] == 4))  # a Queen
        if k == 0:
            s += 1.5
        elif k == 1:
            s += 0.7
    return s


# Hand-strength thresholds (policy.hand_strength), tuned by simulation with rule play
# (bench/duel_bench.py calibrate); "full" is the strength scaled to a full hand.
SOLO_20 = 18.0      # three seats, 20 cards: a single-stake solo pays from here
SOLO_EARLY = 21.0   # three seats, 10 or 15 cards (scaled to 20): surer, the rest is unseen
STATA_5 = 10.5      # a solo on five cards (stata, R5, R7) needs this much in five cards
ALTRE = 14.0        # three seats (scaled to 20): worth seeing five more
CALL_15 = 8.0       # four seats: chiamo pays from here
SOLO_15 = 19.0      # four seats: vado solo beats a call from here


def bid_by_strength(hand: int, seats: int, ok) -> str:
    """The rule bot's word (R5-R8) from its hand and the words allowed now (``ok``)."""
    k = hand.bit_count()
    s = hand_strength(hand, seats)
    if seats == 3:
        full = s * 20 / k
        if k == 5:
            if s >= STATA_5 and "vado solo" in ok:
                return "vado solo"
        elif k == 20:
            if s >= SOLO_20 and "vado solo" in ok:
                return "vado solo"
        elif full >= SOLO_EARLY and "vado solo" in ok:
            return "vado solo"
        if full >= ALTRE and "altre cinque" in ok:
            return "altre cinque"
        if "prendo" in ok:
            return "prendo"  # a pago to take, and no hand worth going on with
        return "passo"
    if k == 5:
        return "vado solo" if s >= STATA_5 and "vado solo" in ok else "passo"
    if s >= SOLO_15 and "vado solo" in ok:
        return "vado solo"
    if s >= CALL_15 and "chiamo" in ok:
        return "chiamo"
    return "passo"
