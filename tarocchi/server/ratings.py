"""Ratings (issue 40): OpenSkill's Plackett-Luce model, one rating per game and table size
(``sicilian/3`` and ``sicilian/4`` differ), the player's profile and the leaderboards.

**What is rated.** A match of a room whose matches are rated (``Table.rated``: as the host chose
at creation, else as public tables are), every seat a person's with an account of its own: the
account that opened the seat signed in (``Table.sitters``, issue 56; ``rate`` says None
otherwise), unless the match is casual (``casual_because``: nothing played out, two accounts
from one address, a computer's seat taken over). A computer table never is. The match is rated inside the commit
of the event that ends it (``Feature.ended`` sets the rater; ``People.record_ended`` calls it in
the store's transaction), so it is rated exactly once, or not at all if that commit fails.

**Who beat whom.** Each seat's place by its match total (``people.places``: the highest total
wins and a tie at the top is shared, R16, A16, C21; Ottocento's side with the higher total at
800, B26; equal totals share a place further down too), except that a seat the computer
played for most of a deal or more comes after every seat that was there (``Table.absent``).
Ottocento's partners (B5: seats 0 and 2 against 1 and 3) win and lose together over the match,
so they are rated as one team (``Player.team``, ``Game.sides``). Sicilian's called partner
(R15) is a side for one deal only: each seat is rated by its own match total.

**Shown.** A rating is shown as one number on a scale players know from chess sites
(``shown``): 1500 + 40 x the conservative value (mu - 3 sigma), never below 0. A newcomer
shows 1500 (its conservative value is 0), and the leaderboard's order is the conservative
value's. The result screen of a rated match shows each player's change (``GET
/api/matches/<table>.<match>``).

**Leavers** (issue 56, as Lichess's playban). A seat the computer played for most of a deal or
more when a rated room's match ended (``Player.absent``) is a leave of its account's. Two leaves
within ``LEAVES_WINDOW`` pause that account from rated tables for a while, a longer one with
each leave more (``PAUSES``), counted from the latest; the pause is said to that player alone
(``GET /api/me/pause``), and a rated seat from the lobby, Play now, or a new rated room is
refused meanwhile (``pause_refusal``).

**Rebuilding.** ``rate`` is a pure function of the players and their ratings before, floats in
and floats out, so replaying the stored rated matches in their order (``recompute``: ``tarocchi
ratings rebuild``) gives exactly the ratings the live server wrote.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from tarocchi.engine.game import game_names, get_game

from .core.features import Feature
from .core.store import off_loop
from .core.store.people import GONE, Player, rating_key
from .core.tables import match_reference

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.store.people import Ended, People
    from .core.tables import Table

# OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma grows by tau before
# each match, so a rating never freezes).
MODEL = PlackettLuce()

# A rating is provisional while its sigma is above this. It starts at 25/3 (8.33), and
# Plackett-Luce narrows it slowly at these table sizes: measured over 3 000 random matches, the
# mean sigma is 7.0 after about 8 matches at three seats, 10 in Ottocento's pairs and 12 at four
# seats each alone. So a rating is settled after about ten matches of its game and size, each
# of several deals: enough that one lucky evening does not make a leader.
PROVISIONAL_SIGMA = 7.0

LEADERBOARD_SIZE = 100  # players listed per board (one board per table size of a game)
PROFILE_MATCHES = 50  # the latest matches a profile lists
NAME_LIMIT = 100  # a longer name in a profile's address is no account's (accounts: 24 at most)

MIN_PLAYED_OUT = 1  # deals of a match played out (not thrown in) for it to be rated (issue 56)

# The number a rating is shown as (issue 56): 1500 + 40 x its conservative value, never below 0.
SHOWN_BASE, SHOWN_SCALE = 1500, 40

# Leavers (issue 56): the leaves of a week counted; the pause after the n-th (none for the first:
# a dropped connection or a crying child happens to anyone), from the latest leave.
LEAVES_WINDOW = 7 * 24 * 3600
PAUSES = (0, 0, 15 * 60, 60 * 60, 4 * 3600, 24 * 3600, 3 * 24 * 3600)
RATED_BANNED = "a moderator has stopped you from rated tables for a while"
PAUSED = "you left rated matches before their end: you may sit at rated tables again once your pause is over"

NO_SUCH_PLAYER = "no player has that name"
NO_SUCH_GAME = "no such game"
NO_SUCH_MATCH = "no such match: it is not over, or not recorded"
SIGNED_OUT = "you are not signed in"


def ordinal(mu: float, sigma: float) -> float:
    """The rating's conservative value, what players are ranked by: mu - 3 sigma (OpenSkill's
    ``ordinal``). A newcomer's is low (25 - 25 = 0) and grows as the rating settles."""
    return MODEL.rating(mu, sigma).ordinal()


def shown(mu: float, sigma: float) -> int:
    """The rating as players see it: a newcomer 1500, a first loss a little under it, never
    negative (OpenSkill's conservative value starts at 0 and may go below it)."""
    return max(0, round(SHOWN_BASE + SHOWN_SCALE * ordinal(mu, sigma)))


def shown_change(before, after) -> tuple[int | None, int | None]:
    """A match's ratings ``[mu, sigma]`` before and after, as shown: (before, after), a first
    rating's before a newcomer's 1500; (None, None) for a match that rated nobody."""
    if not after:
        return None, None
    return (shown(*before) if before else SHOWN_BASE), shown(*after)


def pause_after(leaves: list[float], now: float) -> dict | None:
    """The pause from rated tables that these leaves (their times, the earliest first, those of
    the last ``LEAVES_WINDOW``) give at ``now``: {"until", "leaves"}, or None."""
    recent = [at for at in leaves if at > now - LEAVES_WINDOW]
    until = recent[-1] + PAUSES[min(len(recent), len(PAUSES) - 1)] if recent else 0.0
    return {"until": until, "leaves": len(recent)} if until > now else None


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate(players: list[Player], before: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]] | None:
    """One match's new ratings (mu, sigma) by account (``people.Rater``): ``players`` with their
    accounts and places, ``before`` the ratings of those who have one already (the others start
    at OpenSkill's default). None when it is not to be rated: a seat without an account, or one
    account in two seats."""
    accounts = [p.account for p in players]
    if not all(accounts) or len(set(accounts)) != len(accounts):
        return None
    teams: dict[int, list[Player]] = {}
    for p in sorted(players, key=lambda p: p.seat):  # (the same order live and in a rebuild)
        teams.setdefault(p.team, []).append(p)
    if len(teams) < 2:
        return None
    sides = list(teams.values())
    ratings = [[MODEL.rating(*before.get(p.account, (MODEL.mu, MODEL.sigma))) for p in side] for side in sides]
    # A team's place is its members' (``places`` gives partners one); lower is better, ties draw.
    # (Weng and Lin's ties, as OpenSkill has them: after two tied first of four, the third
    # gains as much as they do; a tie at the top of a match is rare.)
    ranks = [float(min(p.place for p in side)) for side in sides]
    after = MODEL.rate(ratings, ranks=ranks)
    return {p.account: (float(r.mu), float(r.sigma))
            for side, rated in zip(sides, after) for p, r in zip(side, rated)}


def casual_because(table: Table) -> str | None:
    """Why a rated room's match that just ended is not rated after all (issue 56), or None.
    ``played``: none of its deals was played out (each thrown in: everybody passed), so a
    match passed through in seconds rates nobody (not "half of them": the rule bot throws in
    about one three-seat Sicilian deal in four, 34 of 150 measured, so an honest three-deal
    match would go unrated one time in eight; with one deal played out, one in 80); ``shared``:
    two seats' accounts sat down from one client address or from one browser (its id cookie:
    one person's accounts, or people at one address or device: they are not rated against each
    other, so the match is casual for everyone at it);
    ``computer``: a computer played a seat for nobody (Play now filled it) before a person
    took it, so that seat's result is not one person's."""
    if table.played_out() < MIN_PLAYED_OUT:
        return "played"
    for what in ("address", "device"):  # (one address, or one browser: issue 56)
        seen = [s[what] for s in table.sitters if s is not None and s.get(what)]
        if len(set(seen)) != len(seen):
            return "shared"
    if any(table.computer_played):
        return "computer"
    return None


def recompute(matches: Iterable[tuple[str, list[Player]]]) -> tuple[dict[tuple[str, str], tuple[float, float, int]], int, int]:
    """Every rating from the rated matches in the order they were rated (``People.rated_matches``):
    ((account, key) -> (mu, sigma, matches), the matches rated, those with a seat of an account
    deleted without an anonymous identity). A deleted account's seats carry its anonymous
    identity (``GONE``, issue 56): rated as the live server rated the account, match after
    match, so every other rating comes out the same, bit for bit; its own is thrown away. An
    account deleted before there were those (schema 5) left no identity: its seat is rated as
    a newcomer's would be, so the others' may differ a little from the live values."""
    ratings: dict[tuple[str, str], tuple[float, float, int]] = {}
    rated = departed = 0
    for key, players in matches:
        # (a seat of no identity: a newcomer each time, "#" keeps it apart from every identity)
        present = [dataclasses.replace(p, account=p.account or f"#{p.seat}") for p in players]
        departed += any(p.account is None for p in players)
        before = {p.account: ratings[(p.account, key)][:2] for p in present if (p.account, key) in ratings}
        after = rate(present, before)
        if after is None:
            continue
        rated += 1
        for account, (mu, sigma) in after.items():
            if not account.startswith("#"):  # (an anonymous identity's is kept for its next match)
                ratings[(account, key)] = (mu, sigma, ratings.get((account, key), (0.0, 0.0, 0))[2] + 1)
    return {k: r for k, r in ratings.items() if not k[0].startswith(GONE)}, rated, departed


class Ratings(Feature):
    """Rates the matches of rated rooms as they end; answers the profile and the leaderboards."""

    def __init__(self, hub: Hub):
        self.hub = hub

    @property
    def people(self) -> People:
        return self.hub.store.people

    async def answer(self, work: Callable, *args):
        """``work(*args)`` where this store is read: PostgreSQL's round trips (a profile is a
        few dozen) off the event loop every table shares, as the site's queries are; SQLite's
        microseconds on it (its one connection is the loop's)."""
        return await off_loop(self.hub.store, work, *args)

    def ended(self, table: Table, ended: Ended) -> None:
        ended.rated_room = table.kind == "room" and table.rated
        if ended.rated_room and casual_because(table) is None:
            ended.rater, ended.ordinal = rate, ordinal

    def pause(self, account: str, now: float | None = None) -> dict | None:
        """The account's pause from rated tables now, or None (``pause_after``)."""
        now = time.time() if now is None else now
        return pause_after(self.people.leaves_since(account, now - LEAVES_WINDOW), now)

    def pause_refusal(self, account: str | None) -> dict | None:
        """The answer to a rated seat asked for by ``account`` while it is paused, or while a
        moderator bans it from rated tables (issue 58: the ``sanctions`` table), else None."""
        if account and (until := self.people.sanctioned_until(account, "rated")):
            return {"error": RATED_BANNED, "until": until}
        found = self.pause(account) if account else None
        return {"error": PAUSED, "until": found["until"]} if found else None

    def rebuild(self) -> None:
        """Every rating again from the rated matches, as ``tarocchi ratings rebuild`` does, in
        one transaction no match's end comes between (issue 58: a match voided)."""
        self.people.rebuild_ratings(recompute, ordinal)

    def result(self, reference: str) -> dict | None:
        """A recorded match (``<table>.<match>``) as its result screen shows it: each player's
        place and, rated, their shown rating before and after; None if not recorded."""
        table_id, _, match = reference.rpartition(".")
        if not table_id or not match.isdigit() or len(reference) > 80:
            return None
        found = self.people.match_result(table_id, int(match))
        if found is not None:
            for p in found["players"]:
                p["rating_before"], p["rating_after"] = shown_change(p.pop("before"), p.pop("after"))
        return found

    def profile(self, name: str) -> dict | None:
        """A player's page: their ratings, and their latest matches with a link to look each
        back; None for no such account."""
        account = self.people.account_named(name) if len(name) <= NAME_LIMIT else None
        if account is None:
            return None
        ratings = {key: {**r, "provisional": provisional(r["sigma"]), "rating": shown(r["mu"], r["sigma"])}
                   for key, r in sorted(self.people.ratings(account["id"]).items())}
        matches = self.people.matches_of(account["id"], PROFILE_MATCHES)
        # A rated match is open to be looked back at, as its result is public: the replay of its
        # own deals (issue 55: never the table's watch link, which opens the rematch in play and
        # its chat). An unrated match (a private room's, by default) gets none.
        for m in matches:
            m["key"] = rating_key(m["game"], m["seats"])
            m["rating_before"], m["rating_after"] = shown_change(m["before"], m["after"])
            m["replay"] = f"/r/{match_reference(m['table'], m['match'])}/1" if m["rated"] else None
        return {"name": account["name"], "ratings": ratings, "matches": matches}

    def leaderboard(self, game: str, with_provisional: bool = True) -> dict | None:
        """A game's boards, one per table size: the top players by ordinal, those equal sharing
        a rank; None for no such game. Provisional ratings are listed and marked (a new site
        has no settled ones for weeks), unless ``with_provisional`` is False."""
        if game not in game_names():
            return None
        boards = []
        for seats in get_game(game).seats:
            key = rating_key(game, seats)
            rows = self.people.leaderboard(key, LEADERBOARD_SIZE, None if with_provisional else PROVISIONAL_SIGMA)
            players, rank = [], 0
            for n, row in enumerate(rows, 1):
                if n == 1 or row["ordinal"] != rows[n - 2]["ordinal"]:
                    rank = n
                players.append({"rank": rank, "name": row["name"], "ordinal": row["ordinal"], "mu": row["mu"],
                                "sigma": row["sigma"], "matches": row["matches"],
                                "provisional": provisional(row["sigma"]), "rating": shown(row["mu"], row["sigma"])})
            boards.append({"seats": seats, "key": key, "players": players})
        return {"game": game, "boards": boards, "provisional_sigma": PROVISIONAL_SIGMA,
                "scale": {"base": SHOWN_BASE, "per_point": SHOWN_SCALE}}


def routes(ratings_of: Callable[[], Ratings], may_browse) -> list:
    """``GET /api/players/{name}`` and ``GET /api/leaderboard/{game}`` (docs/protocol.md,
    "Ratings"). ``ratings_of()`` is the hub's; ``may_browse(request)`` spends the client
    address's lobby budget (False: a 429), as the lobby's own listing does."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from .core.messages import TOO_MANY_LOBBY
    from .core.sessions import signed_in

    headers = {"Cache-Control": "no-store"}

    async def looked_up(request: Request, missing: str, work: str, *args):
        """A public look-up (the lobby's budget): ``Ratings.<work>(*args)``'s answer, or 404."""
        if not await may_browse(request):
            return JSONResponse({"error": TOO_MANY_LOBBY}, status_code=429)
        ratings = ratings_of()
        found = await ratings.answer(getattr(ratings, work), *args)
        if found is None:
            return JSONResponse({"error": missing}, status_code=404, headers=headers)
        return JSONResponse(found, headers=headers)

    async def player(request: Request):
        return await looked_up(request, NO_SUCH_PLAYER, "profile", request.path_params["name"])

    async def leaderboard(request: Request):
        listed = request.query_params.get("provisional", "true").lower() not in ("false", "0", "no")
        return await looked_up(request, NO_SUCH_GAME, "leaderboard", request.path_params["game"], listed)

    async def match(request: Request):
        return await looked_up(request, NO_SUCH_MATCH, "result", request.path_params["reference"])

    async def my_pause(request: Request):
        account = signed_in(ratings_of().people, request)
        if account is None:
            return JSONResponse({"error": SIGNED_OUT}, status_code=401, headers=headers)
        found = ratings_of().pause(account["id"])
        return JSONResponse(found or {"until": None, "leaves": 0}, headers=headers)

    return [
        Route("/api/players/{name}", player),
        Route("/api/leaderboard/{game}", leaderboard),
        Route("/api/matches/{reference}", match),
        Route("/api/me/pause", my_pause),
    ]
