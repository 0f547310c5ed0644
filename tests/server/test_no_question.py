"""A question without a choice is not put to a person (R12; issue 12: "ask only when there is
a real choice, and say in the log that it was not possible"): the server answers No for the
seat, at once when every seat can tell, after a computer's beat when only that seat's hand can.
The record still holds each seat's answer, so records and other implementations agree."""

from __future__ import annotations

import asyncio

from tarocchi.engine.cards import CODES
from tests.engine.builders import deal_of
from tests.engine.test_announcements import SOLO_AT_10_BY
from tests.trust.harness import new_room, running, stream
from tests.server.seat import Seat


def scripted_deck(hands: dict) -> list[str]:
    """A three-seat deck (dealer 2) where seat 0 says vado solo at ten cards with ``hands``."""
    return [CODES[c] for c in deal_of(3, 2, hands, monte=["MC", "MO", "MS"]).deck]


def play(seats: list[Seat], words: list[str]):
    async def go():
        for word in words:
            # The seat asked (one the server answers for is not: its view says "automatic").
            asked = lambda st: st["view"] and st["view"]["phase"] != "done" and "automatic" not in st["view"]  # noqa: E731
            await asyncio.gather(*(s.wait_state(asked) for s in seats))
            version = max(s.version for s in seats)
            for s in seats:
                await s.wait_state(lambda st: st["version"] >= version)
            (actor,) = [s for s in seats if s.my_turn()]
            await actor.act(word, f"v{version}")
            for s in seats:
                await s.wait_state(lambda st: st["version"] > version)
    return go()


def run_room(hands: dict, words: list[str]):
    with running(5) as server:
        async def main():
            # Script the luck of the next table: ids are made at creation, so take the first
            # table's deck from a hook on Scripted (one table per server here).
            deck = scripted_deck(hands)
            server.chance.deck = lambda table: list(deck)
            server.chance.first_dealer = lambda table: 2
            tokens = new_room(server.url, 3)
            seats = [await Seat.open(server.ws_url, t) for t in tokens]
            await asyncio.gather(*(s.wait_state(lambda st: st["view"] is not None) for s in seats))
            await play(seats, words)
            for s in seats:
                await s.quiet(0.3)
            for s in seats:
                await s.close()
            return seats
        seats = asyncio.run(main())
        events = stream(server.db, seats[0].state["table"]["id"])
    return seats, events


def frames_asking(seat: Seat, who: int) -> list[dict]:
    return [f for f in seat.frames if f.get("type") == "state" and f["view"]
            and f["view"]["phase"] == "announce" and f["view"]["turn"] == who]


def test_the_bidder_without_the_20_is_not_asked_and_only_its_own_log_says_why_R12():
    # Seat 0 lacks the 20: its No comes after a beat; seat 1 says Rivanto; seat 2 then cannot
    # (one a deal, R12) and everyone can tell: it is answered at once, never asked.
    seats, events = run_room({1: ["20"]}, SOLO_AT_10_BY[0] + ["discard MC MO MS", "rivanto"])
    acts = [data for _, kind, data in events if kind == "act"]
    assert [(a["seat"], a["action"]) for a in acts[-3:]] == [(0, "no"), (1, "rivanto"), (2, "no")]
    assert all(a["id"] is None for a in (acts[-3], acts[-1]))  # answered by the server
    # Seat 0's screen showed no question: its view said the answer was automatic.
    asked0 = frames_asking(seats[0], 0)
    assert asked0 and all(f["view"].get("automatic") == "no" for f in asked0)
    assert not any(f["view"].get("automatic") for f in frames_asking(seats[1], 0))
    # Seat 2 was never asked: no frame put the question to it.
    assert frames_asking(seats[2], 2) == []
    final = [s.view["announcements"] for s in seats]
    assert final[0] == [{"seat": 0, "announce": "no", "possible": False},
                        {"seat": 1, "announce": "rivanto", "possible": True},
                        {"seat": 2, "announce": "no", "possible": False}]
    # The others cannot tell seat 0's No from one by choice.
    assert final[1] == final[2] == [dict(final[0][0], possible=True)] + final[0][1:]


def test_a_real_choice_is_asked_and_waits_for_the_person_R12():
    seats, events = run_room({0: ["20", "F"]}, SOLO_AT_10_BY[0] + ["discard MC MO MS"])
    assert seats[0].view["phase"] == "announce" and seats[0].view["turn"] == 0
    assert "automatic" not in seats[0].view
    assert [c["reason"] for c in seats[0].view["choices"]] == [None, None]  # scommessa, no
