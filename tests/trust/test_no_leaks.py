"""No peeking: whole deals through the real server, every frame of every seat recorded and
checked against the true state replayed from the store.

Rooms with every seat a test socket play whole matches in lockstep; a plan per deal steers
the speaking so that every bidding path occurs (three seats: stata, solo at 10/15/20, altre
cinque, pago/prendo abandon; four seats: stata, chiamo with a hidden partner, solo after a
chiamo, forced call, throw-in with the 20 in the monte), and the rest is drawn from a seeded
RNG. For each frame to a seat: no card it may not know (another hand, the monte before it is
turned up except to the dealer who looked, R11, another seat's discard before the count), no
partner before the called trump is played (R9), and the view is exactly the engine's
projection for that seat.

The hidden partner gets a differential test too: the same four-seat deal is played twice with
the called trump and another trump swapped between two seats, so the partner changes; the
frames to the other seats must be identical until one of the two trumps is played, and the
questions of R12 the same, bar the partner's own refused Rivanto.
"""

from __future__ import annotations

import asyncio
import random

from tarocchi.engine.cards import CODES, mask_of
from tarocchi.games.sicilian import PARTNER_SILENT, discard_refusal
from tests.trust.harness import (
    card_codes, drain, new_room_ids, next_deal, open_all, play_deal, replay_stream,
    running, stream,
)

YES = {"scommessa", "rivanto"}


# --- steering the speaking ------------------------------------------------------------------

def plan_word(plan: str, view: dict, rng: random.Random) -> str:
    """The word a plan wants from this seat now (the policy falls back to passo if refused).

    Plans: ``stata`` (the first to speak goes solo on five cards); ``soloK:P`` (altre cinque
    from the first seat until K cards, then the seat at position P goes solo); ``pagoprendo``
    (altre cinque, then at 10 cards pago and prendo and nothing else: abandoned); at four
    seats ``chiamo:P`` (all pass on five, the seat at position P calls on fifteen),
    ``chiamosolo`` (a call, then a solo), ``allpass`` (forced call, or throw-in with the 20 in
    the monte); ``random``."""
    n, cards = view["seats"], view["cards_dealt"]
    pos = (view["seat"] - view["dealer"] - 1) % n
    kind, _, arg = plan.partition(":")
    if kind == "stata":
        return "vado solo" if cards == 5 and pos == 0 else "passo"
    if kind == "solo":
        k, p = (int(x) for x in arg.split(","))
        if cards < k:
            return "altre cinque" if pos == 0 else "passo"
        return "vado solo" if pos == p else "passo"
    if kind == "pagoprendo":
        if cards < 10:
            return "altre cinque" if pos == 0 else "passo"
        return {0: "pago", 1: "prendo"}.get(pos, "passo")
    if kind == "chiamo":
        return "chiamo" if cards == 15 and pos == int(arg) else "passo"
    if kind == "chiamosolo":
        return {0: "chiamo", 2: "vado solo"}.get(pos, "passo") if cards == 15 else "passo"
    if kind == "allpass":
        return "passo"
    allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
    return "passo" if rng.random() < 0.5 else rng.choice(allowed)


def policy_for(plan: str, rng: random.Random, rivanto: bool = True):
    def policy(view: dict) -> str:
        allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
        phase = view["phase"]
        if phase == "speak":
            word = plan_word(plan, view, rng)
            return word if word in allowed else "passo"
        if phase == "discard":
            hand = mask_of(view["hand"])
            while True:
                three = rng.sample(allowed, 3)
                if discard_refusal(hand, mask_of(three)) is None:
                    return "discard " + " ".join(three)
        if phase == "announce":
            yes = [a for a in allowed if a in YES and (rivanto or a != "rivanto")]
            return yes[0] if yes and rng.random() < 0.6 else "no"
        return rng.choice(allowed)
    return policy


def deck_with(rng: random.Random, twenty_in_monte: bool) -> list[str]:
    deck = [CODES[c] for c in range(63)]
    rng.shuffle(deck)
    i = deck.index("20")
    j = rng.randrange(60, 63) if twenty_in_monte else rng.randrange(0, 60)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- the checks -------------------------------------------------------------------------------

def check_frames(truth, seat: int, frames: list[dict]) -> int:
    """Every frame to ``seat`` against the truth; the number of frames checked."""
    log = truth.log
    since = 0
    for f in frames:
        if f["type"] == "history":  # a hello's chat: no chat in these games
            assert f == {"type": "history", "lines": [], "more": False}, f
            continue
        assert f["type"] == "state", f  # nothing refused, no error, no chat in these games
        v = f["version"]
        # The events are exactly the public ones since the last state this socket had.
        expected = [(ev_v, e) for ev_v, e in log if since < ev_v <= v]
        assert f["events"] == [e for _, e in expected], (seat, v)
        since = v
        assert not card_codes(f["table"]), f["table"]
        for ev_v, e in expected:
            leaked = card_codes(e) - truth.known[(ev_v, seat)]
            assert not leaked, f"event {e} at v{ev_v} names {leaked} to seat {seat}"
            if e["type"] == "partner":
                assert truth.facts[ev_v]["partner_known"]
            if e["type"] == "discard":
                assert set(e) == {"type", "seat"}
            if e["type"] == "monte" and e["cards"] is not None:
                assert truth.facts[ev_v]["monte_up"]
        view = f["view"]
        if view is None:
            continue
        # The socket gets exactly the engine's projection for its seat...
        assert view == truth.views[(v, seat)], (seat, v)
        # ...and, checked on the frame itself: no card this seat may not know.
        leaked = card_codes(view) - truth.known[(v, seat)]
        assert not leaked, f"view at v{v} names {leaked} to seat {seat}"
        facts = truth.facts[v]
        if view["monte"] is not None:  # R11
            assert facts["monte_up"] or (seat == facts["dealer"] and facts["dealer_looked"])
        if view["discard"] is not None:
            assert seat == facts["bidder"] or facts["done"]
        assert "actions" not in view  # the events carry them, a discard without its cards
        if view["partner"] is not None:  # R9
            assert facts["partner_known"] or facts["done"]
        if "i_am_partner" in view:  # only to the seat holding the called trump
            assert seat == facts["holder"]
    return len(frames)


def check_r12(truth) -> None:
    """Every seat is asked once after the discard, from the bidder round the table (R12)."""
    for deal in truth.deals:
        answers = [e["seat"] for e in deal.events if e["type"] == "announce"]
        if deal.bidder is None or deal.phase not in ("play", "done") or deal.count and deal.count.abandoned:
            assert answers == []
        else:
            assert answers == [(deal.bidder + i) % deal.seats for i in range(deal.seats)]


async def play_match(server, seats_n: int, plans: list[str], rng: random.Random) -> tuple:
    table_id, tokens = new_room_ids(server.url, seats_n)
    server.chance.dealers[table_id] = rng.randrange(seats_n)
    server.chance.decks[table_id] = [deck_with(rng, plan == "allpass:monte") for plan in plans]
    seats = await open_all(server.ws_url, tokens)
    for plan in plans:
        await play_deal(seats, policy_for(plan.split(":monte")[0], rng))
        if not await next_deal(seats):
            break
    await drain(seats)
    for s in seats:
        await s.close()
    return table_id, seats


def run_matches(seats_n: int, matches: list[list[str]], seed: int):
    rng = random.Random(seed)
    with running(seed) as server:
        async def body():
            return [await play_match(server, seats_n, plans, rng) for plans in matches]
        played = asyncio.run(body())
        out = []
        for table_id, seats in played:
            truth = replay_stream(table_id, stream(server.db, table_id))
            checked = sum(check_frames(truth, s, seats[s].frames) for s in range(seats_n))
            check_r12(truth)
            out.append((truth, checked))
        return out


def bids(deal) -> list[tuple[int, str, int]]:
    return [(b["seat"], b["bid"], b["cards"]) for b in (e for e in deal.events if e["type"] == "bid")]


def test_three_seats_every_bidding_path_leaks_nothing():
    matches = [
        ["stata", "solo:10,0", "pagoprendo"],
        ["solo:15,1", "solo:20,2", "solo:20,0"],
        ["random", "random", "random"],
        ["stata", "solo:10,2", "random"],
    ]
    played = run_matches(3, matches, seed=3)
    deals = [d for truth, _ in played for d in truth.deals]
    assert len(deals) == 12 and all(d.done for d in deals)
    assert sum(checked for _, checked in played) > 300
    # Every path occurred (so the checks above saw each one).
    solos = {(cards, d.stata) for d in deals for _, bid, cards in bids(d) if bid == "vado solo"}
    assert {(5, True), (10, False), (15, False), (20, False)} <= solos
    assert any(bid == "altre cinque" for d in deals for _, bid, _ in bids(d))
    assert any(d.count.abandoned and d.count.prendo is not None for d in deals)  # R6
    # The dealer who looked went solo at 20: the monte was picked up unseen (R11).
    assert any(d.contract == "solo" and d.bidder == d.dealer and not d.monte_up for d in deals)
    assert any(d.contract == "solo" and d.dealer_looked and d.bidder != d.dealer and d.monte_up
               for d in deals)


def test_four_seats_every_bidding_path_leaks_nothing():
    matches = [
        ["stata", "chiamo:0", "chiamosolo", "allpass"],
        ["allpass:monte", "chiamo:1", "allpass", "chiamo:2"],
        ["chiamo:1", "chiamo:0", "random", "stata"],
    ]
    played = run_matches(4, matches, seed=4)
    deals = [d for truth, _ in played for d in truth.deals]
    assert len(deals) == 12 and all(d.done for d in deals)
    assert any(d.contract == "solo" and d.stata for d in deals)
    called = [d for d in deals if d.contract == "chiamo" and d.partner is not None]
    assert called, "no chiamo with a hidden partner"
    # A partner who spoke after the call: asked Rivanto like everyone, refused on its own screen.
    assert any(d.partner in d.spoke_after for d in called)
    assert any(d.contract == "solo" and "chiamo" in [b for _, b, _ in bids(d)] for d in deals)  # R8
    assert any(d.contract == "forced" for d in deals)  # R10
    assert any(d.count.abandoned and "20 is in the monte" in d.count.reason for d in deals)  # R10


# --- the partner, by difference ------------------------------------------------------------

def swap(deck: list[str], a: str, b: str) -> list[str]:
    out = list(deck)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return out


def strip_id(frame: dict) -> dict:
    out = dict(frame)
    if out.get("type") == "state":
        out["table"] = {k: v for k, v in out["table"].items() if k not in ("id", "watch")}  # (each table's own)
        del out["now"]  # the server's clock as the frame left: each run's own
    return out


async def scripted_deal(server, deck: list[str], dealer: int, actions: list[tuple[int, str]] | None,
                        plan: str, rng: random.Random, cut: set[str] = frozenset()):
    """One four-seat deal from ``deck``: played by the plan (``actions`` None), or by
    replaying ``actions`` until one of the cards in ``cut`` is about to be played."""
    table_id, tokens = new_room_ids(server.url, 4)
    server.chance.dealers[table_id] = dealer
    server.chance.decks[table_id] = [deck]
    seats = await open_all(server.ws_url, tokens)
    if actions is None:
        # Nobody says Rivanto: an announced Rivanto tells everyone, by the rules, that its
        # seat is not the partner (R12), so the swapped deal could not be played the same.
        await play_deal(seats, policy_for(plan, rng, rivanto=False))
    else:
        todo = list(actions)

        def replayed(view):
            seat, action = todo.pop(0)
            assert seat == view["seat"]
            return action
        await play_deal(seats, replayed, stop=lambda actor: not todo or todo[0][1] in cut)
    await drain(seats)
    for s in seats:
        await s.close()
    return table_id, seats


def test_the_hidden_partner_changes_nothing_the_others_receive():
    """R9, R12: swap the called trump with another trump of a third seat, so that another
    seat is the partner; every frame to the caller and to the fourth seat is the same until
    one of the two trumps is played, and the partner is asked R12's question with the same
    words as when it is not the partner (only its own Rivanto is refused, on its screen)."""
    rng = random.Random(12)
    with running(12) as server:
        pairs = 0
        partner_refused = 0
        tries = 0
        while pairs < 4:
            tries += 1
            assert tries < 30
            deck = deck_with(rng, twenty_in_monte=False)
            dealer = rng.randrange(4)
            plan = f"chiamo:{pairs % 2}"
            t1, seats1 = asyncio.run(scripted_deal(server, deck, dealer, None, plan, rng))
            truth = replay_stream(t1, stream(server.db, t1))
            d = truth.deals[0]
            if d.contract != "chiamo" or d.partner is None:
                continue
            caller, partner, t = d.bidder, d.partner, CODES[d.called]
            third = [s for s in range(4) if s not in (caller, partner)]
            order = [e["card"] for e in d.events if e["type"] == "play"]  # cards in play order
            # Another trump (not Miseria) dealt to a third seat; of those, the one played last.
            candidates = [(s, CODES[c]) for s in third for c in range(1, 21)
                          if CODES[c] in hand_at_deal(deck, dealer, s)]
            if not candidates:
                continue
            other, u = max(candidates, key=lambda x: order.index(x[1]) if x[1] in order else 99)
            # The seats' own actions (those the server made, a No without a choice, R12, carry
            # no id: it makes them again).
            actions = [(e["seat"], e["action"]) for _, kind, e in stream(server.db, t1)
                       if kind == "act" and e["id"] is not None]
            t2, seats2 = asyncio.run(scripted_deal(server, swap(deck, t, u), dealer, actions, plan, rng,
                                                   cut={t, u}))
            truth2 = replay_stream(t2, stream(server.db, t2))
            d2 = truth2.deals[0]
            assert d2.called == d.called and d2.partner == other  # the partner did change
            cut_version = min(cut_at(truth, {t, u}), cut_at(truth2, {t, u}))
            onlookers = [s for s in range(4) if s not in (partner, other)]
            assert caller in onlookers
            for s in onlookers:
                # (the states: a hello's history frame is checked empty by check_frames)
                a = [strip_id(f) for f in seats1[s].frames if f["type"] == "state" and f["version"] < cut_version]
                b = [strip_id(f) for f in seats2[s].frames if f["type"] == "state" and f["version"] < cut_version]
                assert any(f["view"] and f["view"]["phase"] == "play" for f in a)
                assert a == b, f"seat {s} can tell the partner apart"
            # R12: the partner and the other seat get the same question, word for word.
            for s in (partner, other):
                q1 = questions(seats1[s].frames)
                q2 = questions(seats2[s].frames)
                # (Asked both times or neither: who spoke after the final bid is public, and a
                # seat that did not is answered for, never asked.)
                assert [[c["action"] for c in q] for q in q1] == [[c["action"] for c in q] for q in q2]
                for c1, c2 in zip(q1[0] if q1 else [], q2[0] if q2 else []):
                    if c1 != c2:
                        assert c1["action"] == c2["action"] == "rivanto"
                        partner_refused += 1
                        assert PARTNER_SILENT in (c1["reason"], c2["reason"])
            pairs += 1
        assert partner_refused > 0  # a partner that could have said Rivanto was asked too


def hand_at_deal(deck: list[str], dealer: int, seat: int) -> set[str]:
    """The cards ``seat`` is dealt at four seats (R3: packets of five from the seat after the
    dealer, three rounds; the last three are the monte)."""
    out = set()
    for r in range(3):
        for i in range(4):
            if (dealer + 1 + i) % 4 == seat:
                start = (r * 4 + i) * 5
                out.update(deck[start:start + 5])
    return out


def cut_at(truth, cards: set[str]) -> int:
    """The first version at which one of ``cards`` is played (or after the last)."""
    for v, e in truth.log:
        if e["type"] == "play" and e["card"] in cards:
            return v
    return 10**9


def questions(frames: list[dict]) -> list[list[dict]]:
    """The R12 questions a seat was asked: its choices in the announce phase, once each."""
    out = []
    seen = set()
    for f in frames:
        view = f.get("view") if f["type"] == "state" else None
        if view and view["phase"] == "announce" and view["choices"] and f["version"] not in seen:
            seen.add(f["version"])
            out.append(view["choices"])
    return out
