"""The shipped nginx and uvicorn settings agree (issue 23): nginx drops an idle pooled connection to a replica before
the replica's keep-alive closes it, else a request sent down a closing connection is answered 502 (a POST is never
retried). The two-instance load run through nginx saw two at 2,000 games."""

import re
from pathlib import Path

from admiral.cli import KEEP_ALIVE_S

ROOT = Path(__file__).resolve().parents[1]


def _upstream(name: str) -> str:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = re.search(r"upstream " + name + r" \{(.*?)\}", conf, re.S)
    assert block is not None, f"deploy/nginx.conf has no upstream {name}"
    return block.group(1)


def test_nginx_drops_idle_replica_connections_before_the_replica_does() -> None:
    pool = _upstream("admiral")
    assert re.search(r"^\s*keepalive \d+;", pool, re.M)  # the pages' pool keeps connections alive
    timeout = re.search(r"^\s*keepalive_timeout (\d+)s;", pool, re.M)
    assert timeout is not None, "the pages' upstream must set keepalive_timeout"
    assert int(timeout.group(1)) < KEEP_ALIVE_S


def test_sockets_never_take_a_pooled_connection() -> None:
    assert "keepalive" not in _upstream("admiral_ws")  # issue 16: a pooled connection's timer closed sockets at 5 s
