"""Settings of the web server (pydantic-settings: environment variables, then a ``.env`` file).

Every value has an embedded default so ``admiral serve`` runs with nothing installed: SQLite under
``./data/``, the in-process event bus. Outside development the default secret is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_SECRET", "PROJECT_ROOT", "Settings"]

#: The secret used when ``SECRET_KEY`` is not set; refused outside development.
DEFAULT_SECRET = "change-me-dev-only"
#: The repository root (``templates/``, ``static/``, ``migrations/``, ``alembic.ini`` live there).
PROJECT_ROOT = Path(__file__).resolve().parents[3]


class Settings(BaseSettings):
    """Server settings. Environment names are the upper-case field names (``DATABASE_URL``, ``PORT``…).

    Times: ``*_ms`` are milliseconds, ``*_s`` seconds.

    :raises ValueError: (pydantic ``ValidationError``) with the default ``SECRET_KEY`` outside development.
    """

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///./data/admiral.db"
    redis_url: str | None = None  # accepted, unused for now: a later issue adds Redis pub/sub
    secret_key: str = DEFAULT_SECRET
    host: str = "127.0.0.1"
    port: int = 8000
    environment: Literal["development", "production"] = "development"
    #: Log lines of ``admiral serve``: ``text`` (human) or ``json`` (one object a line: time, level, logger,
    #: message and ``game_id`` on lines about a game).
    log_format: Literal["text", "json"] = "text"
    #: ``LOG_LEVEL``: the lowest level logged (``DEBUG`` adds a line per ply: the record is in the database).
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    #: Addresses whose ``X-Forwarded-For``/``X-Forwarded-Proto`` uvicorn trusts (comma-separated, ``*`` for
    #: any): the reverse proxy's. Behind a proxy the client address (rate limits) and the scheme (secure
    #: cookies) come from these headers; ``*`` only where nothing but the proxy reaches the app.
    forwarded_allow_ips: str = "127.0.0.1"

    #: Apply Alembic migrations when the app starts.
    migrate_on_start: bool = True
    #: How long a player must stay disconnected before the opponent may claim the win (rules §10.1).
    claim_grace_ms: int = 60_000
    #: Period of the sweeper: flag checks and clock checkpoints.
    sweep_interval_s: float = 2.0
    #: ``GC_FREEZE_S``: every this many seconds the objects alive are moved out of the collector's sight
    #: (``gc.freeze``), so that a full collection scans only what was made since (0: only once, at the start);
    #: ``GC_THAW_S``: every this many seconds they are given back and collected once, so that garbage cycles among
    #: them are freed (issue 23: full collections of the whole heap stalled every game for 0.4-0.6 s, several times
    #: a minute, under 2,000 games; frozen, ~2,300 cyclic garbage objects a minute wait for the thaw there, whose one
    #: full collection took 0.16-0.76 s: bench/results/ws_load_issue23_run4.txt).
    gc_freeze_s: float = 5.0
    gc_thaw_s: float = 600.0
    #: ``IDLE_EVICT_S``: an untimed game in play with no socket open on it for this many seconds leaves this
    #: instance's memory (reloaded from the database when next asked for, as after a restart; issue 23); 0: never.
    idle_evict_s: float = 600.0
    #: A game whose invite nobody accepted within this time is aborted by the sweeper (24 h).
    waiting_ttl_s: float = 24 * 3600
    #: Worker processes the bots think in (games against the AI, rules §12).
    bot_workers: int = 2
    #: Bots think in worker processes below the server's priority (``false``: threads of the server's process).
    bot_processes: bool = True
    #: Least time between the position a bot answers and its answer, ms (its clock runs meanwhile).
    bot_delay_ms: int = 500
    #: Most time a bot may think a move, ms, whatever its level's budget (0: each level's own budget, up to 1 s).
    #: For tests that play whole games against the strongest levels in a browser; never needed in production.
    bot_think_max_ms: int = 0
    #: Unfinished games against the AI one commander may have at once.
    max_bot_games: int = 3
    #: Unfinished games against the AI created from one client address (fresh cookies must not give more).
    max_bot_games_per_address: int = 6
    #: Seconds between the sweeper's passes over correspondence games for «ваш ход» mails (issue 19).
    turn_mail_interval_s: float = 60.0
    #: Allow ``base_ms``/``increment_ms``/``setup_ms`` in ``POST /games`` (tests and benchmarks only).
    test_time_controls: bool = False
    #: Extra origins allowed on the WebSocket besides the page's own host (e.g. a proxy's public URL).
    allowed_origins: list[str] = []
    #: Largest WebSocket frame accepted, bytes (larger: close 1009).
    ws_max_frame: int = 64 * 1024
    #: Most WebSocket messages accepted in any one second (more: close 1008).
    ws_max_rate: int = 20
    #: Most WebSocket messages accepted in any one second from one client address, all its sockets together.
    ws_max_rate_per_address: int = 40
    #: Most open WebSocket connections of one client address on one instance (more: refused, 1008).
    ws_max_per_address: int = 32
    #: Most open WebSocket connections of one seat of a game on one instance: its tabs (more: refused, 1008).
    ws_max_per_seat: int = 8
    #: The lobby socket (issue 19): most open lobby sockets of one browser on one instance (its tabs), most messages
    #: in any one second on one (more: close 1008), largest frame in bytes (larger: close 1009).
    lobby_max_per_browser: int = 8
    lobby_max_rate: int = 8
    lobby_max_frame: int = 1024
    #: Largest request body accepted, bytes (larger: 413 before the body is read).
    max_body_bytes: int = 64 * 1024

    #: The site's public base URL, for links in mail (password recovery).
    public_url: str = "http://127.0.0.1:8000"
    #: Mail backend: ``console`` (the log), ``file`` (``.eml`` files in ``mail_dir``) or ``smtp``.
    mail_backend: Literal["console", "file", "smtp"] = "console"
    mail_dir: Path = Path("data/mail")
    mail_from: str = "Адмирал <noreply@admiral.local>"
    smtp_host: str = "localhost"
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True
    #: Where rate-limit counters live (``limits`` storage URI): ``memory://``, or ``redis://…`` for several
    #: instances.
    rate_limit_storage: str = "memory://"
    #: Rate limits (``limits`` notation) per client address: every login, registration, recovery request.
    rate_login: str = "10/minute"
    #: Failed logins (and wrong current passwords) per account named *and* client address (OWASP ASVS 5.0
    #: V6.3): the owner at another address is not locked out by someone else's failures.
    rate_login_account_address: str = "5/minute;20/hour"
    #: Failed logins per account from any address: the backstop against guessing from many addresses, far
    #: above the per-address one. A successful login counts against neither account limit.
    rate_login_account: str = "100/hour"
    rate_register: str = "5/minute;20/hour"
    rate_recover: str = "3/minute;10/hour"
    #: Recovery requests (each may mail a link) per e-mail named and client address, then per e-mail from any
    #: address (the backstop: at most that many recovery mails to one mailbox).
    rate_recover_account_address: str = "3/hour"
    rate_recover_account: str = "10/hour"
    rate_feedback: str = "5/minute;30/hour"
    rate_games: str = "20/minute;200/hour"
    #: Open challenges («Вызовы», issue 19) created per client address (besides ``rate_games``).
    rate_challenges: str = "6/minute;60/hour"
    #: Tries in lessons (``POST /api/tutorial/{slug}/act``) per client address.
    rate_tutorial: str = "120/minute;2000/hour"
    #: WebSocket connections opened per client address (a reconnecting tab opens a few a minute).
    rate_sockets: str = "60/minute;1000/hour"
    #: Chat messages per seat of a game (issue 19): a flood beyond is refused (``chat_flood``) and not stored.
    rate_chat: str = "5/10 seconds;30/10 minutes"
    #: Page and API reads (GET, HEAD; not static files, probes or catalogs) per client address.
    rate_pages: str = "600/minute"

    templates_dir: Path = PROJECT_ROOT / "templates"
    static_dir: Path = PROJECT_ROOT / "static"

    @model_validator(mode="after")
    def _refuse_default_secret(self) -> Settings:
        if self.environment != "development" and self.secret_key == DEFAULT_SECRET:
            raise ValueError("SECRET_KEY must be set outside development (ENVIRONMENT=production)")
        if self.environment != "development" and self.test_time_controls:
            raise ValueError("TEST_TIME_CONTROLS is for tests only")
        return self

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is an SQLite file (embedded default)."""
        return self.database_url.startswith("sqlite")
