"""What one seat knows, read from its view alone (``Deal.view(seat)``), as card masks.

Every bot starts here: the hand, the cards played and by whom, the trick on the table, the
voids each seat has shown (R13: a seat that did not follow has none of that suit; one that
neither followed nor trumped has no trumps either), the sides as far as this seat can tell,
and the cards whose place is still unknown. Nothing here looks at another hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarocchi.engine.cards import CARD_OF, FOOL, FOOL_BIT, FULL_DECK, KINGS, SUIT_MASK_OF, TRUMPS, mask_of

FULL_HAND = {3: 20, 4: 15}


def trumps_above(t: int) -> int:
    """The trumps higher than trump ``t``."""
    return TRUMPS & ~((1 << (t + 1)) - 1)


@dataclass
class Seen:
    seats: int
    me: int
    dealer: int
    phase: str
    hand: int
    hand_counts: list[int]
    cards_dealt: int
    bidder: int | None
    contract: str | None
    stata: bool
    called: int | None
    partner: int | None  # known partner (R9: only once the called trump is played)
    i_am_partner: bool
    monte: int | None  # the monte if this seat saw it
    my_discard: int
    played_by: list[int]
    trick: list[int]  # cards of the trick on the table, in order
    trick_seats: list[int]
    leader: int | None
    cannot: list[int]  # per seat: cards it is known not to hold (voids shown)
    must: list[int]  # per seat: unplayed cards it is known to hold (the called trump rule, R9)
    tricks_left: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    discarded_by_other: bool = False  # another seat's discard is hidden from us

    @property
    def played(self) -> int:
        m = 0
        for p in self.played_by:
            m |= p
        return m

    def unknown(self) -> int:
        """Cards whose place this seat does not know: not in its hand, not played, not its
        own discard, not the monte it saw still lying there."""
        m = FULL_DECK & ~self.hand & ~self.played & ~self.my_discard
        if self.monte is not None and self.bidder is None:
            m &= ~self.monte
        return m

    def may_hold(self, seat: int) -> int:
        """Cards ``seat`` might hold now, from this seat's knowledge."""
        if seat == self.me:
            return self.hand
        return (self.unknown() & ~self.cannot[seat]) | self.must[seat]

    def alone(self) -> bool:
        """The bidder has no partner: a solo, or a called trump that lay in the monte (R9)."""
        if self.contract == "solo" or self.seats == 3:
            return True
        return bool(self.called is not None and self.monte is not None and self.monte >> self.called & 1)

    def sides(self) -> tuple[list[bool], list[bool]]:
        """Per seat: (surely on my side, surely against me). A seat may be neither: at four
        seats the hidden partner is unknown to the others until the called trump is played."""
        n, me, b = self.seats, self.me, self.bidder
        friends, foes = [False] * n, [False] * n
        if b is None:
            return friends, foes
        others = [s for s in range(n) if s != me]
        if self.alone():
            for s in others:
                if me == b:
                    foes[s] = True
                elif s == b:
                    foes[s] = True
                else:
                    friends[s] = True
            return friends, foes
        partner = self.partner
        if self.i_am_partner:
            partner = me
        if partner is not None:
            mine = {b, partner} if me in (b, partner) else set(range(n)) - {b, partner}
            for s in others:
                friends[s] = s in mine
                foes[s] = s not in mine
            return friends, foes
        if me == b:
            # The caller: a seat that cannot hold the called trump is surely a foe.
            for s in others:
                foes[s] = not (self.may_hold(s) >> self.called & 1)
        else:
            foes[b] = True
        return friends, foes


def read_view(view: dict) -> Seen:
    n = view["seats"]
    me = view["seat"]
    called = CARD_OF[view["called"]] if view.get("called") else None
    monte = mask_of(view["monte"]) if view.get("monte") else None
    seen = Seen(
        seats=n, me=me, dealer=view["dealer"], phase=view["phase"], hand=mask_of(view["hand"]),
        hand_counts=list(view["hand_counts"]), cards_dealt=view["cards_dealt"],
        bidder=view["bidder"], contract=view["contract"], stata=view["stata"], called=called,
        partner=view.get("partner"), i_am_partner=bool(view.get("i_am_partner")), monte=monte,
        my_discard=mask_of(view["discard"]) if view.get("discard") and view["bidder"] == me else 0,
        played_by=[mask_of(p) for p in view["played"]], trick=[], trick_seats=[],
        leader=view.get("leader"), cannot=[0] * n, must=[0] * n,
        tricks_left=0,
    )
    seen.actions = [(a["seat"], a["action"]) for a in view["actions"]]
    _read_play(seen)
    _read_sides(seen)
    played_total = sum(p.bit_count() for p in seen.played_by)
    seen.tricks_left = FULL_HAND[n] - played_total // n if view["phase"] == "play" else FULL_HAND[n]
    return seen


def _read_play(seen: Seen) -> None:
    """Replay the cards of the action log to learn the voids (R13)."""
    n = seen.seats
    trick: list[int] = []
    seats: list[int] = []
    for seat, text in seen.actions:
        c = CARD_OF.get(text)
        if c is None:
            if text == "discard" and seat != seen.me:
                seen.discarded_by_other = True
            continue
        follow = 0
        for x in trick:
            if x != FOOL:
                follow = SUIT_MASK_OF[x]
                break
        if follow and c != FOOL and not (follow >> c & 1):
            seen.cannot[seat] |= follow  # did not follow: void in the suit led
            if not (TRUMPS >> c & 1):
                seen.cannot[seat] |= TRUMPS  # nor trumped: no trumps either
        trick.append(c)
        seats.append(seat)
        if len(trick) == n:
            trick, seats = [], []
    seen.trick, seen.trick_seats = trick, seats


def _read_sides(seen: Seen) -> None:
    """What the contract tells about hands: the caller holds every trump above the one it
    called and not that one (R9); a forced caller held the 20 (R10); another bidder's discard
    holds no trump, Fool or King (R11, ignoring the rare short hand)."""
    n, me, b = seen.seats, seen.me, seen.bidder
    if b is None:
        return
    played = seen.played
    if seen.called is not None and b != me:
        above = trumps_above(seen.called) & ~played
        if seen.monte is not None and seen.monte >> seen.called & 1:
            above |= (1 << seen.called) & ~played  # the called trump came up in the monte
        else:
            seen.cannot[b] |= 1 << seen.called
        seen.must[b] |= above & ~seen.hand
        for s in range(n):
            if s != b:
                seen.cannot[s] |= above
    if seen.monte is not None and b != me:
        # The monte's trumps, Fool and Kings went to the bidder and cannot be discarded.
        fixed = seen.monte & (TRUMPS | FOOL_BIT | KINGS) & ~played
        seen.must[b] |= fixed
        for s in range(n):
            if s != b:
                seen.cannot[s] |= seen.monte  # the rest of the monte is in the bidder's hand or discard
    # Which other seat holds the called trump stays open: the sampler places it.
    for s in range(n):
        seen.must[s] &= ~played
        seen.cannot[s] &= ~seen.must[s]
    seen.cannot[me] = FULL_DECK & ~seen.hand
    seen.must[me] = seen.hand
