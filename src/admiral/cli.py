"""The ``admiral`` command line: ``admiral serve`` (the web server), ``admiral db upgrade`` (migrations),
``admiral selfplay`` (a terminal demo of random self-play), ``admiral i18n`` (the translation catalogs)."""

from __future__ import annotations

import json
import logging
import random
import re
import time
from collections import Counter
from datetime import UTC, datetime

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .games.admiral.rules import BattleReport, Game
from .games.admiral.rules.text import describe_report, describe_result

app = typer.Typer(help="«Адмирал» online.", no_args_is_help=True, add_completion=False)
console = Console()


@app.callback()
def main() -> None:
    """«Адмирал»: the command line of the game server."""


def play_random_game(rng: random.Random) -> Game:
    """One game between two uniformly random players from auto-arranged setups (``rng`` drives all)."""
    game = Game.new_random(rng)
    state = game.state
    while state.result is None:
        game.apply(rng.choice(game.legal_actions()))
    return game


@app.command()
def selfplay(
    games: int = typer.Option(1, "--games", "-n", min=1, help="How many games to play."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the whole run (setups and moves)."),
    reports: bool | None = typer.Option(
        None, "--reports/--no-reports", help="Print every battle report (default: only for a single game)."
    ),
) -> None:
    """Random-vs-random games: battle reports, results, and a summary with plies/s."""
    rng = random.Random(seed)
    show = games == 1 if reports is None else reports
    reasons: Counter[str] = Counter()
    lengths: list[int] = []
    busy = 0.0
    with Progress(
        TextColumn("[bold]самоигра"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, disable=show,
    ) as progress:  # fmt: skip
        task = progress.add_task("games", total=games)
        for n in range(games):
            started = time.perf_counter()
            game = play_random_game(rng)
            busy += time.perf_counter() - started
            result = game.state.result
            if show:
                console.rule(f"Партия {n + 1}")
                for event in game.log:
                    if isinstance(event, BattleReport):
                        console.print(describe_report(event), highlight=False)
                console.print(f"[bold]{describe_result(result)}[/bold] — {game.ply} полуходов", highlight=False)
            reasons[f"{'draw' if result.winner is None else result.winner.label + ' wins'}: {result.reason.value}"] += 1
            lengths.append(game.ply)
            progress.advance(task)
    table = Table(title=f"{games} games, seed {seed}")
    table.add_column("result")
    table.add_column("games", justify="right")
    for key, count in sorted(reasons.items()):
        table.add_row(key, str(count))
    console.print(table)
    plies = sum(lengths)
    console.print(
        f"length in plies: mean {plies / len(lengths):.1f}, max {max(lengths)}; "
        f"speed {plies / busy:,.0f} plies/s ({len(lengths) / busy:.2f} games/s)",
        highlight=False,
    )


db_app = typer.Typer(help="The database: migrations.", no_args_is_help=True)
app.add_typer(db_app, name="db")


def _configure_logging(log_format: str = "text", level: str = "INFO") -> None:
    """Log ``level`` (a :mod:`logging` level's name) and above to stderr: ``text`` lines, or ``json`` lines
    (:class:`JsonFormatter`)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("uvicorn.access").addFilter(redact_invites)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, ``game_id`` when
    the record carries one (the service's game logger passes it), ``exc_info`` with a traceback.

    >>> r = logging.LogRecord("admiral.game", logging.INFO, "", 0, "ply=%s", (3,), None)
    >>> r.created, r.game_id = 0.0, "Ab12"
    >>> json.loads(JsonFormatter().format(r))  # doctest: +NORMALIZE_WHITESPACE
    {'time': '1970-01-01T00:00:00.000+00:00', 'level': 'INFO', 'logger': 'admiral.game', 'message': 'ply=3',
     'game_id': 'Ab12'}
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        game_id = getattr(record, "game_id", None)
        if game_id is not None:
            line["game_id"] = game_id
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


#: Seconds uvicorn keeps an idle HTTP connection open for the next request (uvicorn's default, made explicit):
#: deploy/nginx.conf drops its idle pooled connections to the replicas sooner (``keepalive_timeout 4s``), so nginx
#: never sends a request down a connection the replica is closing (a POST was answered 502, issue 23).
KEEP_ALIVE_S = 5

#: Seconds uvicorn waits, at a stop, for open requests and sockets to end before cancelling them.
SHUTDOWN_GRACE_S = 2

#: Paths whose last part is a secret: an invite code (it takes a seat) and a password-reset token.
_SECRET_PATH = re.compile(r"(/j/|/reset/)[^/?\s\"]+")


def redact_invites(record) -> bool:
    """Logging filter: an invite code or a password-reset token is a secret (the database keeps only its hash),
    so access-log lines show ``/j/…`` and ``/reset/…`` instead (nginx's log does the same: deploy/nginx.conf).

    >>> import logging
    >>> r = logging.LogRecord("uvicorn.access", 20, "", 0, '%s "%s %s"', ("1.2.3.4", "GET", "/j/Zx9?a=1"), None)
    >>> redact_invites(r), r.getMessage()
    (True, '1.2.3.4 "GET /j/…?a=1"')
    >>> r = logging.LogRecord("uvicorn.access", 20, "", 0, '"GET /reset/Qq-1_z HTTP/1.1" 200', None, None)
    >>> redact_invites(r), r.getMessage()
    (True, '"GET /reset/… HTTP/1.1" 200')
    """
    if isinstance(record.args, tuple):
        record.args = tuple(_SECRET_PATH.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
    elif isinstance(record.msg, str):
        record.msg = _SECRET_PATH.sub(r"\1…", record.msg)
    return True


@db_app.command("upgrade")
def db_upgrade(revision: str = typer.Argument("head", help="Alembic revision to upgrade to.")) -> None:
    """Apply the Alembic migrations to DATABASE_URL (SQLite under ./data/ by default)."""
    from .store import upgrade_database
    from .web.config import Settings

    settings = Settings()
    _configure_logging(settings.log_format, settings.log_level)
    upgrade_database(settings.database_url, revision)
    console.print(f"база данных обновлена до {revision}", highlight=False)


@app.command()
def serve(
    host: str | None = typer.Option(None, help="Interface to bind (default: HOST, 127.0.0.1)."),
    port: int | None = typer.Option(None, help="Port (default: PORT, 8000)."),
    forwarded_allow_ips: str | None = typer.Option(
        None,
        help="Proxy addresses trusted for X-Forwarded-For/-Proto, comma-separated or * "
        "(default: FORWARDED_ALLOW_IPS, 127.0.0.1).",
    ),
) -> None:
    """Run the web server (uvicorn) on the settings from the environment: SQLite under ./data/, the
    in-process event bus, migrations applied at start. Logs as LOG_FORMAT says (text or json)."""
    import uvicorn

    from .web import Settings, create_app

    try:
        settings = Settings()
    except ValueError as e:
        console.print(f"[red]настройки неверны:[/red] {e}", highlight=False)
        raise typer.Exit(2) from None
    _configure_logging(settings.log_format, settings.log_level)
    uvicorn.run(
        create_app(settings),
        host=host or settings.host,
        port=port or settings.port,
        # Twice the app's own cap: a frame up to this size is read and refused with an `error too_big` the
        # player can read; beyond it the WebSocket layer closes the socket with 1009 and no message.
        ws_max_size=2 * settings.ws_max_frame,
        # Snapshots are small JSON; compressing each one cost more CPU than any other part of a move.
        ws_per_message_deflate=False,
        log_config=None,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips or settings.forwarded_allow_ips,
        # SIGTERM: sockets are closed (1012) and their handlers end; whatever still runs after this many seconds
        # is cancelled, so a stop (a deploy, `docker stop`'s 10 s) never waits for a SIGKILL (issue 16).
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
        timeout_keep_alive=KEEP_ALIVE_S,
    )


i18n_app = typer.Typer(help="Translations: extract UI strings, update and check the catalogs.", no_args_is_help=True)
app.add_typer(i18n_app, name="i18n")


@i18n_app.command("extract")
def i18n_extract() -> None:
    """Extract every UI string (Python, templates, JavaScript) into src/admiral/locale/messages.pot."""
    from .i18n import catalogs

    template = catalogs.extract()
    catalogs.write_catalog(catalogs.POT, template)
    console.print(f"{len(template)} messages → {catalogs.POT.relative_to(catalogs.ROOT)}", highlight=False)


@i18n_app.command("update")
def i18n_update() -> None:
    """Extract, then merge into every language's messages.po, and list what still needs translating."""
    from .i18n import catalogs

    template = catalogs.update()
    console.print(f"{len(template)} messages extracted; catalogs updated", highlight=False)
    _report(catalogs.problems(template))


@i18n_app.command("check")
def i18n_check() -> None:
    """List the messages without a translation (or with wrong placeholders); exit 1 if there are any."""
    from .i18n import catalogs

    if _report(catalogs.problems()):
        raise typer.Exit(1)


@i18n_app.command("init")
def i18n_init(lang: str = typer.Argument(..., help="Language code, e.g. de.")) -> None:
    """Start the catalog of a new language (then add it to admiral.i18n.LANGUAGES and translate)."""
    from .i18n import catalogs

    console.print(f"created {catalogs.init(lang).relative_to(catalogs.ROOT)}", highlight=False)


def _report(problems: list) -> int:
    for p in problems:
        console.print(str(p), highlight=False, markup=False)
    console.print(f"{len(problems)} to fix" if problems else "every message is translated", highlight=False)
    return len(problems)


from .games.admiral.bots.tournament import tournament  # noqa: E402 — bots against bots (issue 4)

app.command()(tournament)

if __name__ == "__main__":  # pragma: no cover
    app()
