"""Trick play, written once for every game: the hands, the trick, who leads, the tricks left,
playing a card, closing a trick, the random rollout and the legal cards. A game's deal
inherits ``TrickPlay`` and keeps only its own rules: who deals and speaks, the discard, and
the count (``_count``), with hooks for what it hears during play (``_heard``: a card it watches,
such as Sicilian's called trump; ``_trick_closed``; ``_log_play``).

What every game counts the same way is kept here: each seat's cards played (``played``), its
tricks as a mask (``won``, the Fool left out: every game settles the Fool at its count), its
tricks won, who played the Fool (``fool_by``) into whose trick (``fool_to``), the last trick.

docs/games.md shows a whole game on this core in a few lines (tests/engine/tiny_game.py).

>>> from tarocchi.engine.game import get_game
>>> d = get_game("renaissance").new_deal(3, 2, list(range(78)))   # the deck in code order
>>> d.apply("discard QB 3C 4C"); d.phase, d.to_act, d.tricks_left
('play', 0, 25)
>>> [d.codes[c] for c in d.legal_card_list()][:4]              # seat 0 leads: anything
['1', '2', '3', '4']
>>> d.apply("1B"); d.trick_json(), [d.codes[c] for c in d.legal_card_list()]
([{'seat': 0, 'card': '1B'}], ['F', '2B', '3B', '4B', '5B', '6B'])
>>> d.refusal(1, "10")                                          # seat 1 follows wands (A10)
'follow wands'
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import i64

from .bits import BIT_INDEX
from .discards import DiscardRule
from .game import DEAL_OVER, NOT_YOUR_TURN, IllegalAction, Reason, game_of, get_game, plain
from .playout import DONE, PLAY, Playable
from .tricks import TrickRules


# The deck order that makes an empty deal for copy() to fill: compiled classes cannot skip __init__.
BLANK: Final[list[int]] = []
NO_DISCARD: Final = DiscardRule(0, 0, 0, "", "")  # the rule of a game without a discard


class TrickPlay(Playable):
    """One deal's state API (OpenSpiel's: ``legal_actions``, ``apply``, ``refusal``) and its
    tricks. A game sets the tricks up with ``_init_tricks``; ``apply`` plays a legal card
    itself and hands every other accepted action to the game's ``_take``, after the game's
    ``_refusal`` let it through; ``rollout`` plays the rest of the tricks."""

    game: str  # the name the game is registered by: records and views carry it
    seats: int
    dealer: int
    deck: tuple[int, ...]  # the deck order, top first
    options: Any  # the game's Options
    to_act: int | None
    history: list[tuple[int, int]]  # (seat, action) in order
    events: list[dict] | None  # the public log, or None when the deal keeps none
    hands: list[int]  # card masks by seat
    rules: TrickRules
    codes: list[str]  # the deck's codes, for the log
    trick: list[int]  # the cards of the trick in play, in order
    leader: int
    tricks_left: int
    won: list[int]  # each seat's tricks as a mask, the Fool not among them
    played: list[int]
    tricks_won: list[int]
    fool_by: int  # who played the Fool, -1 before it is played
    fool_to: int  # the winner of the Fool's trick, -1 before it is closed
    last_trick: tuple[int, list[int], int] | None  # (leader, cards, winner)
    watched: int  # a card whose play the game hears of (``_heard``), -1 for none
    fool: int  # the Fool (the rules'), at hand for the hot path
    word: bool  # the deck fits a machine word: masks are i64 on the hot paths (compiled)
    discard_rule: DiscardRule  # the discard of the seat to act, in a discard phase
    discard_flag: int  # the flag of a discard action: ``discard_flag | cards``
    # The legal cards last listed (``legal_card_list``), for the hand and the moment (the length
    # of the history) they were listed at: ``apply`` of the card a user picked from the list
    # needs no second look at the rules.
    listed: int
    listed_hand: int
    listed_at: int
    notation: Any  # the game's notation once looked up (``_notation``), None before

    def __init__(self, seats: int, dealer: int, deck: list[int], options: Any = None, *, log: bool = True) -> None:
        """A deal from a deck order (``BLANK``: an empty one for ``copy`` to fill); every game
        deals its own way: ``_init_table``, ``_init_tricks``, ``_deal``."""
        raise NotImplementedError

    @classmethod
    def shuffled(cls, seats: int, dealer: int, rng: random.Random, options: Any = None, *, log: bool = True,
                 totals: list[int] | None = None) -> Any:
        """A deal of this class's game from a uniformly shuffled deck: chance is explicit, and
        seeded by ``rng`` (``totals``: the match totals before it, for a game that takes them)."""
        return game_of(cls).shuffled(seats, dealer, rng, options, log=log, totals=totals)

    def _init_table(self, seats: int, dealer: int, deck: list[int], options: Any, sizes: tuple[int, ...],
                    size: int, played_at: str, deck_words: str) -> bool:
        """Checks the table and the deck order of ``size`` cards (``played_at``, ``deck_words``:
        the refusals of a wrong table size and of a deck order that does not hold each card
        once), then holds them. False for the BLANK deck of a copy, which sets every field."""
        if deck is BLANK:
            return False
        if seats not in sizes:
            raise ValueError(played_at)
        if not 0 <= dealer < seats:
            raise ValueError(f"the dealer is a seat 0..{seats - 1}")
        if len(deck) != size or not self._each_card_once(deck, size):
            raise ValueError(deck_words)
        self.seats, self.dealer, self.deck, self.options = seats, dealer, tuple(deck), options
        return True

    def _deal(self, packets: int, size: int, start: int = 0) -> None:
        """Deals ``packets`` packets of ``size`` cards from the deck order's card ``start`` on,
        one a seat from the dealer's left: the deal of every game here."""
        deck, n = self.deck, self.seats
        for i in range(packets):
            seat = (self.dealer + 1 + i) % n
            for c in deck[start + size * i:start + size * (i + 1)]:
                self.hands[seat] |= 1 << c

    @staticmethod
    def _each_card_once(deck: list[int], size: int) -> bool:
        """Whether ``deck`` (``size`` items) holds each of ``size`` cards once."""
        if size <= 63:
            word: i64 = 0  # compiled: a machine word
            for c in deck:
                if not 0 <= c < size:
                    return False
                word |= 1 << c
            return word == (1 << size) - 1
        seen = 0
        for c in deck:
            if 0 <= c < size:
                seen |= 1 << c
        return seen == (1 << size) - 1

    def _init_tricks(self, game: str, rules: TrickRules, codes: list[str], leader: int, tricks: int) -> None:
        """No card played yet; ``seats`` is set. ``tricks``: how many the deal plays (a game
        that knows it only when play begins sets ``tricks_left`` then)."""
        n = self.seats
        self.game = game
        self.rules = rules
        self.codes = codes
        self.trick = []
        self.leader = leader
        self.tricks_left = tricks
        self.won = [0] * n
        self.played = [0] * n
        self.tricks_won = [0] * n
        self.fool_by = -1
        self.fool_to = -1
        self.last_trick = None
        self.watched = -1
        self.fool = rules.fool
        self.word = len(codes) <= 63
        self.listed, self.listed_hand, self.listed_at = 0, 0, -1
        self.notation = None
        self.discard_rule, self.discard_flag = NO_DISCARD, 0  # a game with a discard sets its own

    def copy(self, log: bool = False) -> Any:
        """A cheap copy for search; by default without the event log."""
        d = type(self)(self.seats, self.dealer, BLANK)
        self._copy_play(d, log)
        self._copy_rest(d)
        return d

    def _copy_rest(self, d: Any) -> None:
        """Copies into ``d`` (a copy in the making) what the game holds beside the state of play."""

    def _copy_play(self, d: TrickPlay, log: bool) -> None:
        """Copies into ``d`` (a blank deal of the same game) the state of play: the seats, the
        phase, whose turn, the hands, the history and the tricks; the event log if ``log``."""
        d.game, d.seats, d.dealer, d.deck, d.options = self.game, self.seats, self.dealer, self.deck, self.options
        d.phase, d.to_act, d.hands = self.phase, self.to_act, self.hands[:]
        d.discard_rule, d.discard_flag = self.discard_rule, self.discard_flag
        d.history = self.history[:]
        d.events = self.events[:] if (log and self.events is not None) else None
        d.rules, d.codes, d.trick, d.leader = self.rules, self.codes, self.trick[:], self.leader
        d.tricks_left, d.won, d.played = self.tricks_left, self.won[:], self.played[:]
        d.tricks_won, d.fool_by, d.fool_to = self.tricks_won[:], self.fool_by, self.fool_to
        d.last_trick, d.watched, d.word, d.fool = self.last_trick, self.watched, self.word, self.fool
        d.listed, d.listed_hand, d.listed_at, d.notation = 0, 0, -1, self.notation

    # --- the state API ------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.phase == DONE

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def public_events(self, since: int = 0) -> list[dict]:
        """The public log from index ``since``: what happened, fit for the screen's lines."""
        return (self.events or [])[since:]

    def refusal(self, seat: int, action: object) -> str | None:
        """Why ``seat`` may not take ``action`` now, in a player's words; None if it may."""
        return plain(self.reason(seat, action))

    def reason(self, seat: int, action: object) -> str | None:
        """``refusal`` as the game gives it (a Reason, whose ``id`` is stable for a client's
        catalogue, in a game with ids)."""
        return self._why(seat, action)

    def _why(self, seat: int, action: object) -> str | None:
        """``reason``, as ``apply`` asks it (a game may word ``reason`` its own way)."""
        if isinstance(action, str):
            try:
                action = self._parse(action)
            except ValueError as e:
                return self._not_an_action(e)
        if self.phase == DONE:
            return DEAL_OVER
        if seat != self.to_act:
            return NOT_YOUR_TURN
        if not isinstance(action, int) or isinstance(action, bool):
            return self._phase_words()
        return self._refusal(seat, action)

    def apply(self, action: object, seat: int | None = None) -> None:
        """Take ``action`` (an int or its text) for the seat to act, or check it is ``seat``'s
        turn. Raises IllegalAction with the reason, leaving the deal unchanged."""
        if isinstance(action, str):
            text = action
            try:
                action = self._parse(text)
            except ValueError as e:
                raise IllegalAction(self._not_an_action(e), seat, text[:40]) from None
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(self._phase_words(), seat, repr(action)[:40])
        actor = self.to_act
        if seat is None:
            if actor is None:
                raise IllegalAction(DEAL_OVER, None, None)
            seat = actor
        # The hot path: a legal card in play needs one mask test (of the cards just listed, if
        # they were listed for this hand at this moment).
        if self.phase == PLAY and seat == actor and 0 <= action < len(self.codes):
            hand = self.hands[seat]
            legal = self.listed if self.listed_at == len(self.history) and self.listed_hand == hand \
                else self.rules.legal(hand, self.trick)
            if legal >> action & 1:
                self.history.append((seat, action))
                self._play_card(seat, action)
                return
        why = self._why(seat, action)
        if why is not None:  # in the game's own words (``reason``)
            raise IllegalAction(self.reason(seat, action) or why, seat, None)
        self.history.append((seat, action))
        self._take(seat, action)

    def record(self) -> dict:
        """The game record: enough to replay this deal exactly (docs/records.md)."""
        codes, text = self.codes, self._notation().action_text
        return {"game": self.game, "seats": self.seats, "options": self.options.to_json(), "dealer": self.dealer,
                **self._record_extra(), "deck": [codes[c] for c in self.deck],
                "actions": [{"seat": s, "action": text(a)} for s, a in self.history]}

    def discard_choice(self) -> tuple[int, int, int]:
        """(the cards that must go, the cards the rest come from, how many more)."""
        seat = self.to_act
        assert seat is not None, "the deal is over"
        return self.discard_rule.choice(self.hands[seat])

    def discard_action(self, cards: int) -> int:
        return self.discard_flag | cards

    # --- what a game says: its notation, its refusals, its actions -----------------------

    def _notation(self) -> Any:
        """What reads and writes the game's actions (``parse_action``, ``action_text``): its
        Game value, found in the registry by name (a game that is not registered gives its own)."""
        return get_game(self.game)

    def _parse(self, text: str) -> int:
        """The action a text names, in the game's notation; a ValueError for a text that names none."""
        notation = self.notation
        if notation is None:  # looked up once a deal: the wire path parses every action
            notation = self.notation = self._notation()
        return notation.parse_action(text)

    def _not_an_action(self, error: ValueError) -> str:
        """The refusal of a text that names no action."""
        return Reason("not_an_action", str(error))

    def _phase_words(self) -> str:
        """The refusal of what is not an action at all: what the phase wants."""
        raise NotImplementedError

    def _refusal(self, seat: int, action: int) -> str | None:
        """Why the seat to act may not take ``action``, or None; the deal is not over."""
        raise NotImplementedError

    def _take(self, seat: int, action: int) -> None:
        """Take an accepted action other than a card played without more (in the history already)."""
        raise NotImplementedError

    def _record_extra(self) -> dict:
        """What a game's record carries beside the deck and the actions (Ottocento: totals)."""
        return {}

    # --- what may be played -------------------------------------------------------------

    def legal_cards(self) -> int:
        """The mask of cards the seat to act may play."""
        seat = self.to_act
        assert seat is not None, "the deal is over"
        hand = self.hands[seat]
        legal = self.rules.legal(hand, self.trick)
        # Kept for ``apply``, which then needs no second look at the trick for one of these cards.
        self.listed, self.listed_hand, self.listed_at = legal, hand, len(self.history)
        return legal

    def legal_card_list(self) -> list[int]:
        """The cards the seat to act may play, lowest first: ``legal_actions()`` in play."""
        legal = self.legal_cards()
        out: list[int] = []
        if self.word:
            m: i64 = legal  # compiled: a machine word, no int object per card
            while m:
                out.append(BIT_INDEX[(m & -m) % 67])
                m &= m - 1
            return out
        while legal:
            low = legal & -legal
            out.append(low.bit_length() - 1)
            legal ^= low
        return out

    # --- the moves of play --------------------------------------------------------------

    def _play_card(self, seat: int, c: int) -> None:
        """``seat`` plays card ``c`` (legal, already in the history)."""
        if self.word:
            bit: i64 = 1 << c  # compiled: machine words
            hand: i64 = self.hands[seat]
            self.hands[seat] = hand ^ bit
            played: i64 = self.played[seat]
            self.played[seat] = played | bit
        else:
            self.hands[seat] ^= 1 << c
            self.played[seat] |= 1 << c
        trick = self.trick
        trick.append(c)
        if self.events is not None:
            self._log_play(seat, c)
        if c == self.watched:
            self._heard(seat, c)
        elif c == self.fool:
            self.fool_by = seat
        n = self.seats
        if len(trick) < n:
            self.to_act = seat + 1 if seat + 1 < n else 0
        else:
            m = 0
            for x in trick:
                m |= 1 << x
            self._close_trick(m)

    def seat_view(self, seat: int | None) -> dict:
        """What every game's view of ``seat`` starts with: the game, the table, whose turn,
        the seat's hand and how many cards each seat holds. ``seat`` None: the public view's
        (a game's ``public_view``), with no seat and no hand."""
        return {"game": self.game, "deck": self.rules.pack.name, "seats": self.seats, "seat": seat,
                "dealer": self.dealer, "phase": self.phase, "turn": self.to_act,
                "hand": self.rules.pack.codes_of(self.hands[seat]) if seat is not None else [],
                "hand_counts": [h.bit_count() for h in self.hands]}

    def _end(self, count: Any) -> None:
        """The deal is over with ``count`` (the game's Count, ``to_json()`` for the log): nobody
        is to act any more."""
        self.phase = DONE
        self.to_act = None
        if self.events is not None:
            self.events.append({"type": "count", "count": count.to_json()})

    def trick_json(self) -> list[dict]:
        """The trick in play for a view: each card with its seat."""
        return [{"seat": (self.leader + i) % self.seats, "card": self.codes[c]} for i, c in enumerate(self.trick)]

    def last_trick_json(self) -> dict | None:
        """The last trick closed for a view: its winner and each card with its seat."""
        if not self.last_trick:
            return None
        lead, cards, winner = self.last_trick
        return {"winner": winner,
                "cards": [{"seat": (lead + i) % self.seats, "card": self.codes[c]} for i, c in enumerate(cards)]}

    def _log_play(self, seat: int, c: int) -> None:
        """The play's line in the public log (a game may say more, after the card is in the trick)."""
        events = self.events
        assert events is not None
        events.append({"type": "play", "seat": seat, "card": self.codes[c]})

    def _heard(self, seat: int, c: int) -> None:
        """``seat`` played the ``watched`` card (after it is in the trick)."""

    def _trick_closed(self, winner: int) -> None:
        """A trick was closed and ``last_trick`` set; the next one is not begun yet."""

    def _count(self) -> None:
        """The last trick is closed: the game's count, which ends the deal."""
        raise NotImplementedError

    def _close_trick(self, m: int) -> None:
        """The trick (``m``, its cards as a mask) is complete: its winner takes it and leads;
        the Fool stays beside its player until the count; after the last trick, the count."""
        trick = self.trick
        rules = self.rules
        winner = (self.leader + trick.index(rules.winning_card(trick, m))) % self.seats
        if m & rules.fool_bit:
            m ^= rules.fool_bit
            self.fool_to = winner
        self.won[winner] |= m
        self.tricks_won[winner] += 1
        self.last_trick = (self.leader, trick, winner)
        if self.events is not None:
            codes = self.codes
            self.events.append({"type": "trick", "winner": winner, "cards": [codes[x] for x in trick]})
        self._trick_closed(winner)
        self.trick = []
        self.leader = winner
        self.to_act = winner
        self.tricks_left -= 1
        if not self.tricks_left:
            self._count()

    def rollout(self, rng: random.Random) -> None:
        """Play the rest of the tricks with uniformly random legal cards, then count: the same
        moves as ``apply`` would take, in one tight loop (the random playouts of search and of
        the benchmark spend their time here)."""
        if self.phase != PLAY:
            raise ValueError(f"a rollout plays cards: this deal is at {self.phase!r}, not in play")
        if not self.word:
            rand = rng.random
            while self.tricks_left:
                seat = self.to_act
                assert seat is not None
                legal = self.legal_cards()
                k = int(rand() * legal.bit_count())
                while k:
                    legal &= legal - 1
                    k -= 1
                c = (legal & -legal).bit_length() - 1
                self.history.append((seat, c))
                self._play_card(seat, c)
            return
        self._rollout_words(rng)

    def _rollout_words(self, rng: random.Random) -> None:
        """``rollout`` for a deck of at most 63 cards: masks are machine words (compiled), the
        legal cards are the rules' (``TrickRules.legal``) written inline, and ``played`` is
        brought up to date once, before the last trick is counted, not card by card."""
        rand = rng.random
        hands, played, history, n = self.hands, self.played, self.history, self.seats
        rules = self.rules
        fool, fool_bit, fool_leads = rules.fool, rules.fool_bit, rules.fool_leads
        trumps: i64 = rules.trumps
        suit_mask_of = rules.suit_mask_of
        watched = self.watched
        log = self.events is not None
        held = hands[:]
        while self.tricks_left:
            trick = self.trick
            seat = self.to_act
            assert seat is not None
            m: i64 = 0
            for x in trick:  # a rollout may start in the middle of a trick
                m |= 1 << x
            while len(trick) < n:
                hand: i64 = hands[seat]
                legal: i64
                if not trick:
                    legal = hand if fool_leads or hand == fool_bit else hand & ~fool_bit
                else:
                    lead = trick[0] if trick[0] != fool else (trick[1] if len(trick) > 1 else -1)
                    if lead < 0:  # a Fool led: the second card fixes the suit
                        legal = hand
                    else:
                        legal = hand & suit_mask_of[lead]
                        if not legal:
                            legal = hand & trumps
                        if legal:
                            legal |= hand & fool_bit
                        else:
                            legal = hand
                k = int(rand() * int(legal).bit_count())
                while k:
                    legal &= legal - 1  # drop the lowest card: the k-th card is chosen
                    k -= 1
                bit: i64 = legal & -legal
                c = BIT_INDEX[bit % 67]
                hands[seat] = hand ^ bit
                m |= bit
                trick.append(c)
                history.append((seat, c))
                if log:
                    self._log_play(seat, c)
                if c == watched:
                    self._heard(seat, c)
                elif c == fool:
                    self.fool_by = seat
                seat = seat + 1 if seat + 1 < n else 0
            if self.tricks_left == 1:
                for s in range(n):
                    played[s] |= held[s] & ~hands[s]
            self._close_trick(m)
