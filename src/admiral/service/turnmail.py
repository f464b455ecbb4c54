"""E-mail «ваш ход» for correspondence games (issue 19).

A registered commander with an e-mail who switched the mails on in «Личное дело» (off by default) gets one mail
when it becomes their move in a correspondence game (``GameSettings.days_per_move``) and they do not have the game
open anywhere (no socket of their seat on any instance). At most one mail per turn, and never two within
:data:`MIN_GAP_MS` (6 h) for one commander and game; across instances exactly one sends it (the conditional
``UPDATE`` of :meth:`admiral.store.notify.NotifyStore.claim_turn_mail`). Each mail links to the game and to a
signed one-click unsubscribe link (:meth:`TurnMail.unsubscribe_token`). The text is in the commander's language
(the site's language when they switched the mails on), Russian by default.

The session's sweeper decides when to try (:meth:`admiral.service.session.timers.TimerMixin.sweep`); this module
does the database and the mail, synchronously (call it off the event loop).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Collection

from admiral import i18n
from admiral.i18n import _
from admiral.store.notify import MailTarget, NotifyStore

from .mail import Mailer

__all__ = ["MIN_GAP_MS", "TurnMail"]

log = logging.getLogger("admiral.mail")

#: Least time between two «ваш ход» mails to one commander about one game, ms (issue 19: 6 h).
MIN_GAP_MS = 6 * 3600 * 1000


def _left_text(ms: int) -> str:
    """«2 дн 5 ч» / «5 ч 12 мин» for a move's time left in ms (rounded down)."""
    minutes = max(0, ms) // 60_000
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if days:
        return _("%(d)s дн %(h)s ч", d=days, h=hours)
    return _("%(h)s ч %(m)s мин", h=hours, m=mins)


class TurnMail:
    """Turn mails: the commander's opt-in, the mail itself, the signed unsubscribe link.

    ``store``: :class:`~admiral.store.notify.NotifyStore`; ``mailer``: the site's mail backend (the one password
    recovery uses); ``public_url``: the site's base URL for links; ``secret_key``: signs unsubscribe links."""

    def __init__(self, store: NotifyStore, mailer: Mailer, public_url: str, secret_key: str) -> None:
        self.store = store
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")
        self._key = hashlib.sha256(b"admiral turn-mail unsubscribe\0" + secret_key.encode()).digest()

    # -- the opt-in ---------------------------------------------------------------------------------------

    def enabled(self, commander_id: int) -> bool:
        """Whether the commander gets «ваш ход» mails."""
        return self.store.turn_mail_on(commander_id)

    def set_enabled(self, commander_id: int, on: bool, lang: str | None = None) -> None:
        """Switch the commander's mails on (in ``lang``) or off."""
        self.store.set_turn_mail(commander_id, on, lang)

    def unsubscribe_token(self, commander_id: int) -> str:
        """``{id}.{hmac}``: a link token that switches this commander's mails off (32 hex digits of HMAC-SHA256
        under a key derived from the site's secret; it never expires, it only ever turns the option off)."""
        return f"{commander_id}.{self._sign(commander_id)}"

    def _sign(self, commander_id: int) -> str:
        return hmac.new(self._key, f"turn-mail-off:{commander_id}".encode(), hashlib.sha256).hexdigest()[:32]

    def valid_token(self, token: str) -> int | None:
        """The commander id a link token of :meth:`unsubscribe_token` names; ``None`` for a forged or malformed one."""
        cid, _dot, sig = (token or "")[:64].partition(".")
        if not (cid.isascii() and cid.isdigit() and len(cid) <= 12) or not hmac.compare_digest(
            sig, self._sign(int(cid))
        ):
            return None
        return int(cid)

    def unsubscribe(self, token: str) -> bool:
        """Switch off the mails of the commander ``token`` names; ``False`` for a forged or malformed token
        (nothing changes then)."""
        cid = self.valid_token(token)
        if cid is None:
            return False
        self.store.set_turn_mail(cid, False)
        return True

    # -- the mail -------------------------------------------------------------------------------------------

    def targets(self, keys: Collection[str]) -> dict[str, MailTarget]:
        """Of the identity ``keys``, those whose commanders asked for «ваш ход» mails (one query)."""
        return self.store.mail_targets(keys)

    def mail_turn(self, target: MailTarget, game_id: str, side: str, game_name: str, left_ms: int, now_ms: int) -> bool:
        """Mail «ваш ход» to ``target`` (from :meth:`targets`), who holds ``side`` of ``game_id``, if the claim
        succeeds (:meth:`~admiral.store.notify.NotifyStore.claim_turn_mail`: the stored game waits for that side at a
        later ply than the last mail, 6 h after it). ``game_name``: the game's Russian name (translated here),
        ``left_ms``: the move's time left; ``now_ms``: epoch ms. Returns whether a mail went out."""
        if self.store.claim_turn_mail(game_id, side, now_ms, MIN_GAP_MS) is None:
            return False
        link = f"{self.public_url}/g/{game_id}"
        off = f"{self.public_url}/mail/off/{self.unsubscribe_token(target.id)}"
        with i18n.use(target.lang):
            # the game's name once (QA: «Адмирал»: ваш ход в партии «Адмирал» named it twice); the sender names the site
            subject = _("Ваш ход — «%(game)s», партия по переписке", game=_(game_name))
            body = _(
                "Здравствуйте, %(nickname)s!\n\nВ партии «%(game)s» по переписке ваш ход. На ход осталось %(left)s;"
                " если не успеть, партия будет проиграна по времени.\n\nОткрыть партию:\n%(link)s\n\n"
                "Мы пишем не чаще раза в шесть часов и не пишем, пока партия открыта у вас на экране.\n"
                "Больше не присылать такие письма (одним нажатием):\n%(off)s\n",
                nickname=target.nickname or "",
                game=_(game_name),
                left=_left_text(left_ms),
                link=link,
                off=off,
            )
        headers = {"List-Unsubscribe": f"<{off}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}  # RFC 8058
        self.mailer.send_later(target.email, subject, body, headers)
        log.info("turn mail game=%s side=%s commander=%s", game_id, side, target.id)
        return True
