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
generation (``gc.freeze``), where no collection looks, and collects the young generation
often, in small steps (a pause grows with what it walks; the total work stays about the same).

The price: an object frozen that later becomes part of an unreachable cycle is never freed.
The test above keeps the per-action and per-socket paths free of such cycles, which is what
makes this safe; one added later would show as memory that grows with the tables played, not
the tables held."""

from __future__ import annotations

import gc
import os
import time

# Young collections about as often as CPython's default (700): at 10,000 (and at 50,000 before)
# they came seconds apart and walked 70,000 objects each (60-90 ms of CPU at 4,000 sockets). At
# 1,000 each takes 5-25 ms, for about 5 % more server CPU per action flat out (an object is
# walked while it still lives more often); the older generations stay empty (frozen).
THRESHOLDS = (1_000, 10, 10)
GC_LOG_ENV = "TAROCCHI_GC_LOG"  # a file: each collection's pause, for bench/load.py


def keep_long_lived_out() -> None:
    """Freeze what is alive now (the modules) and, from now on, what survives each collection."""
    gc.set_threshold(*THRESHOLDS)
    gc.collect()  # (garbage of the start-up is collected, not frozen)
    gc.freeze()
    gc.callbacks.append(_freeze_survivors)


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
