"""Your games (issue 58): an account's archive of finished matches, with filters, each linked to
its deals' replays, and the figures a player of these games wants, per game: deals played,
contracts taken and made by kind, the average per deal, the best and worst match, and the rating
over time.

**What is kept.** When a match ends, each of its deals' figures by seat (``games/figures.py``:
the contract and the seat's part in it, made or not, the seat's score for the deal, Sicilian's
Scommessa and Rivanto, Ottocento's declarations) is stored with the match's record, in the same
commit (``Feature.ended``: ``Ended.deals``, the store's ``deal_seats``). A match recorded before
(schema 7) gets them from its stored events: ``tarocchi archive backfill`` replays each such
table with the server's own ``Table`` (``backfill``), so an old match counts as a new one would.

**Who sees it.** The account itself, always; anyone else only while the account's archive is
public (``accounts.games_public``, ``POST /api/me/settings``). Public by default: the profile
(issue 40) already lists an account's latest matches, their players and results for anyone, so
the archive shows nothing a profile does not, only more of it and counted; a player who wants
it kept to themselves says so once. A private archive answers exactly as a name no account has
(the same 404), so that privacy tells nothing. A deleted account's seats carry no id or name
(issue 55): its matches show "a former player" to the others, and nothing of it is counted for
anyone.

**Replays.** A rated match's deals are public (its result is: issue 55), looked back at by
``/r/<table>.<match>/<deal>``; an unrated match's link would be the table's own, which opens its
chat and any rematch in play, so it gets none here, as on the profile.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from tarocchi.engine.game import game_names, get_game
from tarocchi.games.figures import deal_figures

from .core.features import Feature
from .core.hub import stored_table
from .core.store import off_loop
from .core.store.people import rating_key
from .core.tables import match_reference

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.store import Store
    from .core.store.people import Ended, People
    from .core.tables import Table

log = logging.getLogger("tarocchi.server")

PAGE = 50  # matches an archive's page lists
NAME_LIMIT = 100  # a longer name is no account's (accounts: 24 at most)

NO_SUCH_PLAYER = "no player has that name"  # (ratings.py's words: a private archive answers as none)
SIGNED_OUT = "you are not signed in"


class Settings(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/me/settings``: what the account changes (issue 58: its archive's privacy)."""

    games_public: bool


def deals_of(game: str, match) -> list[list[dict]]:
    """Each finished deal of ``match`` (an engine Match), each seat's figures (``Ended.deals``)."""
    return [[f.to_row() for f in deal_figures(game, d)] for d in match.deals if d.done]


def replay_link(table_id: str, match: int, rated: bool, deal: int = 1) -> str | None:
    """Where a recorded match's deal is looked back at: a rated match's own deals (issue 55)."""
    return f"/r/{match_reference(table_id, match)}/{deal}" if rated else None


def backfill(store: Store, each: Callable[[], None] = lambda: None) -> tuple[int, int]:
    """The deal figures of every recorded match that has none (recorded before schema 7), from
    its table's stored events: (matches filled, matches whose stream does not replay, left
    without). ``each()`` is called after each table (a caller's lease renewal)."""
    wanted: dict[str, list[tuple[int, str]]] = {}
    for table_id, match, game in store.people.matches_without_deals():
        wanted.setdefault(table_id, []).append((match, game))
    filled = broken = 0
    for table_id, matches in wanted.items():
        try:
            played = stored_table(table_id, store.events(table_id)).matches
        except ValueError as e:  # (tarocchi check-db says why; its matches stay uncounted)
            log.warning("table %s: its matches' deals cannot be read again: %s", table_id, e)
            broken += len(matches)
            continue
        for match, game in matches:
            if match <= len(played):
                store.people.put_deals(table_id, match, deals_of(game, played[match - 1]))
                filled += 1
            else:
                broken += 1
        each()
    return filled, broken


class Archive(Feature):
    """Stores each deal's figures as its match ends; answers the archive and the figures."""

    def __init__(self, hub: Hub, shown_change: Callable):
        self.hub = hub
        self.shown_change = shown_change  # (ratings.shown_change: a rating as players see it)

    @property
    def people(self) -> People:
        return self.hub.store.people

    def ended(self, table: Table, ended: Ended) -> None:
        try:
            ended.deals = deals_of(table.game.name, table.match)
        except Exception:  # (a figure never stops a match's end: its record is stored without them)
            log.exception("table %s: match %s's deals' figures could not be read; "
                          "tarocchi archive backfill tries again", table.id, table.matches)

    async def answer(self, work: Callable, *args):
        """``work(*args)`` off the event loop on PostgreSQL (its round trips), on it on SQLite."""
        return await off_loop(self.hub.store, work, *args)

    def shown_to(self, name: str, asker: dict | None) -> dict | None:
        """The account named ``name`` if ``asker`` (a signed-in account, or None) may see its
        archive: its own, or a public one; None otherwise, as for no such account."""
        account = self.people.account_named(name) if len(name) <= NAME_LIMIT else None
        if account is None:
            return None
        if (asker is None or asker["id"] != account["id"]) and not self.people.games_public(account["id"]):
            return None
        return account

    def games(self, name: str, asker: dict | None, filters: dict) -> dict | None:
        """One page of the archive (``filters``: ``People.games_of``'s, ``opponent`` a name)."""
        account = self.shown_to(name, asker)
        if account is None:
            return None
        filters = dict(filters)
        if (opponent := filters.pop("opponent", None)) is not None:
            found = self.people.account_named(opponent) if len(opponent) <= NAME_LIMIT else None
            if found is None or found["id"] == account["id"]:  # (no such account; oneself is no opponent)
                return {"name": account["name"], "games_public": self.people.games_public(account["id"]),
                        "matches": [], "next": None}
            filters["opponent"] = found["id"]
        rows, more = self.people.games_of(account["id"], limit=PAGE, **filters)
        matches = []
        for m in rows:
            me = next(p for p in m["players"] if p["you"])
            before, after = self.shown_change(m["before"], m["after"])
            matches.append({
                "table": m["table"], "match": m["match"], "game": m["game"], "seats": m["seats"],
                "key": rating_key(m["game"], m["seats"]), "rated": m["rated"], "at": m["ended"],
                "place": me["place"], "points": me["total"], "deals": m["deals"],
                "opponents": [p["name"] for p in m["players"] if not p["you"]],
                "replay": replay_link(m["table"], m["match"], m["rated"]),
                "rating_before": before, "rating_after": after,
            })
        return {"name": account["name"], "games_public": self.people.games_public(account["id"]),
                "matches": matches, "next": more}

    def figures(self, name: str, asker: dict | None) -> dict | None:
        """The account's figures, per game it played (in the lobby's order)."""
        account = self.shown_to(name, asker)
        if account is None:
            return None
        found = self.people.figures_of(account["id"])
        out = []
        for game in game_names():
            matches = [m for m in found["matches"] if m["game"] == game]
            if not matches:
                continue
            dealt = found["deals"].get(game, {"deals": 0, "thrown": 0, "points": 0, "declared": 0, "declarations": 0})
            # Best and worst by the match total; of equal ones, the latest.
            best = max(reversed(matches), key=lambda m: m["total"])
            worst = min(reversed(matches), key=lambda m: m["total"])
            ratings = []
            for seats in get_game(game).seats:
                points = [{"at": m["ended"], "rating": self.shown_change(None, m["after"])[1],
                           "table": m["table"], "match": m["match"]}
                          for m in matches if m["seats"] == seats and m["after"]]
                if points:
                    ratings.append({"key": rating_key(game, seats), "seats": seats, "points": points})
            out.append({
                "game": game, "matches": len(matches), "won": sum(1 for m in matches if m["place"] == 1),
                "deals": dealt["deals"], "thrown": dealt["thrown"], "played": dealt["deals"] - dealt["thrown"],
                "points": dealt["points"],
                "average": round(dealt["points"] / dealt["deals"], 2) if dealt["deals"] else None,
                "contracts": sorted(({k: c[k] for k in ("role", "contract", "taken", "made")}
                                     for c in found["contracts"] if c["game"] == game),
                                    key=lambda c: (c["role"] != "declarer", -c["taken"], c["contract"] or "")),
                "announced": sorted(({k: a[k] for k in ("announce", "said", "made")}
                                     for a in found["announced"] if a["game"] == game), key=lambda a: a["announce"]),
                "declared": ({"points": dealt["declared"], "deals": dealt["declarations"],
                              "average": round(dealt["declared"] / dealt["declarations"], 2)}
                             if dealt["declarations"] else None),
                "best": self._match_line(best), "worst": self._match_line(worst),
                "ratings": ratings,
            })
        return {"name": account["name"], "games_public": self.people.games_public(account["id"]), "games": out}

    @staticmethod
    def _match_line(m: dict) -> dict:
        return {"table": m["table"], "match": m["match"], "seats": m["seats"], "at": m["ended"], "points": m["total"],
                "place": m["place"], "rated": m["rated"], "replay": replay_link(m["table"], m["match"], m["rated"])}


def _day(text: str) -> float:
    """A day's start (UTC) from ``YYYY-MM-DD``; ValueError otherwise."""
    if len(text) != 10:
        raise ValueError(text)
    return datetime.datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=datetime.timezone.utc).timestamp()


def filters_of(query) -> dict | str:
    """The archive's filters from a query string's values (docs/protocol.md), or why they are
    bad (a 400)."""
    out: dict = {}
    game = query.get("game")
    if game is not None and game != "":
        if game not in game_names():
            return f"game is one of {', '.join(game_names())}"
        out["game"] = game
    seats = query.get("seats")
    if seats:
        sizes = sorted({n for g in game_names() for n in get_game(g).seats})
        if not seats.isdigit() or int(seats) not in sizes:
            return f"seats is {' or '.join(map(str, sizes))}"
        out["seats"] = int(seats)
    rated = query.get("rated")
    if rated:
        if rated not in ("true", "false"):
            return "rated is true or false"
        out["rated"] = rated == "true"
    result = query.get("result")
    if result:
        if result not in ("won", "lost"):
            return "result is won or lost"
        out["won"] = result == "won"
    opponent = query.get("opponent")
    if opponent:
        out["opponent"] = opponent.strip()
    for key, field, after in (("from", "since", 0), ("to", "until", 24 * 3600)):
        if value := query.get(key):
            try:
                out[field] = _day(value) + after  # (``to``'s whole day)
            except ValueError:
                return f"{key} is a day, YYYY-MM-DD"
    if "since" in out and "until" in out and out["since"] >= out["until"]:
        return "from is a day before to, or the same"
    before = query.get("before")
    if before:
        if not before.isdigit() or len(before) > 15:
            return "before is the next page's number an answer gave"
        out["before"] = int(before)
    return out


def routes(archive_of: Callable[[], Archive], may_browse, read_body) -> list:
    """``GET /api/players/{name}/games``, ``GET /api/players/{name}/figures`` and ``GET``/``POST
    /api/me/settings`` (docs/protocol.md, "Your games"). ``may_browse(request)`` spends the client
    address's lobby budget (False: a 429), as a profile does; ``read_body(request, kind)`` the
    app's reader of a JSON body (a 400 or 413 for a bad one)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from .core.messages import TOO_MANY_LOBBY
    from .core.sessions import signed_in

    headers = {"Cache-Control": "no-store"}

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers=headers)

    async def looked_up(request: Request, work: str, *args):
        if not await may_browse(request):
            return error(TOO_MANY_LOBBY, 429)
        archive = archive_of()
        asker = await archive.answer(signed_in, archive.people, request)
        found = await archive.answer(getattr(archive, work), request.path_params["name"], asker, *args)
        if found is None:
            return error(NO_SUCH_PLAYER, 404)
        return JSONResponse(found, headers=headers)

    async def games(request: Request):
        filters = filters_of(request.query_params)
        if isinstance(filters, str):
            return error(filters, 400)
        return await looked_up(request, "games", filters)

    async def figures(request: Request):
        return await looked_up(request, "figures")

    async def settings(request: Request):
        archive = archive_of()
        account = await archive.answer(signed_in, archive.people, request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if request.method == "POST":
            body = await read_body(request, Settings)
            if isinstance(body, Response):
                return body
            await archive.answer(archive.people.set_games_public, account["id"], body.games_public)
        return JSONResponse({"games_public": await archive.answer(archive.people.games_public, account["id"])},
                            headers=headers)

    return [
        Route("/api/players/{name}/games", games),
        Route("/api/players/{name}/figures", figures),
        Route("/api/me/settings", settings, methods=["GET", "POST"]),
    ]

