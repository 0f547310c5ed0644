"""Draw the app's PNG icons from its SVG (tarocchi/web/static/icons/icon.svg), with the Chromium
the browser tests use: `.venv/bin/python scripts/icons.py`. Run it after changing the drawing and
commit what it writes (the server serves the files as they are; no image library is needed).

The maskable variant is the same drawing with the felt to every edge and the cards smaller, inside
the middle 80 % circle a launcher's mask always keeps (icon-maskable.svg, written here too). The
PNGs: 192 and 512 of each (the manifest's), 180 for iOS's home screen (apple-touch-icon: iOS fills
a transparent corner with black, so the full-bleed one), and 32 as the favicon where an SVG one is
not shown.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "tarocchi" / "web" / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]

SQUARE = '<rect x="24" y="24" width="464" height="464" rx="104" fill="#1f5a43" stroke="#174634" stroke-width="8"/>'
CARDS = 'transform="translate(256 256) scale(0.9)"'
MASKABLE_NOTE = """<title>Tarocchi</title>
  <!-- The maskable icon (written by scripts/icons.py from icon.svg): the felt to every edge, the
       cards inside the middle 80 % circle that every mask keeps (a circle, a squircle...). -->"""

# name -> (svg, size)
PNGS = {
    "icon-32.png": ("icon.svg", 32),
    "icon-192.png": ("icon.svg", 192),
    "icon-512.png": ("icon.svg", 512),
    "icon-maskable-192.png": ("icon-maskable.svg", 192),
    "icon-maskable-512.png": ("icon-maskable.svg", 512),
    "apple-touch-icon.png": ("icon-maskable.svg", 180),
}


def maskable(svg: str) -> str:
    assert SQUARE in svg and CARDS in svg, "icon.svg changed: update scripts/icons.py's replacements"
    return (svg.replace(SQUARE, '<rect width="512" height="512" fill="#1f5a43"/>')
            .replace(CARDS, 'transform="translate(256 256) scale(0.76)"')
            .replace("<title>Tarocchi</title>", MASKABLE_NOTE))


def render(page, svg: str, size: int) -> bytes:
    data = base64.b64encode(svg.encode()).decode()
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(f'<html><body style="margin:0;background:transparent">'
                     f'<img id="i" width="{size}" height="{size}" style="display:block" '
                     f'src="data:image/svg+xml;base64,{data}" alt=""></body></html>')
    page.wait_for_function("() => document.getElementById('i').complete")
    # (no background: the rounded square's corners stay transparent)
    return page.locator("#i").screenshot(omit_background=True, type="png")


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    sources = {"icon.svg": svg, "icon-maskable.svg": maskable(svg)}
    (ICONS / "icon-maskable.svg").write_text(sources["icon-maskable.svg"], encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(device_scale_factor=1)
        for name, (source, size) in PNGS.items():
            (ICONS / name).write_bytes(render(page, sources[source], size))
            print(f"{name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
