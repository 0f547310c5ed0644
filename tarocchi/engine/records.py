"""Game records: one JSON object per deal (docs/records.md), and their replay.

>>> from tarocchi.engine.sicilian import Deal
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
import sys
from collections.abc import Iterable, Iterator

from .deck import CardError, cut, shown
from .game import DEFAULT, IllegalAction, game_names, get_game

FIELDS = {"game", "seats", "options", "dealer", "deck", "actions"}


class RecordError(ValueError):
    """A record that is malformed or holds an illegal action; ``action_index`` says where."""

    def __init__(self, message: str, action_index: int | None = None):
        super().__init__(message)
        self.action_index = action_index


def new_deal(record: object):  # -> the game's State
    """The deal a record starts from, before any action; checks every field but the actions.
    The record's ``game`` names the game; a record without one is Sicilian's."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    missing = {"seats", "dealer", "deck", "actions"} - record.keys()
    if missing:  # every record should name its game: say so too when it is incomplete anyway
        raise RecordError(f"a record needs {', '.join(sorted(missing | (FIELDS - {'options'} - record.keys())))}")
    unknown = record.keys() - FIELDS - {"result", "meta"}
    if unknown:
        raise RecordError(f"unknown fields {cut(', '.join(sorted(unknown)))}")
    name = record.get("game", DEFAULT)
    if not isinstance(name, str) or name not in game_names():
        raise RecordError(f"unknown game {shown(name)}; known: {', '.join(game_names())}")
    game = get_game(name)
    seats, dealer = record["seats"], record["dealer"]
    if type(seats) is not int or seats not in game.seats:  # not 3.0, not True
        raise RecordError(f"seats is {' or '.join(map(str, game.seats))}")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise RecordError(f"dealer is a seat number 0..{seats - 1}")
    if not isinstance(record["deck"], list):
        raise RecordError(f"deck is a list of the {game.deck.size} card codes, top first")
    try:
        deck = game.deck.parse_order(record["deck"])
        options = game.options.from_json(record.get("options"))
    except (CardError, ValueError, TypeError) as e:
        raise RecordError(str(e)) from None
    if not isinstance(record["actions"], list):
        raise RecordError("actions is a list of {seat, action}")
    return game.new_deal(seats, dealer, deck, options)


def replay(record: object):  # -> the game's State
    """Re-check every action of a record against the rules; the deal as it stands after them."""
    deal = new_deal(record)
    for i, item in enumerate(record["actions"]):  # type: ignore[index]
        if not isinstance(item, dict) or set(item) != {"seat", "action"}:
            raise RecordError(f"action {i}: an action is {{\"seat\": n, \"action\": \"text\"}}", i)
        seat, action = item["seat"], item["action"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(action, str):
            raise RecordError(f"action {i}: seat is a number and action a text", i)
        if not 0 <= seat < deal.seats:
            raise RecordError(f"action {i}: there is no seat {shown(seat)}; the seats are 0..{deal.seats - 1}", i)
        try:
            deal.apply(action, seat)
        except IllegalAction as e:
            raise RecordError(f"action {i} (seat {seat}, {shown(action)}): {e.reason}", i) from None
    return deal


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
