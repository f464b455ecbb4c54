"""The language of the UI (issue 7): ``POST /lang`` remembers a browser's choice, ``GET /i18n/{lang}.js`` gives
the browser's ``t()`` (``static/js/t.js``) the catalog of that language."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from admiral import i18n
from admiral.i18n import _

from ..deps import checked_form
from .pages import error_page

__all__ = ["SWITCH", "client_script", "current_page", "router"]

router = APIRouter(tags=["pages"])

#: The choices of the switch in the top bar: code, label, the language's own name.
SWITCH = (("ru", "RU", "Русский"), ("en", "EN", "English"))
#: The choice is remembered for a year.
COOKIE_MAX_AGE = 365 * 24 * 3600
#: A gettext plural expression is C syntax that is also JavaScript; anything else in it is refused.
_PLURAL_EXPR = re.compile(r"^[n0-9\s()?:%<>=!&|+\-*/]+$")


def _local(url: str | None) -> str | None:
    """``url`` if it is a path on this site (no scheme, no host, not ``//…``), else ``None``."""
    if not url or not url.startswith("/") or url.startswith("//") or "\\" in url:
        return None
    parts = urlsplit(url)
    return url if not parts.scheme and not parts.netloc else None


def current_page(request: Request) -> str:
    """Where the language switch comes back to: this page for a ``GET``; after a form's ``POST`` the page the
    form was on (the same-site ``Referer``), else home."""
    if request.method in ("GET", "HEAD"):
        query = request.url.query
        return request.url.path + (f"?{query}" if query else "")
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc and referer.netloc == request.headers.get("host"):
        return _local(referer.path + (f"?{referer.query}" if referer.query else "")) or "/"
    return "/"


@router.post("/lang", response_model=None)
async def set_language(request: Request) -> Response:
    """Switch the language: the ``admiral_lang`` cookie (one year), then ``303`` back to ``next``."""
    form = await checked_form(request)
    if form is None:
        return error_page(request, 403, _("Форма устарела или пришла с чужого сайта. Обновите страницу."))
    lang = form.get("lang", "")
    if lang not in i18n.LANGUAGES:
        return error_page(request, 400, _("Такого языка нет."))
    response = RedirectResponse(_local(form.get("next")) or "/", status_code=303)
    response.set_cookie(
        i18n.COOKIE, lang, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )  # fmt: skip
    return response


@cache
def client_script(lang: str) -> tuple[str, str]:
    """The script that hands ``lang``'s catalog to ``t.js`` and its version (a hash of the text, so pages can
    ask for ``/i18n/{lang}.js?v=…`` and let browsers keep it).

    Sets ``window.ADMIRAL_LANG``, ``window.ADMIRAL_CATALOG`` (msgid → translation, or → plural forms) and
    ``window.ADMIRAL_PLURAL(n)`` (the index of the plural form, from the catalog's gettext expression).
    """
    data = i18n.client_catalog(lang)
    expr = data["plural"] if _PLURAL_EXPR.match(data["plural"] or "") else "(n != 1)"
    text = (
        "// The catalog of static/js/t.js (admiral.i18n, issue 7).\n"
        f"window.ADMIRAL_LANG = {json.dumps(data['lang'])};\n"
        f"window.ADMIRAL_CATALOG = {json.dumps(data['messages'], ensure_ascii=False, sort_keys=True)};\n"
        f"window.ADMIRAL_PLURAL = function (n) {{ return Number({expr}); }};\n"
    )
    return text, hashlib.sha256(text.encode()).hexdigest()[:12]


@router.get("/i18n/{lang}.js", response_model=None)
async def catalog_script(request: Request, lang: str) -> Response:
    """The catalog script of ``lang`` (404 for a language the site does not have)."""
    if lang not in i18n.LANGUAGES:
        return error_page(request, 404, _("Такого языка нет."))
    text, version = client_script(lang)
    fresh = request.query_params.get("v") == version
    cache_control = "public, max-age=31536000, immutable" if fresh else "no-cache"
    return Response(
        text, media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": cache_control, "ETag": f'"{version}"'},
    )  # fmt: skip
