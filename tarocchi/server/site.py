"""Many server processes, one site (issue 20; the design is in docs/operations.md, "Several
processes").

Every process serves any link. Each table is driven by exactly one process at a time, the one
holding its **lease** in the shared database (``Store.acquire``: the owner's host, port and pid,
renewed every ``lease / 3`` seconds). A socket stays on the process it reached: when the table
is driven elsewhere, that process **relays**, as lila-ws does for lila: the socket's messages go
to the owner over the **bus** (Redis pub/sub, a channel per process), where they run through
the very code a local socket runs (``app.serve_socket`` on a ``RemoteSocket``), and the owner's
frames come back the same way. A client never needs to know which process owns its table.

A process that dies stops renewing its leases. After ``lease`` seconds any other process may
take its tables (a sweeper looks every ``lease / 2`` seconds, and a socket that opens one takes
it at once): it replays each stream from the database, so every acknowledged action is there
(nothing is acknowledged before it is committed). The relays watch the lease of the table they
relay for; when its owner changes they close their socket with 1012 and the page reconnects by
itself, to whichever process drives the table now.

Without a bus (one process, the embedded default) none of this exists: no lease, no relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import msgspec
from starlette.datastructures import Address

from .core.features import CLOSE_MOVED, MOVED, Elsewhere, Leases  # noqa: F401  (CLOSE_MOVED, MOVED: the relays' words)
from .core.messages import CLOSE_TOO_SLOW, TOO_SLOW, Budget
from .core.sessions import persons
from .core.sockets import serve_socket, socket_account

if TYPE_CHECKING:
    from .core.hub import Hub

log = logging.getLogger("tarocchi.server")

LEASE_SECONDS = 5.0
RELAY_BACKLOG = 500  # frames waiting for a relayed page that does not read: then it is closed
SHARED_KEY = "tarocchi:shared"  # Redis hashes of what the processes share: process -> its value, and when
SHARE_EVERY = 5.0  # seconds between a process's shares


class Envelope(msgspec.Struct, omit_defaults=True):
    """One message on the bus. ``op``: ``open`` (relay -> owner: a socket for ``token``, answer
    to ``reply``; ``address``: its client's, by which the owner budgets advice), ``frame``
    (relay -> owner: what the page sent), ``gone`` (relay -> owner: the page went away),
    ``text`` (owner -> relay: a frame for the page), ``close`` (owner -> relay: close the page's
    socket with ``code`` and ``reason``). A field a process does not know is ignored: processes
    of two versions side by side still talk."""
    op: str
    conn: str
    text: str | None = None
    token: str | None = None
    reply: str | None = None
    code: int = 1000
    reason: str = ""
    address: str | None = None
    account: str | None = None  # (open) the account id the relay's socket was signed in to (issue 56)
    persons: list[str] | None = None  # (open) who the relay's socket is, as keys (sessions.persons, issue 56)


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(list[Envelope]).decode


def process_name(port: int) -> str:
    """Who a lease names: host, port and pid (an operator can see who drives a table)."""
    return f"{socket.gethostname()}:{port}:{os.getpid()}"


class Bus:
    """Redis pub/sub: one channel per process, ``tarocchi:<process name>``. What one turn of the
    event loop sends to a process goes as one message (a list of envelopes, in order): an action
    sends a frame to every seat, and one publish per frame cost more than the rest of the
    action (bench/site_bench.py)."""

    def __init__(self, url: str):
        import redis.asyncio  # only a site of several processes needs it

        self.redis = redis.asyncio.from_url(url)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.reader: asyncio.Task | None = None
        self.outbox: dict[str, list[Envelope]] = {}  # process -> envelopes not yet published
        self.sender: asyncio.Task | None = None
        self.sent = asyncio.Event()

    @staticmethod
    def channel(process: str) -> str:
        return f"tarocchi:{process}"

    async def listen(self, process: str, handler) -> None:
        await self.pubsub.subscribe(self.channel(process))
        self.reader = asyncio.get_running_loop().create_task(self._read(handler))

    async def _read(self, handler) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the bus failed; listening again in 1 s")
                await asyncio.sleep(1.0)
                continue
            if message is not None and message["type"] == "message":
                try:
                    envelopes = _decode(message["data"])
                except Exception:
                    log.exception("a message on the bus that is not a list of envelopes")
                    continue
                for envelope in envelopes:
                    try:
                        handler(envelope)
                    except Exception:
                        log.exception("could not handle a message from the bus")

    def send(self, process: str, envelope: Envelope) -> None:
        """Queue ``envelope`` for ``process``; published in order, with whatever else this
        turn of the loop sends there."""
        self.outbox.setdefault(process, []).append(envelope)
        if self.sender is None or self.sender.done():
            self.sender = asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        while self.outbox:
            outbox, self.outbox = self.outbox, {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for process, envelopes in outbox.items():
                        pipe.publish(self.channel(process), _encode(envelopes))
                    await pipe.execute()
            except Exception:
                log.exception("could not publish %d messages on the bus", sum(map(len, outbox.values())))

    async def close(self) -> None:
        if self.sender is not None:
            with contextlib.suppress(Exception):
                await self.sender  # what was queued goes out first
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


# A token bucket in Redis, spent atomically by any process: KEYS[1] the address's bucket;
# ARGV burst, refill per second, now (seconds). 1 if a token was spent, else 0.
SPEND = """
local burst, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(bucket[1]) or burst, tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate)
local spent = 0
if tokens >= 1 then tokens = tokens - 1; spent = 1 end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', now)
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 60)
return spent
"""


# --- one database: one process alone, or a site, never both ------------------------------------
#
# Two processes on one database without a bus would each drive their own copy of a table (a
# seat on one sees "waiting" at v2 while the table is at v6 on the other). So a process without
# a bus holds the database's own lease (ALONE, renewed every second) and starts only when no
# other process holds a live lease; a process of a site holds a lease of its own beside its
# tables' and starts only when no process holds ALONE. Either one waits a lease's length for a
# process that was killed (its leases run out), and refuses to start past it, saying why.

ALONE = "process:alone"  # the leases row of the one process serving a database without a bus
ALONE_LEASE = 4.0  # seconds; renewed every second
QUIET_WAIT = 10.0  # seconds to wait for the leases of a process that was stopped or killed to run out


class DatabaseTaken(RuntimeError):
    """Another process serves the database in a way this one cannot share it."""


def alone_name() -> str:
    return f"alone:{socket.gethostname()}:{os.getpid()}"


async def until_quiet(ask, seconds: float = QUIET_WAIT):
    """``ask()`` again and again until it answers nothing (or ``seconds`` pass); its last answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (answer := ask()) and loop.time() < deadline:
        await asyncio.sleep(0.25)
    return answer


async def hold_alone(store, me: str, where: str) -> asyncio.Task:
    """Serve ``store`` as its one process (no bus): take the database's lease, or DatabaseTaken.
    The task that renews the lease (cancel it, then ``store.release(ALONE, me)``, at the stop)."""
    others = await until_quiet(lambda: store.live_owners() - {me})
    if not others and store.acquire(ALONE, me, ALONE_LEASE) == me:
        others = store.live_owners() - {me}  # (a process of a site that started meanwhile)
        if not others:
            return asyncio.get_running_loop().create_task(_renew_alone(store, me))
        store.release(ALONE, me)
    raise DatabaseTaken(
        f"another Tarocchi process serves the database {where} ({', '.join(sorted(others))}): two processes on one "
        f"database must both be started with --bus REDIS_URL (a site of several processes, docs/operations.md), "
        f"or the other one stopped first")


async def _renew_alone(store, me: str) -> None:
    off_loop = getattr(store, "commits_off_loop", False)  # (PostgreSQL: not on the loop every table shares)
    while True:
        await asyncio.sleep(ALONE_LEASE / 4)
        try:
            held = (await asyncio.to_thread(store.renew, me, ALONE_LEASE, [ALONE]) if off_loop
                    else store.renew(me, ALONE_LEASE, [ALONE]))
            if ALONE not in held:
                log.error("the database's lease went to another process: two processes may be serving it")
        except Exception:  # the database may be away a moment: try again next time
            log.exception("could not renew the database's lease")


class RemoteSocket:
    """The websocket of a page connected to another process, as ``serve_socket`` uses one:
    what the page sends arrives through ``inbox``; what is sent to it goes over the bus."""

    def __init__(self, site: Site, relay: str, conn: str, address: str | None = None, account: str | None = None,
                 persons: list[str] | None = None):
        self.site, self.relay, self.conn = site, relay, conn
        self.inbox: asyncio.Queue = asyncio.Queue()
        # The page's address as the relay saw it (guard.client_address reads it as a local
        # socket's); None from a relay that did not send one.
        self.client = Address(address, 0) if address else None
        self.account = account  # the account its page was signed in to (sockets.socket_account)
        self.persons = persons  # who its page is (sessions.persons; None from an older relay)

    async def receive(self) -> dict:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        self.site.bus.send(self.relay, Envelope("text", self.conn, text=text))

    async def send_json(self, data: dict) -> None:
        await self.send_text(msgspec.json.encode(data).decode())

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.site.bus.send(self.relay, Envelope("close", self.conn, code=code, reason=reason))
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})


class Relay:
    """A page's socket on this process for ``table_id``, driven by ``owner``: its frames in
    order (one writer), closed when the owner says so or when the table's lease moves."""

    def __init__(self, websocket, table_id: str, owner: str):
        self.websocket, self.table_id, self.owner = websocket, table_id, owner
        self.outbox: asyncio.Queue = asyncio.Queue()

    async def write(self) -> None:
        while True:
            envelope = await self.outbox.get()
            if envelope.op == "close":
                with contextlib.suppress(Exception):
                    await self.websocket.close(envelope.code, envelope.reason)
                return
            await self.websocket.send_text(envelope.text or "")


class Site(Leases):
    """This process's part of a site of several: its name, the bus, its leases."""

    def __init__(self, bus: Bus, process: str, lease: float = LEASE_SECONDS, budget: tuple[int, float] | None = None):
        self.bus, self.process, self.lease = bus, process, lease
        self.budget = budget  # each relayed socket's message budget, as a local one's (app.create_app)
        self.remote: dict[str, RemoteSocket] = {}  # conn -> a page on another process, served here
        self.relays: dict[str, Relay] = {}  # conn -> a page here, for a table driven elsewhere
        self.tasks: list[asyncio.Task] = []
        self.hub: Hub | None = None
        self.clock_offset = 0.0  # loop time -> the site's clock (Redis's), set at start
        # The periodic queries (leases, orphans, relays' owners) run in a thread of their own
        # where the store allows it (PostgreSQL): while the database is away each waits up to
        # the store's timeout, and on the loop every table would wait with it, so that a page
        # whose move could not be stored would be told only after all of them.
        self.queries: ThreadPoolExecutor | None = None

    async def spend_new_table(self, address: str, burst: int, per_second: float, kind: str = "new-tables") -> bool:
        """The new-table budget of a client address (messages.NEW_TABLES_*), shared by every
        process of the site. If Redis cannot be asked, the table is allowed (the budget is a
        brake on floods, not a rule)."""
        try:
            now = asyncio.get_running_loop().time() + self.clock_offset
            key = f"tarocchi:{kind}:{burst}:{per_second}:{address}"  # (new settings: new buckets; ``kind``: the lobby's own)
            return bool(await self.bus.redis.eval(SPEND, 1, key, burst, per_second, f"{now:.3f}"))
        except Exception:
            log.exception("could not spend a new table's budget on the bus")
            return True

    async def publish_shared(self) -> None:
        """What each feature shares with the site's other processes (``Feature.shared``: the
        lobby's count of people playing), one Redis hash per name: process -> its value, and when."""
        now = asyncio.get_running_loop().time() + self.clock_offset
        for feature in self.hub.features:
            for name, value in feature.shared().items():
                await self.bus.redis.hset(f"{SHARED_KEY}:{name}", self.process, json.dumps({"at": now, "value": value}))

    async def gathered(self, name: str) -> list:
        """What every other live process last shared under ``name``; none if Redis cannot be
        asked (a count is then this process's alone)."""
        try:
            rows = await self.bus.redis.hgetall(f"{SHARED_KEY}:{name}")
        except Exception:
            log.exception("could not read what the site's processes share")
            return []
        now = asyncio.get_running_loop().time() + self.clock_offset
        out = []
        for process, raw in rows.items():
            process = process.decode() if isinstance(process, bytes) else process
            try:
                row = json.loads(raw)
            except ValueError:
                continue
            if process != self.process and now - row.get("at", 0) <= 3 * SHARE_EVERY:  # (a process gone quiet: no more)
                out.append(row.get("value"))
        return out

    @property
    def row(self) -> str:
        """This process's own leases row: every process of a site holds one while it runs."""
        return f"process:{self.process}"

    async def join_database(self, store, where: str) -> None:
        """Join the site on ``store`` unless a process without a bus serves it (DatabaseTaken);
        this process's own lease (``row``) tells a process without a bus that the site is there."""
        alone = await until_quiet(lambda: store.lease_owner(ALONE))
        if not alone:
            store.acquire(self.row, self.process, self.lease)
            alone = store.lease_owner(ALONE)  # (one that started meanwhile)
            if not alone:
                return
            store.release(self.row, self.process)
        raise DatabaseTaken(
            f"a Tarocchi process without --bus serves the database {where} ({alone}): stop it, or start every "
            f"process of the site with --bus")

    async def start(self, hub: Hub) -> None:
        self.hub = hub
        seconds, micros = await self.bus.redis.time()  # one clock for every process's buckets
        self.clock_offset = seconds + micros / 1e6 - asyncio.get_running_loop().time()
        await self.bus.listen(self.process, self._on_message)
        if getattr(hub.store, "commits_off_loop", False):
            self.queries = ThreadPoolExecutor(1, thread_name_prefix="site-queries")
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._every(self.lease / 3, self.renew_leases)),
                      loop.create_task(self._every(self.lease / 2, self.take_orphans)),
                      loop.create_task(self._every(min(1.0, self.lease / 4), self.watch_relays)),
                      loop.create_task(self._every(SHARE_EVERY, self.publish_shared))]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.queries is not None:
            self.queries.shutdown(wait=False, cancel_futures=True)
        if self.hub is not None:
            with contextlib.suppress(Exception):
                self.hub.store.release(self.row, self.process)
        if self.bus is not None:
            await self.bus.close()

    @staticmethod
    async def _every(seconds: float, work) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await work()
            except Exception:  # the database may be away a moment: try again next time
                log.exception("%s failed", getattr(work, "__name__", work))

    async def ask(self, query, *args):
        """A store query of the periodic work: off the loop where the store allows it."""
        if self.queries is None:
            return query(*args)
        return await asyncio.get_running_loop().run_in_executor(self.queries, query, *args)

    # --- the core's hooks (core/features.py: Leases) -------------------------------------------

    def acquire(self, table_id: str, new: bool = False) -> None:
        """This process drives the table from now on, or Elsewhere names the one that does."""
        owner = self.hub.store.acquire(table_id, self.process, self.lease)
        if owner != self.process and not new:
            raise Elsewhere(table_id, owner)

    def release(self, table_id: str) -> None:
        self.hub.store.release(table_id, self.process)

    # --- the periodic work ---------------------------------------------------------------------

    async def renew_leases(self) -> None:
        mine = dict(self.hub.tables)
        self.let_go_lost(mine, await self.ask(self.hub.store.renew, self.process, self.lease, [*mine, self.row]))

    def let_go_lost(self, mine: dict, held: set[str]) -> None:
        """A table whose lease another process has taken (this one stalled past its lease) is
        let go: its pages reconnect to the owner. ``held``: the store's answer for the tables
        ``mine``, asked off the loop; a table loaded (or loaded again) since is not judged by it."""
        hub = self.hub
        for table_id in [t for t, table in mine.items() if hub.tables.get(t) is table and t not in held]:
            log.warning("table %s: its lease went to another process; letting it go", table_id)
            hub.let_go(table_id)

    async def take_orphans(self) -> None:
        """Carry on the unfinished tables whose process died (their lease ran out)."""
        hub = self.hub
        for table_id in await self.ask(hub.store.orphans):
            if table_id not in hub.tables and table_id not in hub.broken:
                log.info("table %s: its lease ran out; this process carries it on", table_id)
                hub.resume(table_id)

    # --- the owner's side -----------------------------------------------------------------

    def _on_message(self, envelope: Envelope) -> None:
        if envelope.op == "open":
            remote = self.remote[envelope.conn] = RemoteSocket(self, envelope.reply or "", envelope.conn,
                                                               envelope.address, envelope.account, envelope.persons)
            budget = Budget(*self.budget) if self.budget else None
            task = asyncio.get_running_loop().create_task(serve_socket(self.hub, remote, envelope.token or "", budget))
            task.add_done_callback(lambda _: self.remote.pop(envelope.conn, None))
        elif envelope.op in ("frame", "gone"):
            remote = self.remote.get(envelope.conn)
            if remote is not None:
                remote.inbox.put_nowait({"type": "websocket.receive", "text": envelope.text} if envelope.op == "frame"
                                        else {"type": "websocket.disconnect", "code": 1001})
        elif envelope.op in ("text", "close"):
            relay = self.relays.get(envelope.conn)
            if relay is None:
                return
            if relay.outbox.qsize() >= RELAY_BACKLOG:  # a page that does not read: as Connection.MAX_QUEUED
                while not relay.outbox.empty():  # what it has not read is dropped: it reconnects
                    relay.outbox.get_nowait()
                envelope = Envelope("close", envelope.conn, code=CLOSE_TOO_SLOW, reason=TOO_SLOW)
            relay.outbox.put_nowait(envelope)

    # --- the relay's side -------------------------------------------------------------------

    async def relay(self, websocket, token: str, elsewhere: Elsewhere) -> None:
        """Serve a page whose table another process drives, until either side closes or the
        table's lease moves."""
        conn = secrets.token_hex(8)
        relay = self.relays[conn] = Relay(websocket, elsewhere.table_id, elsewhere.owner)
        writer = asyncio.get_running_loop().create_task(relay.write())
        try:
            client = getattr(websocket, "client", None)
            account = socket_account(self.hub, websocket)
            self.bus.send(elsewhere.owner, Envelope("open", conn, token=token, reply=self.process,
                                                    address=client.host if client else None,
                                                    account=account["id"] if account else None,
                                                    persons=persons(self.hub.store.people, websocket,
                                                                    client.host if client else None)))
            while not writer.done():
                receiving = asyncio.ensure_future(websocket.receive())
                await asyncio.wait([receiving, writer], return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():
                    receiving.cancel()
                    break
                try:
                    frame = receiving.result()
                except Exception:  # the page's socket broke
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None and frame.get("bytes") is not None:
                    text = frame["bytes"].decode("utf-8", "replace")
                self.bus.send(elsewhere.owner, Envelope("frame", conn, text=text or ""))
        finally:
            self.relays.pop(conn, None)
            writer.cancel()
            self.bus.send(elsewhere.owner, Envelope("gone", conn))

    async def watch_relays(self) -> None:
        """Close the relayed sockets (1012: their pages reconnect) whose table's owner no
        longer holds its lease: it died, or let the table go. One query for all of them; a
        relay opened while it ran is judged next time."""
        if not self.relays:
            return
        relays = list(self.relays.values())
        owners = await self.ask(self.hub.store.lease_owners, {r.table_id for r in relays})
        for relay in relays:
            if owners.get(relay.table_id) != relay.owner:
                log.info("table %s: its owner %s is gone; the page reconnects", relay.table_id, relay.owner)
                relay.outbox.put_nowait(Envelope("close", "", code=CLOSE_MOVED, reason=MOVED))
