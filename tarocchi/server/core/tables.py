"""A table: the match, its seats and its version, rebuilt from its stream of events.

``Table`` is plain state with no I/O: ``check_*`` methods say why a request is refused (or
None), ``apply_event`` applies one event. The hub applies an event to the table in memory
before it is stored, and stores only what applied (a request whose events raise is undone
whole, ``Table.restore``); a restart replays the same events through the same
``apply_event``, so a table after a restart is exactly the table before it. ``check_stream``
says where a stored stream stops replaying (a broken table, ``tarocchi check-db``).
"""

from __future__ import annotations

import bisect
import collections
import datetime
import random
import secrets
import unicodedata
from collections.abc import Callable

import msgspec

from tarocchi.engine.game import DEFAULT, Game, IllegalAction, Reason, get_game
from tarocchi.engine.match import Match

ROOM_NAMES = ["host", "guest 1", "guest 2", "guest 3"]  # R17
# Each table has one watch token (192 bits, like a seat's): its public link, for spectators. It
# is a row of the store's seats under this seat number (one no playing seat can have: it indexes
# no seat list), and in the table's stream (``created``'s ``watch``, or a ``watch`` event).
WATCH_SEAT = 255
COMPUTER_NAMES = ["you", "computer 1", "computer 2", "computer 3"]
# A Play now table has no host: its people are players, and a computer that takes an empty
# seat is a computer (issue 38; it showed "guest 1" and "host").
QUICK_NAMES = ["player 1", "player 2", "player 3", "player 4"]
CHAT_LIMIT = 300
CHAT_KEPT = 100  # chat lines a table keeps in memory and a hello replays; the store keeps all
NAME_LIMIT = 24

WAITING, PLAYING, BETWEEN, OVER = "waiting", "playing", "between", "over"

# Refusals of table requests (the engine gives the reasons of game actions).
NOT_STARTED = "the deal has not started"
NOT_BETWEEN = "there is no deal to wait for now"
MATCH_OVER = "the match is over"
ONLY_HOST_STARTS = "only the host may start the room"
ONLY_HOST_PUBLIC = "only the host may list the room in the lobby"
ALREADY_STARTED = "the room has already started"
START_WITH_THREE = "a four-seat room starts early only with three seats joined"  # R17
NEEDS_EVERY_SEAT = "this game is played by four: the match starts when all four have joined"  # B5
NOT_OVER = "the match is not over yet"
TOURNAMENT_TABLE = "a tournament's table plays its one match with the players seated there"
NAME_EMPTY = "a name needs at least one letter or digit"
NAME_LONG = f"a name is at most {NAME_LIMIT} characters"
CHAT_EMPTY = "say something"
CHAT_LONG = f"a chat line is at most {CHAT_LIMIT} characters"
TAKEOVER_ROOM = "only a room lets the computer play for an away seat"
TAKEOVER_HUMAN = "a computer already plays that seat"
TAKEOVER_OWN = "you cannot hand your own seat to the computer"
TAKEOVER_NOT_NOW = "a seat is handed to the computer only during a match"
TAKEOVER_AWAY = "that seat is not away, or not for long enough yet"
COMPUTER_PLAYS = "a computer plays this seat now"
NAMED_BY_ACCOUNT = "at a rated table a seat is named by the account that sat there"  # issue 56
NEXT_DEAL = "a computer plays this seat until the deal ends: it is yours from the next deal, and until then you watch"
# An act that answers a turn already over (docs/protocol.md, "A move at the deadline"); with ids,
# so that the page says in the player's language why the card they clicked was not played.
TOO_LATE = Reason("too_late", "too late: the computer played for you")
MOVED_ON = Reason("moved_on", "the table moved on: look again")


def _plain(obj: object) -> object:
    """What msgspec cannot encode itself: a str subclass (an engine's Reason, a refusal that
    carries its id) goes as its text."""
    if isinstance(obj, str):
        return str(obj)
    raise TypeError(f"cannot encode {type(obj).__name__} as JSON")


# JSON out: msgspec is several times faster than json.dumps on a state (bench/load.py).
encode_json = msgspec.json.Encoder(enc_hook=_plain).encode
_encode = encode_json


def _version(logged: tuple[int, dict]) -> int:
    return logged[0]


def utc_day(now: float) -> str:
    """The day (UTC, ISO: 2026-12-07) of the wall clock ``now``: a daily deal's (issue 59)."""
    return datetime.datetime.fromtimestamp(now, datetime.timezone.utc).date().isoformat()


def daily_hidden(table: Table, now: float) -> bool:
    """Whether the table is a daily deal's whose day is not over (issue 59): others are still to
    play its cards, so its finished deals are not shown face up yet (replays, records)."""
    return table.daily is not None and table.daily["day"] >= utc_day(now)


def shuffled_deck(rng: random.Random, game: Game | None = None) -> list[str]:
    """A deck order of ``game`` (Sicilian by default) as the codes the stream stores (R3, A5)."""
    deck = (game or get_game(DEFAULT)).deck
    return [deck.codes[c] for c in deck.shuffled(rng)]


class _Shared:
    """What the state frames to the seats have in common, encoded once for all of them: the
    events after a version, for one version, and the table summary but ``you`` (per who is
    connected), kept from version to version until an event changes it."""

    def __init__(self, version: int, summary_at: int, summaries: dict[tuple, bytes]):
        self.version, self.summary_at = version, summary_at
        self.summaries = summaries  # connected + takeover -> the summary, no ``you``
        self.events: dict[int, msgspec.Raw] = {}  # since -> the events after it
        self.frames: dict[tuple, bytes] = {}  # (seat, since, presence) -> the whole frame
        self.history: dict[int, bytes] = {}  # since -> the chat lines after it, as a frame


class Table:
    def __init__(self, table_id: str, created: dict):
        self.id = table_id
        self.kind: str = created["kind"]  # "computer" or "room"
        self.seats: int = created["seats"]
        self.names: list[str] = list(created["names"])
        # Who acts for each seat: None for a human, else the bot level. The one place that says it.
        self.bots: list[str | None] = list(created["bots"])
        # A computer standing in for the human of a room seat who is away (``bots`` says it
        # acts; this says the seat is the human's again when they come back).
        self.standin = [False] * self.seats
        # A table created before there were other games is Sicilian (no "game" in its event).
        self.game: Game = get_game(created.get("game", DEFAULT))
        if self.seats not in self.game.seats:  # a stream the code can no longer play (a broken table)
            raise ValueError(f"{self.game.title} is not played at {self.seats} seats")
        self.options = self.game.options.from_json(created.get("options"))
        # The table's watch token (server/watch.py): in ``created`` since there are watch links,
        # else from a ``watch`` event; None for an older table until a seat says hello.
        self.watch_token: str | None = created.get("watch")
        # The lobby (issue 22, lobby.py): listed in the lobby; opened by Play now (its empty
        # seats go to computers at ``fill_at``, seconds since the epoch); the turn clock in
        # seconds (None: none). A table from before has none of them.
        self.public: bool = created.get("public", False)
        self.quick: bool = created.get("quick", False)
        self.fill_at: float | None = created.get("fill_at")
        self.clock: float | None = created.get("clock")
        # A lesson's table (issue 42, lessons.py): "<game>/<n>", dealt and scripted by the lesson.
        self.lesson: str | None = created.get("lesson")
        # A daily deal's table (issue 59, server/daily.py): {"game", "day", "deals", "try"}, dealt
        # the day's deck orders; "try" names the account's ranked try, None at an unranked table.
        self.daily: dict | None = created.get("daily")
        # A tournament's table (issue 59, server/tournaments.py): the tournament's id. Its seats
        # are the tournament's: nobody starts it early, lists it or plays it again.
        self.tournament: str | None = created.get("tournament")
        self.tournament_round: int | None = created.get("tournament_round")  # (None: made before it was kept)
        self.filled = [False] * self.seats  # a computer sat down in a seat nobody had taken
        self.arrived = [False] * self.seats  # ... and a person came for it: theirs after this deal
        self.turn_since: float | None = None  # when the turn the clock runs for began (its event's "at")
        self._turn_key: tuple | None = None
        # The time bank (issue 41): at a live table with a clock, each seat's spare seconds for
        # the match, spent only by a turn that goes past the clock's own time; worked out
        # from the events' "at", so a replay and a restart find it the same. None: no bank (a
        # table from before it, or by correspondence).
        self.bank: float | None = created.get("bank")
        self.bank_left: list[float] = [self.bank or 0.0] * self.seats
        self._turn_seat: int | None = None  # the person whose turn the clock runs for, if one
        # The version of the event that began the current turn: an act that answers an older
        # version answers a turn that is over (check_turn). A chat line or a name does not
        # begin a turn, so it makes no card stale.
        self.turn_version = 0
        # Whether a seat may ask for a hint (issue 21): at a computer table always, in a room
        # if the host chose it at creation (shown to every seat in the summary).
        self.hints: bool = bool(created.get("hints", self.kind == "computer"))
        # Whether its matches are rated (issue 40): as the host chose, else as public tables
        # are by default (one listed in the lobby when its match ends).
        self.rated_choice: bool | None = created.get("rated")
        self.matches = 0  # the table's matches begun: 2 after a rematch
        # A table by correspondence (issue 41): days a move (its ``clock`` in seconds); it
        # sleeps out of memory between moves (Hub.unload_if_idle), and its clock runs with
        # nobody there.
        self.correspondence: int | None = created.get("correspondence")
        # By seat, in the deal in play: actions made, and of them by a computer for the seat's
        # person (away, or out of time). A person the computer played for most of a deal or
        # more is ``absent`` from the match: last in its rating, whatever the score (issue 40).
        self.deal_acts = [0] * self.seats
        self.deal_acts_for = [0] * self.seats
        self.absent = [False] * self.seats
        # By seat: the account that first opened it signed in ({account, name, address}: its id,
        # its name then, a hash of the client's address), from ``sit`` events; the one its
        # match is rated for (issue 56: not whoever posted the link to /api/me/seats). Never
        # replaced by a later account.
        self.sitters: list[dict | None] = [None] * self.seats
        # By seat: a computer played it in this match for nobody (a Play now seat it filled),
        # before a person took it: such a match is not rated (issue 56).
        self.computer_played = [False] * self.seats
        self.joined = [b is not None for b in self.bots]  # bots sit down at once
        self.ready = [False] * self.seats
        self.rematch = [False] * self.seats  # who said yes to another match, once one is over
        # Room seat -> playing seat; a seat left out when a four-seat room starts with three
        # maps to None (R17).
        self.seat_map: list[int | None] = list(range(self.seats))
        self.match: Match | None = None
        self.version = 1
        self.log: list[tuple[int, dict]] = []  # (version, public engine event)
        # The latest chat lines ({seat, name, text, version}); older ones are only in the store.
        self.chat: collections.deque[dict] = collections.deque(maxlen=CHAT_KEPT)
        self.chat_dropped_upto = 0  # the version of the newest line no longer in ``chat``
        self.started_at = 0  # the version of a four-seat room's early start (R17), else 0
        self.names_before_start = self.names  # names by seat number before that start
        self.action_ids: set[tuple[int, str]] = set()  # (seat, client id) already applied
        self.acted = [0] * self.seats  # actions applied, by seat: how a browser knows its act was
        # By seat: the version of the last act a computer made for its person (the clock's, or
        # a stand-in's), so a late act of theirs is told why (check_turn).
        self.played_for = [0] * self.seats
        self._logged = 0  # how many of the current deal's events are in ``log``
        # The event being applied is the clock's, for this seat: (seat, "act" or "next"), else None.
        self._clocked: tuple[int, str] | None = None
        self._shared: _Shared | None = None  # the current version's encoded parts (state_frame)
        self._summary_at = 0  # the last version whose event changed the summary
        self._what_it_is()

    # --- what the table is ----------------------------------------------------------------

    def _what_it_is(self) -> None:
        """``deal`` (the current one, or None) and ``status``: they change only with an event,
        and are read many times for every frame, so they are worked out once per event."""
        self.deal = self.match.current if self.match else None
        if self.deal is None:
            self.status = WAITING
        elif not self.deal.done:
            self.status = PLAYING
        else:
            self.status = OVER if self.match.over else BETWEEN

    def bot_level(self, seat: int) -> str | None:
        return self.bots[seat]

    def bot_to_act(self) -> int | None:
        """The bot seat the game waits for now, if any."""
        deal = self.deal
        if self.status == PLAYING and deal.to_act is not None and self.bots[deal.to_act]:
            return deal.to_act
        return None

    def automatic(self) -> tuple[int, str, bool] | None:
        """A person's action the game makes for them, having no alternative (Sicilian R12: a
        No where Yes is impossible): (seat, action, whether every seat can tell), or None."""
        deal = self.deal
        if self.status != PLAYING or deal.to_act is None or self.bots[deal.to_act]:
            return None
        forced = getattr(deal, "automatic", None)
        found = forced() if forced is not None else None
        return None if found is None else (deal.to_act, found[0], found[1])

    def clock_seats(self) -> list[int]:
        """The seats the turn clock runs for now: the person the deal waits for (shown even
        when the server will answer for them, R12: the others must not tell), or between deals
        those who have not pressed Next deal."""
        if self.status == PLAYING and self.deal.to_act is not None and self.bots[self.deal.to_act] is None:
            return [self.deal.to_act]
        if self.status == BETWEEN:
            return [s for s in range(self.seats) if not self.ready[s] and self.bots[s] is None]
        return []

    def deadline(self) -> float | None:
        """When the clock plays for the seats it runs for (seconds since the epoch), or None:
        the turn's own time, then the person's time bank."""
        if not self.clock or self.turn_since is None or not self.clock_seats():
            return None
        return self.turn_since + self.clock + (self.bank_left[self._turn_seat] if self._turn_seat is not None else 0.0)

    def turn_key(self) -> tuple:
        """What the clock's turn is: a new one restarts it."""
        deal = self.deal
        return (self.status, len(self.match.deals) if self.match else 0,
                len(deal.history) if deal is not None else 0, deal.to_act if deal is not None else None)

    def trick_just_closed(self) -> bool:
        """A trick was just gathered and nobody has led since: it stays shown a moment."""
        deal = self.deal
        return deal is not None and deal.phase == "play" and not deal.trick and deal.last_trick is not None

    @property
    def rated(self) -> bool:
        """Whether its matches are to be rated (the ratings feature rates them if every seat
        is a person's with an account, issue 40)."""
        return self.public if self.rated_choice is None else self.rated_choice

    def all_ready(self) -> bool:
        return all(self.ready[s] or self.bots[s] for s in range(self.seats))

    def summary(self, seat: int, connected: list[bool]) -> dict:
        match = self.match
        return {
            "id": self.id, "game": self.game.name, "kind": self.kind, "seats": self.seats, "status": self.status,
            "names": self.names, "joined": self.joined, "connected": connected,
            "bots": [b is not None for b in self.bots],
            "standin": self.standin,
            "hints": self.hints,
            "deal_number": len(match.deals) if match else 0,
            "deals_in_match": self.game.match_length(self.seats, self.options),  # None: to a score
            "target": self.game.target,
            "totals": match.totals if match else [0] * self.seats,
            "ready": [self.ready[s] or self.bots[s] is not None for s in range(self.seats)],
            "winners": match.winners() if match and match.over else None,
            # The score sheet: each finished deal's payments, in order (R16, A15, A16).
            "sheet": [d.returns() for d in match.deals if d.done] if match else [],
            "rematch": [self.rematch[s] or self.bots[s] is not None for s in range(self.seats)],
            # The host may start with three of four (R17), where the game is played at three.
            "early_start": self.status == WAITING and self.may_start_early(),
            "watch": f"/w/{self.watch_token}" if self.watch_token else None,  # the spectators' link
            "public": self.public, "rated": self.rated, "quick": self.quick,
            # The finished match's own reference (its result and ratings: GET /api/matches/<it>, issue 56).
            "result": match_reference(self.id, self.matches) if self.status == OVER else None,
            "correspondence": self.correspondence, "fill_at": self.fill_at if self.status == WAITING else None,
            "lesson": self.lesson,  # a lesson's table (issue 42): never a seat to keep (issue 57)
            # a daily deal's table (issue 59): its game, day, deals and whether it is ranked; no card
            "daily": self.daily and {"game": self.daily["game"], "day": self.daily["day"],
                                     "deals": self.daily["deals"], "ranked": self.daily.get("try") is not None},
            "filled": self.filled, "arrived": self.arrived,
            # a tournament's table (issue 59): its seats are shown the way back to its page; a
            # spectator is not (an unlisted tournament's page lists every table's watch link)
            "tournament": {"id": self.tournament, "round": self.tournament_round}
            if self.tournament and seat is not None else None,
            "clock": self.clock and {"seconds": self.clock, "seats": self.clock_seats(), "deadline": self.deadline(),
                                     "bank": self.bank_left if self.bank else None,
                                     "base": self.turn_since + self.clock if self.turn_since is not None else None},
            "you": seat,
        }

    def state(self, seat: int, since: int, connected: list[bool], takeover: list[bool] | None = None) -> dict:
        """All that ``seat`` may know after this version: the engine's projection for that
        seat, and the public events after ``since``. ``takeover``: the away seats the others
        may now hand to the computer."""
        table = self.summary(seat, connected)
        table["takeover"] = takeover or [False] * self.seats
        return {
            "type": "state", "version": self.version, "acted": list(self.acted),
            "table": table,
            "view": self._frame_view(seat),
            "events": self.events_since(since),
        }

    def events_since(self, since: int) -> list[dict]:
        """The public events after version ``since``."""
        return [e for _, e in self.log[bisect.bisect_right(self.log, since, key=_version):]]

    def _frame_view(self, seat: int) -> dict | None:
        """The seat's view as sent: the engine's, without its ``actions`` list. The events
        carry every action as it comes, and the whole list, resent after every action, made
        up about a third of every frame (docs/benchmarks.md). A person who came for a seat a
        computer plays mid-deal (``arrived``) is shown what anyone may know, not the
        computer's hand, until the deal that is theirs begins (issue 37)."""
        if self.deal is None:
            return None
        if self.arrived[seat]:
            return spectator_view(self.deal)
        view = self.deal.view(seat)
        del view["actions"]
        return view

    def state_frame(self, seat: int, since: int, connected: list[bool], takeover: list[bool] | None = None) -> bytes:
        """``state(...)`` encoded as JSON: the same document, with what every seat's frame of
        this version shares built and encoded once (a frame goes to every seat after each
        action)."""
        shared = self._shared_now()
        takeover = takeover or [False] * self.seats
        key = (*connected, *takeover)
        # Sockets of one seat at one version get the same frame: a storm of reloads on one
        # seat link costs one encoding, not one per socket.
        frame = shared.frames.get(whole := (seat, since, key))
        if frame is not None:
            return frame
        summary = shared.summaries.get(key)
        if summary is None:
            table = self.summary(seat, connected)
            table["takeover"] = takeover
            del table["you"]
            summary = shared.summaries[key] = _encode(table)
        events = shared.events.get(since)
        if events is None:
            events = shared.events[since] = msgspec.Raw(_encode(self.events_since(since)))
        frame = shared.frames[whole] = _encode({
            "type": "state", "version": self.version, "acted": self.acted,
            "table": msgspec.Raw(b'{"you":%d,%b' % (seat, summary[1:])),
            "view": self._frame_view(seat),
            "events": events,
        })
        return frame

    def history_frame(self, since: int) -> bytes:
        """The chat lines after version ``since`` that a hello replays, as one ``history``
        frame: at most the latest CHAT_KEPT (``more``: older ones the socket lacks are in the
        store), possibly none."""
        shared = self._shared_now()
        frame = shared.history.get(since)
        if frame is None:
            lines = [line for line in self.chat if line["version"] > since]
            frame = shared.history[since] = _encode(
                {"type": "history", "lines": lines, "more": since < self.chat_dropped_upto})
        return frame

    def _shared_now(self) -> _Shared:
        shared = self._shared
        if shared is None or shared.version != self.version:
            same = shared is not None and shared.summary_at == self._summary_at
            shared = self._shared = _Shared(self.version, self._summary_at, shared.summaries if same else {})
        return shared

    def forget_name(self, is_it: Callable[[str], bool], instead: str) -> None:
        """A deleted account's name (``is_it``) out of what the table keeps in memory besides
        its seats' names (those change by ``name`` events): the chat lines, the names before an
        early start; and the frames made of them (issue 55)."""
        for line in self.chat:
            if is_it(line["name"]):
                line["name"] = instead
        if self.names_before_start is not self.names:  # (else the same list)
            self.names_before_start[:] = [instead if is_it(n) else n for n in self.names_before_start]
        self._shared = None

    def name_at(self, seat: int, version: int) -> str:
        """The name of the seat a stored event of ``version`` numbered ``seat`` (a four-seat
        room started with three renumbers its seats, R17)."""
        names = self.names_before_start if version < self.started_at else self.names
        return names[seat] if 0 <= seat < len(names) else f"#{seat}"

    # --- why a request is refused (None: accepted) ------------------------------------------

    def check_act(self, seat: int, action: str) -> str | None:
        """Why the game refuses ``action``: a Reason (its text and stable id) where the game
        gives ids (``State.reason``), else the text alone."""
        if self.status in (WAITING,):
            return NOT_STARTED
        deal = self.deal
        return deal.reason(seat, action) if hasattr(deal, "reason") else deal.refusal(seat, action)

    def check_turn(self, seat: int, version: int | None) -> str | None:
        """Why an act of ``seat`` that answers the table at ``version`` (the state its page
        showed) comes too late: a turn began since, and the act would land on a position the
        player never saw. None: it answers the current turn, or says no version (an older page
        or a script: judged by the rules alone, as before)."""
        if version is None or version >= self.turn_version:
            return None
        return TOO_LATE if self.played_for[seat] > version else MOVED_ON

    def check_next(self, seat: int) -> str | None:
        if self.status == OVER:
            return MATCH_OVER
        if self.status != BETWEEN:
            return NOT_BETWEEN
        return None

    def check_start(self, seat: int) -> str | None:
        if self.kind != "room" or seat != 0:
            return ONLY_HOST_STARTS
        if self.tournament:
            return TOURNAMENT_TABLE
        if self.status != WAITING:
            return ALREADY_STARTED
        if not self.may_start_early():
            return NEEDS_EVERY_SEAT
        if sum(self.joined) != 3:
            return START_WITH_THREE
        return None

    def may_start_early(self) -> bool:
        """A four-seat room may start with three only where its game is played at three too
        (R17 is a Sicilian ruling; Ottocento is played by exactly four, B5)."""
        return self.kind == "room" and self.seats == 4 and 3 in self.game.seats

    def check_takeover(self, by: int, seat: object, away: bool) -> str | None:
        """Why seat ``by`` may not hand ``seat`` to the computer; ``away``: the seat has been
        away for the room's time."""
        if self.kind != "room":
            return TAKEOVER_ROOM
        if self.status not in (PLAYING, BETWEEN):
            return TAKEOVER_NOT_NOW
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            return TAKEOVER_AWAY
        if seat == by:
            return TAKEOVER_OWN
        if self.bots[seat] is not None:
            return TAKEOVER_HUMAN
        if not away:
            return TAKEOVER_AWAY
        return None

    def check_public(self, seat: int) -> str | None:
        """Why room seat ``seat`` may not list the room in the lobby (or take it off)."""
        if self.kind != "room" or seat != 0:
            return ONLY_HOST_PUBLIC
        if self.tournament:
            return TOURNAMENT_TABLE
        if self.status != WAITING:
            return ALREADY_STARTED
        return None

    def check_rematch(self) -> str | None:
        if self.tournament:
            return TOURNAMENT_TABLE
        return None if self.status == OVER else NOT_OVER

    def all_rematch(self) -> bool:
        return all(self.rematch[s] or self.bots[s] for s in range(self.seats))

    def check_rename(self, seat: int) -> str | None:
        """Why seat ``seat`` may not be renamed: at a rated table, a seat an account sat at
        is named by that account (issue 56: a result recorded under a name of the player's
        choosing, "Honest", read as an account's)."""
        return NAMED_BY_ACCOUNT if self.rated and self.sitters[seat] is not None else None

    def played_out(self) -> int:
        """The match's deals played out: finished, and not thrown in (everybody passed, R4)."""
        deals = self.match.deals if self.match else []
        return sum(1 for d in deals if d.done and not getattr(getattr(d, "count", None), "abandoned", False))

    @staticmethod
    def check_name(text: str) -> str | None:
        name = plain_name(text)
        if not any(ch.isalnum() for ch in name):
            return NAME_EMPTY
        if len(name) > NAME_LIMIT:
            return NAME_LONG
        return None

    @staticmethod
    def check_chat(text: str) -> str | None:
        if not text.strip():
            return CHAT_EMPTY
        if len(text) > CHAT_LIMIT:
            return CHAT_LONG
        return None

    def restore(self, other: Table) -> None:
        """Become ``other`` (the same table rebuilt from its stream): a request whose events
        raised is undone this way, in place, so that every socket, timer and bot task that
        holds this table sees it as it was."""
        vars(self).clear()
        vars(self).update(vars(other))

    # --- applying stored events -------------------------------------------------------------

    def apply_event(self, version: int, kind: str, data: dict) -> None:
        """Apply one event of the stream; ``version`` must be the next one."""
        if version != self.version + 1:
            raise ValueError(f"table {self.id}: event {version} after version {self.version}")
        handler = getattr(self, "_on_" + kind, None)
        if handler is None:
            raise ValueError(f"table {self.id}: no such event as {kind!r}")
        handler(data)
        self.version = version
        self._what_it_is()
        if not (kind == "chat" or kind == "act" and self.status == PLAYING and not self.clock):
            self._summary_at = version  # the summary changed (see summary: a card does not, but for its clock)
        if (key := self.turn_key()) != self._turn_key:
            if self._turn_seat is not None and self.turn_since is not None and data.get("at") is not None:
                self._spend_bank(self._turn_seat, data["at"] - self.turn_since)
            self._turn_key, self.turn_since, self.turn_version = key, data.get("at"), version
            self._turn_seat = (self.deal.to_act if self.bank and self.status == PLAYING and self.deal.to_act is not None
                               and self.bots[self.deal.to_act] is None else None)
        elif self.turn_since is None:
            self.turn_since = data.get("at")  # (an older stream: no "at", no clock)
        self._collect_engine_events()

    def _spend_bank(self, seat: int, took: float) -> None:
        """A turn of ``seat`` that took ``took`` seconds: what went past the clock's own time
        comes out of the seat's bank."""
        if seat < len(self.bank_left):
            self.bank_left[seat] = round(max(0.0, self.bank_left[seat] - max(0.0, took - self.clock)), 3)

    def _on_join(self, data: dict) -> None:
        self.joined[data["seat"]] = True

    def _on_start(self, data: dict) -> None:
        """A four-seat room starts with the three seats that joined, renumbered 0..2 (R17)."""
        keep = [s for s in range(self.seats) if self.joined[s]]
        if not self.may_start_early() or len(keep) != 3:  # checked before storing: a stream from older code
            raise ValueError(f"{self.game.title} cannot start with {len(keep)} of {self.seats} seats")
        self.started_at, self.names_before_start = self.version + 1, self.names
        self.seat_map = [keep.index(s) if s in keep else None for s in range(self.seats)]
        self.names = [self.names[s] for s in keep]
        self.bots = [self.bots[s] for s in keep]
        self.standin = [self.standin[s] for s in keep]
        self.filled = [self.filled[s] for s in keep]
        self.arrived = [self.arrived[s] for s in keep]
        self.acted = [self.acted[s] for s in keep]
        self.deal_acts, self.deal_acts_for = [0] * len(keep), [0] * len(keep)
        self.absent = [self.absent[s] for s in keep]
        self.bank_left = [self.bank_left[s] for s in keep]
        self.played_for = [self.played_for[s] for s in keep]
        self.sitters = [self.sitters[s] for s in keep]
        self.computer_played = [self.computer_played[s] for s in keep]
        self.joined = [True] * len(keep)
        self.seats = len(keep)
        self.ready = [False] * self.seats

    def _on_match(self, data: dict) -> None:
        """A match begins: the first when every seat has joined, another on a rematch (the
        same seats, links and names; totals from zero)."""
        self.match = Match(self.seats, data["first_dealer"], self.options, self.game)
        self.ready = [False] * self.seats
        self.rematch = [False] * self.seats
        self.matches += 1
        self.absent = [False] * self.seats
        self.computer_played = list(self.filled)  # (a seat a computer still holds: the computer's again)
        self.bank_left = [self.bank or 0.0] * self.seats  # (a bank for each match)

    def _on_rematch(self, data: dict) -> None:
        self.rematch[data["seat"]] = True

    def _on_name(self, data: dict) -> None:
        self.names[data["seat"]] = data["name"]

    def _on_sit(self, data: dict) -> None:
        """The seat was opened signed in to an account (issue 56): the first such account is
        the seat's for rating, and names it."""
        seat = data["seat"]
        if self.sitters[seat] is None:
            self.sitters[seat] = {"account": data["account"], "name": data["name"], "address": data.get("address"),
                                  "device": data.get("device")}
            self.names[seat] = data["name"]

    def _on_deal(self, data: dict) -> None:
        self.match.start_deal(deck=self.game.deck.parse_order(data["deck"]))
        self.ready = [False] * self.seats
        self._logged = 0
        self.deal_acts, self.deal_acts_for = [0] * self.seats, [0] * self.seats

    def _on_act(self, data: dict) -> None:
        try:
            self.deal.apply(data["action"], data["seat"])
        except IllegalAction as e:  # only a corrupt stream gets here: checked before storing
            raise ValueError(f"table {self.id}: stored action refused: {e.reason}") from None
        if data.get("id") is not None:
            self.action_ids.add((data["seat"], str(data["id"])))
        seat = data["seat"]
        self.acted[seat] += 1
        self.deal_acts[seat] += 1
        # The computer, for the seat's person: out of time, or standing in while they are away.
        # A computer that filled a seat nobody had plays for nobody (issue 56: the person who
        # takes the seat later was never away).
        if data.get("clock") or self.standin[seat] and not self.filled[seat]:
            self.played_for[seat] = self.version + 1
            self.deal_acts_for[seat] += 1
        if self.deal.done:
            for s in range(self.seats):
                if 2 * self.deal_acts_for[s] > self.deal_acts[s]:
                    self.absent[s] = True
        if data.get("clock"):
            self._clocked = (data["seat"], "act")

    def _on_chat(self, data: dict) -> None:
        if data.get("hidden"):
            return  # (issue 58: a line the site's word list hides is its sender's alone, said once; kept stored)
        if len(self.chat) == self.chat.maxlen:
            self.chat_dropped_upto = self.chat[0]["version"]
        self.chat.append(chat_line(self.names[data["seat"]], data, self.version + 1))

    def _on_next(self, data: dict) -> None:
        self.ready[data["seat"]] = True
        if data.get("clock"):
            self._clocked = (data["seat"], "next")

    def _on_takeover(self, data: dict) -> None:
        """A computer plays for the away human of ``seat`` (pressed by seat ``by``)."""
        self.bots[data["seat"]] = data["level"]
        self.standin[data["seat"]] = True

    def _on_watch(self, data: dict) -> None:
        """A table from before watch links gets its watch token (server/watch.py)."""
        self.watch_token = data["token"]

    def _on_return(self, data: dict) -> None:
        """The human of ``seat`` is back and plays it again (or, a seat a computer filled, the
        person who came for it plays it from this deal on, under a player's name until they
        give their own)."""
        seat = data["seat"]
        if self.filled[seat] and self.names[seat] == computer_name(seat):
            self.names[seat] = QUICK_NAMES[seat]
        self.bots[seat] = None
        self.standin[seat] = False
        self.filled[seat] = self.arrived[seat] = False

    def _on_public(self, data: dict) -> None:
        """The host lists the room in the lobby (or takes it off); a public table has a clock."""
        self.public = data["public"]
        if data.get("clock"):
            self.clock = data["clock"]

    def _on_fill(self, data: dict) -> None:
        """A computer takes a seat of a Play now table that nobody took in time."""
        seat = data["seat"]
        self.bots[seat], self.standin[seat], self.filled[seat], self.joined[seat] = data["level"], True, True, True
        self.computer_played[seat] = True
        if self.names[seat] in (ROOM_NAMES[seat], QUICK_NAMES[seat]):  # (nobody named it: nobody came)
            self.names[seat] = computer_name(seat)

    def _on_arrive(self, data: dict) -> None:
        """A person opened a seat a computer filled, mid-deal: it is theirs after this deal."""
        if not self.filled[data["seat"]]:
            raise ValueError(f"table {self.id}: seat {data['seat']} was not filled by a computer")
        self.arrived[data["seat"]] = True

    def _collect_engine_events(self) -> None:
        """The deal's new public events into ``log``. What the clock did is said there too,
        for every screen (issue 38: a card the computer played for a late seat read as its
        choice): its action's event marked ``clock``, or a ``clock`` event of the table's own
        (Next deal pressed for the seat). Public: the seat and that the time ran out."""
        clocked, self._clocked = self._clocked, None
        deal = self.deal
        new = deal.events[self._logged:] if deal is not None and deal.events is not None else []
        marked = False
        for event in new:
            if clocked is not None and clocked[1] == "act" and not marked and event.get("seat") == clocked[0]:
                event, marked = {**event, "clock": True}, True
            self.log.append((self.version, event))
        if clocked is not None and not marked:
            said = {"type": "clock", "seat": clocked[0]} | ({"next": True} if clocked[1] == "next" else {})
            self.log.append((self.version, said))
        if deal is not None and deal.events is not None:
            self._logged = len(deal.events)


def computer_name(seat: int) -> str:
    """The name of a computer that took seat ``seat`` at a Play now table (a computer table's
    are named alike, by seat)."""
    return f"computer {seat}"


def spectator_view(deal) -> dict:
    """What anyone at the table may know of ``deal`` as a frame sends it: the game's public
    projection (``public_view``, written by each game on purpose) without the ``actions``
    list. Never built from the seats' views: an intersection of them let every difference
    between seats show through, a key or a null (issue 37)."""
    view = dict(deal.public_view())
    view.pop("actions", None)
    return view


def new_watch_token() -> str:
    return secrets.token_urlsafe(24)


def match_reference(table_id: str, match: int) -> str:
    """What a rated match's look-back link names in place of a token (issue 55): ``<table
    id>.<match>`` (no token or table id has a dot). It opens that match's finished deals alone
    (server/watch.py): no socket, no chat, no other match of the table."""
    return f"{table_id}.{match}"


def plain_name(text: str) -> str:
    """A player's name as shown: no control or format characters, spaces collapsed. Always
    shown as text, never as markup."""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def chat_line(name: str, data: dict, version: int) -> dict:
    """A chat line as the seats are sent it, from its stored event: with the name its seat
    had then (stored with the line since names can change; ``name`` for older lines)."""
    return {"seat": data["seat"], "name": data.get("name", name), "text": data["text"], "version": version}


class BrokenStream(ValueError):
    """A stored stream the code cannot replay: ``version`` is the first event that fails."""

    def __init__(self, table_id: str, version: int, kind: str, reason: str):
        super().__init__(f"table {table_id}: event {version} ({kind}) does not replay: {reason}")
        self.table_id, self.version, self.kind, self.reason = table_id, version, kind, reason


def replay(table_id: str, events: list[tuple[int, str, dict]]) -> Table:
    """The table as its stream leaves it; BrokenStream names the first event that does not
    apply (a stored event the code now refuses, a game renamed, a row damaged by hand)."""
    if not events:
        raise BrokenStream(table_id, 1, "created", "the table has no events")
    table = None
    for version, kind, data in events:
        try:
            if table is None:
                if (version, kind) != (1, "created"):
                    raise ValueError("the stream does not start with its creation")
                table = Table(table_id, data)
            else:
                table.apply_event(version, kind, data)
        except Exception as e:  # whatever the code raises on it, the table cannot be rebuilt
            raise BrokenStream(table_id, version, kind, f"{type(e).__name__}: {e}") from e
    return table


def check_stream(table_id: str, events: list[tuple[int, str, dict]]) -> BrokenStream | None:
    """Why a stored stream does not replay (its first failing event), or None."""
    try:
        replay(table_id, events)
    except BrokenStream as e:
        return e
    return None
