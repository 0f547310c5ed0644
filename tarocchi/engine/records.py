"""Game records: one JSON object per deal (docs/records.md), and their replay.

>>> from tarocchi.games.sicilian import Deal
>>> from tarocchi.engine.records import replay, RecordError
>>> d = Deal.from_seed(seats=3, dealer=0, seed=1)
>>> d.apply("passo"); d.apply("passo"); d.apply("passo")    # all pass at five: abandoned
>>> replay(d.record()).count.payments
[0, 0, 0]
>>> bad = d.record(); bad["actions"][1]["seat"] = 0
>>> try: replay(bad)
... except RecordError as e: print(e)
action 1 (seat 0, 'passo'): it is not your turn
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from .deck import cut, shown
from .game import DEFAULT, IllegalAction, game_names, get_game

FIELDS = {"game", "seats", "options", "dealer", "deck", "actions", "totals"}


class RecordError(ValueError):
    """A record that is malformed or holds an illegal action; ``action_index`` says where."""

    def __init__(self, message: str, action_index: int | None = None):
        super().__init__(message)
        self.action_index = action_index


class Action(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    action: str


class Record(msgspec.Struct, forbid_unknown_fields=True):
    """A record's schema (docs/records.md); what each game makes of its fields is checked after."""

    seats: int
    dealer: int
    deck: list[str]
    actions: list[Action]
    game: str = DEFAULT  # a record without a game is Sicilian's
    options: dict[str, Any] | None = None
    totals: list[int] | None = None  # the match totals before the deal, by seat (Game.deal_totals)
    result: Any = None  # ignored by replay
    meta: Any = None


# The path of a schema error, as msgspec reports it: "... - at `$.actions[3].seat`".
_AT = re.compile(r"at `\$\.(\w+)(?:\[(\d+)\])?")


def _schema_error(record: dict, error: msgspec.ValidationError) -> RecordError:
    """A schema error in the words of the field it is about."""
    m = _AT.search(str(error))
    field, index = (m.group(1), int(m.group(2)) if m.group(2) else None) if m else ("", None)
    name = record.get("game", DEFAULT)
    game = get_game(name) if isinstance(name, str) and name in game_names() else get_game(DEFAULT)
    if field == "actions" and index is not None:
        item = record["actions"][index]
        if isinstance(item, dict) and set(item) == {"seat", "action"}:
            return RecordError(f"action {index}: seat is a number and action a text", index)
        return RecordError(f"action {index}: an action is {{\"seat\": n, \"action\": \"text\"}}", index)
    if field == "deck" and index is not None:
        return RecordError(f"{shown(record['deck'][index])} is not a card code ({game.deck.code_hint})")
    seats = record.get("seats")
    return RecordError({
        "game": f"unknown game {shown(name)}; known: {', '.join(game_names())}",
        "seats": f"seats is {' or '.join(map(str, game.seats))}",
        "dealer": f"dealer is a seat number 0..{seats - 1}" if type(seats) is int else "dealer is a seat number",
        "deck": f"deck is a list of the {game.deck.size} card codes, top first",
        "actions": "actions is a list of {seat, action}",
        "options": "options is an object of table options",
        "totals": "totals is a list of the match totals before the deal, one number a seat",
    }.get(field, str(error)))


def decode(record: object) -> Record:
    """A record checked against its schema; RecordError in a reader's words otherwise."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    missing = {"seats", "dealer", "deck", "actions"} - record.keys()
    if missing:  # every record should name its game: say so too when it is incomplete anyway
        raise RecordError(f"a record needs {', '.join(sorted(missing | (FIELDS - {'options', 'totals'} - record.keys())))}")
    unknown = record.keys() - FIELDS - {"result", "meta"}
    if unknown:
        raise RecordError(f"unknown fields {cut(', '.join(sorted(map(str, unknown))))}")
    try:
        return msgspec.convert(record, Record)
    except msgspec.ValidationError as e:
        raise _schema_error(record, e) from None


def new_deal(record: object):  # -> the game's State
    """The deal a record starts from, before any action. The record's ``game`` names the game;
    a record without one is Sicilian's."""
    return _start(decode(record))


def _table(name: str, seats: int, dealer: int, dealer_field: str, options: dict | None):
    """The game, and its options, of a record's table (a deal's or a whole match's)."""
    if name not in game_names():
        raise RecordError(f"unknown game {shown(name)}; known: {', '.join(game_names())}")
    game = get_game(name)
    if seats not in game.seats:
        raise RecordError(f"seats is {' or '.join(map(str, game.seats))}")
    if not 0 <= dealer < seats:
        raise RecordError(f"{dealer_field} is a seat number 0..{seats - 1}")
    try:
        return game, game.options.from_json(options)
    except (ValueError, TypeError) as e:
        raise RecordError(str(e)) from None


def _start(r: Record):  # -> the game's State
    game, options = _table(r.game, r.seats, r.dealer, "dealer", r.options)
    try:
        deck = game.deck.parse_order(r.deck)
    except (ValueError, TypeError) as e:  # a CardError is a ValueError
        raise RecordError(str(e)) from None
    if r.totals is None or not game.deal_totals:
        if r.totals is not None:
            raise RecordError(f"a {game.name} record has no totals: its deals do not depend on the match")
        return game.new_deal(r.seats, r.dealer, deck, options)
    try:
        return game.new_deal(r.seats, r.dealer, deck, options, totals=r.totals)
    except ValueError as e:  # B26: totals that already decide the match, or malformed ones
        raise RecordError(str(e)) from None


def replay(record: object):  # -> the game's State
    """Re-check every action of a record against the rules; the deal as it stands after them."""
    return _replay(decode(record))


def _replay(r: Record):  # -> the game's State
    deal = _start(r)
    for i, item in enumerate(r.actions):
        seat, action = item.seat, item.action
        if not 0 <= seat < deal.seats:
            raise RecordError(f"action {i}: there is no seat {shown(seat)}; the seats are 0..{deal.seats - 1}", i)
        try:
            deal.apply(action, seat)
        except IllegalAction as e:
            raise RecordError(f"action {i} (seat {seat}, {shown(action)}): {e.reason}", i) from None
    return deal


# --- match records ------------------------------------------------------------------------


class MatchDeal(msgspec.Struct, forbid_unknown_fields=True):
    dealer: int
    deck: list[str]
    actions: list[Action]


class MatchRecord(msgspec.Struct, forbid_unknown_fields=True):
    """A whole match on one line (docs/records.md "Match records"): the game, its table, the
    first dealer and every deal in order; replay checks each dealer and that no deal is dealt
    once the match is decided (C21, B26)."""

    seats: int
    first_dealer: int
    deals: list[MatchDeal]
    game: str = DEFAULT
    options: dict[str, Any] | None = None
    result: Any = None  # ignored by replay
    meta: Any = None


def is_match(record: object) -> bool:
    """A match record (it has ``deals``) rather than one deal's."""
    return isinstance(record, dict) and "deals" in record


def match_record(match) -> dict:
    """The record of a Match (``tarocchi.engine.match``), finished or not."""
    deals = [d.record() for d in match.deals]
    return {
        "game": match.game.name, "seats": match.seats, "options": match.options.to_json(),
        "first_dealer": match.first_dealer,
        "deals": [{"dealer": d["dealer"], "deck": d["deck"], "actions": d["actions"]} for d in deals],
        "result": {"totals": match.totals, "over": match.over,
                   "winners": match.winners() if match.over else None},
    }


def replay_match(record: object):  # -> tarocchi.engine.match.Match
    """Re-check a match record deal by deal; the Match as it stands after its last action.
    A deal dealt after the match was decided, or by the wrong dealer, is malformed."""
    from .match import Match  # match imports the game registry only: no cycle, but keep it local

    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    try:
        r = msgspec.convert(record, MatchRecord)
    except msgspec.ValidationError as e:
        raise RecordError(f"a match record: {e}") from None
    game, options = _table(r.game, r.seats, r.first_dealer, "first_dealer", r.options)
    match = Match(r.seats, r.first_dealer, options, game)
    for k, item in enumerate(r.deals):
        if match.over:
            raise RecordError(f"deal {k}: the match was already decided ({', '.join(map(str, match.totals))})")
        if item.dealer != match.dealer_of(k):
            raise RecordError(f"deal {k}: the dealer is seat {match.dealer_of(k)}, one on from the last")
        one = Record(seats=r.seats, dealer=item.dealer, deck=item.deck, actions=item.actions,
                     game=r.game, options=r.options,
                     totals=match.totals if game.deal_totals else None)  # B26: the deal checks them
        try:
            deal = _replay(one)
        except RecordError as e:
            raise RecordError(f"deal {k}: {e}", e.action_index) from None
        if k + 1 < len(r.deals) and not deal.done:
            raise RecordError(f"deal {k}: the deal is not finished, yet another follows")
        match.deals.append(deal)
    return match


def read_lines(lines: Iterable[str]) -> Iterator[tuple[int, object]]:
    """(line number, parsed JSON) for each non-blank line; a bad line raises RecordError."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {n} is not JSON: {e.msg}") from None
        except ValueError:  # Python refuses to read an integer of more than 4,300 digits
            raise RecordError(f"line {n} is not a record: it holds a number of more than "
                              f"{sys.get_int_max_str_digits()} digits") from None
        except RecursionError:
            raise RecordError(f"line {n} is not a record: it is nested too deeply") from None
        yield n, parsed


def dumps(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"))
