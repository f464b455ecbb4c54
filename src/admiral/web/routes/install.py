"""The installable web app (issue 19): ``/manifest.webmanifest``, the service worker ``/sw.js`` (served from the root
so that its scope is the whole site) and ``/offline``, the page the worker shows when a page cannot be fetched.

The worker (``static/js/sw.js``, a template filled here) precaches every file under ``/static/`` and the offline
page in a cache named by :func:`static_version` (a hash of the app's version and of the static files' contents, so
a deploy that changes any file installs a new worker and drops the old cache). ``/static/`` is served cache-first;
pages network-first with the offline page as the fallback; nothing else (game state, ``/api/``, sockets, the
catalogs' scripts, any page body, which depends on the cookies) is ever cached. docs/protocol.md "Installable app".
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from admiral import __version__, i18n
from admiral.i18n import _

__all__ = ["THEME_COLOUR", "router", "static_files", "static_version"]

router = APIRouter(tags=["pages"])

#: The top bar's navy: the manifest's ``theme_color`` and ``background_color``, and ``<meta name="theme-color">``.
THEME_COLOUR = "#0f2f52"
#: File types under ``static/`` the worker precaches (everything a page of the site loads from there).
PRECACHED = (".css", ".js", ".svg", ".png", ".woff2", ".json")


@cache
def static_files(static_dir: Path) -> tuple[str, ...]:
    """The URLs (``/static/…``) of the files the worker precaches, sorted. Read once per process."""
    return tuple(
        sorted(
            "/static/" + p.relative_to(static_dir).as_posix()
            for p in static_dir.rglob("*")
            if p.is_file() and p.suffix in PRECACHED and p.name != "sw.js"
        )
    )


@cache
def static_version(static_dir: Path) -> str:
    """12 hex digits of ``sha256`` over the app's version and every static file's path and bytes: the worker's
    cache name changes exactly when a deploy changes what ``/static/`` serves."""
    digest = hashlib.sha256(__version__.encode())
    for url in static_files(static_dir):
        digest.update(url.encode())
        digest.update((static_dir / url.removeprefix("/static/")).read_bytes())
    return digest.hexdigest()[:12]


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    """The web app manifest (``application/manifest+json``): name «Адмирал» (in the request's language), start
    ``/``, standalone, the site's colours, icons 192 and 512 px PNG (also maskable) and SVG."""
    icons = [
        {"src": "/static/icons/admiral-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/admiral-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": "/static/icons/admiral-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": "/static/icons/admiral.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ]
    body = {
        "name": _("Адмирал"),
        "short_name": _("Адмирал"),
        "description": _("Морские игры: «Адмирал» и «Морской бой» — с другом или против ИИ."),
        "lang": i18n.current(),
        "start_url": "/",
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": THEME_COLOUR,
        "icons": icons,
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker script (``text/javascript``, never cached by HTTP: a browser checks it on every
    navigation), with the cache version and the precache list filled in. Its scope is ``/`` (served from the
    root; ``Service-Worker-Allowed: /`` says so explicitly)."""
    static_dir: Path = request.app.state.settings.static_dir
    source = (static_dir / "js" / "sw.js").read_text(encoding="utf-8")
    body = source.replace('"__VERSION__"', json.dumps(static_version(static_dir))).replace(
        "[] /* __PRECACHE__ */", json.dumps([*static_files(static_dir), "/offline"])
    )
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/offline", include_in_schema=False, response_class=HTMLResponse)
async def offline(request: Request) -> HTMLResponse:
    """The page shown by the worker when a page cannot be fetched: «Нет сети…». The same for every visitor (no
    commander, no form token: the worker keeps it), in the language of the request that installed the worker."""
    return request.app.state.templates.TemplateResponse(request, "offline.html", {})
