"""A view in play, and each legal card of it, as numbers: what the learned policy reads.

Only the view is read (``Deal.view(seat)``: one seat's knowledge), and every seat is counted
from the deciding seat (0 = me, 1 = the next to play, ...), so that one model serves every seat.

The state (``state``, one vector): my hand; the cards each seat has played; the current trick
by seat; the cards known out of play (the monte, a discard, what was laid) and those known in a
seat's hand (what a challenger took, what was declared, less what was played since); the
called card; who bid (the bidder, the challenger), my partner, the contract; my place in the
trick; the tricks each seat has won; the suits (trumps among them) each seat has shown it lacks
(it did not follow: read from the view's actions, trick by trick).

A card (``card_features``, one vector a legal card): whether it wins the trick as it stands,
whether the trick is now my side's, its points, trump or Fool, whether it is the highest card
of its suit still out, how many of its suit I hold, its rank, whether I play last; and whether
it is the card the game's rule bot would play (``ctx["rule"]``, given by the caller): the
teacher (the search) often plays it, and the network learns where to leave it); how many of
the seats still to play to this trick lack its suit and may trump it; how many unseen cards
of its suit are higher; how many unseen cards of its suit are left.

The auction has its own (``WordFeaturizer``): the hand and its shape, the words said so far,
by whom and in which round; a word's own feature is whether the rule bot says it.
"""

from __future__ import annotations

import numpy as np

from tarocchi.engine.game import get_game

# Out of play, known to the seat: the monte shown or taken, its own discard, what was laid.
OUT_KEYS = ("monte", "monte_face_up", "discard", "extra", "given_back")
CARD_FEATURES = 16


class Featurizer:
    """The features of one game at a table of ``seats``; ``contracts`` is the contracts'
    vocabulary (from the training data, stored with the model)."""

    def __init__(self, game: str, seats: int, contracts: list[str]):
        self.game = game
        self.seats = seats
        self.deck = deck = get_game(game).deck
        self.n = deck.size
        self.contracts = {c: i for i, c in enumerate(contracts)}
        self.codes = deck.card_of
        self.values = np.array(deck.values, dtype=np.float32)
        self.suit_of = deck.suit_of
        self.trump_suit = deck.trump_suit
        self.fool = deck.fool
        self.suit_masks = deck.suit_masks
        n, s = self.n, seats
        # offsets of the blocks
        self.o_hand = 0
        self.o_played = n
        self.o_trick = self.o_played + s * n
        self.o_known = self.o_trick + s * n
        self.o_out = self.o_known + s * n
        self.o_called = self.o_out + n
        self.o_bidder = self.o_called + n
        self.o_partner = self.o_bidder + s + 1
        self.o_contract = self.o_partner + s + 1
        self.o_place = self.o_contract + len(contracts) + 1
        self.o_tricks = self.o_place + s
        self.suits = len(deck.suits) + 1  # the suits, then the trumps
        self.o_void = self.o_tricks + s + 1
        self.size = self.o_void + s * self.suits

    def card(self, code: str) -> int:
        return self.codes[code]

    def option(self, action: str) -> int:
        """The card an action plays (Ottocento's signals follow it: ``7C busso``), -1 for none."""
        return self.codes.get(action.split(" ", 1)[0], -1)

    # The winning card of a trick so far (a list of card indices): the highest trump, else
    # the highest card of the suit led; the Fool never wins (tricks.TrickRules.winning_card).
    def best(self, cards: list[int]) -> int:
        fool = self.fool
        real = [c for c in cards if c != fool]
        if not real:
            return -1
        trumps = [c for c in real if self.suit_of[c] == self.trump_suit]
        if trumps:
            return max(trumps)
        led = self.suit_of[real[0]]
        return max(c for c in real if self.suit_of[c] == led)

    def beats(self, c: int, best: int, led_suit: int) -> bool:
        if c == self.fool:
            return False
        if best < 0:
            return True
        sc, sb = self.suit_of[c], self.suit_of[best]
        if sb == self.trump_suit:
            return sc == self.trump_suit and c > best
        if sc == self.trump_suit:
            return True
        return sc == led_suit and c > best

    def side(self, view: dict, me: int, bidder, ally) -> set[int]:
        """The seats playing for my score, as far as the view tells."""
        sides = view.get("sides")  # fixed partnerships (Ottocento)
        if sides:
            return next(set(x) for x in sides if me in x)
        if not isinstance(bidder, int):  # nobody bid: each for himself
            return {me}
        team = {bidder} | ({ally} if ally is not None else set())  # the bidder and its partner, if known
        return team if me in team else set(range(self.seats)) - team

    def encode(self, view: dict) -> tuple[np.ndarray, dict]:
        """The state vector, and what ``card_features`` needs of the view."""
        n, s = self.n, self.seats
        me = view["seat"]
        x = np.zeros(self.size, dtype=np.float32)
        card = self.card
        hand = [card(c) for c in view["hand"]]
        x[hand] = 1.0
        gone = set(hand)
        for seat, cards in enumerate(view.get("played") or []):
            r = (seat - me) % s
            for c in cards:
                i = card(c)
                x[self.o_played + r * n + i] = 1.0
                gone.add(i)
        trick = view.get("trick") or []
        tcards = []
        for t in trick:
            r = (t["seat"] - me) % s
            i = card(t["card"])
            tcards.append(i)
            x[self.o_trick + r * n + i] = 1.0
        # Known in a seat's hand: a challenger's take (Calabresella), declarations (Ottocento).
        known: list[tuple[int, str]] = []
        for seat, cards in enumerate(view.get("taken") or []):
            known += [(seat, c) for c in cards or []]
        for d in view.get("declarations") or []:
            if d:
                for comb in d.get("combinations", []):
                    known += [(d["seat"], c) for c in comb["cards"]]
        played_any = {card(c) for cards in view.get("played") or [] for c in cards}
        for seat, c in known:
            i = card(c)
            if i not in played_any and seat != me:
                x[self.o_known + ((seat - me) % s) * n + i] = 1.0
                gone.add(i)
        for key in OUT_KEYS:
            v = view.get(key)
            if isinstance(v, str):
                v = [v]
            for c in v or []:
                if isinstance(c, str) and c in self.codes:
                    x[self.o_out + card(c)] = 1.0
                    gone.add(card(c))
        for cards in view.get("laid") or []:
            for c in cards or []:
                x[self.o_out + card(c)] = 1.0
                gone.add(card(c))
        called = view.get("called")
        if isinstance(called, str) and called in self.codes:
            x[self.o_called + card(called)] = 1.0
        bidder = view.get("bidder", view.get("challenger"))
        x[self.o_bidder + ((bidder - me) % s if isinstance(bidder, int) else s)] = 1.0
        partner = view.get("partner")
        ally = partner if isinstance(partner, int) else None
        x[self.o_partner + ((partner - me) % s if isinstance(partner, int) else s)] = 1.0
        contract = view.get("contract")
        x[self.o_contract + self.contracts.get(contract, len(self.contracts)) if contract is not None
          else self.o_contract + len(self.contracts)] = 1.0
        place = len(trick)
        x[self.o_place + min(place, s - 1)] = 1.0
        for seat, won in enumerate(view.get("tricks") or []):
            x[self.o_tricks + (seat - me) % s] = won / 10.0
        x[self.o_tricks + s] = len(hand) / 10.0
        # The suits each seat has shown it lacks: the card plays of the view's actions, trick by trick.
        void = self.voids(view, me)
        for r in range(s):
            for u in range(self.suits):
                if void[r][u]:
                    x[self.o_void + r * self.suits + u] = 1.0
        # Who wins the trick now, and whether that is my side.
        best = self.best(tcards)
        winner = trick[tcards.index(best)]["seat"] if best >= 0 else None
        mine = 1.0 if winner is not None and winner in self.side(view, me, bidder, ally) else 0.0
        led = -1
        real = [c for c in tcards if c != self.fool]
        if real:
            led = self.suit_of[real[0]]
        ctx = {"void": void, "hand": hand, "gone": gone, "trick": tcards, "best": best, "led": led, "mine": mine,
               "last": place == s - 1, "points": float(self.values[tcards].sum()) if tcards else 0.0}
        return x, ctx

    def voids(self, view: dict, me: int) -> list[list[bool]]:
        """``void[r][u]``: the seat ``r`` after me has not followed suit ``u`` (the trumps: the
        last) when it was led."""
        s, fool, trump = self.seats, self.fool, self.trump_suit
        void = [[False] * self.suits for _ in range(s)]
        plays = []
        for a in view.get("actions") or []:
            word = a["action"].split(" ", 1)[0]
            if word in self.codes and not a["action"].startswith(("chiamo", "scarto", "discard")):
                plays.append((a["seat"], self.codes[word]))
        for i in range(0, len(plays), s):
            trick = plays[i:i + s]
            led = -1
            for seat, c in trick:
                if c == fool:
                    continue
                u = self.suit_of[c]
                if led < 0:
                    led = u
                    continue
                if u != led:
                    r = (seat - me) % s
                    void[r][led] = True  # (the trumps' suit is the last: ``trump_suit``)
                    if u != trump:
                        void[r][self.suits - 1] = True
        return void

    def card_features(self, c: int, ctx: dict) -> np.ndarray:
        f = np.zeros(CARD_FEATURES, dtype=np.float32)
        wins = self.beats(c, ctx["best"], ctx["led"]) if ctx["trick"] else False
        suit = self.suit_of[c]
        mask = self.suit_masks[suit]
        higher_out = 0
        rank = 0
        total = 0
        held = 0
        hand = ctx["hand"]
        gone = ctx["gone"]
        for d in range(self.n):
            if mask >> d & 1:
                total += 1
                if d < c:
                    rank += 1
                elif d > c and d not in gone:
                    higher_out += 1
        for h in hand:
            if self.suit_of[h] == suit:
                held += 1
        f[0] = 1.0
        f[1] = wins
        f[2] = wins * ctx["last"]
        f[3] = ctx["mine"]
        f[4] = self.values[c] / 5.0
        f[5] = suit == self.trump_suit
        f[6] = c == self.fool
        f[7] = higher_out == 0 and c != self.fool
        f[8] = held / 10.0
        f[9] = rank / max(1, total - 1)
        f[10] = wins * ctx["points"] / 10.0
        f[11] = ctx["mine"] * self.values[c] / 5.0
        f[12] = c == ctx.get("rule", -1)
        # The seats still to play to this trick that lack the suit followed and may trump.
        follow = ctx["led"] if ctx["led"] >= 0 else (suit if c != self.fool else -1)
        later = range(1, self.seats - len(ctx["trick"]))  # the seats after me, this trick
        if follow >= 0 and follow != self.trump_suit:
            f[13] = sum(1 for r in later if ctx["void"][r][follow] and not ctx["void"][r][self.suits - 1]) / 2.0
        f[14] = higher_out / 5.0
        f[15] = sum(1 for d in range(self.n) if mask >> d & 1 and d not in gone and d not in hand) / 10.0
        return f


def suit_swaps(game: str) -> list[dict[str, str]]:
    """The relabellings of a game's cards that swap suits of the same ranks (Calabresella:
    cups, swords and batons; Renaissance: cups and coins, swords and batons), the identity first:
    the rules treat such suits alike, so each gives the trainer one more decision from one
    record (Ottocento's declarations name suits: not used there)."""
    from itertools import permutations, product

    deck = get_game(game).deck
    groups: dict[tuple, list[str]] = {}
    for suit in deck.suits:
        groups.setdefault(tuple(suit.ranks), []).append(suit.letter)
    choices = [[dict(zip(letters, p)) for p in permutations(letters)] for letters in groups.values()]
    out = []
    for combo in product(*choices):
        letter = {k: v for part in combo for k, v in part.items()}
        out.append({rank + s.letter: rank + letter[s.letter] for s in deck.suits for rank in s.ranks})
    out.sort(key=lambda m: sum(k != v for k, v in m.items()))  # the identity first
    return out


def relabel(x, mapping: dict[str, str]):
    """A view (or an action, a list of values) with its cards relabelled."""
    if isinstance(x, str):
        if x in mapping:
            return mapping[x]
        if " " in x or "," in x or ":" in x:  # an action: its words
            out, word = [], ""
            for ch in x:
                if ch in " ,:":
                    out += [mapping.get(word, word), ch]
                    word = ""
                else:
                    word += ch
            return "".join(out) + mapping.get(word, word)
        return x
    if isinstance(x, dict):
        return {relabel(k, mapping) if isinstance(k, str) else k: relabel(v, mapping) for k, v in x.items()}
    if isinstance(x, list):
        return [relabel(v, mapping) for v in x]
    return x


class WordFeaturizer:
    """The features of a view in the auction (``phase == "speak"``), and of each word the
    teacher said there (``words``, its vocabulary, stored with the model); one seat's view alone,
    every seat counted from the deciding one. The state: my hand (each card, and its shape: trumps,
    the high ones, the Fool, points, short suits); how many cards I hold; my place in the order
    of speaking; the words said before me in this round (by whom) and in the rounds before (how
    often, by whom). A word's own features: whether it is the game's rule bot's word."""

    def __init__(self, game: str, seats: int, words: list[str]):
        self.game = game
        self.seats = seats
        self.deck = deck = get_game(game).deck
        self.codes = {w: i for i, w in enumerate(words)}
        self.n = len(words)
        self.heard = self.n + 1  # the words said: the vocabulary, then any other (a pago)
        self.cards = deck.card_of
        self.values = np.array(deck.values, dtype=np.float32)
        self.suit_of = deck.suit_of
        trumps = [c for c in range(deck.size) if deck.suit_of[c] == deck.trump_suit]
        self.trumps = set(trumps)
        self.high = set(trumps[-max(1, len(trumps) // 4):])  # the top quarter of the trumps
        self.most = deck.size // seats + 1
        n, s = deck.size, seats
        self.o_hand = 0
        self.o_size = n
        self.o_place = self.o_size + self.most + 1
        self.o_now = self.o_place + s
        self.o_before = self.o_now + s * self.heard
        self.o_shape = self.o_before + s * self.heard
        self.size = self.o_shape + 7

    def option(self, action: str) -> int:
        return self.codes.get(action, -1)

    def heard_index(self, word: str) -> int:
        return self.codes.get(word, self.n)

    def encode(self, view: dict) -> tuple[np.ndarray, dict]:
        s, me = self.seats, view["seat"]
        x = np.zeros(self.size, dtype=np.float32)
        hand = [self.cards[c] for c in view["hand"]]
        x[hand] = 1.0
        k = len(hand)
        x[self.o_size + min(k, self.most)] = 1.0
        x[self.o_place + (me - view["dealer"] - 1) % s] = 1.0
        # The words of this round (said holding as many cards as I do now) and of those before.
        for b in view.get("bids") or []:
            r = (b["seat"] - me) % s
            now = b.get("cards", k) == k
            base = self.o_now if now else self.o_before
            x[base + r * self.heard + self.heard_index(b["bid"])] += 1.0 if now else 1.0 / 3
        lengths = [0] * (len(self.deck.suits))
        for c in hand:
            if self.suit_of[c] < len(lengths):
                lengths[self.suit_of[c]] += 1
        o = self.o_shape
        x[o] = sum(c in self.trumps for c in hand) / 10.0
        x[o + 1] = sum(c in self.high for c in hand) / 4.0
        x[o + 2] = self.deck.fool in hand
        x[o + 3] = float(self.values[hand].sum()) / 20.0 if hand else 0.0
        x[o + 4] = lengths.count(0) / 2.0
        x[o + 5] = lengths.count(1) / 2.0
        x[o + 6] = k / 10.0
        return x, {}

    def card_features(self, word: int, ctx: dict) -> np.ndarray:
        f = np.zeros(CARD_FEATURES, dtype=np.float32)
        f[0] = 1.0
        f[1] = word == ctx.get("rule", -1)
        return f


def featurizer(meta: dict):
    """The features a model's ``meta`` names: the cards' (``phase`` play, the default) or the
    auction's (``phase`` speak)."""
    if meta.get("phase", "play") == "speak":
        return WordFeaturizer(meta["game"], meta["seats"], meta["words"])
    return Featurizer(meta["game"], meta["seats"], meta["contracts"])
