"""permessage-deflate: browsers offer it, and ``tarocchi serve`` declines it unless started with
``--deflate``. Compressing every frame for every seat cost the server 40 to 70 % more CPU per
action (bench/load.py --deflate, docs/benchmarks.md), so it is the operator's choice, not the
default. Either way a seat gets its state."""

from __future__ import annotations

import json

import pytest
import websockets

from tests.faults.server import ServerProcess, run
from tests.server.seat import new_room


@pytest.mark.parametrize("extra, compressed", [((), False), (("--deflate",), True)])
def test_the_server_compresses_frames_only_when_asked(tmp_path, extra, compressed):
    with ServerProcess(str(tmp_path / "t.sqlite3"), extra=extra) as server:
        token = new_room(server.url, 3)[0]

        async def main():
            # websockets offers permessage-deflate by default, as browsers do.
            async with websockets.connect(f"{server.ws_url}/ws/{token}") as ws:
                names = [e.name for e in ws.protocol.extensions]
                assert names == (["permessage-deflate"] if compressed else [])
                await ws.send(json.dumps({"type": "hello", "since": 0}))
                while (frame := json.loads(await ws.recv()))["type"] != "state":
                    pass
                assert frame["table"]["you"] == 0 and frame["version"] >= 2

        run(main())
