"""The browser's messages (docs/protocol.md), checked by msgspec before anything reads them."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from .tables import CHAT_LIMIT

MAX_FRAME = 4096  # bytes; no valid message comes near it

ClientId = Annotated[str, msgspec.Meta(max_length=64)] | Annotated[int, msgspec.Meta(ge=0, lt=2**53)]


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    since: Annotated[int, msgspec.Meta(ge=0, lt=2**53)] = 0
    lang: Annotated[str, msgspec.Meta(max_length=16)] | None = None


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    action: Annotated[str, msgspec.Meta(max_length=64)]
    id: ClientId | None = None


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    # Longer lines are refused with a reason by the table, not here (they are well formed).
    text: Annotated[str, msgspec.Meta(max_length=CHAT_LIMIT * 4)]


class Next(msgspec.Struct, tag="next", forbid_unknown_fields=True):
    pass


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    pass


Message = Hello | Act | Chat | Next | Start
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
class NewComputer(msgspec.Struct, forbid_unknown_fields=True):
    seats: Literal[3, 4] = 3
    level: str = "random"


class NewRoom(msgspec.Struct, forbid_unknown_fields=True):
    seats: Literal[3, 4] = 3
