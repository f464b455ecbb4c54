"""Render the web app's PNG icons (192 and 512 px) from ``static/icons/admiral.svg`` with Debian's Chromium.

Run once after changing the SVG and commit the PNGs (issue 19, the installable web app)::

    .venv/bin/python deploy/tools/make_icons.py

Uses Playwright's driver with ``/usr/bin/chromium`` (never ``playwright install``).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "static" / "icons" / "admiral.svg"
SIZES = (192, 512)


def main() -> None:
    """Write ``static/icons/admiral-{size}.png`` for each of :data:`SIZES` (opaque, square, pixel-exact)."""
    svg = SVG.read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f"<style>html,body{{margin:0}}svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            out = SVG.with_name(f"admiral-{size}.png")
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
            print(out.relative_to(ROOT))
        browser.close()


if __name__ == "__main__":
    main()
