"""The cyclic garbage collector in a serving process: long-lived objects kept out of its passes,
and (when asked) each pass timed to a file for the benchmark (issue 39, docs/benchmarks.md).

A server holds its tables and sockets for minutes: at 1,000 tables, some 600,000 tracked
objects. A full collection walked all of them (190-450 ms of CPU, every table stalled
meanwhile). A young one walked what each socket waits with (futures, coroutines, the parser's
generator: made anew with each frame, alive until the next), some 70,000 objects at 4,000
sockets, because every long-lived object freed counts against the young generation's threshold
and those collections came seconds apart. Serving makes no cyclic garbage once an object has
lived through a collection (``tests/server/test_garbage.py``), so walking such objects again
finds nothing: ``keep_long_lived_out`` moves whatever survives a collection to the permanent
generation (``gc.freeze``), where no collection looks. The young generation is collected in
small steps while the loop rests (``RestingCollector``: a pause grows with what it walks, and
one taken while nothing waits delays nobody), and seldom while it runs flat out (an object that
dies before a pass is never walked: fewer passes cost less CPU an action).

The price: an object frozen that later becomes part of an unreachable cycle is never freed.
The test above keeps the per-action and per-socket paths free of such cycles, which is what
makes this safe; one added later would show as memory that grows with the tables played, not
the tables held."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time

# Young collections come two ways. A loop that rests (its thread ran or waited for a core less
# than IDLE_BUSY of the last IDLE_EVERY) collects the young generation then, once it holds
# IDLE_MIN objects more than it freed: small passes, paid while nobody waits. A loop that never
# rests (flat out) collects at THRESHOLDS[0], seldom: each pass walks more, but an object that
# dies before it is never walked at all. (One threshold of 1,000 for both paid 5-10 % more
# server CPU an action flat out; one of 5,000 alone gave pauses of 85 ms at 10,000 clients:
# docs/benchmarks.md.)
THRESHOLDS = (50_000, 10, 10)
IDLE_EVERY = 0.01  # seconds between two looks for a moment of rest
IDLE_BUSY = 0.8  # the share of the last look's interval the loop's thread ran or waited to, past which it is busy
IDLE_MIN = 100  # (small passes, often: a pause grows with what it walks)
_keeping = False
GC_LOG_ENV = "TAROCCHI_GC_LOG"  # a file: each collection's pause, for bench/load.py


def keep_long_lived_out() -> None:
    """Freeze what is alive now (the modules) and, from now on, what survives each collection.
    (``collect_when_idle``, started by the app on its loop, adds the passes at rest.)"""
    global _keeping
    _keeping = True
    gc.set_threshold(*THRESHOLDS)
    gc.collect()  # (garbage of the start-up is collected, not frozen)
    gc.freeze()
    gc.callbacks.append(_freeze_survivors)


class RestingCollector:
    """Every IDLE_EVERY seconds, a look at how much of them the loop's thread was busy (running,
    or ready to run and waiting for a core: Linux's schedstat says both; elsewhere its CPU time
    alone); under IDLE_BUSY, and with the young generation grown by IDLE_MIN, it collects that
    generation there and then."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.fd: int | None = None
        with contextlib.suppress(OSError):
            self.fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY)  # (this thread: the loop's)
        self.handle = loop.call_later(IDLE_EVERY, self.look, loop.time(), self.busy())

    def busy(self) -> float:
        """Seconds the loop's thread has run (its CPU clock: schedstat's own count of it lags by
        up to a scheduler tick, a good part of a look) and waited for a core (schedstat)."""
        if self.fd is None:
            return time.thread_time()
        return time.thread_time() + int(os.pread(self.fd, 64, 0).split()[1]) / 1e9

    def look(self, then: float, busy_then: float) -> None:
        now, busy = self.loop.time(), self.busy()
        if busy - busy_then < IDLE_BUSY * (now - then) and gc.get_count()[0] >= IDLE_MIN:
            gc.collect(0)
        self.handle = self.loop.call_later(IDLE_EVERY, self.look, self.loop.time(), self.busy())

    def stop(self) -> None:
        self.handle.cancel()
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def collect_when_idle(loop: asyncio.AbstractEventLoop) -> RestingCollector | None:
    """The passes at rest, on ``loop`` (call it there), in a process that keeps the long-lived
    objects out (``keep_long_lived_out``; not the tests' servers): stop() it at the end."""
    return RestingCollector(loop) if _keeping else None


def _freeze_survivors(phase: str, info: dict) -> None:
    if phase == "stop":
        gc.freeze()


def log_pauses(path: str) -> None:
    """Append one line per collection to ``path``: its end (time.time()), generation, pause in
    seconds, objects collected, and the CPU seconds it took (on a busy machine the pause also
    counts time the process waited for a core); line-buffered (several lines a second)."""
    out = open(path, "a", buffering=1)  # noqa: SIM115 (open for the process's life)
    began = [0.0, 0.0]

    def timer(phase: str, info: dict) -> None:
        if phase == "start":
            began[:] = time.perf_counter(), time.thread_time()
        else:
            out.write(f"{time.time():.4f} {info['generation']} {time.perf_counter() - began[0]:.6f} "
                      f"{info['collected']} {time.thread_time() - began[1]:.6f}\n")

    gc.callbacks.insert(0, timer)  # first: the freeze after a collection is not in its pause


def log_pauses_if_asked() -> None:
    """``TAROCCHI_GC_LOG=FILE``: log the pauses (off by default: nothing of it in production)."""
    if path := os.environ.get(GC_LOG_ENV):
        log_pauses(path)
