"""Accounts (issue 40): a name that is yours, a password (Argon2id) or a passkey, sessions in the
store behind an opaque cookie, and the seats an account holds. Optional: a link is still all a
player needs to play; an account adds a name kept from visit to visit, "Your tables" on every
device, a profile and ratings (server/ratings.py).

Routes (docs/protocol.md, "Accounts"): ``POST /api/account`` signs up (and in), ``POST
/api/session`` signs in, ``DELETE /api/session`` signs out, ``DELETE /api/sessions`` signs out
everywhere, ``GET /api/me``, ``POST /api/me/password``, ``GET``/``POST /api/me/seats``, ``GET
/api/me/export``, ``DELETE /api/account``; the passkeys' in ``passkeys.py``.

Who may call what: every route that changes something, and every websocket, is refused when the
page that sent it is of another site (``origin.py``, the app's middleware); the session cookie
is HttpOnly and SameSite=Lax besides. An unknown name and a wrong password get the same answer
after the same work (a hash is checked either way).

A session alone never adds a way in (issue 55, as GitHub's sudo mode): adding or removing a
passkey, setting a password, new recovery codes, the data export and deleting the account ask
for the password or a passkey proved in this session within ``CONFIRM_SECONDS`` (a sign-in
proves it; ``POST /api/me/confirm`` or a passkey's ``/api/passkeys/confirm`` again), else 403
with ``"confirm": true``. A new password ends every other session; so does a sign-in with a
recovery code.

Budgets that slow a guesser and never lock the owner out (issue 55, OWASP's device cookies): a
sign-in with a password spends the budget of its client address, of that address and the name,
and of the name across addresses; a browser the account signed in from before (its device
cookie, ``DEVICE_COOKIE``, names the account by its id, signed with the site's key) spends only its own
device's, so a flood of guesses at a name from elsewhere never reaches the owner's browser. A
sign-up spends its address's alone (it checks no password). Budgets are kept in the store (or
the site's Redis), where no flood of other names evicts them."""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Awaitable, Callable

from typing import Annotated

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.names import canonical_name, mixed_scripts, shown_name
from ..core.sessions import COOKIE, signed_in
from ..core.store import Store
from ..core.store.people import SESSION_LONGEST, People, name_key

COOKIE_SECONDS = SESSION_LONGEST  # (the session's longest life; the store ends it unused sooner)
DEVICE_COOKIE = "tarocchi_device"  # a browser the account signed in from before (issue 55)
DEVICE_SECONDS = 365 * 24 * 3600
CONFIRM_SECONDS = 10 * 60  # the password or a passkey proved this recently opens the account's keys
# Beside the session, a cookie the page can read, "1": a session may be here, so GET /api/me is
# worth asking; without it (and without a kept name) the page asks nothing, and a signed-out
# visitor's pages show no 401 (issue 60). A hint only: /api/me (the HttpOnly session) decides.
SIGNED_IN_HINT = "tarocchi_signed_in"
NAME = re.compile(r"[^\W_][\w.\-]{1,22}[^\W_]|[^\W_]{3}")  # 3 to 24 letters, digits, . - _; a letter or digit at each end
PASSWORD_MIN, PASSWORD_MAX = 8, 256
RECOVERY_CODES = 8
SEATS_KEPT = 50  # seat links listed for an account (its most recent)
LESSONS_KEPT = 200  # lessons done an account keeps (every game's lessons, with room)

NAME_RULE = "a name is 3 to 24 letters or digits (a . - or _ inside), no spaces"
NAME_TAKEN = "that name is taken"
NAME_LOOKS_LIKE = "that name looks like another player's: choose another"
NAME_MIXED = "a name's letters are of one alphabet: Latin with Cyrillic or Greek, say, cannot mix"
PASSWORD_RULE = f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters"
WRONG = "that name and password do not match an account"
SIGNED_OUT = "you are not signed in"
TOO_MANY_SIGN_INS = "too many tries to sign in: wait a minute and try again"
CONFIRM = "to delete the account, type its name (and its password, if it has one)"
CONFIRM_FIRST = "confirm it is you first: your password or a passkey"
LAST_WAY_IN = "that is the account's last way in: set a password or add another passkey first"
UNKNOWN_PASSKEY = "no such passkey on this account"

# Sign-in and sign-up: a burst, then so many a second, per client address and per account name.
SIGN_IN_BURST, SIGN_IN_PER_SECOND = 10, 0.1
HASHING_AT_ONCE = 2  # Argon2id takes 64 MiB and tens of ms each: a flood queues, memory stays flat
DEFAULT_HASHER = PasswordHasher()


class SignUp(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str


class SignIn(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str | None = None
    recovery_code: str | None = None  # instead of the password: it is used up, and ``password`` is the new one


class NewPassword(msgspec.Struct, forbid_unknown_fields=True):
    password: str  # the new one
    old: str | None = None  # the current one (an account that has one)


class Links(msgspec.Struct, forbid_unknown_fields=True):
    links: list[str]


class LessonDone(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, msgspec.Meta(max_length=20, pattern=r"^[a-z]+$")]
    lesson: Annotated[str, msgspec.Meta(max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]


class Delete(msgspec.Struct, forbid_unknown_fields=True):
    confirm: str
    password: str | None = None


class Password(msgspec.Struct, forbid_unknown_fields=True):
    password: str


def check_name(name: str) -> str | None:
    """Why a new account cannot have ``name`` as shown (``shown_name``), or None (issue 55:
    not two alphabets in one name)."""
    if not NAME.fullmatch(name):
        return NAME_RULE
    return NAME_MIXED if mixed_scripts(name) else None


def name_clash(people: People, name: str) -> str | None:
    """Why ``name`` is not free (taken, or too like one taken: issue 55), or None."""
    return {"taken": NAME_TAKEN, "lookalike": NAME_LOOKS_LIKE, None: None}[people.name_clash(name)]


def check_password(password: str) -> str | None:
    return None if PASSWORD_MIN <= len(password) <= PASSWORD_MAX else PASSWORD_RULE


def recovery_codes() -> list[str]:
    """One-time codes shown once at sign-up: each signs in once in place of the password."""
    return ["-".join(secrets.token_hex(2) for _ in range(3)) for _ in range(RECOVERY_CODES)]


# A hash of a password nobody knows (PasswordHasher().hash(secrets.token_hex(16)), argon2-cffi's
# defaults): what an unknown name's sign-in checks, as long as a wrong password's check. Made
# once here, not at every start (0.17 s of CPU; the test suite starts hundreds of servers), nor
# at the first unknown name (that one answer would take twice as long: a name told unknown).
NOBODY = "$argon2id$v=19$m=65536,t=3,p=4$gBgOO1duJdtLmLyBK5/aYQ$wjCLvgs8jLEYtIrSNv5ISckwoXUdZxebTgYMKkimf6I"


def dummy_hash(hasher: PasswordHasher) -> str:
    """The hash an unknown name is checked against: ``NOBODY`` where it has the hasher's own
    parameters (its check costs what a real one does), else one made for this hasher."""
    return NOBODY if not hasher.check_needs_rehash(NOBODY) else made_for(hasher)


@functools.lru_cache(maxsize=4)
def made_for(hasher: PasswordHasher) -> str:
    return hasher.hash(secrets.token_hex(16))


class Passwords:
    """Argon2id (argon2-cffi's defaults, RFC 9106's second choice) off the event loop, a few at
    a time. ``verify`` of an unknown name checks a hash of its own, so that it takes as long."""

    def __init__(self, hasher: PasswordHasher | None = None):
        self.hasher = hasher or DEFAULT_HASHER
        self.at_once = asyncio.Semaphore(HASHING_AT_ONCE)

    async def hash(self, password: str) -> str:
        async with self.at_once:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(stored or dummy_hash(self.hasher), password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False
        async with self.at_once:
            return await asyncio.to_thread(check)


class Accounts:
    """The accounts' side of the server. ``spend(kind, key)`` spends a budget (the app's: per
    process, or site-wide); ``rename(table, seat, name)`` names a seat at a table this process
    holds (the hub's)."""

    def __init__(self, store: Store, spend: Callable[[str, str], Awaitable[bool]],
                 rename: Callable[[str, int, str], bool], passwords: Passwords | None = None,
                 forget: Callable[[str, list[str], str], Awaitable[None]] | None = None):
        self.people: People = store.people
        self.spend, self.rename = spend, rename
        self.forget = forget  # a deleted name out of the tables this process holds (Hub.forget)
        self.passwords = passwords or Passwords()

    def signed_in(self, request) -> dict | None:
        """The account a request (or a websocket's handshake) is signed in to: {id, name,
        session}; None without a live session."""
        return signed_in(self.people, request)

    async def may_try(self, request: Request, address: str, name: str) -> bool:
        """A try of a password for ``name`` from ``address``: from a browser the account signed
        in from before, its device's budget alone; from any other, the address's, the address
        and name's, and the name's (every one spent: a refusal by one still costs the others)."""
        key = name_key(name[:100])
        found = self.people.account_named(name[:100])  # (the cookie names the account by its id:
        # an account made later under a deleted one's name is not trusted by its browsers)
        if found is not None and (device := self.trusted_device(request, found["id"])) is not None:
            return await self.spend("sign-in-device", device)
        by_address = await self.spend("sign-in-address", address, 3)
        by_pair = await self.spend("sign-in-pair", f"{address} {key}")
        by_name = await self.spend("sign-in-name", key)
        return by_address and by_pair and by_name

    async def may_create(self, address: str) -> bool:
        """A sign-up (or a passkey's sign-in, which names nobody) from ``address``: its budget."""
        return await self.spend("sign-in-address", address, 3)

    # --- device cookies: "this browser signed in to that account before" ---------------------

    def device_key(self) -> bytes:
        return bytes.fromhex(self.people.site_key("device-cookies", lambda: secrets.token_hex(32)))

    def device_cookie(self, account: str) -> str:
        """A new device cookie for the account of id ``account``: the id, a random one, their MAC."""
        nonce = secrets.token_urlsafe(12)
        key = base64.urlsafe_b64encode(account.encode()).decode().rstrip("=")
        mac = hmac.new(self.device_key(), f"{key}.{nonce}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{key}.{nonce}.{mac}"

    def trusted_device(self, request: Request, key: str) -> str | None:
        """The id of this browser's device cookie if it is the site's and names the account of
        id ``key``; else None."""
        value = request.cookies.get(DEVICE_COOKIE, "")
        parts = value.split(".")
        if len(value) > 300 or len(parts) != 3:
            return None
        named, nonce, mac = parts
        right = hmac.new(self.device_key(), f"{named}.{nonce}".encode(), hashlib.sha256).hexdigest()[:32]
        if not hmac.compare_digest(mac, right):
            return None
        try:
            same = base64.urlsafe_b64decode(named + "=" * (-len(named) % 4)).decode() == key
        except (ValueError, UnicodeDecodeError):
            return None
        return nonce if same else None

    def session_response(self, request: Request, account: dict, body: dict, status: int = 200) -> Response:
        """Sign ``account`` in: a new session, its cookie set on the answer, and this browser's
        device cookie naming the account (its later tries skip the name's budget)."""
        cookie = self.people.new_session(account["id"], request.headers.get("user-agent", ""))
        response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
        set_session_cookie(request, response, cookie)
        response.set_cookie(DEVICE_COOKIE, self.device_cookie(account["id"]), max_age=DEVICE_SECONDS, path="/api/",
                            httponly=True, samesite="lax", secure=request.url.scheme in ("https", "wss"))
        return response

    # --- the account's keys: asked for again (issue 55) --------------------------------------

    @staticmethod
    def recently_confirmed(account: dict) -> bool:
        return time.time() - (account.get("confirmed") or 0) <= CONFIRM_SECONDS

    async def proven(self, request: Request, account: dict, password: str | None) -> Response | None:
        """None if the signed-in ``account`` has proved it is its owner: ``password`` given and
        right (the session is then confirmed), or none given and the session confirmed within
        ``CONFIRM_SECONDS``; else the answer to send. A password's tries spend this session's
        budget: a thief holding the session cannot lock the owner out elsewhere."""
        if password is None:
            return None if self.recently_confirmed(account) else confirm_first()
        stored = self.people.account(account["id"])
        if not await self.spend("confirm", account["session"]):
            return error(TOO_MANY_SIGN_INS, 429)
        if stored is None or not await self.passwords.verify(stored["password"], password[:PASSWORD_MAX]):
            return error(WRONG, 401)
        self.people.confirm_session(account["session"])
        return None

    def hold(self, account: dict, links: list[str]) -> dict:
        """The seats of ``links`` (this browser's) become the account's, each named with the
        account's name where its table is held here; the links it holds, and the refused."""
        held, refused = [], []
        for link in links[:SEATS_KEPT]:
            token = link.removeprefix("/t/")
            found = self.people.hold_seat(account["id"], token)
            if isinstance(found, str):
                refused.append({"link": link, "why": found})
                continue
            held.append(link)
            self.rename(found[0], found[1], account["name"])
        return {"held": held, "refused": refused}

    def me(self, account: dict) -> dict:
        found = self.people.account(account["id"]) or {}
        return {"name": account["name"], "created": found.get("created"),
                "password": found.get("password") is not None,
                "sessions": [s | {"this": account["session"].startswith(s["id"])}
                             for s in self.people.sessions(account["id"])],
                "passkeys": self.people.passkeys(account["id"]),
                # (issue 58: the account page links the moderators' page for them; nobody else is told)
                "moderator": self.people.is_moderator(account["id"])}


def error(text: str, status: int) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status, headers={"Cache-Control": "no-store"})


def confirm_first() -> JSONResponse:
    """403, and the page asks for the password or a passkey, then tries again."""
    return JSONResponse({"error": CONFIRM_FIRST, "confirm": True}, status_code=403, headers={"Cache-Control": "no-store"})


def set_session_cookie(request: Request, response: Response, cookie: str) -> None:
    # Secure over TLS (directly, or as a trusted proxy says: X-Forwarded-Proto through uvicorn).
    response.set_cookie(COOKIE, cookie, max_age=COOKIE_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme in ("https", "wss"))
    response.set_cookie(SIGNED_IN_HINT, "1", max_age=COOKIE_SECONDS, path="/", httponly=False, samesite="lax",
                        secure=request.url.scheme in ("https", "wss"))


def routes(accounts: Callable[[], Accounts], read_body, client_address) -> list[Route]:
    """The account routes; ``accounts()`` is the app's, ``read_body`` app.read_body."""

    def signed_in(request: Request) -> dict | None:
        return accounts().signed_in(request)

    def signed_out() -> Response:
        """204, and this browser's session cookie gone."""
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/")
        response.delete_cookie(SIGNED_IN_HINT, path="/")
        return response

    async def sign_up(request: Request):
        body = await read_body(request, SignUp)
        if isinstance(body, Response):
            return body
        name = shown_name(body.name)
        if (why := check_name(name) or check_password(body.password)) is not None:
            return error(why, 400)
        if not await accounts().may_create(client_address(request) or "?"):
            return error(TOO_MANY_SIGN_INS, 429)
        people = accounts().people
        if (why := name_clash(people, name)) is not None:
            return error(why, 409)
        codes = recovery_codes()
        account = people.create_account(name, await accounts().passwords.hash(body.password), codes)
        if account is None:  # (taken meanwhile: two sign-ups at once, one wins)
            return error(name_clash(people, name) or NAME_TAKEN, 409)
        return accounts().session_response(request, {"id": account}, {"name": name, "recovery_codes": codes}, 201)

    async def sign_in(request: Request):
        body = await read_body(request, SignIn)
        if isinstance(body, Response):
            return body
        if not await accounts().may_try(request, client_address(request) or "?", body.name):
            return error(TOO_MANY_SIGN_INS, 429)
        people = accounts().people
        account = people.account_named(body.name) if len(body.name) <= 100 else None
        if body.recovery_code is not None:  # a code in place of the password: the new one comes with it
            if body.password is None or (why := check_password(body.password)) is not None:
                return error(PASSWORD_RULE, 400)
            if account is None or not people.spend_recovery_code(account["id"], body.recovery_code.strip().lower()):
                await accounts().passwords.verify(None, body.password)  # (the same work as a wrong code)
                return error(WRONG, 401)
            people.set_password(account["id"], await accounts().passwords.hash(body.password))  # (every session ends)
        elif body.password is None or not await accounts().passwords.verify(
                account and account["password"], body.password[:PASSWORD_MAX]):
            return error(WRONG, 401)
        return accounts().session_response(request, account, {"name": account["name"]})

    async def sign_out(request: Request):
        account = signed_in(request)
        if account is not None:
            accounts().people.end_session(account["session"])
        return signed_out()

    async def sign_out_everywhere(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        accounts().people.end_sessions(account["id"])
        return signed_out()

    async def me(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        return JSONResponse(accounts().me(account), headers={"Cache-Control": "no-store"})

    async def new_password(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, NewPassword)
        if isinstance(body, Response):
            return body
        if (why := check_password(body.password)) is not None:
            return error(why, 400)
        stored = accounts().people.account(account["id"])
        if stored is None:
            return error(SIGNED_OUT, 401)
        # The old password where there is one (always: a session alone never changes it); a
        # passkey-only account's session confirmed by a passkey lately.
        if stored["password"] is not None and body.old is None:
            return error(WRONG, 401)
        if (refused := await accounts().proven(request, account, body.old)) is not None:
            return refused
        accounts().people.set_password(account["id"], await accounts().passwords.hash(body.password),
                                       keep=account["session"])
        return Response(status_code=204)

    async def confirm(request: Request):
        """The password proved again: the account's keys open for ``CONFIRM_SECONDS``."""
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, Password)
        if isinstance(body, Response):
            return body
        if (refused := await accounts().proven(request, account, body.password)) is not None:
            return refused
        return Response(status_code=204)

    async def new_codes(request: Request):
        """New recovery codes, shown once; the old ones are void."""
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if (refused := await accounts().proven(request, account, None)) is not None:
            return refused
        codes = recovery_codes()
        accounts().people.new_recovery_codes(account["id"], codes)
        return JSONResponse({"recovery_codes": codes}, status_code=201, headers={"Cache-Control": "no-store"})

    async def my_seats(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if request.method == "GET":
            links = [f"/t/{t}" for t in accounts().people.held_seats(account["id"], SEATS_KEPT)]
            return JSONResponse({"links": links}, headers={"Cache-Control": "no-store"})
        body = await read_body(request, Links)
        if isinstance(body, Response):
            return body
        return JSONResponse(accounts().hold(account, body.links), headers={"Cache-Control": "no-store"})

    async def lessons(request: Request):
        """The lessons the account finished (issue 42): kept with the account, so that
        "Learn to play" shows them on every device; GET them, POST one more."""
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if request.method == "GET":
            return JSONResponse({"done": accounts().people.lessons_done(account["id"])},
                                headers={"Cache-Control": "no-store"})
        body = await read_body(request, LessonDone)
        if isinstance(body, Response):
            return body
        if not accounts().people.lesson_done(account["id"], body.game, body.lesson, LESSONS_KEPT):
            return error(f"an account keeps at most {LESSONS_KEPT} lessons done", 400)
        return Response(status_code=204)

    async def export(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if (refused := await accounts().proven(request, account, None)) is not None:
            return refused
        data = accounts().people.export(account["id"])
        return JSONResponse(data, headers={"Cache-Control": "no-store",
                                           "Content-Disposition": f'attachment; filename="tarocchi-{account["name"]}.json"'})

    async def delete(request: Request):
        account = signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, Delete)
        if isinstance(body, Response):
            return body
        stored = accounts().people.account(account["id"])
        if stored is None or canonical_name(body.confirm) != canonical_name(stored["name"]):
            return error(CONFIRM, 400)
        # Its password, or a session confirmed lately (a passkey-only account: by a passkey).
        if (refused := await accounts().proven(request, account, body.password)) is not None:
            return refused
        forgotten = accounts().people.delete_account(account["id"])
        if forgotten is not None and accounts().forget is not None:
            await accounts().forget(forgotten.name, forgotten.tables, forgotten.account)  # (issue 55: its tables in play too)
        return signed_out()

    return [
        Route("/api/account", sign_up, methods=["POST"]),
        Route("/api/account", delete, methods=["DELETE"]),
        Route("/api/session", sign_in, methods=["POST"]),
        Route("/api/session", sign_out, methods=["DELETE"]),
        Route("/api/sessions", sign_out_everywhere, methods=["DELETE"]),
        Route("/api/me", me),
        Route("/api/me/password", new_password, methods=["POST"]),
        Route("/api/me/confirm", confirm, methods=["POST"]),
        Route("/api/me/recovery-codes", new_codes, methods=["POST"]),
        Route("/api/me/seats", my_seats, methods=["GET", "POST"]),
        Route("/api/me/export", export),
        Route("/api/me/lessons", lessons, methods=["GET", "POST"]),
    ]
