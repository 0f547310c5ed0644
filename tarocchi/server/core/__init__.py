"""The server's core: tables and their event streams (``tables``, ``store``), units of work,
sockets and their frames, the bots' driving (``hub``, ``sockets``). It imports no feature:
features plug in through ``features`` (docs/server.md)."""
