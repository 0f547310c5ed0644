"""The web table: rooms and the computer table over websockets, stored as event streams.

``store`` keeps each table's stream (SQLite), ``tables`` rebuilds a table from it, ``hub``
runs the live side (sockets, bots), ``app`` is the Starlette app and ``serve``.
"""
