"""Reports, moderators and their actions, and what the chat refuses or hides (issue 58, its
moderation half).

**Reports.** A signed-in player reports another (``POST /api/reports``) with a reason and a few
words; named with a table the reporter sits or sat at, the report carries that table's deal and
its latest chat lines (hidden ones too). The reported is never told of it, nor of who made it.
Reports are budgeted per account and per client address.

**Moderators.** The operator gives the role (``tarocchi account mod NAME``). ``/api/mod/*``
answers a moderator alone: 401 signed out, 403 for any other account, with no data. A moderator
reads the open reports (oldest first), a player's file, and the moderation log, and acts: a
warning (to the player's bell, naming no reporter and no moderator), a chat ban or a rated ban
for some hours, a match's ratings voided (every rating then rebuilt as ``tarocchi ratings
rebuild`` does), a forced rename (to a neutral name the player may not have chosen), the account
closed. Each action, and each report closed, is a line of the moderation log (who, whom, what,
why, when), which nobody can change: the store has no method that does, and no route either.

**The chat.** A chat ban refuses the banned account's lines (``Feature.may_chat``), at any seat
it opened signed in or sat at. The chat reads bans and blocks from the store once in a few
seconds an account, not once a line (``People.chat_banned_until``, ``People.blockers_among``): a
change made on this process shows at once, one made on another process of a site within
``CHAT_FRESH`` seconds. A line the word list matches (``chat_words/<lang>.txt``, every
language's at once, and the operator's own file: ``tarocchi serve --chat-words``) is hidden from
everyone but its sender (``Feature.hides_chat``); it is stored, so a report carries it.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from .core.features import Feature
from .core.store import off_loop
from .core.store.people import NEUTRAL_NAME

if TYPE_CHECKING:
    from .core.hub import Connection, Hub
    from .core.store.people import People
    from .core.tables import Table

WORDS = Path(__file__).resolve().parent / "chat_words"  # one file a language, a word or phrase a line
REPORT_CHAT_LINES = 50  # the latest chat lines of the table a report carries
# (burst, per second): reports per account and per client address
REPORTS_PER_ACCOUNT = (5, 3 / 60)
REPORTS_PER_ADDRESS = (10, 6 / 60)
MOST_HOURS = 24 * 365  # the longest ban

SIGNED_OUT = "you are not signed in"
NOT_A_MODERATOR = "this is for moderators"
NO_SUCH_PLAYER = "no player has that name"
NO_SUCH_TABLE = "you did not sit at that table"
NO_SUCH_REPORT = "no such open report"
NO_SUCH_MATCH = "no such rated match"
NOT_YOURSELF = "you cannot report yourself"
TOO_MANY_REPORTS = "too many reports: wait a little and try again"
CHAT_BANNED = "a moderator has stopped your chat for a while"
NAME_TAKEN = "that name is taken"

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Why = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class NewReport(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    reason: Literal["cheating", "abuse", "leaving", "name", "other"]
    text: Annotated[str, msgspec.Meta(max_length=500)] = ""
    table: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None


class Action(msgspec.Struct, forbid_unknown_fields=True):
    name: Name
    action: Literal["warn", "chat_ban", "rated_ban", "void", "rename", "close"]
    why: Why
    hours: Annotated[float, msgspec.Meta(ge=0, le=MOST_HOURS)] | None = None  # a ban's (0: lifted)
    match: Annotated[str, msgspec.Meta(min_length=3, max_length=80)] | None = None  # void: "<table>.<match>"


class Closing(msgspec.Struct, forbid_unknown_fields=True):
    why: Why


def word_pattern(files: list[Path]) -> re.Pattern | None:
    """One pattern of every word and phrase in ``files`` (a line each; ``#`` a comment), matched
    as whole words, case and width folded; None for none."""
    words = set()
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            line = fold(line.strip())
            if line and not line.startswith("#"):
                words.add(re.escape(line))
    if not words:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(sorted(words, key=len, reverse=True)) + r")(?!\w)")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


class Moderation(Feature):
    """The chat bans and the word list, at the table's chat (core/features.py)."""

    def __init__(self, hub: Hub, chat_words: str | None = None):
        self.hub = hub
        files = sorted(WORDS.glob("*.txt")) + ([Path(chat_words)] if chat_words else [])
        self.words = word_pattern(files)

    @property
    def people(self) -> People:
        return self.hub.store.people

    def may_chat(self, conn: Connection, text: str) -> str | None:
        table, seat = conn.table, conn.seat
        sitter = table.sitters[seat] if seat is not None and seat < len(table.sitters) else None
        accounts = {a for a in ((conn.account or {}).get("id"), (sitter or {}).get("account")) if a}
        # (kept a few seconds, not read for every line: People.chat_banned_until)
        if any(self.people.chat_banned_until(a) for a in accounts):
            return CHAT_BANNED
        return None

    def hides_chat(self, table: Table, text: str) -> bool:
        return self.words is not None and self.words.search(fold(text)) is not None


def routes(moderation_of: Callable[[], Moderation], read_body, client_address,
           spend: Callable[..., Awaitable[bool]], rebuild_ratings: Callable[[], None],
           forget: Callable[..., Awaitable[None]]) -> list:
    """The routes of docs/protocol.md, "Moderation". ``spend(kind, key, limits)``: a budget kept
    for the site (False: a 429); ``rebuild_ratings()``: every rating again from the rated
    matches (ratings.py's ``recompute``); ``forget(name, tables, account)``: a closed account's
    name out of the tables in play (``Hub.forget``)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from .core.sessions import signed_in

    headers = {"Cache-Control": "no-store"}

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers=headers)

    def people() -> People:
        return moderation_of().people

    async def run(work: Callable, *args):
        """A store call off the loop where the store commits off it (PostgreSQL's round trips)."""
        return await off_loop(moderation_of().hub.store, work, *args)

    async def moderator(request: Request) -> dict | Response:
        """The moderator asking, or the answer to anyone else (before any body is read)."""
        account = signed_in(people(), request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await run(people().is_moderator, account["id"]):
            return error(NOT_A_MODERATOR, 403)
        return account

    # --- reports ------------------------------------------------------------------------------

    async def report(request: Request):
        account = signed_in(people(), request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await spend("reports", account["id"], REPORTS_PER_ACCOUNT) or \
                not await spend("reports-address", client_address(request) or "?", REPORTS_PER_ADDRESS):
            return error(TOO_MANY_REPORTS, 429)
        body = await read_body(request, NewReport)
        if isinstance(body, Response):
            return body
        reported = await run(people().account_named, body.name)
        if reported is None:
            return error(NO_SUCH_PLAYER, 404)
        if reported["id"] == account["id"]:
            return error(NOT_YOURSELF, 400)
        deal, chat = None, []
        if body.table is not None:
            # Only a table the reporter sits or sat at: a report pulls no stranger's chat.
            if not await run(people().sat_at_table, account["id"], body.table):
                return error(NO_SUCH_TABLE, 404)
            hub = moderation_of().hub
            held = hub.tables.get(body.table)
            if held is not None and held.match is not None:
                deal = len(held.match.deals)
            rows = await run(hub.store.chat_before, body.table, 2 ** 31 - 1, REPORT_CHAT_LINES)
            chat = [{"version": v, "seat": d.get("seat"), "name": d.get("name"), "text": d.get("text"),
                     "hidden": bool(d.get("hidden"))} for v, d in reversed(rows)]
        await run(people().add_report, account["id"], reported["id"], body.reason, body.text, body.table, deal, chat)
        return Response(status_code=204, headers=headers)

    # --- moderators ---------------------------------------------------------------------------

    async def open_reports(request: Request):
        found = await moderator(request)
        if isinstance(found, Response):
            return found
        return JSONResponse({"reports": await run(lambda: people().reports(status="open"))}, headers=headers)

    async def close_report(request: Request):
        found = await moderator(request)
        if isinstance(found, Response):
            return found
        body = await read_body(request, Closing)
        if isinstance(body, Response):
            return body
        rid = request.path_params["id"][:40]
        # (closed by its id alone: not looked for among a page of the open ones, nor by a name)
        closed = await run(people().close_report, rid)
        if closed is None:
            return error(NO_SUCH_REPORT, 404)
        target = await run(people().account, closed[0]) if closed[0] else None
        await run(people().log_moderation, found["id"], target and target["id"], "close_report", body.why,
                  {"report": rid, "moderator_name": found["name"],
                   "target_name": target["name"] if target else NEUTRAL_NAME})
        return Response(status_code=204, headers=headers)

    async def player_file(request: Request):
        found = await moderator(request)
        if isinstance(found, Response):
            return found
        name = request.path_params["name"]
        target = await run(people().account_named, name) if len(name) <= 40 else None
        if target is None:
            return error(NO_SUCH_PLAYER, 404)

        def gather() -> dict:
            p, tid = people(), target["id"]
            return {"name": target["name"], "created": target["created"], "moderator": p.is_moderator(tid),
                    "sanctions": p.sanctions(tid), "matches": p.matches_of(tid, 50),
                    "reports_about": p.reports(status=None, about=tid), "reports_by": p.reports(status=None, by=tid),
                    "chat": p.chat_of(tid), "shared_address": p.sharing_addresses(tid),
                    "leaves": p.leaves_since(tid, 0), "log": p.moderation_log(tid)}
        return JSONResponse(await run(gather), headers=headers)

    async def log(request: Request):
        found = await moderator(request)
        if isinstance(found, Response):
            return found
        return JSONResponse({"log": await run(people().moderation_log)}, headers=headers)

    async def act(request: Request):
        found = await moderator(request)
        if isinstance(found, Response):
            return found
        body = await read_body(request, Action)
        if isinstance(body, Response):
            return body
        p = people()
        target = await run(p.account_named, body.name)
        if target is None:
            return error(NO_SUCH_PLAYER, 404)
        tid = target["id"]
        data: dict = {"moderator_name": found["name"], "target_name": target["name"]}
        answer: dict = {}
        if body.action in ("chat_ban", "rated_ban"):
            if body.hours is None:
                return error("a ban needs its hours (0 lifts it)", 400)
            until = time.time() + body.hours * 3600 if body.hours else 0.0
            await run(p.sanction, tid, body.action.removesuffix("_ban"), until)
            data |= {"hours": body.hours, "until": until}
        elif body.action == "warn":
            # (issue 58: the bell names neither a reporter nor the moderator)
            await run(p.ring, tid, "warning", {"text": body.why})
        elif body.action == "void":
            table_id, _, match = (body.match or "").rpartition(".")
            if not table_id or not match.isdigit():
                return error("void needs the match as <table>.<match>", 400)
            # (a match the named player played, rated: the log says whose match it was)
            if not await run(p.void_match, table_id, int(match), tid):
                return error(NO_SUCH_MATCH, 404)
            await run(rebuild_ratings)
            data |= {"match": body.match}
        elif body.action == "rename":
            new = f"Player{secrets.randbelow(10 ** 6):06d}"
            if not await run(p.force_rename, tid, new):
                return error(NAME_TAKEN, 409)
            data |= {"new_name": new}
            answer = {"name": new}
        elif body.action == "close":
            await run(p.log_moderation, found["id"], tid, body.action, body.why, data)  # (before it goes)
            forgotten = await run(p.delete_account, tid)
            if forgotten is not None:
                await forget(forgotten.name, forgotten.tables, forgotten.account)
            return JSONResponse(answer, headers=headers)
        await run(p.log_moderation, found["id"], tid, body.action, body.why, data)
        return JSONResponse(answer, headers=headers)

    return [
        Route("/api/reports", report, methods=["POST"]),
        Route("/api/mod/reports", open_reports),
        Route("/api/mod/reports/{id}/close", close_report, methods=["POST"]),
        Route("/api/mod/players/{name}", player_file),
        Route("/api/mod/log", log),
        Route("/api/mod/actions", act, methods=["POST"]),
    ]
