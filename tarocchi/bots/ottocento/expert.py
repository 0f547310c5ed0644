"""Ottocento's expert: the shared expert search (``bots.expert``) with this game's knowledge
(``search_bot.Knowledge``), the rule bot's play to finish a world and the side's margin as the
value (B24: a side's hand score less the other's); the last ``EXACT_CARDS`` cards solved
exactly, partners together (B5).

The signals (B22) are made as well as read: a world is played out with every seat signalling
as the rule bot does (Volo, Trionfi) and reading its partner's signals (Trionfi: lead trumps;
Busso: win with the highest and lead the suit back), and on a lead each card is searched
plain, with the rule bot's signal and with Busso, so a signal is made when the partner's answer
pays (the exact endgame cannot tell a signal from none: the rule bot's choice stands there).

The dealer's discard (B8) and the declarations (B9-B18) are searched the same way: the
discard among the rule bot's ten best pairs, the declaration among the full one, each
combination alone, the rule bot's (the Bégato hidden) and nothing, each played out over the
worlds to the count. A world is played in full view, so it cannot price what a declaration
tells the others: a smaller declaration than the rule bot's is taken only on a confident gain.
The a monte question (B7) is searched too: five cards each are dealt then, so a world
(``MonteKnowledge``) deals all 57 cards the seat has not seen, the rest of its own hand among
them, weighed by the words said before; ``a monte`` and ``gioco`` are each said in every world
and the deal played out (four ``a monte`` throw it in: a margin of 0).
"""

from __future__ import annotations

import random

from tarocchi.engine.deck import cards_in
from tarocchi.games.ottocento import BUSSO, DECK, FOOL, PACKET, RULES, SEATS, TRIONFI, Deal, Options

from ..expert import CONFIDENCE, MAX_CANDIDATES, TIME_LIMIT, Expert
from .common import FULL, TRUMPS, PlayState, Seen
from .rule_bot import SIGNAL_WORDS, OttocentoRuleBot
from .search_bot import Knowledge, Margins, close_trick, count, finish


def signalled_finish(deal: Deal, policy: OttocentoRuleBot) -> list[int]:
    """``search_bot.finish`` with the signals (B22): each leader signals as ``policy`` does
    and its partner reads it; the signal on the card led in the trick in play counts too. The
    two sides' hand scores."""
    if deal.done:
        assert deal.count is not None
        return deal.count.scores
    hands, won, tricks_won = deal.hands[:], deal.won[:], deal.tricks_won[:]
    trick, leader, seat = deal.trick[:], deal.leader, deal.to_act
    assert seat is not None
    fool_by, fool_to, left, last = deal.fool_by, deal.fool_to, deal.tricks_left, -1
    trionfi = [False] * 4  # partner asked this seat for trumps, not yet led
    back = [0] * 4  # the suit partner asked back with Busso, not yet led back
    made = [0] * 4  # the signals each seat made (a mask of 1 << signal)
    for s, _, sig in deal.signals:
        made[s] |= 1 << sig
    busso_now = bool(trick) and deal.signal == BUSSO and trick[0] != FOOL
    if trick and deal.signal:
        partner = (leader + 2) % 4
        trionfi[partner] |= deal.signal == TRIONFI
        if busso_now:
            back[partner] = DECK.suit_mask_of[trick[0]]
    st = PlayState(0, 0, 0, trick, leader, 0, [0, 0, 0, 0], hands, signals=deal.options.signals)
    legal_of = RULES.legal
    while left:
        legal = legal_of(hands[seat], trick)
        sig = 0
        if legal & (legal - 1) == 0:
            c = legal.bit_length() - 1
        else:
            st.me, st.hand, st.legal, st.trick, st.leader = seat, hands[seat], legal, trick, leader
            st.unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
            st.void = [FULL & ~h for h in hands]
            st.trionfi, st.busso_back, st.signalled = trionfi[seat], back[seat], made[seat]
            st.busso_now = busso_now and (leader + 2) % 4 == seat
            c, sig = policy.play(st)
        if not trick:  # a lead: what it answers, and the signal it makes
            if TRUMPS >> c & 1:
                trionfi[seat] = False
            if back[seat] >> c & 1:
                back[seat] = 0
            busso_now = sig == BUSSO and c != FOOL
            if sig:
                made[seat] |= 1 << sig
                partner = (seat + 2) % 4
                if sig == TRIONFI:
                    trionfi[partner] = True
                elif busso_now:
                    back[partner] = DECK.suit_mask_of[c]
        hands[seat] ^= 1 << c
        trick.append(c)
        if c == FOOL:
            fool_by = seat
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        winner, fool_to = close_trick(trick, leader, won, tricks_won, fool_to)
        leader = seat = last = winner
        trick = []
        busso_now = False
        left -= 1
    return count(deal, won, tricks_won, fool_by, fool_to, last)


class MonteKnowledge(Knowledge):
    """A seat at the a monte question (B7): its first five cards and the words said so far."""

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        """A deck order whose first round (B6: packets of five from dealer + 1) gives this seat
        its five cards, the other 57 cards anywhere, with the words said replayed on it."""
        rest = list(cards_in(DECK.full & ~self.hand))
        rng.shuffle(rest)
        at = PACKET * ((self.me - self.dealer - 1) % SEATS)
        deal = self.replayed(rest[:at] + list(cards_in(self.hand)) + rest[at:])
        return deal if deal is not None and deal.phase == "monte" and deal.to_act == self.me else None


EXACT_CARDS = 14  # cards left in the four hands: solve exactly (docs/history/benchmarks.md, expert)


class OttocentoExpert(Expert):
    game = "ottocento"
    exact_cards = EXACT_CARDS
    plain = 0  # B25: the combinations name cards one by one: none is merged
    searched_phases = frozenset({"play", "monte", "discard", "declare"})
    # A card is played on its mean alone, as the search bot plays it: a margin's spread is a
    # hundred points and more, so the gate kept the rule bot's card 86 % of the time; without
    # it +19.9 ± 17.8 points/deal over five seeds (docs/history/benchmarks.md, "Ottocento's cards on
    # their mean").
    confidence = {**CONFIDENCE, "play": 0.0}

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        super().__init__(seed, time_limit, worlds)
        self.rule = OttocentoRuleBot(seed)

    def knowledge(self, view: dict) -> Knowledge:
        return MonteKnowledge(view) if view["phase"] == "monte" else Knowledge(view)

    def finish(self, deal: Deal) -> Margins:
        return Margins(signalled_finish(deal, self.rule))

    def score(self, deal: Deal, me: int) -> float:
        return Margins(finish(deal, self.rule)).returns()[me]

    def last_trick(self, deal: Deal, me: int) -> float:
        return Margins(finish(deal, self.rule)).returns()[me]  # on masks: the engine's count is slow

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return seat & 1 == me & 1

    def restart(self, world: Deal) -> Deal:
        t = world.totals_before
        return Deal(4, world.dealer, list(world.deck), Options.from_json(world.options.to_json()), log=False,
                    totals=[t[0], t[1], t[0], t[1]])

    def options(self, view: dict, ok: list[str]) -> list[str]:
        """The discard: the rule bot's best pairs (B8; the view lists cards one by one). A
        declaration: those listed and the rule bot's (B9). On a lead, each card plain, with
        the rule bot's signal and with Busso (B22)."""
        if view["phase"] == "discard":
            hand = DECK.mask_of(view["hand"])
            return ["discard " + " ".join(DECK.codes_of(p)) for p in self.rule.discards(hand)[:MAX_CANDIDATES]]
        if view["phase"] == "declare":
            preferred = self.rule(view)
            return ok if preferred in ok else [preferred] + ok
        if view["phase"] != "play" or view["trick"] or not view["options"].get("signals", True):
            return super().options(view, ok)
        seen = Seen(view)
        plain = [a for a in ok if " " not in a]
        st = seen.state(DECK.mask_of(plain))
        out = []
        for text in plain:
            c = DECK.card(text)
            out.append(text)
            signal = self.rule.signal(st, c)
            if signal and signal != BUSSO:
                out.append(text + " " + SIGNAL_WORDS[signal])
            busso = text + " " + SIGNAL_WORDS[BUSSO]
            if c != FOOL and busso in ok:
                out.append(busso)
        return [a for a in out if a in ok]
