"""Friends, challenges, blocks and the bell (issue 58, its first half).

**Friends.** An account follows another by name (``POST /api/me/friends``); two that follow
each other, neither blocking the other, are friends. A friend alone is told whether the other is
online now and at which table (its watch link); anyone else is told nothing of it. Online: a
socket of theirs is open at a table, on this process or, on a site, on another one (each
process shares its own every few seconds: ``Feature.shared``).

**Challenges.** A challenge names one account for each other seat it wants filled (the rest of
the room's seats are left open: to the lobby with ``open``, else for the host to start with
computers or share). Those named see it in ``GET /api/me/challenges`` and on their bell; each
accepts or declines; once every one named has accepted, the room is made (one room, whatever
accepts race: ``People.accept_challenge``) with each seat held for its account, and every
seat's link is its own account's alone (answered to the last accepter, listed to the others).
One named declining ends it; the challenger may cancel it; unanswered, it lapses.

**Blocks.** A block is the blocker's alone: the blocked is never told, and the refusal of a
blocked person's challenge is the very answer a challenge gets after a decline
(``CANNOT_CHALLENGE``). ``People.block_between`` answers whether accounts block each other
(Play now and the lobby ask it before seating people together).

**Budgets.** Challenges per account and per client address (a burst, then a few a minute),
follows and blocks per account (a burst, then some a minute, and a most kept), pending
challenges per challenger and per challenged.

**The bell.** Challenges and their answers, a rated match's end, a moderator's warning, a room's
start and a turn by correspondence (rung by the notifier) are items of the account's bell, read
on every device; each is also pushed to the account's browsers (notify.py, told by the store
after the commit: ``People.rung``). An item is only ever answered to its own account: its
``link`` is that account's seat link.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from .core.features import Feature
from .core.messages import GameName
from .core.store import off_loop

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.store.people import People

CHALLENGE_SECONDS = 10 * 60  # a live challenge lapses unanswered after this
CORRESPONDENCE_CHALLENGE_SECONDS = 3 * 24 * 3600  # a challenge to a table by correspondence
DECLINED_QUIET = 3600  # after a decline, the challenger's next challenges to that one are refused this long
SEATING_STALE = 30.0  # a room begun for a challenge and not made this long after (a process died) is begun again
MOST_OPEN = 5  # challenges an account has pending at once
MOST_WAITING = 20  # challenges waiting for one account at once
MOST_FOLLOWS = 500
MOST_BLOCKS = 1000
# (burst, per second): challenges per account and per client address; follows and blocks per account
CHALLENGES_PER_ACCOUNT = (5, 3 / 60)
CHALLENGES_PER_ADDRESS = (10, 6 / 60)
FOLLOWS_PER_ACCOUNT = (20, 10 / 60)
ONLINE_SHARED = 20_000  # accounts at most a process shares as online (a site's Redis hash stays small)
# Seconds one gathering of who is online serves every friends list asked meanwhile: a site's
# processes share theirs every few seconds anyway, and each gathering reads and parses every
# other process's whole list (bench/social.py: 10,000 online, polled, cost a core without it).
ONLINE_FRESH = 2.0
NAME_LIMIT = 40  # no account name is longer (accounts: 24)

SIGNED_OUT = "you are not signed in"
NO_SUCH_PLAYER = "no player has that name"
NO_SUCH_CHALLENGE = "no such challenge for you"
NO_SUCH_ITEM = "no such item on your bell"
# One answer for a block (either way), a recent decline, or too many waiting: a block never shows itself.
CANNOT_CHALLENGE = "that player is not taking challenges from you now"
TOO_MANY_CHALLENGES = "too many challenges: wait a little and try again"
TOO_MANY_FOLLOWS = "too many changes to your friends and blocks: wait a little and try again"
FOLLOWS_FULL = f"you follow {MOST_FOLLOWS} players already"
BLOCKS_FULL = f"you block {MOST_BLOCKS} players already"
LAPSED = "this challenge has lapsed"
CLOSED = "this challenge was declined or cancelled"
NOT_YOURSELF = "you cannot do that to yourself"

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_LIMIT)]


class NewChallenge(msgspec.Struct, forbid_unknown_fields=True):
    to: Annotated[list[Name], msgspec.Meta(min_length=1, max_length=3)]  # one name for each other seat wanted
    game: GameName = "sicilian"
    seats: Literal[3, 4] = 3
    rated: bool | None = None
    clock: Annotated[int, msgspec.Meta(ge=5, le=600)] | None = None
    correspondence: Literal[1, 2, 3, 7] | None = None
    open: bool = False  # the seats nobody is named for are listed in the lobby


class Named(msgspec.Struct, forbid_unknown_fields=True):
    name: Name


class ReadUpTo(msgspec.Struct, forbid_unknown_fields=True):
    upto: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Social(Feature):
    """Who is online where, for friends (the hub's sockets, and a site's other processes')."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self._online: tuple[float, dict[str, str | None]] | None = None  # (when gathered, who)
        self._gathering: asyncio.Task | None = None

    @property
    def people(self) -> People:
        return self.hub.store.people

    def online_here(self) -> dict[str, str | None]:
        """Account id -> the watch link of a table it sits at (None: only watching), for the
        sockets this process serves (a site's relayed ones included: their table's process)."""
        out: dict[str, str | None] = {}
        for conns in self.hub.connections.values():
            for conn in conns:
                account = conn.account
                if not account:
                    continue
                token = None if conn.watching else conn.table.watch_token
                link = f"/w/{token}" if token else None
                if out.get(account["id"]) is None:
                    out[account["id"]] = link
        return out

    def shared(self) -> dict:
        return {"online": dict(list(self.online_here().items())[:ONLINE_SHARED])}

    async def online(self) -> dict[str, str | None]:
        """Account id -> its table's watch link (None: only watching), on every process of the
        site: gathered once in ``ONLINE_FRESH`` seconds (those asking meanwhile share it)."""
        now = time.monotonic()
        if self._online is not None and now - self._online[0] < ONLINE_FRESH:
            return self._online[1]
        if self._gathering is None or self._gathering.done():
            self._gathering = asyncio.get_running_loop().create_task(self._gather())
        found = await asyncio.shield(self._gathering)  # (a request gone does not stop the others')
        self._online = (now, found)
        return found

    async def _gather(self) -> dict[str, str | None]:
        found = self.online_here()
        leases = self.hub.leases
        for other in await leases.gathered("online") if leases is not None else []:
            for account, link in (other or {}).items():
                if found.get(account) is None:
                    found[account] = link
        return found


def routes(social_of: Callable[[], Social], read_body, client_address, spend: Callable[..., Awaitable[bool]],
           seat_room: Callable[..., tuple[str, list[str]]], games: Callable[[], tuple[str, ...]],
           paused: Callable[[str], dict | None], shown: Callable) -> list:
    """The routes of docs/protocol.md, "Friends, challenges and the bell"; each needs a session.
    ``spend(kind, key, limits)``: a budget kept for the site (False: a 429); ``seat_room(seats,
    game, rated, clock, correspondence, public, holders)``: a new room (the lobby's) whose seats,
    in order, are held for the accounts ``holders`` ({id, name}): (table, links);
    ``games()``: the games a room may be of; ``paused(account)``: the refusal of a rated seat to
    a paused leaver, or None (ratings.py); ``shown(before, after)``: a match's ratings as players see
    them (ratings.shown_change)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from .core.sessions import signed_in

    headers = {"Cache-Control": "no-store"}

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers=headers)

    def me(request: Request) -> dict | None:
        return signed_in(social_of().people, request)

    async def run(work: Callable, *args):
        """A store call off the loop where the store commits off it (PostgreSQL's round trips)."""
        return await off_loop(social_of().hub.store, work, *args)

    def other(name: str, account: dict) -> dict | None:
        found = social_of().people.account_named(name)
        return None if found is None else {"id": found["id"], "name": found["name"]}

    # --- friends and blocks ---------------------------------------------------------------

    async def named_other(request: Request, account: dict):
        """The body's account (not the asker's own), or the error to answer."""
        body = await read_body(request, Named)
        if isinstance(body, Response):
            return body
        found = await run(other, body.name, account)
        if found is None:
            return error(NO_SUCH_PLAYER, 404)
        if found["id"] == account["id"]:
            return error(NOT_YOURSELF, 400)
        return found

    async def friends(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if request.method == "GET":
            people = social_of().people
            listed = await run(people.following, account["id"])
            online = await social_of().online() if any(f["friend"] for f in listed) else {}
            out = []
            for f in listed:
                row = {"name": f["name"], "friend": f["friend"]}
                if f["friend"]:  # (issue 58: a friend alone is told where the other is)
                    row |= {"online": f["id"] in online, "table": online.get(f["id"])}
                out.append(row)
            return JSONResponse({"following": out}, headers=headers)
        if not await spend("follows", account["id"], FOLLOWS_PER_ACCOUNT):
            return error(TOO_MANY_FOLLOWS, 429)
        found = await named_other(request, account)
        if isinstance(found, Response):
            return found
        people = social_of().people
        if request.method == "DELETE":
            await run(people.unfollow, account["id"], found["id"])
        elif not await run(people.follow, account["id"], found["id"], MOST_FOLLOWS):
            return error(FOLLOWS_FULL, 409)
        return Response(status_code=204, headers=headers)

    async def blocks(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        people = social_of().people
        if request.method == "GET":
            return JSONResponse({"blocked": await run(people.blocked_by, account["id"])}, headers=headers)
        if not await spend("follows", account["id"], FOLLOWS_PER_ACCOUNT):
            return error(TOO_MANY_FOLLOWS, 429)
        found = await named_other(request, account)
        if isinstance(found, Response):
            return found
        if request.method == "DELETE":
            await run(people.unblock, account["id"], found["id"])
        elif not await run(people.block, account["id"], found["id"], MOST_BLOCKS):
            return error(BLOCKS_FULL, 409)
        return Response(status_code=204, headers=headers)

    # --- challenges -------------------------------------------------------------------------

    def shown_challenge(c: dict, account: str) -> dict:
        """A challenge as one of its people sees it: names, never account ids; the seat link is
        the asker's own, once its room is made."""
        out = {k: v for k, v in c.items() if k not in ("from", "to")}
        out["from"] = c["from"]["name"]
        out["to"] = [{"name": t["name"], "accepted": t["accepted"]} for t in c["to"]]
        out["mine"] = c["from"]["id"] == account
        out["link"] = None
        if c["table"]:
            token = social_of().people.seat_link_at(c["table"], account)
            out["link"] = f"/t/{token}" if token else None
        return out

    async def challenge(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await spend("challenges", account["id"], CHALLENGES_PER_ACCOUNT) or \
                not await spend("challenges-address", client_address(request) or "?", CHALLENGES_PER_ADDRESS):
            return error(TOO_MANY_CHALLENGES, 429)
        body = await read_body(request, NewChallenge)
        if isinstance(body, Response):
            return body
        if body.game not in games():
            return error(f"unknown game {body.game!r}", 400)
        if len(body.to) > body.seats - 1:
            return error("name at most one player for each other seat", 400)
        if body.clock and body.correspondence:
            return error("a challenge has a turn clock or days a move, not both", 400)
        people = social_of().people
        named = []
        for name in body.to:
            found = await run(other, name, account)
            if found is None:
                return error(f"{NO_SUCH_PLAYER}: {name}", 404)
            if found["id"] == account["id"]:
                return error(NOT_YOURSELF, 400)
            if any(n["id"] == found["id"] for n in named):
                return error("each player is named once", 400)
            named.append(found)
        if (body.rated is not False) and (refused := paused(account["id"])):
            return JSONResponse(refused, status_code=403, headers=headers)
        settings = {"game": body.game, "seats": body.seats, "rated": body.rated, "clock": body.clock,
                    "correspondence": body.correspondence, "to_lobby": body.open}
        seconds = CORRESPONDENCE_CHALLENGE_SECONDS if body.correspondence else CHALLENGE_SECONDS
        cid = await run(lambda: people.challenge_players({"id": account["id"], "name": account["name"]}, named, settings,
                                                     seconds, quiet=DECLINED_QUIET, most_open=MOST_OPEN,
                                                     most_waiting=MOST_WAITING))
        if cid is None:
            return error(CANNOT_CHALLENGE, 403)
        return JSONResponse({"id": cid, "expires": time.time() + seconds}, status_code=201, headers=headers)

    async def my_challenges(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        found = await run(social_of().people.challenges_of, account["id"])
        return JSONResponse({"challenges": [shown_challenge(c, account["id"]) for c in found]}, headers=headers)

    async def accept(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        cid = request.path_params["id"][:40]
        people = social_of().people
        c = await run(people.challenge, cid)
        if c is None or account["id"] not in [t["id"] for t in c["to"]]:
            return error(NO_SUCH_CHALLENGE, 404)
        if c["rated"] is not False and (refused := paused(account["id"])):
            return JSONResponse(refused, status_code=403, headers=headers)
        answer = await run(people.accept_challenge, cid, account["id"], SEATING_STALE)
        if answer == "seat":
            holders = [c["from"]] + [{"id": t["id"], "name": t["name"]} for t in c["to"]]
            try:
                table_id, _ = seat_room(c["seats"], c["game"], c["rated"], c["clock"], c["correspondence"],
                                        c["open"], holders)
            except ValueError as e:
                await run(people.challenge_unseated, cid)
                return error(str(e), 400)
            await run(people.challenge_seated, cid, table_id)
            answer = "seated"
        for _ in range(int(SEATING_STALE * 10)):  # (another request makes its room now: its answer)
            if answer != "seating":
                break
            await asyncio.sleep(0.1)
            answer = await run(people.accept_challenge, cid, account["id"], SEATING_STALE)
        if answer == "lapsed":
            return error(LAPSED, 409)
        if answer == "closed":
            return error(CLOSED, 409)
        if answer == "unknown":
            return error(NO_SUCH_CHALLENGE, 404)
        c = await run(people.challenge, cid)
        return JSONResponse({"status": "accepted" if c["table"] else "waiting",
                             **{k: v for k, v in shown_challenge(c, account["id"]).items() if k in ("table", "link")}},
                            headers=headers)

    async def decline(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await run(social_of().people.decline_challenge, request.path_params["id"][:40], account["id"]):
            return error(NO_SUCH_CHALLENGE, 404)
        return Response(status_code=204, headers=headers)

    async def cancel(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await run(social_of().people.cancel_challenge, request.path_params["id"][:40], account["id"]):
            return error(NO_SUCH_CHALLENGE, 404)
        return Response(status_code=204, headers=headers)

    # --- the bell ---------------------------------------------------------------------------

    async def bell(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        found = await run(social_of().people.bell, account["id"])
        for item in found["items"]:
            data = item["data"]
            if item["kind"] == "rated":  # (as a profile shows it: one number, a first from 1500)
                data["rating_before"], data["rating_after"] = shown(data.get("before"), data.get("after"))
        return JSONResponse(found, headers=headers)

    async def bell_read(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, ReadUpTo)
        if isinstance(body, Response):
            return body
        if not await run(social_of().people.bell_read, account["id"], body.upto):
            return error(NO_SUCH_ITEM, 404)
        return Response(status_code=204, headers=headers)

    return [
        Route("/api/me/friends", friends, methods=["GET", "POST", "DELETE"]),
        Route("/api/me/blocks", blocks, methods=["GET", "POST", "DELETE"]),
        Route("/api/challenges", challenge, methods=["POST"]),
        Route("/api/me/challenges", my_challenges),
        Route("/api/challenges/{id}/accept", accept, methods=["POST"]),
        Route("/api/challenges/{id}/decline", decline, methods=["POST"]),
        Route("/api/challenges/{id}/cancel", cancel, methods=["POST"]),
        Route("/api/me/bell", bell),
        Route("/api/me/bell/read", bell_read, methods=["POST"]),
    ]
