"""«Военно-морская игра» (NAVAL_GAME.md, issue 21): the open-board Soviet naval game with facing, land, coastal
guns, mines and dice.

- :data:`INFO`: the game's facts (key ``"naval"``, no room options, AI levels 1–5 of :mod:`.bots`, the Russian
  texts of the engine's refusal codes and end reasons), with the capabilities ``fixed_start`` (the start is the
  rules', §2: play begins as soon as both seats are held), ``start_settings`` (the die's 32-byte seed, §7.5),
  ``progression`` (:mod:`.progression`: points and the profile's totals), ``tutorial`` (:mod:`.tutorial`: three
  lessons of «Обучение» on the real engine, issue 21) and ``rules_page`` (``/rules/naval``, from :mod:`.rulebook`);
- :mod:`.rules`: the pure engine (standard library and :mod:`admiral.games.common` only);
- :class:`NavalRuleset`: the house's :class:`~admiral.games.protocol.Ruleset` over it;
- :mod:`.rulebook`: the rules page's diagrams, computed by the engine.
"""

from __future__ import annotations

from admiral.games.protocol import GameInfo
from admiral.i18n import N_

from .bots import NAMES

__all__ = ["INFO", "NavalRuleset"]

#: The facts of «Военно-морская игра», declared once.
INFO = GameInfo(
    key="naval",
    name=N_("Военно-морская игра"),
    levels=dict(sorted(NAMES.items())),
    setup_styles=(("plain", N_("Обычная")),),
    capabilities=frozenset({"fixed_start", "start_settings", "progression", "tutorial", "rules_page"}),
    pairing=("10+5",),
    rules_page="/rules/naval",
    tutorial="/tutorial#naval",
    tutorial_note=N_("Три коротких урока на настоящей карте: ход и поворот, удар по курсу, мины и береговые батареи."),
    chance=True,  # the die of coastal guns and mines (§5, §7.5): the session must pass the seed
    side_choice=True,  # South moves first (§7.1)
    board={"width": 9, "height": 13, "columns": "abcdefghi"},
    blurb=N_("9×13, открытая доска: курс, острова, береговые батареи, мины и кубик"),
    brief=N_(
        "Оба флота видны. За ход один корабль делает шаг носом вперёд на соседнюю точку, поворачивает нос на 90° или "
        "бьёт: входит в точку корабля соперника, и тот тонет. В корму бить нельзя; в нос бьёт только старший; "
        "подлодка старше броненосца и крейсеров. Береговые батареи и мины топят вошедший корабль, если на кубике "
        "выпал «взрыв» (1 из 6). Побеждает тот, кто потопит весь флот соперника."
    ),
    invite=N_("Открытая карта 9×13: ходите кораблями носом вперёд, бейте в борт и в нос, берегитесь батарей и мин."),
    level_notes={
        1: N_("ходит наугад"),
        2: N_("берёт, что плохо лежит, и обходит батареи"),
        3: N_("смотрит на ответ соперника"),
        4: N_("считает на три хода вперёд с учётом кубика"),
        5: N_("считает так глубоко, как успевает, и доводит размены до конца"),
    },
    messages={
        "bad_point": N_("Такой точки на карте нет."),
        "off_map": N_("Эта точка за краем карты."),
        "bad_notation": N_("Ход — шаг «d2-d3», поворот «d2>» или «d2<», удар «d2xd3», мина «+a1» или «-a1»."),
        "not_your_turn": N_("Сейчас ход соперника."),
        "no_ship": N_("В этой точке нет корабля."),
        "not_your_ship": N_("Это корабль соперника."),
        "not_adjacent": N_("Корабль идёт только на соседнюю точку."),
        "sideways": N_("Боком корабль не ходит: сначала поверните нос."),
        "stern_first": N_("Кормой вперёд корабль не ходит."),
        "land": N_("Через сушу корабль не проходит."),
        "occupied": N_("Точка занята."),
        "no_target": N_("Там нет корабля соперника."),
        "own_ship": N_("Свой корабль бить нельзя."),
        "stern": N_("В корму бить нельзя."),
        "bow_not_senior": N_("В нос бьёт только старший корабль; равный или младший — только в борт."),
        "turn_too_far": N_("Поворот — на 90°; разворот кругом занимает два хода."),
        "not_minesweeper": N_("Мины ставит и снимает только тральщик."),
        "mine_elsewhere": N_("Тральщик ставит и снимает мину только в своей точке."),
        "no_mines": N_("В запасе нет мин."),
        "already_mined": N_("В этой точке уже есть мина."),
        "no_mine": N_("В этой точке нет мины."),
        "mine_after_win": N_("Этот удар топит последний корабль соперника: партия кончается сразу."),
        "one_mine_a_turn": N_("За ход — не больше одной мины."),
        "one_ship_a_turn": N_("За ход действует один корабль."),
    },
    end_reasons={  # NAVAL_GAME.md §6, §7.7 (Reason of .rules.state)
        "fleet_destroyed": N_("флот уничтожен"),
        "no_moves": N_("нет хода"),
        "quiet": N_("100 ходов без потерь"),
        "resign": N_("сдача"),
        "flag": N_("время вышло"),
        "abandon": N_("уход из партии"),
        "draw": N_("по соглашению"),
    },
)

from .ruleset import NavalRuleset  # noqa: E402  (it reads INFO)
