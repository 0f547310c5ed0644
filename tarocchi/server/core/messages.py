"""The browser's messages (docs/protocol.md), checked by msgspec before anything reads them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .tables import CHAT_LIMIT, NAME_LIMIT

MAX_FRAME = 4096  # bytes; no valid message comes near it

# Each socket's message budget, a token bucket: a burst of BURST messages, then PER_SECOND a
# second. A socket over it gets an error and is closed with CLOSE_TOO_MANY (docs/protocol.md).
BURST, PER_SECOND = 100, 30.0
CLOSE_TOO_MANY = 4429
CLOSE_TOO_SLOW = 4408
TOO_SLOW = "the connection fell too far behind: reconnect to carry on"
TOO_MANY = f"too many messages: at most {BURST} at once, then {PER_SECOND:g} a second"


# What one seat link may cost, whichever of its sockets asks (a seat link is one client, and
# it may hold several sockets at once): a hello or a history request replays the past, so
# it has a budget of its own; a chat line goes to every socket of the table.
HELLO_BURST, HELLOS_PER_SECOND = 10, 0.5
TOO_MANY_HELLOS = (f"too many reconnects on this seat: at most {HELLO_BURST} at once, then one every "
                   f"{1 / HELLOS_PER_SECOND:g} seconds")
CHAT_BURST, CHATS_PER_SECOND = 10, 1.0
TOO_MANY_CHATS = f"too many chat lines: at most {CHAT_BURST} at once, then one a second"
SOCKETS_PER_SEAT = 4  # open at once on one seat link; a new one closes the oldest
CLOSE_REPLACED = 4409
REPLACED = "this seat was opened in another window"
HELLO_TIMEOUT = 5.0  # seconds a new socket has to say hello
CLOSE_NO_HELLO = 4400
NO_HELLO = f"say hello within {HELLO_TIMEOUT:g} seconds of connecting"

# New tables (rooms and computer tables) per client address: a burst, then one every 10 s.
NEW_TABLES_BURST, NEW_TABLES_PER_SECOND = 30, 0.1
TOO_MANY_TABLES = "too many new tables from this address: wait a little and try again"

MAX_BODY = 4096  # bytes of an HTTP request body; no valid one comes near it
BODY_TOO_LARGE = f"a request body is at most {MAX_BODY} bytes"


class Budget:
    """A token bucket: ``spend`` takes one message's token, False once the bucket is empty."""

    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND):
        self.burst, self.per_second = burst, per_second
        self.tokens, self.at = float(burst), None

    def spend(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

ClientId = Annotated[str, msgspec.Meta(max_length=64)] | Annotated[int, msgspec.Meta(ge=0, lt=2**53)]


NameText = Annotated[str, msgspec.Meta(max_length=NAME_LIMIT * 4)]  # longer ones refused with a reason


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    since: Annotated[int, msgspec.Meta(ge=0, lt=2**53)] = 0
    lang: Annotated[str, msgspec.Meta(max_length=16)] | None = None
    name: NameText | None = None  # the player's name, kept by the browser: set if it changed


class Name(msgspec.Struct, tag="name", forbid_unknown_fields=True):
    """The player's name for this seat, shown to the table (plain text)."""
    name: NameText


class Rematch(msgspec.Struct, tag="rematch", forbid_unknown_fields=True):
    """Yes to another match with the same seats, once the match is over."""


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    action: Annotated[str, msgspec.Meta(max_length=512)]  # an Ottocento declaration names many cards
    id: ClientId | None = None
    # The table version of the state the page acted on: an act answering a turn that is over is
    # refused (Table.check_turn). None: an older page or a script, judged by the rules alone.
    version: Annotated[int, msgspec.Meta(ge=0, lt=2**53)] | None = None


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    # Longer lines are refused with a reason by the table, not here (they are well formed).
    text: Annotated[str, msgspec.Meta(max_length=CHAT_LIMIT * 4)]


class Next(msgspec.Struct, tag="next", forbid_unknown_fields=True):
    pass


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    pass


class Takeover(msgspec.Struct, tag="takeover", forbid_unknown_fields=True):
    """Let the computer play for a seat that has been away for the room's time."""
    seat: Annotated[int, msgspec.Meta(ge=0, le=3)]


class Public(msgspec.Struct, tag="public", forbid_unknown_fields=True):
    """The host lists the waiting room in the lobby (or takes it off): lobby.py."""
    public: bool


class History(msgspec.Struct, tag="history", forbid_unknown_fields=True):
    """The chat lines before version ``before`` (a hello sends only the latest ones)."""
    before: Annotated[int, msgspec.Meta(ge=0, lt=2**53)]


class Hint(msgspec.Struct, tag="hint", forbid_unknown_fields=True):
    """The strongest computer player's best actions for this seat's turn (server/advice.py)."""


class Review(msgspec.Struct, tag="review", forbid_unknown_fields=True):
    """This seat's decisions in the deal just counted, against the strongest player's."""


class Visible(msgspec.Struct, tag="visible", forbid_unknown_fields=True):
    """Whether the page is in sight (a tab behind others, a phone's screen off: not): a player
    looking at the table is not sent a notification of it (server/notify.py)."""
    visible: bool


Message = Hello | Act | Chat | Next | Start | Takeover | History | Name | Rematch | Public | Hint | Review | Visible
_decoder = msgspec.json.Decoder(Message)


class BadMessage(ValueError):
    pass


def decode(frame: str | bytes) -> Message:
    """The message in a frame, or BadMessage saying in plain words what is wrong."""
    if len(frame) > MAX_FRAME:
        raise BadMessage(f"a message is at most {MAX_FRAME} bytes")
    try:
        return _decoder.decode(frame)
    except msgspec.ValidationError as e:
        raise BadMessage(f"bad message: {e}") from None
    except msgspec.DecodeError:
        raise BadMessage("a message is one JSON object with a type") from None


# The HTTP bodies.
GameName = Annotated[str, msgspec.Meta(max_length=32)]


class NewComputer(msgspec.Struct, forbid_unknown_fields=True):
    seats: Literal[3, 4] = 3
    level: Annotated[str, msgspec.Meta(max_length=32)] | None = None  # None: the server's default level
    game: GameName = "sicilian"  # a registered game (GET /api/games); it says the seats it allows


class NewRoom(msgspec.Struct, forbid_unknown_fields=True):
    seats: Literal[3, 4] = 3
    game: GameName = "sicilian"
    public: bool = False  # listed in the lobby (lobby.py); a public room has a turn clock
    clock: Annotated[int, msgspec.Meta(ge=5, le=600)] | None = None  # seconds a turn, None: no clock
    hints: bool = False  # the host lets every seat ask for a hint (a computer table always does)
    rated: bool | None = None  # its matches rated (issue 40); None: as public tables are, by default
    correspondence: Literal[1, 2, 3, 7] | None = None  # days a move (issue 41): for signed-in players


class PlayNow(msgspec.Struct, forbid_unknown_fields=True):
    game: GameName = "sicilian"


SeatLinkText = Annotated[str, msgspec.Meta(max_length=80)]


class MyTables(msgspec.Struct, forbid_unknown_fields=True):
    """The seat links a browser keeps ("Your tables"): what each opens now (lobby.py)."""
    links: Annotated[list[SeatLinkText], msgspec.Meta(max_length=20)] = []


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: Annotated[int, msgspec.Meta(ge=0, le=3)] | None = None  # None: any free seat


# The lobby's requests (the listing, a seat, Play now) per client address: a burst, then one a
# second (the lobby page asks for the listing every few seconds).
LOBBY_BURST, LOBBY_PER_SECOND = 60, 1.0
TOO_MANY_LOBBY = "too many lobby requests from this address: wait a little and try again"
# Looking back (a deal's list, a replay, the records: each replays a stored stream) has a budget
# of the same size per address, counted apart: a replay page stepping through deals does not
# starve the lobby's polling, nor the other way round.
TOO_MANY_LOOKS = "too many requests to look back from this address: wait a little and try again"
