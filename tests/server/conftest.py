"""The ``live_server`` fixture for every server test (a real uvicorn, see ``live.py``)."""

from tests.server.live import live_server  # noqa: F401  (a fixture, found by name)
