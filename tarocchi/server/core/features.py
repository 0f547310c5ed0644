"""How features plug into the core: the small set of messages between them (as lila's ``hub``).

The core (this package) drives tables, their streams and sockets, and knows no feature. A
feature (the lobby, spectators, advice, a site of several processes) is a module above it that
subclasses ``Feature``, overrides the hooks it needs, and is plugged in by the app
(``Hub.plug``); features never import each other. A message kind is handled by exactly one
module: the core's own, or the feature that names it in ``handles``.

Each hook is called by the hub at one moment of a table's life, in the order the features were
plugged; the defaults do nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hub import Connection
    from .messages import Message
    from .store.people import Ended
    from .tables import Table


class Feature:
    # The message kinds this feature answers for a seat's socket (``handle``).
    handles: tuple[type, ...] = ()

    def handle(self, conn: Connection, message: Message) -> None:
        """A seat's message of a kind in ``handles``, inside the hub's unit of work."""

    def stamp(self, table: Table, data: dict) -> dict:
        """An event's data as it will be stored (the turn clock adds when it was stored)."""
        return data

    def advance(self, table: Table) -> bool:
        """What follows by itself, before the core's own steps (computers fill empty seats):
        True if it wrote an event (the hub asks again)."""
        return False

    def keeps_for_the_deal(self, table: Table, seat: int) -> bool:
        """A person opens a seat a computer plays: True keeps it the computer's for now."""
        return False

    def hello(self, conn: Connection) -> None:
        """A seat's socket said hello (inside its unit of work)."""

    def changed(self, table: Table) -> None:
        """After every change of a table, a seat's socket come or gone, and when it is resumed."""

    def told(self, table: Table) -> None:
        """The seats of the table were just sent a new state."""

    def chat(self, table: Table, frame: bytes) -> None:
        """A chat line was said at the table (``frame``: as the seats get it)."""

    def may_chat(self, conn: Connection, text: str) -> str | None:
        """A seat's chat line is about to be said: the reason to refuse it (a chat ban), or None."""
        return None

    def hides_chat(self, table: Table, text: str) -> bool:
        """Whether a chat line is hidden from all but its sender (a word list's)."""
        return False

    def holds(self, table_id: str) -> bool:
        """Whether this feature still needs the table in memory (its sockets are open)."""
        return False

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        """The table left this process's memory; its sockets are closed with ``code``."""

    def ended(self, table: Table, ended: Ended) -> None:
        """The table's match ends with the event being written: its record, stored with that
        event (``store/people.py``), may still be added to (the ratings set ``ended.rater``)."""

    def wakes(self, table: Table) -> float | None:
        """A table by correspondence goes to sleep (out of memory, nobody there): when this
        feature needs it awake again (wall clock; its own timer's moment), or None."""
        return None

    def opened(self, table_id: str, persons: list[str]) -> None:
        """A link of the table (a seat's or its watch link) was opened by the person known by
        ``persons`` (``sessions.persons``: their account's, browser's or address's keys)."""

    def shared(self) -> dict:
        """Small figures this process shares with the other processes of a site every few
        seconds (``Leases.gathered`` reads theirs), by name."""
        return {}

    async def stop(self) -> None:
        """The server stops."""


# The hooks the hub calls per table (``Hub.hooked``: the features that override each).
HOOKS = ("stamp", "advance", "keeps_for_the_deal", "hello", "changed", "told", "chat", "may_chat", "hides_chat", "holds",
         "unloaded", "opened", "ended", "wakes")


class Spectators(Feature):
    """A feature that serves the sockets opened with a table's watch token (the core's
    ``WATCH_SEAT`` rows): it makes their connections, attaches, answers and detaches them."""

    def connection(self, websocket, table: Table) -> Connection: ...

    def attach(self, conn: Connection) -> None: ...

    def detach(self, conn: Connection) -> None: ...


class Leases(Feature):
    """A feature under which a table is driven by one of several processes: ``acquire`` raises
    ``Elsewhere`` for a table another process drives, ``relay`` serves a socket for it."""

    def acquire(self, table_id: str, new: bool = False) -> None: ...

    def release(self, table_id: str) -> None: ...

    async def relay(self, websocket, token: str, elsewhere: Elsewhere) -> None: ...

    async def gathered(self, name: str) -> list:
        """What the other live processes last shared under ``name`` (``Feature.shared``)."""
        return []


class Elsewhere(Exception):
    """The table a link opens is driven by another process now."""

    def __init__(self, table_id: str, owner: str):
        super().__init__(f"table {table_id} is driven by {owner}")
        self.table_id, self.owner = table_id, owner


CLOSE_MOVED = 1012  # "service restart": the page reconnects by itself
MOVED = "this table moved to another server process: reconnect to carry on"
