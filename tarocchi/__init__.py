"""Tarocchi: Sicilian Tarocchi rules engine, computer opponents and an online table.

Layers, each importing only those before it: ``engine`` (cards and rules, pure) ->
``bots`` (decide from one seat's view) -> ``server`` (rooms, storage, websockets) ->
``web`` (static files).
"""
