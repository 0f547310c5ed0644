"""Issue 39: one database is served by one process alone or by the processes of a site, never
both. A second process started on a database another serves without ``--bus`` used to serve
its own copy of a table whose seats played on the first (a seat there saw "waiting" at v2
while the table was at v6): now it refuses to start and says to add ``--bus``; so does a
process of a site where a process without a bus serves, and the other way round. A process
that was killed is out of the way once its leases run out; one that stopped, at once."""

from __future__ import annotations

import pytest

from tarocchi.server.site import ALONE
from tarocchi.server.core.store import open_store
from tests.faults.server import ServerProcess
from tests.server.test_site import redis  # noqa: F401  (the fixture: a Redis for the bus)


def refused(server: ServerProcess) -> str:
    """Start ``server``, which must refuse: what it said."""
    with pytest.raises(RuntimeError, match="the server exited"):
        server.start(timeout=60)
    return server.errors()


@pytest.mark.slow
def test_a_second_process_without_a_bus_refuses_to_start_and_says_why(store_db, tmp_path):
    first = ServerProcess(store_db, log=str(tmp_path / "first.log")).start()
    try:
        said = refused(ServerProcess(store_db, log=str(tmp_path / "second.log")))
        assert "another Tarocchi process serves the database" in said and "--bus" in said
        assert first.proc.poll() is None  # the first serves on
    finally:
        first.stop()
    store = open_store(store_db)  # stopped: it gave the database's lease back at once
    assert store.lease_owner(ALONE) is None
    store.close()
    again = ServerProcess(store_db, log=str(tmp_path / "again.log")).start()
    again.stop()


def test_a_process_killed_is_out_of_the_way_once_its_lease_runs_out(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    first = ServerProcess(db).start()
    first.kill9()
    again = ServerProcess(db, log=str(tmp_path / "again.log"))
    again.start(timeout=60)  # (it waits for the dead process's lease to run out)
    again.stop()


@pytest.mark.slow
def test_a_site_and_a_process_without_a_bus_never_share_a_database(redis, tmp_path):  # noqa: F811
    db = str(tmp_path / "site.sqlite3")
    alone = ServerProcess(db, log=str(tmp_path / "alone.log")).start()
    try:
        said = refused(ServerProcess(db, extra=("--bus", redis.url), log=str(tmp_path / "site.log")))
        assert "a Tarocchi process without --bus serves the database" in said
    finally:
        alone.stop()
    site = ServerProcess(db, extra=("--bus", redis.url, "--lease", "2"), log=str(tmp_path / "site2.log")).start()
    try:
        other = ServerProcess(db, extra=("--bus", redis.url, "--lease", "2"), log=str(tmp_path / "site3.log")).start()
        other.stop()  # (a second process of the site is welcome)
        said = refused(ServerProcess(db, log=str(tmp_path / "alone2.log")))
        assert "another Tarocchi process serves the database" in said and "--bus" in said
    finally:
        site.stop()
