"""The web server: a Starlette app with explicit routes (docs/protocol.md), run on uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from tarocchi.bots import DEFAULT_LEVEL, levels_for
from tarocchi.bots.advice import ADVICE_SECONDS
from tarocchi.engine.game import DEFAULT, get_game

from . import accounts as accounts_feature
from . import assets as client_files
from . import collector, installable
from .accounts import SIGN_IN_BURST, SIGN_IN_PER_SECOND, Accounts
from .accounts import passkeys
from .advice import ADVICE_WORKERS, Advisor
from .archive import Archive
from .archive import routes as archive_routes
from .core.hub import TABLE_GAMES, Chance, Hub
from .core.messages import (
    BODY_TOO_LARGE, BURST, HELLO_TIMEOUT, LOBBY_BURST, LOBBY_PER_SECOND, MAX_BODY, MAX_FRAME, NEW_TABLES_BURST,
    NEW_TABLES_PER_SECOND, PER_SECOND, TOO_MANY_TABLES, Budget, NewComputer, NewRoom,
)
from .core.sessions import gives_browser_id, persons, signed_in
from .core.sockets import client_address, serve_socket
from .core.store import Store, open_store, redacted
from .daily import DailyDeals
from .daily import routes as daily_routes
from .guard import CONNECTIONS_PER_ADDRESS, HEADER_TIMEOUT, ConnectionGuard, protocols, raise_descriptor_limit
from .lessons import Lessons
from .lessons import routes as lesson_routes
from .lobby import FILL_SECONDS, PUBLIC_CLOCK, SIGN_IN_FOR_CORRESPONDENCE, TIME_BANK, Lobby, lobby_routes
from .moderation import Moderation
from .moderation import routes as moderation_routes
from .notify import PUSH_HOSTS, Notifier
from .notify import routes as push_routes
from .origin import SameSiteOnly
from .ratings import Ratings, shown_change
from .ratings import routes as ratings_routes
from .social import Social
from .social import routes as social_routes
from .tournaments import Tournaments
from .tournaments import routes as tournament_routes
from .site import ALONE, LEASE_SECONDS, Bus, DatabaseTaken, Site, alone_name, hold_alone, process_name
from .watch import Watchers
from .watch import routes as watch_routes

log = logging.getLogger("tarocchi.server")
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
INDEX = STATIC / "index.html"


def create_app(db: str, *, bot_delay: float = 1.0, trick_pause: float = 1.0,
               bot_level_default: str = DEFAULT_LEVEL, bot_processes: int = 0,
               away_timeout: float = 60.0, budget: tuple[int, float] = (BURST, PER_SECOND),
               new_tables: tuple[int, float] = (NEW_TABLES_BURST, NEW_TABLES_PER_SECOND),
               hello_timeout: float = HELLO_TIMEOUT, games: tuple[str, ...] = TABLE_GAMES,
               chance: Chance | None = None, bus: str | None = None, process: str | None = None,
               lease: float = LEASE_SECONDS, lobby: tuple[int, float] = (LOBBY_BURST, LOBBY_PER_SECOND),
               fill_seconds: float = FILL_SECONDS, public_clock: float = PUBLIC_CLOCK,
               advice_seconds: float = ADVICE_SECONDS, advice_workers: int = ADVICE_WORKERS,
               sign_in: tuple[int, float] = (SIGN_IN_BURST, SIGN_IN_PER_SECOND),
               push_contact: str = "mailto:operator@localhost", push_hosts: tuple[str, ...] = PUSH_HOSTS,
               time_bank: float = TIME_BANK, chat_words: str | None = None,
               tournaments: dict | None = None) -> Starlette:
    """The app on the database ``db`` (a SQLite file, or a ``postgresql://`` URL: see
    ``store.open_store``). Bots think in a thread pool, or in
    ``bot_processes`` worker processes when it is above zero (strong bots need the cores);
    hints and reviews in ``advice_workers`` of their own, threads or processes as the bots
    (``make_advice_executor``; 0: on the bots' own, as before issue 37, only to measure it).
    ``budget``: each socket's message budget (a burst, then so many a second); ``new_tables``:
    the same for creating tables, per client address (rooms cannot be made in a flood; the
    address is the peer's, or the one a trusted proxy forwards: see ``server_config``);
    ``hello_timeout``: seconds a new socket has to say hello; ``games``: the registered games new
    tables may be of (the web table's, ``hub.TABLE_GAMES``). ``chance``:
    the first dealers and deck orders (tests only; the server draws them from SystemRandom).
    ``bus``: a Redis URL, for one site of several processes on one shared database (site.py;
    ``process`` names this one in its leases, ``lease`` is their length in seconds); None: this
    process alone drives every table. ``lobby``: the lobby's budget per client address (its
    listing, seats and Play now, lobby.py), as ``new_tables``; ``fill_seconds``: how long a Play
    now table waits before computers fill it; ``public_clock``: a public table's turn clock;
    ``advice_seconds``: the CPU seconds the computer may spend on a hint or on one decision of a
    review (advice.py); ``sign_in``: the budget of sign-ins (and sign-ups) per client address and
    per account name (accounts/); ``push_contact``: the operator's address the push services
    are given (VAPID's ``sub``), ``push_hosts``: the push services a browser's subscription may
    name (notify.py); ``time_bank``: a live clock's spare seconds per seat and match (lobby.py);
    ``chat_words``: the operator's own word list, beside the shipped ones (moderation.py);
    ``tournaments``: the tournaments' clock and waits (tournaments.Tournaments' keywords)."""
    if advice_workers < 0:
        raise ValueError("advice_workers is 0 or more")
    state: dict = {}
    creators: dict[str, Budget] = {}  # client address -> its budget for new tables
    browsers: dict[str, Budget] = {}  # client address -> its budget for the lobby's requests
    lookers: dict[str, Budget] = {}  # client address -> its budget for looking back (watch.py)

    def hub() -> Hub:
        return state["hub"]

    async def spend(key: str, kind: str, limits: tuple[int, float], budgets: dict[str, Budget]) -> bool:
        site = hub().site
        if site is not None:  # one budget per key for the whole site, not one per process
            return await site.spend_new_table(key, *limits, kind=kind)
        if key not in budgets and len(budgets) >= 10_000:
            budgets.clear()  # bounded: forgetting old keys only gives them a fresh burst
        budget = budgets.setdefault(key, Budget(*limits))
        return budget.spend(asyncio.get_running_loop().time())

    async def may_spend(request: Request, kind: str, limits: tuple[int, float], budgets: dict[str, Budget]) -> bool:
        return await spend(client_address(request) or "?", kind, limits, budgets)

    async def may_sign_in(kind: str, key: str, scale: int = 1) -> bool:
        """A sign-in budget (accounts/): ``sign_in``'s, ``scale`` times as large. Kept where a
        flood of other keys cannot evict it (issue 55): the site's Redis, with an expiry, or this
        process's store."""
        limits = (sign_in[0] * scale, sign_in[1] * scale)
        if hub().site is not None:
            return await hub().site.spend_new_table(key, *limits, kind=kind)
        return hub().store.people.spend_budget(f"{kind}:{limits}:{key}", *limits)

    async def may_spend_kept(kind: str, key: str, limits: tuple[int, float]) -> bool:
        """A budget of ``key`` (an account, an address) kept for the whole site, as the sign-ins' (issue 58)."""
        if hub().site is not None:
            return await hub().site.spend_new_table(key, *limits, kind=kind)
        return hub().store.people.spend_budget(f"{kind}:{limits}:{key}", *limits)

    def seat_challenge(seats: int, game: str, rated: bool | None, clock: int | None, correspondence: int | None,
                       public: bool, holders: list[dict]) -> tuple[str, list[str]]:
        """A challenge's room (social.py), made as POST /api/rooms makes one, each of its first
        seats held for its account in order."""
        table_id, tokens = hub().lobby.new_room(seats, game, public=public, clock=clock, rated=rated,
                                                correspondence=correspondence)
        links = [f"/t/{t}" for t in tokens]
        for account, link in zip(holders, links):
            state["accounts"].hold(account, [link])
        return table_id, links

    def seat_tournament(seats: int, game: str, rated: bool, clock: float, holders: list[dict | None],
                        tournament: str, round_: int) -> tuple[str, list[str]]:
        """A tournament's table (tournaments.py): a room as a challenge's, not listed, each seat
        with a person held for their account."""
        table_id, tokens = hub().lobby.new_room(seats, game, public=False, clock=clock, rated=rated,
                                                tournament=tournament, tournament_round=round_)
        links = [f"/t/{t}" for t in tokens]
        for account, link in zip(holders, links):
            if account is not None:
                state["accounts"].hold(account, [link])
        return table_id, links

    async def may_create(request: Request) -> bool:
        return await may_spend(request, "new-tables", new_tables, creators)

    async def may_browse(request: Request) -> bool:
        return await may_spend(request, "lobby", lobby, browsers)

    def paused(request: Request) -> dict | None:
        """The refusal of a rated seat to a signed-in leaver paused from rated tables (issue 56,
        ratings.py); None for anyone else."""
        account = signed_in(hub().store.people, request)
        return hub().ratings.pause_refusal(account and account["id"])

    async def may_look(request: Request) -> bool:
        return await may_spend(request, "looking", lobby, lookers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        store = open_store(db)
        site = Site(Bus(bus), process or process_name(0), lease, budget) if bus else None
        # One process alone, or a site: never both on one database (site.py, DatabaseTaken).
        try:
            if site is None:
                alone = (alone_name(), await hold_alone(store, alone_name(), redacted(db)))
            else:
                alone = None
                await site.join_database(store, redacted(db))
        except DatabaseTaken as e:
            log.error("%s", e)
            if site is not None:
                await site.bus.close()
            store.close()
            raise
        executor = make_executor(bot_processes)
        advice_executor = make_advice_executor(advice_workers, bot_processes > 0) if advice_workers else executor
        state["hub"] = assemble(store, executor, bot_delay=bot_delay, trick_pause=trick_pause,
                                bot_level_default=bot_level_default, away_timeout=away_timeout,
                                chance=chance, hello_timeout=hello_timeout, games=games, site=site,
                                advice_seconds=advice_seconds, advice_executor=advice_executor,
                                # (on the bots' own: as many at once as they have workers)
                                advice_workers=advice_workers or bot_processes or BOT_THREADS,
                                fill_seconds=fill_seconds, public_clock=public_clock,
                                push_contact=push_contact, push_hosts=push_hosts, time_bank=time_bank,
                                chat_words=chat_words, tournaments=tournaments)
        state["accounts"] = Accounts(store, may_sign_in, state["hub"].rename, forget=state["hub"].forget)
        state["hub"].tournaments.seat_room = seat_tournament
        state["hub"].start()
        state["hub"].tournaments.start()
        if site is not None:
            await site.start(state["hub"])
        resting = collector.collect_when_idle(asyncio.get_running_loop())
        try:
            yield
        finally:
            if resting is not None:
                resting.stop()
            await state["hub"].stop()  # (and each feature: the site's tasks, bus and lease)
            if alone is not None:
                alone[1].cancel()
                with contextlib.suppress(Exception):
                    store.release(ALONE, alone[0])
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
            if advice_executor is not executor:
                await asyncio.to_thread(advice_executor.shutdown, wait=True, cancel_futures=True)
            store.close()

    files = client_files.Assets(STATIC)  # hashed, gzipped once, the page's import map (issue 60)
    index = gives_browser_id(client_files.index_page(files))  # (one seat a person: issue 56)

    async def new_computer(request: Request):
        if not await may_create(request):
            return JSONResponse({"error": TOO_MANY_TABLES}, status_code=429)
        body = await read_body(request, NewComputer)
        if isinstance(body, JSONResponse):
            return body
        try:
            table_id, token = hub().new_computer(body.seats, body.level, body.game)
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({"table": table_id, "link": f"/t/{token}"})

    async def new_room(request: Request):
        if not await may_create(request):
            return JSONResponse({"error": TOO_MANY_TABLES}, status_code=429)
        body = await read_body(request, NewRoom)
        if isinstance(body, JSONResponse):
            return body
        account = signed_in(hub().store.people, request) if body.correspondence else None
        if body.correspondence and account is None:
            return JSONResponse({"error": SIGN_IN_FOR_CORRESPONDENCE}, status_code=401)
        if (body.rated if body.rated is not None else body.public) and (refused := paused(request)):
            return JSONResponse(refused, status_code=403)  # (a leaver's pause from rated tables: issue 56)
        try:
            table_id, tokens = hub().lobby.new_room(body.seats, body.game, public=body.public, clock=body.clock,
                                                    hints=body.hints, address=client_address(request),
                                                    rated=body.rated, correspondence=body.correspondence,
                                                    persons=persons(hub().store.people, request, client_address(request)))
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        links = [f"/t/{t}" for t in tokens]
        if account is not None:  # the host's seat is the host's account's (a table that waits days)
            state["accounts"].hold(account, links[:1])
        return JSONResponse({"table": table_id, "links": links})

    async def levels(request: Request):
        # The levels of the default game (the lobby before there were more games).
        return JSONResponse({"levels": list(levels_for(DEFAULT)), "default": hub().bot_level_default})

    def describe_games() -> bytes:
        """Every game's static facts, as the lobby and the table draw them: names, seats,
        computer levels and the deck (codes, groups in hand order, points, card names). One
        source of truth for each deck: the client keeps no copy of its own."""
        games = []
        for name in hub().games:
            game = get_game(name)
            games.append({"name": name, "title": game.title, "seats": list(game.seats),
                          "levels": list(levels_for(name)), "default_level": hub().default_level(game),
                          "deck": game.deck.describe()})
        return msgspec.json.encode({"games": games, "default": DEFAULT})

    async def list_games(request: Request):
        if "games" not in state:
            state["games"] = describe_games()
        return Response(state["games"], media_type="application/json", headers={"Cache-Control": "no-cache"})

    async def table_socket(websocket: WebSocket):
        await websocket.accept()
        await serve_socket(hub(), websocket, websocket.path_params["token"], Budget(*budget))

    routes = [
        Route("/", index),
        Route("/t/{token}", index),
        Route("/account", index),  # sign up, sign in, the account's sessions (accounts/)
        Route("/@/{name}", index),  # a player's profile (ratings.py)
        Route("/@/{name}/games", index),  # a player's archive and figures (archive.py, issue 58)
        Route("/leaderboard/{game}", index),
        Route("/daily/{game}", index),  # the daily deal's page (daily.py)
        Route("/tournament/{id}", index),  # a tournament's page (tournaments.py)
        Route("/tournaments", index),  # their list and the form to make one
        Route("/mod", index),  # the moderators' page (moderation.py; the page asks /api/mod/*)
        Route("/api/computer", new_computer, methods=["POST"]),
        Route("/api/rooms", new_room, methods=["POST"]),
        Route("/api/levels", levels),
        Route("/api/games", list_games),
        *lobby_routes(hub, may_browse, may_create, read_body, paused),
        *lesson_routes(hub, may_create),  # Learn to play: a lesson's table (lessons.py)
        # the daily deal: today's facts, standings and streak; a table of it (issue 59, daily.py)
        *daily_routes(lambda: hub().daily, may_browse, may_create, lambda request: signed_in(hub().store.people, request),
                      lambda account, links: state["accounts"].hold(account, links)),
        *ratings_routes(lambda: hub().ratings, may_browse),  # profiles and leaderboards (ratings.py)
        *archive_routes(lambda: hub().archive, may_browse, read_body),  # Your games (archive.py, issue 58)
        *accounts_feature.routes(lambda: state["accounts"], read_body, client_address),
        *push_routes(lambda: hub().notifier, read_body),
        # friends, challenges, blocks and the bell (issue 58)
        *social_routes(lambda: hub().social, read_body, client_address, may_spend_kept, seat_challenge,
                       lambda: hub().games, lambda account: hub().ratings.pause_refusal(account), shown_change),
        *passkeys.routes(lambda: state["accounts"], read_body, client_address),
        # reports, moderators and their log (issue 58)
        *moderation_routes(lambda: hub().moderation, read_body, client_address, may_spend_kept,
                           lambda: hub().ratings.rebuild(), lambda *a: hub().forget(*a)),
        # tournaments: arenas, Swiss and duplicates (issue 59)
        *tournament_routes(lambda: hub().tournaments, read_body, client_address, may_spend_kept, lambda: hub().games,
                           lambda account: hub().ratings.pause_refusal(account)),
        WebSocketRoute("/ws/{token}", table_socket),
        *watch_routes(lambda: hub().watch, index, may_look),  # spectators, replays, downloads (watch.py)
        *installable.routes(STATIC),  # the manifest and the service worker, from the site's root
        Route("/static/{path:path}", client_files.static_file(files), methods=["GET", "HEAD"]),
    ]
    # (the JSON answers over 1 KiB gzipped: replays, records, standings; the static files come
    # gzipped already, and the sockets are not HTTP)
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(SameSiteOnly), Middleware(GZipMiddleware, minimum_size=1024)])


def assemble(store: Store, executor, *, site: Site | None = None, advice_executor=None,
             advice_workers: int = ADVICE_WORKERS, advice_seconds: float = ADVICE_SECONDS,
             fill_seconds: float = FILL_SECONDS, public_clock: float = PUBLIC_CLOCK,
             push_contact: str = "mailto:operator@localhost", push_hosts: tuple[str, ...] = PUSH_HOSTS,
             time_bank: float = TIME_BANK, chat_words: str | None = None, tournaments: dict | None = None,
             **options) -> Hub:
    """The server's core with its features plugged in: the one place they are wired
    (core/features.py). The lobby (public tables, Play now, the turn clock), the spectators and
    looking back, hints and reviews, the ratings, and on a site of several processes its leases and relays.
    Each is also the hub's attribute of its name (``hub.lobby``...), for the routes and tests;
    the core itself reads none of them. ``options`` go to ``Hub``."""
    hub = Hub(store, executor, **options)
    hub.lobby = hub.plug(Lobby(hub, fill_seconds=fill_seconds, clock_seconds=public_clock, time_bank=time_bank))
    hub.watch = hub.plug(Watchers(hub))
    hub.advisor = hub.plug(Advisor(hub, advice_executor, advice_workers, advice_seconds))
    hub.notifier = hub.plug(Notifier(hub, contact=push_contact, push_hosts=push_hosts,
                                          shown=shown_change))
    hub.ratings = hub.plug(Ratings(hub))  # rated rooms' matches, rated as they end (issue 40)
    hub.archive = hub.plug(Archive(hub, shown_change))  # each deal's figures, kept as a match ends (issue 58)
    hub.lessons = hub.plug(Lessons(hub))  # a lesson's table dealt and scripted (issue 42)
    hub.daily = hub.plug(DailyDeals(hub))  # the daily deal's tables dealt and their scores written (issue 59)
    hub.social = hub.plug(Social(hub))  # friends online, for the social routes (issue 58)
    hub.moderation = hub.plug(Moderation(hub, chat_words))  # chat bans, the word list (issue 58)
    hub.tournaments = hub.plug(Tournaments(hub, **(tournaments or {})))  # arenas, Swiss, duplicates (issue 59)
    hub.site = site
    if site is not None:
        site.hub = hub
        hub.plug(site)
    return hub


BOT_THREADS = 4  # the tables' computers' threads where they have no processes
ADVICE_NICENESS = 10  # an advice process's: on a busy machine the tables' processes get the cores first


def make_executor(processes: int) -> Executor:
    if processes > 0:
        # spawn, not fork: the server has threads, and a forked copy of them is unsafe.
        return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"))
    return ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="bot")


def make_advice_executor(workers: int, processes: bool) -> Executor:
    """Where hints and reviews think (advice.py): ``workers`` processes where the bots have
    processes, each at a lower CPU priority than the tables', or else threads. (A thread keeps
    its priority: lowered, it could be stopped by the system while it holds the interpreter's
    lock, and every table would wait for it.)"""
    if processes:
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=os.nice, initargs=(ADVICE_NICENESS,))
    return ThreadPoolExecutor(workers, thread_name_prefix="advice")


async def read_body(request: Request, kind: type):
    """The request's body as ``kind``, or the error to answer. A body over MAX_BODY is refused
    with 413 before it is read (by its Content-Length), or as soon as it passes the limit."""
    too_large = JSONResponse({"error": BODY_TOO_LARGE}, status_code=413, headers={"connection": "close"})
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return too_large
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return too_large
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        return JSONResponse({"error": f"bad request: {e}"}, status_code=400)


def server_config(app, host: str, port: int, *, deflate: bool = False, proxy: str | None = None,
                  connections_per_address: int = CONNECTIONS_PER_ADDRESS,
                  header_timeout: float = HEADER_TIMEOUT, **options):
    """uvicorn's settings for the app: guarded connections (``guard``), frames up to 64 KiB,
    and forwarded headers (X-Forwarded-For) believed only from ``proxy``, the addresses of the
    operator's reverse proxy (comma-separated), never by default: uvicorn's own default
    believed any local client, which could then pass for any address it liked."""
    import uvicorn

    trusted = frozenset(a.strip() for a in (proxy or "").split(",") if a.strip())
    http, ws = protocols(ConnectionGuard(connections_per_address, header_timeout, trusted))
    # permessage-deflate off unless asked for: browsers offer it, and compressing every frame
    # for every seat cost the server 40 to 70 % more CPU per action and took it from 129 to
    # 313 KiB per table (a zlib context per socket); a frame is about 1.5 KB uncompressed
    # (bench/load.py --deflate, docs/benchmarks.md).
    return uvicorn.Config(app, host=host, port=port, http=http, ws=ws, ws_max_size=MAX_FRAME * 16,
                          ws_per_message_deflate=deflate, proxy_headers=bool(trusted),
                          forwarded_allow_ips=",".join(sorted(trusted)), **options)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "tarocchi.sqlite3", *,
          bot_delay: float = 1.0, trick_pause: float = 1.0, bot_processes: int | None = None,
          away_timeout: float = 60.0,
          new_tables: tuple[int, float] = (NEW_TABLES_BURST, NEW_TABLES_PER_SECOND),
          deflate: bool = False, proxy: str | None = None,
          connections_per_address: int = CONNECTIONS_PER_ADDRESS,
          header_timeout: float = HEADER_TIMEOUT, hello_timeout: float = HELLO_TIMEOUT,
          bus: str | None = None, lease: float = LEASE_SECONDS, reuse_port: bool = False,
          advice_seconds: float = ADVICE_SECONDS, advice_workers: int = ADVICE_WORKERS,
          push_contact: str = "mailto:operator@localhost", chat_words: str | None = None) -> None:
    """``reuse_port``: one of the workers of ``tarocchi serve --workers`` (server/workers.py),
    bound with SO_REUSEPORT beside the others."""
    import socket

    import uvicorn

    if bot_processes is None:
        bot_processes = min(2, os.cpu_count() or 1)
    app = create_app(db, bot_delay=bot_delay, trick_pause=trick_pause, bot_processes=bot_processes,
                     away_timeout=away_timeout, new_tables=new_tables, hello_timeout=hello_timeout,
                     bus=bus, process=process_name(port) if bus else None, lease=lease,
                     advice_seconds=advice_seconds, advice_workers=advice_workers, push_contact=push_contact,
                     chat_words=chat_words)
    # The tables and sockets held are kept out of the collector's passes, which walked all of
    # them in the server's latency tail (collector.py, docs/benchmarks.md, docs/history/benchmarks.md).
    collector.log_pauses_if_asked()
    collector.keep_long_lived_out()
    descriptors = raise_descriptor_limit()
    print(f"Tarocchi: http://{host}:{port}/  (database {redacted(db)}; open-file limit {descriptors}, "
          f"{connections_per_address} connections per address"
          + (f"; forwarded headers believed from {proxy}" if proxy else "") + ")", flush=True)
    # A stop waits at most 5 s for open websockets (their pages reconnect, to another worker in a
    # site of several), not for ever.
    config = server_config(app, host, port, deflate=deflate, proxy=proxy, log_level="warning",
                           connections_per_address=connections_per_address, header_timeout=header_timeout,
                           timeout_graceful_shutdown=5)
    if not reuse_port:
        uvicorn.Server(config).run()
        return
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # the kernel spreads connections over the workers
    sock.bind((host, port))
    uvicorn.Server(config).run(sockets=[sock])
