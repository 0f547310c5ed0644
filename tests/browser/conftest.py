"""The browser tests run against a real server; the browser fixtures are in tests/conftest.py."""

from tests.server.live import live_server  # noqa: F401  (the fixture: a real server per test)
