"""Turn notifications' settings (issue 19): the «ваш ход» e-mail switch of «Личное дело» and the one-click
unsubscribe link of those mails. Browser notifications need no route: they are the browser's (``core/notify.js``).

- ``POST /profile/turn-mail`` (form, CSRF token; field ``turn_mail`` = ``on`` to switch on, absent to switch off):
  a registered commander with an e-mail only; ``303`` back to ``/profile#notifications``; a guest is sent to
  ``/register`` (``303``); a form without a valid token gets ``403``.
- ``GET /mail/off/{token}``: the signed link of every «ваш ход» mail: a page with one button «Отключить письма»
  (opening a link changes nothing: mail scanners open links, QA of issue 19); a forged or malformed token gets
  ``400``.
- ``POST /mail/off/{token}``: that button, and RFC 8058's one-click unsubscribe a mail client sends for the mail's
  ``List-Unsubscribe-Post`` header (no cookie, no login: the signed token is the authority, and it can only turn
  the mails off): switches them off (idempotent) and says so; a forged or malformed token gets ``400``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from admiral import i18n
from admiral.i18n import _

from ..deps import CommanderDep, checked_form
from .pages import error_page, render

__all__ = ["router", "turn_mail_state"]

router = APIRouter(tags=["commanders"])


async def turn_mail_state(request: Request, commander_id: int | None) -> bool:
    """Whether the commander gets «ваш ход» mails (``False`` for a guest)."""
    if commander_id is None:
        return False
    return await run_in_threadpool(request.app.state.turn_mail.enabled, commander_id)


@router.post("/profile/turn-mail", response_model=None)
async def set_turn_mail(request: Request, me: CommanderDep) -> Response:
    """Switch «ваш ход» mails on or off (PROGRESSION-neutral; issue 19: opt-in, off by default); the mails come
    in the language of this request."""
    form = await checked_form(request)
    if form is None:
        return error_page(
            request, 403, _("Форма устарела или пришла с чужого сайта. Обновите страницу и попробуйте снова.")
        )
    if me is None or not me.registered or me.id is None:
        return RedirectResponse("/register", status_code=303)
    on = form.get("turn_mail") == "on"
    await run_in_threadpool(request.app.state.turn_mail.set_enabled, me.id, on, i18n.current())
    return RedirectResponse("/profile?turn_mail=" + ("on" if on else "off") + "#notifications", status_code=303)


@router.get("/mail/off/{token}", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, token: str) -> HTMLResponse:
    """The link of a «ваш ход» mail: the page with the button that switches the mails off (nothing changes yet)."""
    if not request.app.state.turn_mail.valid_token(token[:64]):
        return error_page(request, 400, _("Ссылка для отписки неверна. Отключите письма в «Личном деле»."))
    return render(request, "mail_off.html", {"token": token[:64], "done": False})


@router.post("/mail/off/{token}", response_class=HTMLResponse)
async def unsubscribe(request: Request, token: str) -> HTMLResponse:
    """Switch the «ваш ход» mails off (a signed token: :meth:`TurnMail.unsubscribe`)."""
    done = await run_in_threadpool(request.app.state.turn_mail.unsubscribe, token[:64])
    if not done:
        return error_page(request, 400, _("Ссылка для отписки неверна. Отключите письма в «Личном деле»."))
    return render(request, "mail_off.html", {"token": token[:64], "done": True})
