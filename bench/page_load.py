"""A page's load on a phone (issue 60): the lobby and a computer table, a first visit (nothing
kept) and a repeat visit, on a line of 150 ms round trip, 1.6 Mbit/s down and 750 kbit/s up, the
CPU four times slower, a 390x844 screen: Chromium (``/usr/bin/chromium``, through Playwright) with
the DevTools protocol's network and CPU emulation.

    .venv/bin/python bench/page_load.py [--before ../before] [--after .] [--runs 3]

Each tree (a checkout: its server is started from there, ``python -m tarocchi.cli serve``) is
measured in the same run, one after the other. For each visit it prints the page's requests, the
bytes over the wire (the DevTools ``encodedDataLength``: headers and bodies as sent, compressed
or not; a file the browser or the service worker kept costs none) and the time until the page is
usable: the lobby's first Play now button in the page, a table's hand drawn (``performance.now()``
from the navigation's start, seen by a MutationObserver in the page). The medians of ``--runs``.
A repeat visit comes once the first visit's service worker is active (a visit later in the day).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
LINE = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWER = 4
USABLE = {"lobby": "[id^='play-now-']", "table": ".hand .card"}
QUIET_S = 1.5  # no request for this long after the page is usable: the visit is over
# Records when the page first holds `selector` (performance.now(): ms from the navigation's start).
WATCH = """(selector) => {
  const seen = () => { if (!window.__usable && document.querySelector(selector)) window.__usable = performance.now(); };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  seen();
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``tarocchi.cli serve`` run from ``tree`` (its own package first on the path)."""

    def __init__(self, tree: Path):
        self.tree = tree
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dir = tempfile.TemporaryDirectory()

    def __enter__(self):
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        self.proc = subprocess.Popen([PYTHON, "-m", "tarocchi.cli", "serve", "--port", str(self.port),
                                      "--db", os.path.join(self.dir.name, "bench.sqlite3"), "--bot-processes", "0"],
                                     cwd=self.tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/levels", timeout=2).read()
                return self
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"the server of {self.tree} did not start") from None
                time.sleep(0.2)

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(10)
        self.dir.cleanup()

    def new_table(self) -> str:
        request = urllib.request.Request(self.url + "/api/computer", data=json.dumps({"seats": 3}).encode(),
                                         headers={"content-type": "application/json", "origin": self.url})
        return json.loads(urllib.request.urlopen(request).read())["link"]


def visit(page, cdp, url: str, usable: str) -> dict:
    """One navigation: requests, bytes over the wire, seconds until usable."""
    asked: dict[str, str] = {}
    wire = {"bytes": 0}
    last = {"t": time.monotonic()}

    def sent(e):
        asked[e["requestId"]] = e["request"]["url"]
        last["t"] = time.monotonic()

    def finished(e):
        wire["bytes"] += e.get("encodedDataLength", 0)
        last["t"] = time.monotonic()

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.loadingFailed", lambda e: last.update(t=time.monotonic()))
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__usable", timeout=60_000, polling=100)
    seconds = page.evaluate("() => window.__usable") / 1000
    while time.monotonic() - last["t"] < QUIET_S:
        time.sleep(0.1)
    cdp.remove_listener("Network.requestWillBeSent", sent)
    cdp.remove_listener("Network.loadingFinished", finished)
    return {"requests": len(asked), "kib": wire["bytes"] / 1024, "usable": seconds}


def measure(browser, url: str, kind: str) -> tuple[dict, dict]:
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    context.add_init_script(f"({WATCH})({json.dumps(USABLE[kind])})")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", LINE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWER})
    first = visit(page, cdp, url, USABLE[kind])
    # (the worker the first visit registered: active before the repeat, as it is a visit later)
    page.evaluate("""() => navigator.serviceWorker ? Promise.race([navigator.serviceWorker.ready,
                     new Promise((done) => setTimeout(done, 20000))]) : null""")
    again = visit(page, cdp, url, USABLE[kind])
    context.close()
    return first, again


def median(rows: list[dict]) -> dict:
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="the tree before (a checkout: git worktree add ../before REV); none: the tree after alone")
    ap.add_argument("--after", default=str(HERE), help="the tree after (default: this one)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"phone {PHONE['width']}x{PHONE['height']}, {LINE['latency']} ms, 1.6 Mbit/s down, "
          f"CPU x{CPU_SLOWER}; medians of {args.runs} runs")
    print(f"{'tree':8} {'page':6} {'visit':6} {'requests':>8} {'KiB':>7} {'usable s':>9}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        trees = ([("before", args.before)] if args.before else []) + [("after", args.after)]
        for name, tree in trees:
            with Server(Path(tree).resolve()) as server:
                for kind in ("lobby", "table"):
                    firsts, agains = [], []
                    for _ in range(args.runs):
                        url = server.url + ("/" if kind == "lobby" else server.new_table())
                        first, again = measure(browser, url, kind)
                        firsts.append(first)
                        agains.append(again)
                    for label, rows in (("first", firsts), ("again", agains)):
                        m = median(rows)
                        print(f"{name:8} {kind:6} {label:6} {m['requests']:8.0f} {m['kib']:7.1f} {m['usable']:9.2f}",
                              flush=True)
        browser.close()


if __name__ == "__main__":
    main()
