"""«Морской бой: расширенный» (BATTLESHIP.md C, D): three boards, mines and minesweepers, energy, abilities and
levels — an extension of classic «Морской бой» (:mod:`admiral.games.battleship`), not a copy of it.

- :data:`INFO`: the game's facts for the registry (key ``"battleship_ext"``, the room options of C1, the AI levels
  of :mod:`.bots`, the Russian texts of every refusal code of the engine);
- :mod:`.rules`: the pure engine (standard library, the classic engine and :mod:`admiral.games.common` only);
- :class:`ExtendedRuleset`: the house's ruleset over it, a subclass of the classic one, with the capabilities
  ``progression`` (:mod:`.progression`: XP, levels, points) and ``start_settings`` (the commanders' levels fixed
  when play starts, D11);
- :mod:`.icons`: the ability icons per tier of levels (C7) the profile shows.
"""

from __future__ import annotations

from admiral.games.protocol import GameInfo, Option
from admiral.i18n import N_

from .bots import LEVELS  # five levels on every board

__all__ = ["INFO", "LEVELS", "ExtendedRuleset"]

#: The facts of «Морской бой: расширенный», declared once. ``levels`` follows :data:`.bots.LEVELS`.
INFO = GameInfo(
    key="battleship_ext",
    name=N_("Морской бой: расширенный"),
    levels={n: lv.name for n, lv in sorted(LEVELS.items())},
    options=(
        Option(
            "board",
            N_("Поле"),
            (
                ("classic", N_("10×10 «Классика»")),
                ("perelman", N_("16×16 «Перельман»")),
                ("giant", N_("18×18 «Гигант»")),
            ),
        ),
        # C1: mines 0–1 on «Классика», 0–3 on the larger boards (the rules refuse more: bad_options)
        Option(
            "mines",
            N_("Мины"),
            ((1, N_("1 мина")), (0, N_("без мин")), (2, N_("2 мины")), (3, N_("3 мины"))),
            choice_applies={2: {"board": ("perelman", "giant")}, 3: {"board": ("perelman", "giant")}},
        ),
        Option("sweepers", N_("Тральщики"), ((1, N_("1 тральщик")), (0, N_("без тральщика")))),
    ),
    setup_styles=(("plain", N_("Обычная")), ("hard", N_("Трудная для поиска"))),
    setup_minutes=5,
    pairing=("10+5",),
    capabilities=frozenset({"progression", "start_settings"}),
    chance=True,  # the first shooter, the decks a mine or a self-reveal hands over (D13): the session passes the seed
    board={"width": 10, "height": 10, "rows": "abcdefghij", "rows_ru": "АБВГДЕЖЗИК"},
    blurb=N_("10×10, 16×16 или 18×18: мины, тральщики, энергия, способности и уровни"),
    brief=N_(
        "Поле 10×10 «Классика», 16×16 «Перельман» или 18×18 «Гигант» со своим флотом; корабли, мины и тральщики не "
        "касаются даже углом. Попавший стреляет ещё раз. Выстрел по мине заканчивает ход и выдаёт сопернику палубу "
        "стрелявшего, по тральщику — одну из его мин. Каждый ход флот получает энергию на способности: авиаудар "
        "крестом, сонар 3×3, манёвр катера; с уровнем открываются ульты — ковровый удар, спутник-сканер, ремонт."
    ),
    messages={
        "already_shot": N_("По этой клетке уже стреляли."),
        "bad_cell": N_("Такой клетки на поле нет."),
        "bad_notation": N_("Выстрел — это клетка поля, например «Б5»; способность — её слово и клетка."),
        "not_your_turn": N_("Сейчас ход соперника."),
        "no_energy": N_("Не хватает энергии на эту способность."),
        "no_ship": N_("Нужного для этой способности корабля на плаву нет."),
        "used": N_("Эта способность уже использована в этой партии."),
        "one_ability": N_("За ход — только одна способность."),
        "no_ultimate": N_("Этот ульт вашему уровню недоступен."),
        "touching": N_("Катер не может встать вплотную к другой фигуре."),
        "not_adjacent": N_("Катер переходит только на соседнюю клетку по стороне."),
        "not_a_boat": N_("Манёвр — только для однопалубного катера."),
        "boat_hit": N_("Подбитый катер не маневрирует."),
        "shot_cell": N_("Туда, куда уже стрелял соперник, катер не переходит."),
        "nothing_to_shoot": N_("В этой области не осталось клеток, по которым не стреляли."),
        "not_hit": N_("Чинят только подбитую палубу корабля на плаву."),
        "game_over": N_("Партия окончена."),
        "no_arrangement": N_(
            "Авторасстановка невозможна: остальные фигуры не помещаются рядом с поставленными вами. "
            "Уберите или передвиньте часть из них."
        ),
    },
    level_notes={
        1: N_("стреляет наугад и наугад же иногда тратит энергию"),
        2: N_("попав, добивает корабль; бьёт авиаударом, когда хватает энергии"),
        3: N_("ищет через клетку, добивает, бьёт авиаударом, когда хватает энергии; сонаром не пользуется"),
        4: N_("считает, где корабли стоят вероятнее всего, и выбирает способность по пользе"),
        5: N_("тратит энергию там, где польза на единицу энергии выше, минирует подходы, обходит золотые круги"),
    },
    end_reasons={
        "fleet_sunk": N_("флот потоплен"),
        "resign": N_("сдача"),
        "flag": N_("время вышло"),
        "abandon": N_("уход из партии"),
        "draw": N_("по соглашению"),
    },
    invite=N_(
        "Расставьте корабли, мины и тральщики и стреляйте по клеткам соперника, тратя энергию на способности. "
        "Правила: %(room)s."
    ),
)

from .ruleset import ExtendedRuleset  # noqa: E402  (it reads INFO)
