"""The ``tarocchi`` command: simulate, replay, serve, check-db, ratings, archive, duel, selfplay."""

from __future__ import annotations

import argparse
import json
import random
import sys

from .engine.game import DEFAULT, game_names, get_game
from .engine.match import Match
from .engine.records import RecordError, dumps, is_match, match_record, read_lines, replay, replay_match


def cmd_simulate(args: argparse.Namespace) -> int:
    """Whole deals by random legal players (or a bot level), one record a line."""
    from .bots import levels_for, make_player  # bots sit above the engine; imported only when asked for

    game = get_game(args.game)
    seats = args.seats or game.seats[0]
    if seats not in game.seats:
        print(f"tarocchi simulate: {game.name} is played at {' or '.join(map(str, game.seats))} seats",
              file=sys.stderr)
        return 2
    if args.player not in levels_for(game.name):
        print(f"tarocchi simulate: the {args.player} player does not play {game.name}; it has "
              f"{', '.join(levels_for(game.name))}", file=sys.stderr)
        return 2
    if args.throw_in and game.name != "sicilian":
        print("tarocchi simulate: --throw-in is a Sicilian option (R10)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    options = game.options(forced_call=not args.throw_in) if game.name == "sicilian" else game.options()
    player = make_player(args.player, seed=args.seed, game=game.name)
    out = open(args.out, "w") if args.out else sys.stdout
    def play(deal) -> None:
        while not deal.done:
            deal.apply(player(deal.view(deal.to_act)), deal.to_act)

    try:
        if args.matches:  # whole matches, one record a line (to a score: C21, B26)
            for _ in range(args.matches):
                match = Match.drawn(seats, rng, options, game)
                while not match.over:
                    play(match.start_deal(rng))
                out.write(dumps(match_record(match)) + "\n")
            return 0
        for i in range(args.deals):
            deal = game.shuffled(seats, rng.randrange(seats), rng, options)
            play(deal)
            out.write(dumps(deal.record()) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def _replayed(record: object) -> dict:
    """What replay prints for one record: a deal's count, or a whole match's result."""
    if is_match(record):
        match = replay_match(record)
        if not match.over:
            raise RecordError(f"the match is not finished ({len(match.deals)} deals, totals {match.totals})")
        return {"game": match.game.name, "deals": len(match.deals), "totals": match.totals, "winners": match.winners()}
    deal = replay(record)
    if not deal.done:
        raise RecordError(f"the deal is not finished ({len(deal.history)} actions, {deal.phase})")
    return deal.count.to_json()


def cmd_replay(args: argparse.Namespace) -> int:
    """Re-check every action of every record; print each deal's count as one JSON line."""
    src = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    n = 0
    try:
        for n, (line, record) in enumerate(read_lines(src), 1):
            try:
                out = _replayed(record)
            except RecordError as e:
                # the message names the action index itself: "action 5 (seat 1, 'KC'): ..."
                print(f"tarocchi replay: record {n} (line {line}): {e}", file=sys.stderr)
                return 1
            print(json.dumps({"record": n, **out}, separators=(",", ":")))
        if not n:
            print(f"tarocchi replay: {'the input' if args.file == '-' else args.file} holds no record",
                  file=sys.stderr)
            return 1
    except RecordError as e:
        print(f"tarocchi replay: {e}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"tarocchi replay: record {n + 1}: the file is not UTF-8 text", file=sys.stderr)
        return 1
    finally:
        if src is not sys.stdin:
            src.close()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .server.app import serve

    if args.workers > 1:
        if not args.bus:
            print("tarocchi serve: --workers needs --bus (the processes of one site talk over Redis; "
                  "docs/operations.md)", file=sys.stderr)
            return 2
        from .server.workers import supervise

        return supervise(serve_args(args), args.workers)
    serve(host=args.host, port=args.port, db=args.db, bot_delay=args.bot_delay,
          trick_pause=args.trick_pause, bot_processes=args.bot_processes,
          away_timeout=args.away_timeout, new_tables=(args.new_tables, args.new_tables_per_second),
          deflate=args.deflate, proxy=args.proxy, connections_per_address=args.connections_per_address,
          header_timeout=args.header_timeout, hello_timeout=args.hello_timeout, bus=args.bus,
          lease=args.lease, reuse_port=args.reuse_port, advice_workers=args.advice_workers,
          push_contact=args.push_contact, chat_words=args.chat_words,
          **({} if args.advice_seconds is None else {"advice_seconds": args.advice_seconds}))
    return 0


def advice_workers(text: str) -> int:
    """``--advice-workers``: 0 to 64."""
    if not text.isdigit() or int(text) > 64:
        raise argparse.ArgumentTypeError(f"a whole number from 0 to 64, not {text!r}")
    return int(text)


def advice_seconds(text: str) -> float:
    """``--advice-seconds``: more than 0, at most 10 (a hint must come while the turn lasts)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 10:
        raise argparse.ArgumentTypeError(f"a number of seconds, more than 0 and at most 10, not {text!r}")
    return seconds


def serve_args(args: argparse.Namespace) -> list[str]:
    """The ``serve`` settings of ``args`` again, as a worker's command line (--workers 1)."""
    out = []
    for action in build_parser()._subparsers._group_actions[0].choices["serve"]._actions:
        if not action.option_strings or action.dest in ("help", "workers", "reuse_port"):
            continue
        value = getattr(args, action.dest)
        if isinstance(action, argparse._StoreTrueAction):
            out += [action.option_strings[0]] if value else []
        elif value is not None:
            out += [action.option_strings[0], str(value)]
    return out


def cmd_account(args: argparse.Namespace) -> int:
    """``tarocchi account reset NAME``: a player who lost their password (and their recovery
    codes) asks the operator, who gives them the password printed here; they change it once
    signed in. ``tarocchi account mod NAME [--remove]``: the moderator's role (issue 58). Safe beside a running server (one transaction in the shared database)."""
    import os
    import secrets

    from .server.accounts import DEFAULT_HASHER
    from .server.core.store import open_store

    if "://" not in args.db and not os.path.isfile(args.db):
        print(f"tarocchi account: no database at {args.db}", file=sys.stderr)
        return 2
    store = open_store(args.db)
    try:
        account = store.people.account_named(args.name)
        if account is None:
            print(f"tarocchi account: no account named {args.name!r}", file=sys.stderr)
            return 1
        if args.action == "mod":  # (issue 58: a moderator's role, given or taken back by the operator)
            store.people.set_moderator(account["id"], not args.remove)
            print(f"{account['name']}: {'no longer a moderator' if args.remove else 'a moderator'}")
            return 0
        password = secrets.token_urlsafe(12)
        store.people.set_password(account["id"], DEFAULT_HASHER.hash(password))  # (and every session ends)
        print(f"{account['name']}: new password {password} (every session of the account is signed out)")
        return 0
    finally:
        store.close()


def cmd_check_db(args: argparse.Namespace) -> int:
    """Replay every table's stream in a database, as a server would load it; list each one
    that does not replay, with its first failing event and why (docs/operations.md)."""
    import os
    import sqlite3

    from .server.core.store import DamagedRow, SqliteStore, open_store
    from .server.core.tables import check_stream

    url = "://" in args.file  # a PostgreSQL database (read like a server would)
    if not url and not os.path.isfile(args.file):
        print(f"tarocchi check-db: no database at {args.file}", file=sys.stderr)
        return 2
    broken = 0
    try:
        store = open_store(args.file) if url else SqliteStore.read_only(args.file)
        ids = store.table_ids()
    except (sqlite3.Error, OSError) as e:
        print(f"tarocchi check-db: {args.file}: {e}", file=sys.stderr)
        return 2
    try:
        for table_id in ids:
            try:
                failure = check_stream(table_id, store.events(table_id))
            except DamagedRow as e:
                failure = e
            if failure is not None:
                broken += 1
                print(f"table {table_id}: version {failure.version} ({failure.kind}): {failure.reason}")
    finally:
        store.close()
    print(f"{len(ids)} tables, {broken} that do not replay", file=sys.stderr)
    return 1 if broken else 0


REBUILD_LEASE = 10.0  # seconds the rebuild holds the database's lease unless renewed (every second)


def cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    """Every rating again from the rated matches stored, in the order they were rated, with the
    server's own rater (server/ratings.py): the same values the live server wrote. Run with the
    server stopped: a match rated while the rebuild runs would be overwritten. So the rebuild
    refuses a database a server holds, and holds the database's lease itself meanwhile (a
    server started then waits, and refuses to start if the rebuild outlasts its wait)."""
    import os
    import socket
    import time

    from .server.core.store import open_store, redacted
    from .server.ratings import ordinal, recompute
    from .server.site import ALONE

    if "://" not in args.db and not os.path.isfile(args.db):
        print(f"tarocchi ratings rebuild: no database at {args.db}", file=sys.stderr)
        return 2
    store = open_store(args.db)
    me = f"ratings-rebuild:{socket.gethostname()}:{os.getpid()}"
    try:
        serving = store.live_owners()
        if serving or store.acquire(ALONE, me, REBUILD_LEASE) != me:
            print(f"tarocchi ratings rebuild: a Tarocchi server serves {redacted(args.db)} "
                  f"({', '.join(sorted(serving)) or 'starting'}): stop it first, then rebuild", file=sys.stderr)
            return 1
        try:
            def renewing(matches):
                renewed = time.monotonic()
                for match in matches:
                    if time.monotonic() - renewed > 1.0:
                        store.renew(me, REBUILD_LEASE, [ALONE])
                        renewed = time.monotonic()
                    yield match

            ratings, rated, departed = recompute(renewing(store.people.rated_matches()))
            store.people.replace_ratings(ratings, ordinal)
        finally:
            store.release(ALONE, me)
    finally:
        store.close()
    keys: dict[str, int] = {}
    for _, key in ratings:
        keys[key] = keys.get(key, 0) + 1
    print(f"{rated} rated matches replayed; {len(ratings)} ratings written for "
          f"{len({account for account, _ in ratings})} accounts"
          + (f" ({', '.join(f'{k}: {n}' for k, n in sorted(keys.items()))})" if keys else ""))
    if departed:
        print(f"{departed} of those matches had a seat of an account deleted before schema 6 (no anonymous "
              f"identity kept): rated as a newcomer's, so the others' ratings may differ a little from the live ones")
    return 0


def cmd_archive_backfill(args: argparse.Namespace) -> int:
    """Each deal's figures (issue 58, "Your games": server/archive.py) for the matches recorded
    before schema 7, from their tables' stored events, so that an old match counts as a new one.
    Safe beside a running server: it writes only the matches that have none, and a match ending
    now has its own from the server."""
    import os

    from .server.archive import backfill
    from .server.core.store import open_store

    if "://" not in args.db and not os.path.isfile(args.db):
        print(f"tarocchi archive backfill: no database at {args.db}", file=sys.stderr)
        return 2
    store = open_store(args.db)
    try:
        filled, broken = backfill(store)
    finally:
        store.close()
    print(f"{filled} match{'' if filled == 1 else 'es'} given their deals' figures"
          + (f"; {broken} left without (their tables' streams do not replay: tarocchi check-db)" if broken else ""))
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    from .bots.duel import main as duel_main

    return duel_main(args)


def cmd_selfplay(args: argparse.Namespace) -> int:
    from .bots.learned.selfplay import main as selfplay_main

    return selfplay_main(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tarocchi", description="Italian tarot card games: "
                                + ", ".join(game_names()))
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("simulate", help="play whole deals and write records as JSON lines")
    s.add_argument("--game", choices=game_names(), default=DEFAULT)
    s.add_argument("--seats", type=int, choices=(3, 4), default=None, help="default: the game's smallest table")
    s.add_argument("--deals", type=int, default=1)
    s.add_argument("--matches", type=int, default=0,
                   help="play this many whole matches instead, one match record a line")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--player", default="random", help="random (default) or a bot level")
    s.add_argument("--throw-in", action="store_true", help="four seats: throw in every all-pass deal (R10)")
    s.add_argument("--out", help="write to this file instead of stdout")
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="re-check records of any game, deals or whole matches (JSON lines, "
                       "- for stdin), and print each count or match result")
    r.add_argument("file")
    r.set_defaults(func=cmd_replay)

    v = sub.add_parser("serve", help="start the web table")
    v.add_argument("--host", default="127.0.0.1")
    v.add_argument("--port", type=int, default=8000)
    v.add_argument("--db", default="tarocchi.sqlite3",
                   help="SQLite database file, or a PostgreSQL URL: postgresql://user@host/dbname "
                        "(docs/operations.md)")
    v.add_argument("--bot-delay", type=float, default=1.0, help="seconds a computer player waits before it acts")
    v.add_argument("--trick-pause", type=float, default=1.0, help="extra seconds a finished trick stays shown")
    v.add_argument("--bot-processes", type=int, default=None,
                   help="worker processes for computer players (default: up to 2; 0: threads)")
    v.add_argument("--away-timeout", type=float, default=60.0,
                   help="seconds a room seat must be away before the others may let the computer play it")
    v.add_argument("--new-tables", type=int, default=30,
                   help="new tables one client address may create at once (then --new-tables-per-second)")
    v.add_argument("--new-tables-per-second", type=float, default=0.1)
    v.add_argument("--deflate", action="store_true",
                   help="let browsers compress frames (permessage-deflate): less bandwidth, but about "
                        "40-70%% more server CPU per action (docs/benchmarks.md)")
    v.add_argument("--proxy", metavar="ADDRESS",
                   help="the reverse proxy's address (comma-separated for several): believe its "
                        "X-Forwarded-For and X-Forwarded-Proto, and do not cap its connections "
                        "(default: no proxy, forwarded headers ignored; docs/operations.md)")
    v.add_argument("--connections-per-address", type=int, default=64,
                   help="connections one client address may hold open at once")
    v.add_argument("--header-timeout", type=float, default=5.0,
                   help="seconds a client has to send its request headers before it is closed")
    v.add_argument("--hello-timeout", type=float, default=5.0,
                   help="seconds a new websocket has to say hello before it is closed")
    v.add_argument("--bus", metavar="REDIS_URL",
                   help="one site of several server processes on one shared database: their Redis "
                        "(redis://host:port or unix:///path); each table is driven by one process, the "
                        "others relay to it (docs/operations.md, 'Several processes'). Default: none, this "
                        "process alone")
    v.add_argument("--lease", type=float, default=5.0,
                   help="with --bus: seconds a process's hold on a table lasts unless renewed; a table whose "
                        "process died is taken over after this")
    v.add_argument("--workers", type=int, default=1,
                   help="server processes on this port, one site (needs --bus and a database they share; "
                        "the advice: one per core)")
    v.add_argument("--advice-seconds", type=advice_seconds, default=None,
                   help="CPU seconds the computer may spend on a hint, or on each decision of a deal's "
                        "review (default: the strongest level's own budget a decision, 0.6)")
    v.add_argument("--advice-workers", type=advice_workers, default=1,
                   help="hints and reviews think on workers of their own, never the computer players' "
                        "(processes where they have processes, else threads): how many (default 1; 0 puts "
                        "them on the computer players' workers, as before issue 37, only to measure the "
                        "difference: bench/advice_load.py)")
    v.add_argument("--push-contact", default="mailto:operator@localhost",
                   help="the operator's address the push services are given with each notification "
                        "(VAPID's sub: a mailto: or https: URL; docs/operations.md, \"Notifications\")")
    v.add_argument("--chat-words", default=None,
                   help="a file of the operator's own words and phrases (one a line) that hide a chat line "
                        "from all but its sender, beside the shipped lists (docs/operations.md, \"Moderation\")")
    v.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # a worker of --workers
    v.set_defaults(func=cmd_serve)

    c = sub.add_parser("check-db", help="list every table of a database whose stream does not replay, "
                       "with its first failing event and why")
    c.add_argument("file", help="SQLite database file, or a PostgreSQL URL")
    c.set_defaults(func=cmd_check_db)

    a = sub.add_parser("account", help="an operator's hand on the accounts (docs/operations.md)")
    a.add_argument("action", choices=["reset", "mod"], help="reset: give the account a new password, printed "
                   "once, and sign it out everywhere; mod: make the account a moderator (issue 58)")
    a.add_argument("name", help="the account's name (any case)")
    a.add_argument("--remove", action="store_true", help="mod: take the moderator's role back")
    a.add_argument("--db", default="tarocchi.sqlite3", help="SQLite database file, or a PostgreSQL URL")
    a.set_defaults(func=cmd_account)

    g = sub.add_parser("ratings", help="the players' ratings (issue 40)")
    rsub = g.add_subparsers(dest="ratings_command", required=True)
    rb = rsub.add_parser("rebuild", help="recompute every rating from the rated matches stored, in their order "
                         "(with the server stopped: it refuses a database a server holds)")
    rb.add_argument("--db", default="tarocchi.sqlite3",
                    help="SQLite database file, or a PostgreSQL URL (docs/operations.md)")
    rb.set_defaults(func=cmd_ratings_rebuild)

    g = sub.add_parser("archive", help="the players' archives of matches (issue 58)")
    asub = g.add_subparsers(dest="archive_command", required=True)
    ab = asub.add_parser("backfill", help="each deal's figures for the matches recorded before schema 7, "
                         "from their stored events (safe beside a running server)")
    ab.add_argument("--db", default="tarocchi.sqlite3",
                    help="SQLite database file, or a PostgreSQL URL (docs/operations.md)")
    ab.set_defaults(func=cmd_archive_backfill)

    d = sub.add_parser("duel", help="duplicate match between bots")
    d.add_argument("--game", choices=game_names(), default=DEFAULT)
    d.add_argument("--seats", type=int, choices=(3, 4), default=None, help="default: the game's smallest table")
    d.add_argument("--deals", type=int, default=100)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    d.add_argument("--mirror", action="store_true", help="also rotate B among As")
    d.add_argument("bots", nargs=2, metavar="BOT",
                   help="a level (random, rule, search, expert); expert@SECONDS: its CPU budget a decision "
                        "(expert@SECONDS/WORLDS: and its cap of worlds); "
                        "LEVEL+seeing: the same bot given every hand (the perfect-information bound)")
    d.set_defaults(func=cmd_duel)

    sp = sub.add_parser("selfplay", help="the teacher's decisions from every seat's view, one deal a JSON line "
                        "(issue 43: the learned level's data); resumable")
    sp.add_argument("--game", choices=game_names(), default=DEFAULT)
    sp.add_argument("--seats", type=int, choices=(3, 4), default=None, help="default: the game's smallest table")
    sp.add_argument("--deals", type=int, default=100, help="deals in the file when done (those there are kept)")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--jobs", type=int, default=0, help="worker processes (default 0: one a core)")
    sp.add_argument("--teacher", default="search",
                    help="a level, its time limit off (default search; expert: the full expert), or "
                         "expert/WORLDS: the expert with that many worlds and no time limit")
    sp.add_argument("--player", default=None,
                    help="a level (learned) that plays one seat (each place from the dealer in turn) while "
                         "the teacher still says its choice at every decision (DAgger: the teacher's "
                         "choices in the player's deals)")
    sp.add_argument("--out", required=True, help="the file of records (appended to)")
    sp.set_defaults(func=cmd_selfplay)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0
    except OSError as e:
        print(f"tarocchi: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
