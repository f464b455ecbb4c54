"""The installable web app (issue 19): the manifest, the icons, the service worker served from the root with its
precache list and version, the offline page."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

from admiral.web.routes.install import static_files, static_version

from .conftest import Browser

STATIC = Path(__file__).resolve().parents[2] / "static"


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest(browsers) -> None:
    b: Browser = browsers()
    r = b.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/manifest+json"
    m = r.json()
    assert m["name"] == m["short_name"] == "Адмирал"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert m["theme_color"] == m["background_color"] == "#0f2f52"  # the top bar's navy
    sizes = {(i["sizes"], i["type"]) for i in m["icons"]}
    assert {("192x192", "image/png"), ("512x512", "image/png"), ("any", "image/svg+xml")} <= sizes
    for icon in m["icons"]:
        assert b.get(icon["src"]).status_code == 200
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert _png_size(STATIC / icon["src"].removeprefix("/static/")) == (side, side)
    english = b.get("/manifest.webmanifest", headers={"cookie": b.headers["cookie"] + "; admiral_lang=en"}).json()
    assert english["name"] == "Admiral" and english["lang"] == "en"


def test_pages_link_the_manifest_and_register_the_worker(browsers) -> None:
    page = browsers().get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#0f2f52">' in page
    assert '<script type="module" src="/static/js/core/install.js"></script>' in page
    assert '<script type="module" src="/static/js/core/notify.js"></script>' in page


def test_service_worker_from_the_root(browsers) -> None:
    r = browsers().get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"  # a deploy's new worker is seen at the next navigation
    assert r.headers["service-worker-allowed"] == "/"
    body = r.text
    assert "__VERSION__" not in body and "__PRECACHE__" not in body
    version = re.search(r'const VERSION = "([0-9a-f]{12})";', body).group(1)
    assert version == static_version(STATIC)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))
    assert "/offline" in precache
    assert {"/static/css/admiral.css", "/static/js/core/notify.js", "/static/icons/admiral-192.png"} <= set(precache)
    assert all(u.startswith("/static/") for u in precache if u != "/offline")  # no page, no API, no game state
    assert "/static/js/sw.js" not in precache


def test_the_version_follows_the_static_files(tmp_path: Path) -> None:
    """A deploy that changes any static file changes the worker's cache name (so it refreshes)."""
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    before = static_version(copy)
    assert before == static_version(STATIC)
    (copy / "css" / "admiral.css").write_text((copy / "css" / "admiral.css").read_text() + "\n/* deploy */\n")
    static_version.cache_clear()
    static_files.cache_clear()
    assert static_version(copy) != before


def test_offline_page_is_the_same_for_everyone(browsers) -> None:
    a, b = browsers(), browsers()
    ra, rb = a.get("/offline"), b.get("/offline")
    assert ra.status_code == 200 and ra.headers["content-type"].startswith("text/html")
    assert "Нет сети" in ra.text and "«Адмиралу» нужна связь с сервером" in ra.text
    assert "csrf_token" not in ra.text
    assert ra.text == rb.text  # nothing of the browser's in it: the worker may keep it
