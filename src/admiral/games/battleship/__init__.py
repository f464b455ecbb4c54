"""«Морской бой» (Battleship), rule sets A (classic) and B (Hasbro, salvo, hits not named): ``shared/rules/
BATTLESHIP.md``.

- :data:`INFO`: the game's facts for the registry (key ``"battleship"``, options, setup styles, board);
- :mod:`.rules`: the pure rules engine (standard library only);
- :class:`BattleshipRuleset`: the house's :class:`~admiral.games.protocol.Ruleset` over it, with the capability
  ``progression`` (:mod:`.progression`: points and per-commander totals, ``docs/points.md``);
- :mod:`.botapi`: the interface bots implement and the registry of levels, filled by :mod:`.seat_bot` with the
  five levels of :mod:`.bots`.
"""

from __future__ import annotations

from admiral.games.protocol import GameInfo, Option
from admiral.i18n import N_

from .botapi import LEVELS, Bot, BotLevel
from .seat_bot import register

register()  # the five levels of :mod:`.bots` into LEVELS, before INFO lists them

__all__ = ["INFO", "LEVELS", "BattleshipRuleset", "Bot", "BotLevel"]

#: The facts of «Морской бой», declared once. ``levels`` follows :data:`.botapi.LEVELS`.
INFO = GameInfo(
    key="battleship",
    name=N_("Морской бой"),
    levels={n: lv.name for n, lv in sorted(LEVELS.items())},
    options=(
        Option("rules", N_("Правила"), (("classic", N_("Классика")), ("hasbro", N_("Hasbro")))),
        Option(
            "salvo",
            N_("Залп"),
            ((False, N_("Один выстрел за ход")), (True, N_("Выстрелов за ход столько, сколько кораблей на плаву"))),
            applies={"rules": ("hasbro",)},
        ),
        Option(
            "named",
            N_("Попадания без названия"),
            ((True, N_("Ответ называет подбитый корабль")), (False, N_("Только «попал» / «потоплен», без названия"))),
            applies={"rules": ("hasbro",)},
        ),
    ),
    setup_styles=(("plain", N_("Обычная")), ("hard", N_("Трудная для поиска"))),
    setup_minutes=3,
    pairing=("5+3", "10+5"),  # its games are short: the two shortest controls (issue 19)
    capabilities=frozenset({"progression"}),
    chance=True,  # the first shooter is drawn from the game's seed (A4, D2): the session must pass it
    board={"width": 10, "height": 10, "rows": "abcdefghij", "rows_ru": "АБВГДЕЖЗИК"},
    blurb=N_("10×10: классика или Hasbro, залпом или по выстрелу"),
    brief=N_(
        "Поле 10×10, строки А–К, столбцы 1–10. Классика: десять кораблей (4, 3, 3, 2, 2, 2, 1, 1, 1, 1 палубы), "
        "корабли не касаются даже углом, попавший стреляет ещё раз. Hasbro: пять кораблей, касаться можно, ход "
        "переходит после каждого выстрела; в «залпе» выстрелов за ход столько, сколько кораблей на плаву."
    ),
    messages={
        "already_shot": N_("По этой клетке уже стреляли."),
        "bad_cell": N_("Такой клетки на поле нет."),
        "bad_notation": N_("Выстрел — это клетка поля, например «Б5»."),
        "no_arrangement": N_(
            "Авторасстановка невозможна: остальные корабли не помещаются рядом с поставленными вами. "
            "Уберите или передвиньте часть кораблей."
        ),
    },
    level_notes={
        1: N_("стреляет наугад"),
        2: N_("попав, добивает корабль"),
        3: N_("ищет через клетку и добивает"),
        4: N_("считает, где корабли стоят вероятнее всего, по каждому ответу"),
        5: N_("перебирает расстановки, согласные со всеми ответами, и прячет свой флот от такого подсчёта"),
    },
    end_reasons={  # BATTLESHIP.md A7, B2, D (Reason of .rules.state)
        "fleet_sunk": N_("флот потоплен"),
        "resign": N_("сдача"),
        "flag": N_("время вышло"),
        "abandon": N_("уход из партии"),
        "draw": N_("по соглашению"),
    },
    invite=N_("Расставьте корабли на своём поле 10×10 и стреляйте по клеткам соперника по очереди. Правила: %(room)s."),
)

from .ruleset import BattleshipRuleset  # noqa: E402  (it reads INFO)
