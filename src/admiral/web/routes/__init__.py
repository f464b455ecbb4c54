"""Routers: ``pages`` (HTML), ``api`` (JSON), ``ws`` (the game WebSocket)."""
