"""``tarocchi serve --workers N``: N server processes on one port, one site (issue 20).

Each worker is a whole ``tarocchi serve`` of its own, with the same settings, bound to the same
address with SO_REUSEPORT: the kernel spreads new connections over them, and a worker that
dies stops taking any (its sockets' pages reconnect to another). They share the database and
the bus (``--bus``), which make them one site: whichever worker a page reaches serves it,
relaying to the worker that drives its table (site.py). This process only supervises: it
starts the workers, starts a new one when one exits, and stops them all on SIGTERM or SIGINT.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

RESTART_PAUSE = 1.0  # seconds before a worker that died is started again (no busy loop)


def supervise(serve_args: list[str], workers: int) -> int:
    command = [sys.executable, "-m", "tarocchi.cli", "serve", *serve_args, "--reuse-port"]
    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    running = [subprocess.Popen(command) for _ in range(workers)]
    print(f"Tarocchi: {workers} workers, pids {', '.join(str(p.pid) for p in running)}", flush=True)
    try:
        while not stopping:
            time.sleep(0.2)
            for i, proc in enumerate(running):
                if proc.poll() is not None and not stopping:
                    print(f"Tarocchi: worker {proc.pid} exited ({proc.returncode}); starting another",
                          file=sys.stderr, flush=True)
                    time.sleep(RESTART_PAUSE)
                    running[i] = subprocess.Popen(command)
    finally:
        for proc in running:
            if proc.poll() is None:
                proc.terminate()
        for proc in running:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0
