"""The WebSockets skip the HTTP middleware stack (issue 23: its layers held ~11 KiB of every open socket)."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from admiral.web import app as app_module

from .conftest import live_game


def test_every_socket_route_is_served_directly(client) -> None:
    """The routers' WebSocket routes are the ones :class:`AdmiralApp` serves before the stack."""
    assert sorted(r.path for r in client.app.sockets.routes) == ["/ws/games/{game_id}", "/ws/lobby"]


def test_a_socket_passes_no_http_middleware_and_still_plays(browsers, monkeypatch) -> None:
    """A game's sockets play as ever while the stack FastAPI builds for HTTP never sees a WebSocket."""
    seen: list[str] = []
    real = app_module.FastAPI.__call__

    async def spy(self, scope, receive, send):
        seen.append(scope["type"])
        await real(self, scope, receive, send)

    monkeypatch.setattr(app_module.FastAPI, "__call__", spy)
    with live_game(browsers) as live:
        live.act("south")
        live.act("north")
        assert live.snaps["north"]["game"]["version"] == 2
    assert "websocket" not in seen and "http" in seen  # the game's pages and posts went through it


def test_an_unknown_socket_path_is_refused_by_the_stack(client, browsers) -> None:
    with pytest.raises(WebSocketDisconnect):
        with browsers().client.websocket_connect("/ws/nowhere") as ws:
            ws.receive_json()
