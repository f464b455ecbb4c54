"""Outgoing mail (password recovery) through a configurable backend, built on the standard library's
:mod:`email` and :mod:`smtplib`.

- ``console``: the message is written to the log (development default);
- ``file``: each message is an ``.eml`` file in a directory (tests, staging);
- ``smtp``: sent through an SMTP server (production), STARTTLS unless told otherwise.
"""

from __future__ import annotations

import logging
import smtplib
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

__all__ = ["MailConfig", "Mailer"]

log = logging.getLogger("admiral.mail")


@dataclass(frozen=True)
class MailConfig:
    """Where mail goes. ``backend``: ``console`` | ``file`` | ``smtp``; ``directory`` for ``file``;
    ``host``/``port``/``user``/``password``/``starttls`` for ``smtp``; ``sender`` is the From address."""

    backend: str = "console"
    sender: str = "Адмирал <noreply@admiral.local>"
    directory: Path = Path("data/mail")
    host: str = "localhost"
    port: int = 587
    user: str | None = None
    password: str | None = None
    starttls: bool = True


class Mailer:
    """Sends plain-text messages through the configured backend.

    :raises ValueError: for an unknown backend name.
    """

    def __init__(self, config: MailConfig) -> None:
        if config.backend not in ("console", "file", "smtp"):
            raise ValueError(f"unknown mail backend {config.backend!r}: console, file or smtp")
        self.config = config

    def message(self, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> EmailMessage:
        """A UTF-8 plain-text message from the configured sender, with extra ``headers`` (e.g. ``List-Unsubscribe``)."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.config.sender, to, subject
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(body)
        return msg

    def send(self, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> None:
        """Send now (blocking). Failures are logged, never raised: a reply must not depend on the mail."""
        msg = self.message(to, subject, body, headers)
        c = self.config
        try:
            if c.backend == "console":
                log.info("mail to=%s subject=%s\n%s", to, subject, body)
            elif c.backend == "file":
                c.directory.mkdir(parents=True, exist_ok=True)
                name = f"{time.time_ns()}-{threading.get_ident()}"
                tmp = c.directory / f"{name}.tmp"
                tmp.write_bytes(bytes(msg))
                tmp.replace(c.directory / f"{name}.eml")  # atomic: a reader never sees half a message
            else:
                with smtplib.SMTP(c.host, c.port, timeout=20) as smtp:
                    if c.starttls:
                        smtp.starttls()
                    if c.user:
                        smtp.login(c.user, c.password or "")
                    smtp.send_message(msg)
        except Exception:
            log.exception("mail to %s failed", to)

    def send_later(self, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> None:
        """Send from a background thread, so the caller's reply time does not reveal whether mail went out."""
        args = (to, subject, body, headers)
        threading.Thread(target=self.send, args=args, name="admiral-mail", daemon=True).start()
