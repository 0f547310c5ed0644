"""A game is a value, registered by name (as python-chess's ``variant.py``; the state's shape
is OpenSpiel's ``State``). The engine's shared pieces (records, match, playout) find a game
here by the name a record carries, and import no game themselves.

>>> from tarocchi.engine.game import get_game, game_names
>>> game_names()
['sicilian', 'renaissance', 'calabresella', 'ottocento']
>>> g = get_game("renaissance")
>>> g.deck.size, g.seats
(78, (3,))
>>> deal = g.shuffled(3, 0, __import__("random").Random(1))
>>> deal.to_act, deal.phase                 # the dealer holds 28 and discards first (A7)
(0, 'discard')
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .deck import Deck


class Reason(str):
    """A refusal in a player's words that also carries a stable ``id``: it is the English text
    (it compares and prints as that text), and a client translates it by its id, so that a
    catalogue does not depend on the wording. What leaves the engine (views, ``refusal()``,
    IllegalAction) is the plain text with the id beside it: msgspec encodes no str subclass.

    >>> r = Reason("play_trump", "play a trump")
    >>> r == "play a trump", r.id
    (True, 'play_trump')
    """

    id: str

    def __new__(cls, id: str, text: str) -> Reason:
        self = super().__new__(cls, text)
        self.id = id
        return self

    def __reduce__(self):  # pickled as itself, id included (bots decide in worker processes)
        return Reason, (self.id, str(self))


def reason_id(reason: str | None) -> str | None:
    """The stable id of a refusal, or None for a text without one."""
    return reason.id if isinstance(reason, Reason) else None


def choice(action: str, why: str | None) -> dict:
    """One of a screen's choices (a view's ``choices``): the action's text, and why it is refused
    now (None if it is not) with the refusal's id."""
    return {"action": action, "reason": None if why is None else str(why), "reason_id": reason_id(why)}


def plain(reason: str | None) -> str | None:
    """A refusal as the plain text a ``refusal`` gives (a game's ``reason`` gives the Reason)."""
    return None if reason is None else str(reason)


# The refusals every game with ids shares, word for word (Sicilian's texts are the same).
NOT_YOUR_TURN = Reason("not_your_turn", "it is not your turn")
DEAL_OVER = Reason("deal_over", "the deal is over")
NOT_IN_HAND = Reason("not_in_hand", "that card is not in your hand")
PLAY_NOW = Reason("play_now", "now is the time to play a card")


class IllegalAction(ValueError):
    """An action the rules refuse; ``reason`` says why in a player's words (a plain text, fit
    for any encoder) and ``reason_id`` is its stable id when it has one. The deal is unchanged."""

    def __init__(self, reason: str, seat: int | None = None, action: str | None = None):
        super().__init__(reason)
        self.reason = str(reason)
        self.reason_id = reason_id(reason)
        self.seat = seat
        self.action = action


class State(Protocol):
    """One deal of a game, from the deck order to the count. Chance is explicit: the deck
    order is given, so a deal is a pure function of it and the actions."""

    seats: int
    dealer: int
    phase: str  # the game's phases; "done" at the end
    to_act: int | None  # None once the deal is over
    history: list[tuple[int, int]]  # (seat, action) in order

    @property
    def done(self) -> bool: ...

    def legal_actions(self) -> Sequence[int]: ...

    def refusal(self, seat: int, action: object) -> str | None:
        """Why ``seat`` may not take ``action`` now, in a player's words; None if it may."""

    def apply(self, action: object, seat: int | None = None) -> None:
        """Take ``action`` (an int or its text); raises IllegalAction, leaving the deal unchanged."""

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know and nothing more, JSON-ready."""

    def public_view(self) -> dict:
        """What anyone at the table may know, and nothing more (a spectator's view): the shape
        of a seat's view with its own parts empty (``seat`` None, no hand, no choices, no fact
        only some seats know). Defined by each game on purpose, never worked out from the
        seats' views: a value that differs between seats would show through (issue 37)."""

    def returns(self) -> list[int]:
        """Each seat's score for the deal (zero-sum in every game so far); [] before the end."""

    def copy(self, log: bool = False) -> State: ...

    def record(self) -> dict:
        """The game record: enough to replay the deal exactly (docs/records.md)."""


@dataclass
class NoOptions:
    """The table options of a game that has none."""

    def to_json(self) -> dict:
        return {}

    @classmethod
    def from_json(cls, data: dict | None) -> NoOptions:
        if data:
            raise ValueError(f"unknown table options {sorted(data)!r}; this game has none")
        return cls()


@dataclass(frozen=True)
class Game:
    """The static facts of a game and how to start one of its deals."""

    name: str  # what records and the command line call it
    title: str
    seats: tuple[int, ...]  # the table sizes it is played at
    deck: Deck
    deal: Callable[..., Any]  # deal(seats, dealer, order, options, log=True) -> State
    options: Any  # the Options class: from_json(dict | None), to_json()
    parse_action: Callable[[object], int]
    action_text: Callable[[int], str]
    rounds: Callable[[Any], int] = lambda options: 1  # deals per seat in a match
    # A match played to a score instead (Calabresella C21: 21): it ends after the first deal
    # whose payment takes a seat to ``target`` or more; None: a match of ``rounds``.
    target: int | None = None
    # Whether a match's totals (by seat) decide it, for a game whose target is not simply
    # "a seat at it" (Ottocento B26: a side at 800 and the two sides unequal); None: max >= target.
    decided: Callable[[list[int]], bool] | None = None
    # The deal is given the match totals before it, by seat (``totals=``), and its record
    # carries them: a game that checks the target inside a deal (Ottocento B26, at declarations).
    deal_totals: bool = False
    # A game of fixed partnerships (Ottocento B1): the side of a seat, whose partners win and
    # lose together over the match (ratings rate them as a team); None: each seat for itself.
    sides: Callable[[int], int] | None = None
    discard_rule: Any = None  # the DiscardRule (engine/discards.py), for players who see a view
    reasons: Mapping[str, str] = field(default_factory=dict)  # refusal id -> its English text

    def reason_id(self, text: str | None) -> str | None:
        """The stable id of one of this game's refusals (a Reason's own, else its catalogue's),
        so that a client translates ids, not wording; None for a text with none (one that
        quotes what it refuses)."""
        if text is None or isinstance(text, Reason):
            return reason_id(text)
        return next((i for i, t in self.reasons.items() if t == text), None)

    def new_deal(self, seats: int, dealer: int, order: list[int], options: Any = None, *,
                 log: bool = True, totals: list[int] | None = None) -> Any:
        """A deal from a deck order; ``totals`` (the match totals before it, by seat) reach
        the deal only in a game that takes them (``deal_totals``)."""
        if self.deal_totals:
            return self.deal(seats, dealer, order, options, log=log, totals=totals)
        return self.deal(seats, dealer, order, options, log=log)

    def shuffled(self, seats: int, dealer: int, rng: random.Random, options: Any = None, *,
                 log: bool = True, totals: list[int] | None = None) -> Any:
        """A deal from a uniformly shuffled deck, seeded by ``rng``."""
        return self.new_deal(seats, dealer, self.deck.shuffled(rng), options, log=log, totals=totals)

    def is_decided(self, totals: list[int]) -> bool:
        """Whether match totals (by seat) end a match to a ``target`` (C21, B26)."""
        if self.target is None:
            return False
        return self.decided(totals) if self.decided is not None else max(totals) >= self.target

    def match_length(self, seats: int, options: Any = None) -> int | None:
        """The deals of a match, or None for a match played to a ``target`` score."""
        return None if self.target is not None else self.rounds(options or self.options()) * seats

    def describe(self) -> dict:
        """What a client needs to offer and draw the game, JSON-ready: its name, title, table
        sizes, the deck (``Deck.describe``: codes, groups in hand order, points, names) and the
        refusals by id. Static: a server sends it once, not in every view."""
        return {"name": self.name, "title": self.title, "seats": list(self.seats),
                "deck": self.deck.describe(), "reasons": dict(self.reasons)}


_GAMES: dict[str, Game] = {}
# Where the games live, beside the engine; imported on the first look-up, so that the engine
# imports none (relative: a copy of both packages, tarocchi.pure_engine's, finds its own).
GAMES_PACKAGE = "..games"
DEFAULT = "sicilian"  # a record without "game" is Sicilian: the only game before there were more


def register(game: Game) -> Game:
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def _load() -> None:
    if DEFAULT not in _GAMES:  # importing the package registers every game in it
        importlib.import_module(GAMES_PACKAGE, __package__)


def get_game(name: str) -> Game:
    """The game registered as ``name``; KeyError names the known ones."""
    _load()
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {name!r}; known: {', '.join(_GAMES)}") from None


def game_of(deal: type) -> Game:
    """The game whose deals are of class ``deal``."""
    _load()
    return next(g for g in _GAMES.values() if g.deal is deal)


def game_names() -> list[str]:
    _load()
    return list(_GAMES)
