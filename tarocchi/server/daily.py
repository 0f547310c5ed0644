"""The daily deal (issue 59): each day, for each game, a few deals the same for everyone, played
against the computers whenever the player likes, ranked by matchpoints.

**The day's deals.** Each day (UTC) and game has ``DEALS`` deck orders and a first dealer, drawn
from an HMAC of the site's own secret (``People.site_key``: made once, the same on every process
of a site) over the day, the game and the deal's number: nobody can tell them before the day, and
everyone gets the same that day. A daily table is a computer table (its person at seat 0, the
others ``learned``: cheap enough for thousands, docs/benchmarks.md) whose creation says so
(``Table.daily``); this feature deals its first match from the day's decks, the dealer moving on
as in any match, so the same deal has the same dealer for everyone. A game played to a score
(Calabresella, Ottocento) whose match is not over after them plays on with fresh cards, as any
computer table; one whose match ends sooner ends the try with fewer deals.

**Ranked and unranked.** Signed in, POST /api/daily/<game> gives the account's one ranked try
of the day: a second POST gives the same table while it is unfinished, and 409 with the result
once it is. Signed out, it gives an unranked table of the same deals (nothing is stored of it).
A ranked table writes its person's score at each deal's end (``store/dailies.py``); the day's
standings rank each try by matchpoints (``core/matchpoints.py``) against every ranked try that
played the same deal from the same seat, as a percentage over the deals compared. No hints at a
daily table: the computer's advice would play it for the person.

**Cards stay hidden.** The daily routes answer public facts only: the day, the deals, the seats,
how many played, names and percentages, the person's own status and streak. No card of the day
is in any of them (tests/server/test_daily.py swaps two days' decks and compares the bytes); the
cards a person sees are their own table's, dealt when it deals them. (A person may of course play
signed out first and learn the deals: the ranked try is the honest player's.)

**Streak.** Consecutive days (UTC) with a ranked try of the game, up to today, or up to yesterday
while today's is not begun.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING

from tarocchi.engine.game import get_game

from .core.features import Feature
from .core.matchpoints import standings
from .core.tables import BETWEEN, OVER, WAITING, shuffled_deck, utc_day

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.tables import Table

log = logging.getLogger("tarocchi.server.daily")

DEALS = 3  # the day's deals of each game
LEVEL = "learned"  # the computers' level at a daily table
PERSON = 0  # the person's seat at a computer table
SECRET = "daily-deals"  # the site key the day's decks are drawn from
STANDINGS_SHOWN = 100  # the day's standings list at most this many (and the person's own row)
# Seconds a day's standings are kept before they are read and ranked again (every score of the
# day: thousands of rows), unless this process wrote a score of that day and game meanwhile.
STANDINGS_KEPT = 5.0
ALREADY_PLAYED = "you have played today's daily deal of this game: come back tomorrow"
NO_DAILY = "no daily deal for that game"


today = utc_day  # the day (UTC, ISO) of a wall clock


def streak(days: list[str], day: str) -> int:
    """Consecutive days with a try up to ``day``, or up to the day before while ``day`` has none
    (``days``: the days with a try, any order)."""
    have = set(days)
    at = datetime.date.fromisoformat(day)
    if day not in have:
        at -= datetime.timedelta(days=1)
    n = 0
    while at.isoformat() in have:
        n += 1
        at -= datetime.timedelta(days=1)
    return n


def ranked(rows: list[tuple[str, int, float]], deals: int) -> list[dict]:
    """The day's standings from its stored scores (name, deal, score): each deal a comparison
    group of everyone's score at it; rows {"name", "percent", "deals", "rank"}, the best first."""
    groups: list[dict] = [{} for _ in range(deals)]
    for name, deal, score in rows:
        if 0 <= deal < deals:
            groups[deal][name] = score
    return [{"name": r["player"], "percent": round(r["percent"], 1), "deals": r["groups"], "rank": r["rank"]}
            for r in standings(groups)]


class DailyDeals(Feature):
    """Deals a daily table from the day's decks and writes its ranked scores as its deals end."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.written: dict[str, tuple[int, bool]] = {}  # table held here -> (deals, finished) last stored
        self._secret: bytes | None = None
        self.kept: dict[tuple[str, str], tuple[float, list[dict]]] = {}  # (day, game) -> (when, standings)

    # --- the day's deals -----------------------------------------------------------------------

    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = bytes.fromhex(self.hub.store.people.site_key(SECRET, lambda: secrets.token_hex(32)))
        return self._secret

    def _draw(self, day: str, game: str, what: str) -> random.Random:
        digest = hmac.new(self.secret(), f"{day}/{game}/{what}".encode(), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def first_dealer(self, day: str, game: str, seats: int) -> int:
        return self._draw(day, game, "dealer").randrange(seats)

    def deck(self, day: str, game: str, deal: int) -> list[str]:
        """The day's deck order of deal ``deal`` (from 0), as the stream stores it."""
        return shuffled_deck(self._draw(day, game, str(deal)), get_game(game))

    def today(self) -> str:
        return today(self.hub.now())

    # --- the table -----------------------------------------------------------------------------

    def new_table(self, game: str) -> tuple[str, str, dict]:
        """A daily table of today's deals of ``game``: (table id, token, its ``daily``)."""
        rules = get_game(game)
        daily = {"game": rules.name, "day": self.today(), "deals": DEALS, "try": None}
        table_id, token = self.hub.new_computer(rules.seats[0], LEVEL, rules.name,
                                                settings={"daily": daily, "hints": False})
        return table_id, token, daily

    def advance(self, table: Table) -> bool:
        daily = table.daily
        if daily is None:
            return False
        day, game = daily["day"], table.game.name
        if table.status == WAITING and all(table.joined) and table.match is None:
            self.hub.write(table, "match", {"first_dealer": self.first_dealer(day, game, table.seats)})
            self.hub.write(table, "deal", {"deck": self.deck(day, game, 0)})
            return True
        if (table.status == BETWEEN and table.matches == 1 and table.all_ready()
                and len(table.match.deals) < daily["deals"]):
            self.hub.write(table, "deal", {"deck": self.deck(day, game, len(table.match.deals))})
            return True
        return False  # (after the day's deals, or on a rematch: any deal)

    def changed(self, table: Table) -> None:
        """A ranked table's person's scores, written as each of the day's deals ends (again
        after a restart: the same rows)."""
        daily = table.daily
        if daily is None or daily.get("try") is None or table.match is None or table.matches != 1:
            return
        deals = table.match.deals[:daily["deals"]]
        done = sum(1 for d in deals if d.done)
        finished = done == daily["deals"] or table.status == OVER
        if self.written.get(table.id) == (done, finished) or (done == 0 and not finished):
            return
        try:
            self.hub.store.dailies.score(daily["try"], [d.returns()[PERSON] for d in deals[:done]], finished)
        except Exception:  # (the next change of the table writes them again)
            log.exception("table %s: could not store its daily scores", table.id)
            return
        self.written[table.id] = (done, finished)
        self.kept.pop((daily["day"], daily["game"]), None)  # (its player sees their new place at once)

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.written.pop(table_id, None)

    # --- what the routes answer ------------------------------------------------------------------

    def standings(self, day: str, game: str) -> list[dict]:
        """The day's standings (``ranked``), kept a few seconds (``STANDINGS_KEPT``)."""
        now = time.monotonic()
        kept = self.kept.get((day, game))
        if kept is not None and now - kept[0] < STANDINGS_KEPT:
            return kept[1]
        rows = ranked(self.hub.store.dailies.scores(day, game), DEALS)
        if len(self.kept) >= 64:
            self.kept.clear()  # (bounded: yesterday's are not asked for again)
        self.kept[day, game] = (now, rows)
        return rows

    def ranked_table(self, game: str, account: dict) -> tuple[dict, bool]:
        """The account's ranked try of today's ``game``: (its row, whether it is new). A new
        table is made only where it has none (two at once: one try, the other table unused)."""
        day = self.today()
        mine = self.hub.store.dailies.try_of(day, game, account["id"])
        if mine is not None:
            return mine, False
        rules = get_game(game)
        try_id = secrets.token_urlsafe(12)
        daily = {"game": rules.name, "day": day, "deals": DEALS, "try": try_id}
        table_id, token = self.hub.new_computer(rules.seats[0], LEVEL, rules.name,
                                                settings={"daily": daily, "hints": False})
        mine = self.hub.store.dailies.begin(try_id, day, rules.name, account["id"], table_id, token)
        return mine, mine["id"] == try_id

    def describe(self, game: str, account: dict | None) -> dict:
        """Today's daily deal of ``game`` as anyone may know it, and the account's own status:
        public facts alone, no card (the same bytes whatever the day's decks)."""
        rules, day, dailies = get_game(game), self.today(), self.hub.store.dailies
        begun, finished = dailies.played(day, rules.name)
        rows = self.standings(day, rules.name)
        answer = {"game": rules.name, "day": day, "deals": DEALS, "seats": rules.seats[0], "seat": PERSON,
                  "level": LEVEL, "played": begun, "finished": finished, "compared": len(rows),
                  "standings": rows[:STANDINGS_SHOWN], "me": None}
        if account is not None:
            mine = dailies.try_of(day, rules.name, account["id"])
            row = next((r for r in rows if r["name"] == account["name"]), None)
            answer["me"] = {"name": account["name"], "played": mine is not None,
                            "finished": bool(mine and mine["finished_at"] is not None),
                            "deals": mine["deals"] if mine else 0,
                            "link": f"/t/{mine['token']}" if mine and mine["finished_at"] is None else None,
                            "streak": streak(dailies.days(account["id"], rules.name), day),
                            "result": row}
        return answer


# --- the routes (app.create_app mounts them) ---------------------------------------------------


def routes(daily, may_browse, may_create, account_of, hold) -> list:
    """``GET /api/daily/{game}``: today's daily deal (``DailyDeals.describe``). ``POST
    /api/daily/{game}``: a table of it, ``{"table", "link", "ranked"}``; signed in, the
    account's ranked try (409 with the result once it is finished). ``daily()`` is the
    feature; ``may_browse``/``may_create`` spend the address's lobby and new-table budgets;
    ``account_of(request)`` is the signed-in account or None; ``hold(account, links)`` keeps a
    seat's link with the account ("Your tables")."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from .core.messages import TOO_MANY_LOBBY, TOO_MANY_TABLES

    def game_of(request: Request) -> str | None:
        game = request.path_params["game"]
        return game if game in daily().hub.games else None

    async def show(request: Request):
        game = game_of(request)
        if game is None:
            return JSONResponse({"error": NO_DAILY}, status_code=404)
        if not await may_browse(request):
            return JSONResponse({"error": TOO_MANY_LOBBY}, status_code=429)
        return JSONResponse(daily().describe(game, account_of(request)), headers={"Cache-Control": "no-store"})

    async def play(request: Request):
        game = game_of(request)
        if game is None:
            return JSONResponse({"error": NO_DAILY}, status_code=404)
        if not await may_create(request):
            return JSONResponse({"error": TOO_MANY_TABLES}, status_code=429)
        feature, account = daily(), account_of(request)
        if account is None:
            table_id, token, _ = feature.new_table(game)
            return JSONResponse({"table": table_id, "link": f"/t/{token}", "ranked": False})
        mine, new = feature.ranked_table(game, account)
        if mine["finished_at"] is not None:
            return JSONResponse({"error": ALREADY_PLAYED, "result": feature.describe(game, account)["me"]},
                                status_code=409)
        link = f"/t/{mine['token']}"
        if new:
            hold(account, [link])
        return JSONResponse({"table": mine["table_id"], "link": link, "ranked": True})

    return [Route("/api/daily/{game}", show), Route("/api/daily/{game}", play, methods=["POST"])]
