"""Notifications (issue 41): Web Push to a signed-in player's browsers, only when none of their
pages of that table is open and visible: it is your turn, a room you sit in has started, a match
ended, a deal is counted (their Next deal), their time is running out (80 % of the turn's time
gone). A notification opens the table at the player's seat (its link travels encrypted end to
end: the push service cannot read it).

The site's VAPID key pair is made at the first start and kept in the store (every process of a
site signs with the same). Messages are sent off the event loop, a few at a time; a push
service that answers 404 or 410 says the browser dropped the subscription, which is then
dropped here too. A subscription's endpoint must be on a known push service (``PUSH_HOSTS``):
the server POSTs to it, and a page must not make it POST anywhere else (an internal address).
Issue 55: the endpoint is parsed once, by the parser the sender (requests) uses, and must be
written as that parser writes it back: https, port 443, no userinfo, a name (never an IP
address) that is a push service's or ends with "." and one; the sender never follows a
redirect and gives up after a few seconds. An account keeps the subscriptions of its newest
``SUBSCRIPTIONS_PER_ACCOUNT`` browsers (core/store/people.py), and one account's subscription
is never taken over by another.

On a site of several processes the pages of a table relayed from another process are not seen
as visible here: their players may be told of a turn they are looking at.

**The bell (issue 58).** Every bell item is also a push to the account's browsers, whatever
page is open (the bell is the page's; the phone in a pocket is not): the store tells this
feature of each item rung once its transaction is committed (``People.rung``), on the process
that rang it alone, so each is pushed once. This feature rings two kinds itself, at a room
whose seat an account holds, when no page of that seat is open and in sight: ``started`` (the
room's match has begun) and ``turn`` (at a table by correspondence; one unread ``turn`` item a
table, the newer replacing it, and gone when a page of the seat says hello there or comes back
into sight). Their push
is the item's: a turn at a live table is pushed as before, with no bell item. A tournament's
table ready (issue 59) is not budgeted either (its seat waits for its player). The other bell
pushes (those others may cause: challenges and their answers, warnings, ratings) are budgeted
per account (``BELL_PUSHES``): past it, one later push says how many more are on the bell;
challenges share one notification on the phone (one tag). A rated match's end is pushed
once, as its ``rated`` item (with the rating's change), not also as "the match is over".
Pushes go out from tasks, their store reads off the event loop where the store commits off it:
a table's play never waits for them."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from urllib3.exceptions import LocationParseError
from urllib3.util import Url, parse_url

from ..engine.game import get_game
from .core.features import Feature
from .core.messages import Budget, Visible
from .core.sessions import signed_in
from .core.store import off_loop
from .core.tables import BETWEEN, OVER, PLAYING, WAITING, Table

if TYPE_CHECKING:
    from .core.hub import Connection, Hub

log = logging.getLogger("tarocchi.server")

# The push services browsers use (an endpoint's host must be one of these, or end with ".<one>").
PUSH_HOSTS = ("fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com")
SENDING_AT_ONCE = 4
RUNNING_OUT = 0.8  # of a turn's time gone (its clock and the time bank): "your time is running out"
LATE = 5.0  # seconds past a table's wake that a warning woken for is still told (Notifier.changed)
SEATS_FRESH = 60.0  # seconds a table's seats' accounts are kept before they are asked again
TTL = 24 * 3600  # how long a push service keeps a message for a browser that is off
PUSH_TIMEOUT = (3.0, 5.0)  # seconds to connect to a push service, and to wait for its answer (issue 55)
MAX_ENDPOINT = 1000
BELL_PUSHES = (5, 1 / 60)  # (burst, per second): bell pushes to one account (issue 58); past it, one says how many more
BUDGETS_KEPT = 10_000  # accounts whose bell budgets are kept at once (those full again are forgotten first)
RATED_TOLD = 120.0  # seconds a rated match's push stands for "the match is over" to its players

NOT_A_PUSH_SERVICE = "that is not a push service's address"
ANOTHER_ACCOUNTS = "this browser's subscription is another account's: subscribe it afresh"
SIGNED_OUT = "you are not signed in"

TEXTS = {
    "en": {"turn": "Your turn", "started": "The match has started", "ended": "The match is over",
           "counted": "The deal is counted: your Next deal",
           "running_out": "Your time is running out", "at": "{game}: {names}",
           "challenge": "{name} challenges you", "challenge_accepted": "Your challenge was accepted",
           "challenge_declined": "Your challenge was declined", "rating": "{game}: your rating {before} → {after}",
           "warning": "A word from the moderators", "more": "{count} more on your bell", "bell": "Tarocchi",
           "tournament_table": "Your table is ready (round {round})", "tournament_started": "The tournament has started",
           "tournament_finished": "The tournament is over: you placed {rank}"},
    "it": {"turn": "Tocca a te", "started": "La partita è cominciata", "ended": "La partita è finita",
           "counted": "La smazzata è contata: tocca a te passare alla prossima",
           "running_out": "Il tuo tempo sta per scadere", "at": "{game}: {names}",
           "challenge": "{name} ti sfida", "challenge_accepted": "La tua sfida è stata accettata",
           "challenge_declined": "La tua sfida è stata rifiutata", "rating": "{game}: il tuo punteggio {before} → {after}",
           "warning": "Un messaggio dai moderatori", "more": "Altre {count} novità nella campanella", "bell": "Tarocchi",
           "tournament_table": "Il tuo tavolo è pronto (turno {round})", "tournament_started": "Il torneo è cominciato",
           "tournament_finished": "Il torneo è finito: {rank}° posto per te"},
}


def game_title(name: str | None) -> str:
    try:
        return get_game(name).title
    except KeyError:
        return name or ""


def bell_message(item: dict, texts: dict[str, str], shown: Callable) -> dict:
    """A bell item's push (issue 58): ``{title, body, url, tag}`` in the subscription's
    language. ``url`` is the item's seat link (``turn``, ``started``: the account's own), else
    the lobby; ``tag``: one notification on the phone for one thing (every challenge shares one).
    ``shown(before, after)``: a rating change as players see it."""
    kind, data = item["kind"], item["data"]
    if kind in ("turn", "started"):
        return {"title": texts[kind], "body": game_title(data.get("game")), "url": data["link"],
                "tag": f"{data['table']}:{kind}"}
    if kind == "challenge":
        return {"title": texts["challenge"].format(name=data.get("from")), "body": game_title(data.get("game")),
                "url": "/", "tag": "bell:challenge"}
    if kind in ("challenge_accepted", "challenge_declined"):
        by = data.get("by")
        return {"title": texts[kind], "body": ", ".join(by) if isinstance(by, list) else by or "", "url": "/",
                "tag": f"challenge:{data.get('challenge')}"}
    if kind == "rated":
        before, after = shown(data.get("before"), data.get("after"))
        game = game_title(str(data.get("key", "")).partition("/")[0])
        return {"title": texts["ended"], "body": texts["rating"].format(game=game, before=before, after=after),
                "url": "/", "tag": f"{data.get('table')}:ended"}
    if kind == "warning":
        return {"title": texts["warning"], "body": str(data.get("text", ""))[:200], "url": "/", "tag": "bell:warning"}
    if kind == "tournament":  # (issue 59, server/tournaments.py: a table ready, the start, the end)
        tid = str(data.get("tournament", ""))
        page = f"/tournament/{tid}"
        if data.get("link"):
            title, url = texts["tournament_table"].format(round=data.get("round")), data["link"]
        elif data.get("finished"):
            title, url = texts["tournament_finished"].format(rank=data.get("rank")), page
        else:
            title, url = texts["tournament_started"], page
        # (one notification a tournament on the phone: the newest says where it stands)
        return {"title": title, "body": game_title(data.get("game")), "url": url, "tag": f"tournament:{tid}"}
    return {"title": texts["bell"], "body": "", "url": "/", "tag": "bell"}


class Subscription(msgspec.Struct, forbid_unknown_fields=True):
    endpoint: str
    keys: dict[str, str]
    lang: str = "en"


class Unsubscribe(msgspec.Struct, forbid_unknown_fields=True):
    endpoint: str


def vapid_pair() -> tuple[str, str]:
    """A new VAPID key pair: (private key PEM, public key as browsers take it: base64url of
    the uncompressed P-256 point)."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return vapid.private_pem().decode(), base64.urlsafe_b64encode(public).rstrip(b"=").decode()


def push_endpoint(endpoint: str, hosts: tuple[str, ...]) -> Url | None:
    """``endpoint`` parsed as the sender will parse it (urllib3's ``parse_url``, which requests
    uses), if it is on a push service of ``hosts``; else None (issue 55). It must come back
    from that parser as it was written (no part read one way here and another way there:
    ``https://x\\@fcm.googleapis.com`` is a request to ``x``), with no userinfo, over https on
    port 443, to a name (not an IP address) that is a push service's or ends with "." and one.
    A host given in ``hosts`` as a whole origin, ``http://127.0.0.1:8123``, is a test's own
    service: taken as exactly that origin."""
    if len(endpoint) > MAX_ENDPOINT or not endpoint.isascii() or not endpoint.isprintable():
        return None
    try:
        url = parse_url(endpoint)
    except LocationParseError:
        return None
    if url.url != endpoint or url.auth is not None or not url.host or url.fragment is not None:
        return None
    if f"{url.scheme}://{url.netloc}" in hosts:
        return url
    if url.scheme != "https" or url.port not in (None, 443) or is_address(url.host):
        return None
    return url if any(url.host == h or url.host.endswith("." + h) for h in hosts if "://" not in h) else None


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def push_session():
    """A requests session for one message (issue 55): it never follows a redirect (a push
    service's answer is its own: the address a redirect names may be an internal one) and
    waits at most ``PUSH_TIMEOUT``, whatever its caller (pywebpush) asks."""
    import requests

    class NoRedirects(requests.Session):
        def __init__(self):
            super().__init__()
            self.max_redirects = 0  # (a second guard: a redirect followed would raise)

        def request(self, method, url, **kwargs):
            kwargs.update(allow_redirects=False, timeout=PUSH_TIMEOUT)
            return super().request(method, url, **kwargs)

    return NoRedirects()


class Notifier(Feature):
    """The hub's side: who to tell, and when. ``send(subscription, payload)`` posts one message
    (pywebpush's, unless a test gives its own) and returns the push service's status code."""

    handles = (Visible,)

    def __init__(self, hub: Hub, *, contact: str = "mailto:operator@localhost", push_hosts: tuple[str, ...] = PUSH_HOSTS,
                 send: Callable[[dict, str], int] | None = None, shown: Callable = lambda before, after: (None, None)):
        self.hub = hub
        self.people = hub.store.people
        self.shown = shown  # a rating change as players see it (ratings.shown_change, given by the app)
        self.contact, self.push_hosts = contact, push_hosts
        self.send_one = send or self._webpush
        self.hidden: set[Connection] = set()  # sockets whose page said it is hidden (a tab behind others)
        self.seats: dict[str, tuple[float, dict[int, tuple[str, str]]]] = {}  # table -> (when asked, seats)
        # Per table held here: room seat -> the turn told; (room seat, "running_out") -> the turn
        # warned. Gone with the table: a turn is told by the process holding the table as it
        # begins (a table loaded later, or woken, has been told of the turn it is at).
        self.told: dict[str, dict[tuple | int, tuple]] = {}
        self.status: dict[str, str] = {}  # table -> its status when last seen
        self.seen: dict[str, int] = {}  # table -> its version when first seen here (loaded)
        self.timers: dict[str, tuple[tuple, asyncio.TimerHandle]] = {}  # table -> (its turn, that turn's warning)
        self.sending = asyncio.Semaphore(SENDING_AT_ONCE)
        self.tasks: set[asyncio.Task] = set()
        self._keys: tuple[str, str] | None = None
        self._vapid = None  # the private key, loaded once (py_vapid's)
        # The bell (issue 58): each account's push budget, the pushes held back past it (how
        # many, and the timer that tells them), and when each (account, table) was pushed its
        # rated match's end.
        self.budgets: dict[str, Budget] = {}
        self.held: dict[str, int] = {}
        self.holding: dict[str, asyncio.TimerHandle] = {}
        self.rated: dict[tuple[str, str], float] = {}
        self.pruned = 0.0  # (loop time) when the budgets full again were last forgotten
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # (made outside a server: nothing is pushed)
            self.loop = None
        self.people.rung.append(self._rung)

    # --- the site's keys ------------------------------------------------------------------------

    def keys(self) -> tuple[str, str]:
        """(private PEM, public key), made once for the whole site: the first process to ask
        writes its pair, every other reads that one."""
        if self._keys is None:
            stored = json.loads(self.people.site_key(
                "vapid", lambda: json.dumps(dict(zip(("private", "public"), vapid_pair())))))
            self._keys = (stored["private"], stored["public"])
        return self._keys

    # --- what the hub calls -------------------------------------------------------------------

    def handle(self, conn: Connection, message: Visible) -> None:
        if message.visible:
            if conn in self.hidden:
                self.hidden.discard(conn)
                self._seen(conn)  # (a tab brought forward: the turn there is in sight)
        else:
            self.hidden.add(conn)

    def hello(self, conn: Connection) -> None:
        table = conn.table
        self.seats.pop(table.id, None)  # (a seat just opened may just have become an account's)
        # A table loaded for this hello is seen from here: what the hello begins (the match, its
        # first turn) is news; what was there before was told by whoever held the table then.
        self.status.setdefault(table.id, table.status)
        self.seen.setdefault(table.id, table.version)
        self._seen(conn)

    def _seen(self, conn: Connection) -> None:
        """(issue 58) A seat's page has its table by correspondence open and in sight: the
        seat's turn there is seen, off the bell."""
        if conn.table.correspondence and conn.table.kind == "room" and not conn.watching:
            self._spawn(self._settle(conn.table.id, conn.room_seat))

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.seats.pop(table_id, None)
        self.told.pop(table_id, None)
        self.seen.pop(table_id, None)
        self.status.pop(table_id, None)
        if (timer := self.timers.pop(table_id, None)) is not None:
            timer[1].cancel()
        self.hidden = {c for c in self.hidden if c.table.id != table_id}

    def changed(self, table: Table) -> None:
        if table.kind != "room":  # (only a room's seats are held by accounts)
            return
        first = table.id not in self.status  # (woken, or loaded at a start: no hello before)
        before, self.status[table.id] = self.status.get(table.id), table.status
        seen = self.seen.setdefault(table.id, table.version)
        seats = self._seats(table)
        if not seats:
            return
        told = self.told.setdefault(table.id, {})
        if table.status == PLAYING and before == WAITING:
            self._tell(table, list(seats), "started")
        if table.status == OVER and before not in (OVER, None):
            self._tell(table, list(seats), "ended")
            return
        if table.status == BETWEEN and before == PLAYING:  # the deal is counted: each one's Next deal
            self._tell(table, [s for s in seats if table.seat_map[s] is not None and not table.ready[table.seat_map[s]]],
                       "counted")
            return
        if table.status != PLAYING or table.deal.to_act is None or table.bots[table.deal.to_act]:
            return
        room_seat = table.seat_map.index(table.deal.to_act)
        turn = table.turn_key()
        if table.turn_version <= seen:  # (begun before the table was loaded here: told as it began)
            told.setdefault(room_seat, turn)
        if first:  # (woken: its warning too, if long past)
            due = self._warning_at(table)
            if due is not None and due[0] < time.time() - self.hub.wake_every - LATE:
                told[(room_seat, "running_out")] = turn
        if told.get(room_seat) != turn:
            told[room_seat] = turn
            if room_seat in seats:
                self._tell(table, [room_seat], "turn")
        if room_seat in seats and self.timers.get(table.id, (None,))[0] != turn:  # (also: a table just woken)
            self._arm(table, room_seat, turn)

    def wakes(self, table: Table) -> float | None:
        """A table asleep (by correspondence) wakes for the warning of its turn, still to come."""
        due = self._warning_at(table)
        return due[0] if due is not None and due[0] > time.time() else None

    def _warning_at(self, table: Table) -> tuple[float, int, tuple] | None:
        """(when, room seat, turn) of the running-out warning the current turn still owes."""
        if (table.status != PLAYING or not table.clock or table.turn_since is None or table.deal.to_act is None
                or table.bots[table.deal.to_act]):
            return None
        room_seat, turn = table.seat_map.index(table.deal.to_act), table.turn_key()
        if self.told.get(table.id, {}).get((room_seat, "running_out")) == turn or room_seat not in self._seats(table):
            return None
        # (of all the time the turn has: its clock's own, and the person's time bank)
        return table.turn_since + RUNNING_OUT * (table.deadline() - table.turn_since), room_seat, turn

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.people.rung.remove(self._rung)
        for _, timer in self.timers.values():
            timer.cancel()
        for timer in self.holding.values():
            timer.cancel()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=5)

    # --- who, and telling them ------------------------------------------------------------------

    def _seats(self, table: Table) -> dict[int, tuple[str, str]]:
        """Room seat -> (account, seat token) of the seats held by accounts."""
        now = time.monotonic()
        cached = self.seats.get(table.id)
        if cached is None or now - cached[0] > SEATS_FRESH:
            try:
                cached = self.seats[table.id] = (now, self.people.table_seats(table.id))
            except Exception:  # (the store away: nobody is told, the table plays on)
                log.exception("could not read the accounts of table %s", table.id)
                return {}
        return cached[1]

    def looking(self, table: Table, room_seat: int) -> bool:
        """Whether a page of that seat has the table open and visible now."""
        return any(c.room_seat == room_seat and c.greeted and c not in self.hidden
                   for c in self.hub.connections.get(table.id, []))

    def _arm(self, table: Table, room_seat: int, turn: tuple) -> None:
        """The running-out warning of this turn, at RUNNING_OUT of its clock (at once where
        that moment has passed and the deadline has not: a table woken late)."""
        if (timer := self.timers.pop(table.id, None)) is not None:
            timer[1].cancel()
        due = self._warning_at(table)
        if due is None:
            return
        delay = due[0] - time.time()
        if delay <= 0 and time.time() >= (table.deadline() or 0):
            return
        self.timers[table.id] = (turn, asyncio.get_running_loop().call_later(
            max(0.0, delay), self._running_out, table.id, room_seat, turn))

    def _running_out(self, table_id: str, room_seat: int, turn: tuple) -> None:
        table = self.hub.tables.get(table_id)
        told = self.told.get(table_id)
        if table is not None and told is not None and table.turn_key() == turn and told.get((room_seat, "running_out")) != turn:
            told[(room_seat, "running_out")] = turn
            self._tell(table, [room_seat], "running_out")

    def _tell(self, table: Table, room_seats: list[int], what: str) -> None:
        seats = self._seats(table)
        for room_seat in room_seats:
            if room_seat in seats and not self.looking(table, room_seat):
                account, token = seats[room_seat]
                if what == "started" or (what == "turn" and table.correspondence):
                    # (issue 58: a bell item, pushed as every bell item is once rung)
                    data = {"table": table.id, "link": f"/t/{token}", "game": table.game.name}
                    self._spawn(self._ring(account, what, data))
                else:
                    self._spawn(self._push(table, account, token, what))

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _off(self, work: Callable, *args):
        """A store call off the loop where the store commits off it (PostgreSQL's round trips)."""
        return await off_loop(self.hub.store, work, *args)

    async def _committed(self) -> None:
        """Once the events applied so far are stored (what they tell is then true)."""
        while self.hub.staged or self.hub.committing:
            await self.hub.committed.wait()

    async def _ring(self, account: str, kind: str, data: dict) -> None:
        await self._committed()
        try:
            await self._off(lambda: self.people.ring(account, kind, data, one_per_table=True))
        except Exception:
            log.exception("could not ring the bell of an account")

    async def _settle(self, table_id: str, room_seat: int) -> None:
        def settle() -> None:
            held = self.people.table_seats(table_id).get(room_seat)
            if held is not None:
                self.people.unring(held[0], "turn", table_id)
        try:
            await self._off(settle)
        except Exception:
            log.exception("could not take a turn seen off the bell")

    async def _push(self, table: Table, account: str, token: str, what: str) -> None:
        if what == "ended":  # (a rated match's end was pushed with its rating, as a bell item)
            await self._committed()
            if time.monotonic() - self.rated.get((account, table.id), -RATED_TOLD) < RATED_TOLD:
                return
        names = ", ".join(table.names)
        await self._send(account, lambda texts: {
            "title": texts[what], "body": texts["at"].format(game=table.game.title, names=names),
            "url": f"/t/{token}", "tag": f"{table.id}:{what}", "what": what, "table": table.id})

    # --- the bell (issue 58) ----------------------------------------------------------------------

    def _rung(self, items: list[dict]) -> None:
        """The store's listener (``People.rung``): bell items just committed, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            here = asyncio.get_running_loop() is loop
        except RuntimeError:
            here = False
        if here:
            return self._bell(items)
        with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile: the server stops)
            loop.call_soon_threadsafe(self._bell, items)

    def _bell(self, items: list[dict]) -> None:
        now = time.monotonic()
        for item in items:
            account = item["account"]
            if item["kind"] == "rated":
                self.rated[(account, item["data"].get("table"))] = now
            # (a turn, a start, a tournament's table ready: each needs the account's own move,
            # sitting or joining, and the table waits for them; the rest others may cause, a
            # flood of challenges)
            if item["kind"] in ("turn", "started") or (item["kind"] == "tournament" and "link" in item["data"]) \
                    or self._spend(account):
                self._spawn(self._send(account, lambda texts, item=item: {
                    **bell_message(item, texts, self.shown), "what": item["kind"], "bell": item["id"],
                    # (a table's id; a tournament's item says its table's number: not one)
                    **({"table": item["data"]["table"]} if "table" in item["data"] and item["kind"] != "tournament"
                       else {})}))
            else:
                self._hold(account)
        if len(self.rated) > BUDGETS_KEPT:
            self.rated = {k: at for k, at in self.rated.items() if now - at < RATED_TOLD}

    def _spend(self, account: str) -> bool:
        now = asyncio.get_running_loop().time()
        if len(self.budgets) >= BUDGETS_KEPT and now - self.pruned > 1.0:  # (those full again go)
            self.pruned = now
            self.budgets = {a: b for a, b in self.budgets.items()
                            if a == account or b.at is not None and now - b.at < b.burst / b.per_second}
        budget = self.budgets.setdefault(account, Budget(*BELL_PUSHES))
        return budget.spend(now)

    def _hold(self, account: str) -> None:
        """A bell push past the account's budget: counted, and told with the others held in
        one push once the budget allows one."""
        self.held[account] = self.held.get(account, 0) + 1
        if account not in self.holding:
            budget = self.budgets[account]
            wait = max(0.0, (1 - budget.tokens) / budget.per_second)
            self.holding[account] = asyncio.get_running_loop().call_later(wait + 0.01, self._release, account)

    def _release(self, account: str) -> None:
        self.holding.pop(account, None)
        count = self.held.get(account, 0)
        if not count:
            return
        if not self._spend(account):
            self.held[account] = count - 1  # (``_hold`` counts it again)
            return self._hold(account)
        del self.held[account]
        self._spawn(self._send(account, lambda texts: {
            "title": texts["bell"], "body": texts["more"].format(count=count), "url": "/", "tag": "bell:more",
            "what": "more"}))

    # --- sending ------------------------------------------------------------------------------------

    async def _send(self, account: str, message: Callable[[dict[str, str]], dict]) -> None:
        """``message(texts)`` to each of the account's subscriptions, in its language."""
        try:
            subscriptions = await self._off(self.people.subscriptions, account)
        except Exception:
            log.exception("could not read the push subscriptions of an account")
            return
        for sub in subscriptions:
            if push_endpoint(sub["endpoint"], self.push_hosts) is None:  # (stored before issue 55's rules)
                await self._off(self.people.unsubscribe, sub["endpoint"])
                continue
            payload = json.dumps(message(TEXTS.get(sub.get("lang") or "en", TEXTS["en"])))
            self.keys()  # (on the loop: the store is the loop's; the message goes out from a thread)
            async with self.sending:
                try:
                    status = await asyncio.to_thread(self.send_one, sub, payload)
                except Exception:
                    log.exception("a push message could not be sent")
                    continue
            if status in (404, 410):  # the browser dropped it: so do we
                await self._off(self.people.unsubscribe, sub["endpoint"])
            elif status >= 300:  # (a redirect is not followed, issue 55)
                log.warning("the push service answered %s", status)

    def _webpush(self, subscription: dict, payload: str) -> int:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush

        url = push_endpoint(subscription["endpoint"], self.push_hosts)
        if url is None:  # (never posted to: _push checked it; this is the sender's own guard)
            raise ValueError("not a push service's address")
        if self._vapid is None:
            self._vapid = Vapid02.from_pem(self._keys[0].encode())
        origin = f"{url.scheme}://{url.host}" + ("" if url.port in (None, 443) else f":{url.port}")
        claims = {"sub": self.contact, "aud": origin}  # (VAPID's audience: the push service's origin)
        try:
            with push_session() as session:
                response = webpush({"endpoint": url.url, "keys": subscription["keys"]}, payload,
                                   vapid_private_key=self._vapid, vapid_claims=claims, ttl=TTL,
                                   timeout=PUSH_TIMEOUT, requests_session=session)
        except WebPushException as e:
            return e.response.status_code if e.response is not None else 599
        return response.status_code


def routes(notifier: Callable[[], Notifier], read_body) -> list[Route]:
    """``GET /api/push/key``, ``POST /api/push``, ``DELETE /api/push`` (docs/protocol.md)."""

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status)

    async def key(request: Request):
        return JSONResponse({"key": notifier().keys()[1]}, headers={"Cache-Control": "no-cache"})

    async def subscribe(request: Request):
        account = signed_in(notifier().people, request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, Subscription)
        if isinstance(body, Response):
            return body
        p256dh, auth = body.keys.get("p256dh"), body.keys.get("auth")
        if push_endpoint(body.endpoint, notifier().push_hosts) is None:
            return error(NOT_A_PUSH_SERVICE, 400)
        if not p256dh or not auth or len(p256dh) > 200 or len(auth) > 100:
            return error("a subscription needs its keys p256dh and auth", 400)
        if not notifier().people.subscribe(account["id"], body.endpoint, p256dh, auth,
                                           body.lang if body.lang in TEXTS else "en"):
            return error(ANOTHER_ACCOUNTS, 409)
        return Response(status_code=204)

    async def unsubscribe(request: Request):
        account = signed_in(notifier().people, request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, Unsubscribe)
        if isinstance(body, Response):
            return body
        notifier().people.unsubscribe(body.endpoint, account["id"])
        return Response(status_code=204)

    return [Route("/api/push/key", key), Route("/api/push", subscribe, methods=["POST"]),
            Route("/api/push", unsubscribe, methods=["DELETE"])]
