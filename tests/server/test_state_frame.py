"""``Table.state_frame`` is ``Table.state`` encoded: the same document for every seat at every
version of whole matches, whatever the seat last had and whoever is connected (issue 5: the
frame shares what the seats of one version have in common, and must not mix them up). The view
in it is the engine's view of that seat without the ``actions`` list, and ``acted`` counts each
seat's applied actions (what a browser waits for after it acts)."""

from __future__ import annotations

import collections
import json
import random

import pytest

from tarocchi.games.sicilian import action_text
from tarocchi.engine.playout import random_action
from tarocchi.server.core.tables import BETWEEN, OVER, ROOM_NAMES, Table, shuffled_deck


def check_every_frame(table: Table, rng: random.Random, acted: collections.Counter) -> set[str]:
    """Each seat's frame against ``state``; the kinds of view seen (to be sure the special
    seats came up: the bidder with its discard, the dealer who looked, the hidden partner)."""
    seen = set()
    away = [True] + [False] * (table.seats - 1)
    presences = [([True] * table.seats, [False] * table.seats), (away, [False] * table.seats),
                 (away, [False] + [True] * (table.seats - 1))]
    for connected, takeover in presences:
        for seat in range(table.seats):
            for since in {0, table.version - 1, rng.randrange(table.version + 1)}:
                frame = json.loads(table.state_frame(seat, since, connected, takeover))
                assert frame == table.state(seat, since, connected, takeover), (table.version, seat, since)
                assert frame["acted"] == [acted[s] for s in range(table.seats)]
                full = table.deal.view(seat) if table.deal else None
                assert frame["view"] == (full and {k: v for k, v in full.items() if k != "actions"})
                view = frame["view"] or {}
                seen |= {k for k in ("discard", "monte", "i_am_partner") if view.get(k)}
    return seen


@pytest.mark.parametrize("seats", [3, 4])
def test_every_frame_of_whole_matches_is_the_state_encoded(seats):
    rng = random.Random(seats)
    seen = set()
    for match in range(3):
        table = Table("t", {"kind": "room", "seats": seats, "names": ROOM_NAMES[:seats],
                            "bots": [None] * seats, "options": {"forced_call": True}})
        acted = collections.Counter()
        seen |= check_every_frame(table, rng, acted)  # waiting: no view yet

        def event(kind, data):
            table.apply_event(table.version + 1, kind, data)
            if kind == "act":
                acted[data["seat"]] += 1
            nonlocal seen
            seen |= check_every_frame(table, rng, acted)

        for s in range(seats):
            event("join", {"seat": s})
        event("match", {"first_dealer": match % seats})
        while table.status != OVER:
            event("deal", {"deck": shuffled_deck(rng)})
            while not table.deal.done:
                deal = table.deal
                action = action_text(random_action(deal.copy(), rng))
                if deal.phase == "speak":  # steer to contracts: a discard, a called partner
                    allowed = {c["action"] for c in deal.choices(deal.to_act) if c["reason"] is None}
                    for word, p in (("chiamo", 0.6), ("vado solo", 0.15), ("passo", 1.0)):
                        if word in allowed and rng.random() < p:
                            action = word
                            break
                event("act", {"seat": deal.to_act, "action": action, "id": None})
            if table.status == BETWEEN:
                for s in range(seats):
                    event("next", {"seat": s})
            table.apply_event(table.version + 1, "chat", {"seat": 0, "text": "ciao"})
    assert {"discard", "monte"} <= seen
    if seats == 4:
        assert "i_am_partner" in seen
