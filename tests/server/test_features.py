"""The core and its features (issue 39, core/features.py): the core plays a room to its count with
no feature plugged in; every message kind is answered by exactly one module, the core's or one
feature's; a feature cannot take a kind another answers; a feature's hooks see a table's life."""

from __future__ import annotations

import asyncio
import random
import typing
from concurrent.futures import ThreadPoolExecutor

import pytest

from tarocchi.server.app import assemble
from tarocchi.server.core.features import Feature
from tarocchi.server.core.hub import CORE_MESSAGES, NOT_ANSWERED, Chance, Hub
from tarocchi.server.core.messages import Budget, Hint, Message
from tarocchi.server.core.sockets import serve_socket
from tests.server.fake import RecordingStore, Socket, until


class Watching(Feature):
    """A feature that notes the hooks the core calls."""

    def __init__(self):
        self.seen: list[str] = []

    def changed(self, table):
        self.seen.append("changed")

    def told(self, table):
        self.seen.append("told")

    def stamp(self, table, data):
        self.seen.append("stamp")
        return data

    def unloaded(self, table_id, code, reason):
        self.seen.append("unloaded")


def test_the_core_alone_plays_a_room_to_its_count_and_a_feature_sees_its_life(tmp_path):
    async def body():
        store = RecordingStore(str(tmp_path / "t.sqlite3"))
        hub = Hub(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0, chance=Chance(random.Random(2)))
        watching = hub.plug(Watching())
        hub.start()
        table_id, tokens = hub.new_room(3, "calabresella")
        rng = random.Random(4)
        sockets = [Socket(store, rng) for _ in tokens]
        tasks = [asyncio.create_task(serve_socket(hub, s, t, Budget(10_000, 10_000.0))) for s, t in zip(sockets, tokens)]
        for s in sockets:
            s.say({"type": "hello", "since": 0})
        await until(lambda: sockets[0].frames and sockets[0].state["table"]["sheet"], seconds=30)
        assert {"changed", "told", "stamp"} <= set(watching.seen)
        seen = len(sockets[0].frames)
        sockets[0].say({"type": "hint"})  # no feature answers hints here: the core says so
        await until(lambda: any(f["type"] == "refused" and f["reason"] == NOT_ANSWERED for f in sockets[0].frames[seen:]))
        for s in sockets:
            s.leave()
        await asyncio.gather(*tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_every_message_kind_is_answered_by_exactly_one_module(tmp_path):
    store = RecordingStore(str(tmp_path / "t.sqlite3"))
    hub = assemble(store, None)
    kinds = set(typing.get_args(Message))
    features = set(hub.handlers)
    assert not features & set(CORE_MESSAGES)
    assert features | set(CORE_MESSAGES) == kinds
    assert {type(f).__name__ for f in hub.handlers.values()} == {"Lobby", "Advisor", "Notifier"}

    class Rival(Feature):
        handles = (Hint,)

    with pytest.raises(ValueError, match="Hint is handled already"):
        hub.plug(Rival())
    store.close()


def test_a_hook_runs_for_the_features_that_override_it_alone(tmp_path):
    """``Hub.hooked``: the hooks run after every action, so the hub calls a feature's hook only
    where the feature overrides it; every hook of the base class is in the table."""
    store = RecordingStore(str(tmp_path / "t.sqlite3"))
    hub = Hub(store, ThreadPoolExecutor(1))
    plain, watching = hub.plug(Feature()), hub.plug(Watching())
    assert set(hub.hooked) == {name for name in vars(Feature) if not name.startswith("_")} - {
        "handles", "handle", "shared", "stop"}
    for name, features in hub.hooked.items():
        assert plain not in features
        assert (watching in features) == (name in {"changed", "told", "stamp", "unloaded"}), name
    store.close()
