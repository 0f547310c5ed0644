"""What a browser test's page costs in each of Debian's two Chromiums: the full browser
(``/usr/bin/chromium``) and its headless shell (``/usr/bin/chromium-headless-shell``, the same
version), as tests/conftest.py drives them (Playwright, the same switches).

    .venv/bin/python bench/browser_pages.py [--pages 40]

Prints, for each, the CPU of the whole machine (``/proc/stat``: every process's, the browser's
children included, which exit before anyone could read theirs) and the wall clock a page: a
page in a new context (a test's person), a new page in the same context (a tab), the same page
given new content. Run it on an otherwise idle machine: the CPU is the machine's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tests.conftest import ARGS, CHROMIUM, HEADLESS_SHELL  # noqa: E402

HTML = "<html><body><main><h1>Tarocchi</h1><p>a table</p></main></body></html>"


def busy() -> float:
    """Seconds of CPU the machine has spent, every core, since it started."""
    with open("/proc/stat") as stat:
        f = stat.readline().split()  # cpu user nice system idle iowait irq softirq ...
    return sum(int(x) for x in (f[1], f[2], f[3], f[6], f[7])) / os.sysconf("SC_CLK_TCK")


def measure(browser, pages: int) -> dict[str, tuple[float, float]]:
    context = browser.new_context()
    page = context.new_page()
    page.set_content(HTML)

    def new_context_page():
        c = browser.new_context()
        c.new_page().set_content(HTML)
        c.close()

    def new_tab():
        tab = context.new_page()
        tab.set_content(HTML)
        tab.close()

    out = {}
    for name, step in (("a page in a new context", new_context_page), ("a new tab, same context", new_tab),
                       ("new content, same page", lambda: page.set_content(HTML))):
        time.sleep(1)  # the last step's processes wound down
        b0, t0 = busy(), time.perf_counter()
        for _ in range(pages):
            step()
        wall = time.perf_counter() - t0
        time.sleep(1)
        out[name] = ((busy() - b0) / pages * 1000, wall / pages * 1000)
    context.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=40)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        for path in (CHROMIUM, HEADLESS_SHELL):
            browser = p.chromium.launch(executable_path=path, args=ARGS, headless=True)
            for name, (cpu, wall) in measure(browser, args.pages).items():
                print(f"{path:34} {name:26} CPU {cpu:5.0f} ms  wall {wall:5.0f} ms  ({args.pages} pages)")
            browser.close()


if __name__ == "__main__":
    main()
