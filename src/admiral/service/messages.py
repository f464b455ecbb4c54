"""Client → server WebSocket messages (docs/protocol.md), validated by pydantic, discriminated on ``type``.

>>> parse_client_message('{"type": "action", "ply": 3, "action": "e4-e5"}')
ActionMsg(type='action', ply=3, action='e4-e5')
>>> parse_client_message('{"type": "warp"}')
Traceback (most recent call last):
...
admiral.service.errors.ServiceError: Неизвестный тип сообщения.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from admiral.i18n import _

from .errors import ServiceError

__all__ = ["ChatBlockMsg", "ChatMsg", "ClientMessage", "LobbyMessage", "parse_client_message", "parse_lobby_message"]

Setup = Annotated[dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=8)]], Field(max_length=80)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SetupUpdateMsg(_Msg):
    """``setup.update``: a partial draft."""

    type: Literal["setup.update"]
    setup: Setup


class SetupAutoMsg(_Msg):
    """``setup.auto``: complete the partial draft with a fresh seed, in ``style`` (one of the game's
    auto-arrangement styles; ``""``: its default)."""

    type: Literal["setup.auto"]
    setup: Setup = {}
    style: str = Field("", max_length=16)


class SetupReadyMsg(_Msg):
    """``setup.ready``: lock a complete setup."""

    type: Literal["setup.ready"]
    setup: Setup


class ActionMsg(_Msg):
    """``action``: engine notation, made at version ``ply``."""

    type: Literal["action"]
    ply: Annotated[int, Field(ge=0, le=1_000_000, strict=True)]
    action: Annotated[str, Field(min_length=1, max_length=80)]


class PrefsMsg(_Msg):
    """``prefs``: per-seat preferences (``auto_declare``: always declare the strongest formation)."""

    type: Literal["prefs"]
    auto_declare: Annotated[bool, Field(strict=True)]  # JSON true/false only, not "yes" or 0


class NoteMsg(_Msg):
    """``note``: the player's own note on the enemy marker on ``cell`` at version ``ply`` (``null``/``""``: remove)."""

    type: Literal["note"]
    ply: Annotated[int, Field(ge=0, le=1_000_000, strict=True)]
    cell: Annotated[str, Field(min_length=2, max_length=3)]
    note: Annotated[str, Field(max_length=8)] | None = None


class ChatMsg(_Msg):
    """``chat`` (issue 19): a quick ``phrase`` (its key: ``gl``, ``gg``, ``thanks``, ``rematch``) or a free ``text``,
    exactly one of them. The text's length as the user sees it is checked by the service
    (:func:`admiral.service.session.chat.text_length`); the frame limit bounds it here."""

    type: Literal["chat"]
    phrase: Annotated[str, Field(max_length=16)] | None = None
    #: bounded by the socket's frame size; the chat's own limit is checked as the user sees characters (chat_too_long)
    text: Annotated[str, Field(max_length=64 * 1024)] | None = None


class ChatBlockMsg(_Msg):
    """``chat.block`` (issue 19): block (``blocked: true``) or unblock the opponent's chat messages, in this game
    and later ones."""

    type: Literal["chat.block"]
    blocked: Annotated[bool, Field(strict=True)]


class SimpleMsg(_Msg):
    """Messages without fields."""

    type: Literal[
        "resign", "draw.offer", "draw.accept", "draw.decline", "abort", "claim", "rematch", "rematch.accept",
        "rematch.decline", "rematch.cancel", "ping",
    ]  # fmt: skip


ClientMessage = Annotated[
    SetupUpdateMsg | SetupAutoMsg | SetupReadyMsg | ActionMsg | PrefsMsg | NoteMsg | ChatMsg | ChatBlockMsg | SimpleMsg,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_TYPES = {
    "setup.update", "setup.auto", "setup.ready", "action", "prefs", "note", "resign", "draw.offer", "draw.accept",
    "draw.decline", "abort", "claim", "rematch", "rematch.accept", "rematch.decline", "rematch.cancel", "ping",
    "chat", "chat.block",
}  # fmt: skip


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Parse and validate one client message.

    :raises ServiceError: ``bad_json`` (not JSON), ``unknown_type`` (no such ``type``) or
        ``bad_message`` (wrong shape; ``detail`` lists the fields at fault).
    """
    return _parse(text, _TYPES, _ADAPTER)


def _parse(text: str | bytes, types: set[str], adapter: TypeAdapter[Any]) -> Any:
    """One JSON object whose ``type`` is one of ``types``, validated by ``adapter`` (the errors of
    :func:`parse_client_message`)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        raise ServiceError("bad_json", _("Сообщение не является корректным JSON.")) from None
    if not isinstance(data, dict):
        raise ServiceError("bad_message", _("Сообщение должно быть объектом JSON с полем «type»."))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        named = None if kind is None else str(kind)[:40]
        raise ServiceError("unknown_type", _("Неизвестный тип сообщения."), {"type": named})
    try:
        return adapter.validate_python(data)
    except ValidationError as e:
        fields = [".".join(str(p) for p in err["loc"][1:]) or "type" for err in e.errors()[:5]]
        raise ServiceError("bad_message", _("Сообщение неверной формы."), {"fields": fields}) from None


# -- the lobby socket (issue 19, docs/protocol.md "Lobby") ------------------------------------------------------


class LobbyChallengeMsg(_Msg):
    """``accept`` / ``cancel``: accept someone's open challenge ``id``, or withdraw one's own."""

    type: Literal["accept", "cancel"]
    id: Annotated[str, Field(min_length=1, max_length=16)]


class LobbyPairMsg(_Msg):
    """``pair``: join the quick-pairing pool for ``game`` at ``time_control`` (one the game declares in
    ``GameInfo.pairing``), ``rated`` or casual."""

    type: Literal["pair"]
    game: Annotated[str, Field(min_length=1, max_length=32)]
    time_control: Annotated[str, Field(min_length=1, max_length=16)]
    rated: Annotated[bool, Field(strict=True)] = False


class LobbySimpleMsg(_Msg):
    """``unpair`` (leave the pool) and ``ping``."""

    type: Literal["unpair", "ping"]


LobbyMessage = Annotated[LobbyChallengeMsg | LobbyPairMsg | LobbySimpleMsg, Field(discriminator="type")]
_LOBBY_ADAPTER: TypeAdapter[LobbyMessage] = TypeAdapter(LobbyMessage)
_LOBBY_TYPES = {"accept", "cancel", "pair", "unpair", "ping"}


def parse_lobby_message(text: str | bytes) -> LobbyMessage:
    """Parse and validate one message of the lobby socket.

    >>> parse_lobby_message('{"type": "accept", "id": "abc"}')
    LobbyChallengeMsg(type='accept', id='abc')
    >>> parse_lobby_message('{"type": "pair", "game": "admiral", "time_control": "5+3", "rated": "yes"}')
    Traceback (most recent call last):
    ...
    admiral.service.errors.ServiceError: Сообщение неверной формы.

    :raises ServiceError: ``bad_json``, ``unknown_type``, ``bad_message`` (``detail.fields``), as
        :func:`parse_client_message`."""
    return _parse(text, _LOBBY_TYPES, _LOBBY_ADAPTER)
