"""The ability icons of «Морской бой: расширенный» as inline SVG, one look per tier of levels (BATTLESHIP.md C7):
tier 1 (levels 1–3) plain outlines, tier 2 (4–6) bronze with a ring, tier 3 (7–9) silver with a double ring and
tier 4 (level 10) gold with a star. The profile shows the set of the commander's level: the three abilities every
level has (C5) and the ultimate the level gives (C6: «Ковровый удар» from 4, «Спутник-сканер» from 6, «Экстренный
ремонт» from 8; each replaces the previous).

Pure: the same level gives the same markup. Only fixed shapes and numbers go into it (no text from outside), so the
page may include it as it is.

>>> svg = ability_icons(4)
>>> svg.count("<svg"), 'data-tier="2"' in svg, 'data-ability="carpet"' in svg
(4, True, True)
"""

from __future__ import annotations

from admiral.i18n import N_, _

from .progression import tier_of
from .rules import ultimate_of

__all__ = ["ICON_ABILITIES", "TIERS", "ability_icons"]

#: The look of each tier: (fill, stroke, rings, star).
TIERS: dict[int, tuple[str, str, int, bool]] = {
    1: ("none", "#4a5a6a", 0, False),
    2: ("#e8c9a0", "#8a5a2b", 1, False),
    3: ("#e4e8ee", "#5f6b78", 2, False),
    4: ("#f7dc6f", "#9a7400", 2, True),
}

#: Each ability's glyph (a path on 24×24) and its Russian name.
ICON_ABILITIES: dict[str, tuple[str, str]] = {
    "air": ("M12 4v16M4 12h16M9 7l3-3 3 3M9 17l3 3 3-3", N_("Авиаудар")),
    "sonar": ("M10 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M7 7a7 7 0 0 1 10 0M5 5a10 10 0 0 1 14 0", N_("Сонар 3×3")),
    "move": ("M5 15h10l3-4H8zM9 11V7M15 8l3 3-3 3", N_("Манёвр катера")),
    "carpet": ("M6 6h12v12H6zM10 6v12M14 6v12M6 10h12M6 14h12", N_("Ковровый удар")),
    "satellite": ("M9 9l6 6M6 12l6-6 2 2-6 6zM13 13l5 5M16 6a4 4 0 0 1 2 2", N_("Спутник-сканер")),
    "repair": ("M14 5a4 4 0 0 0-4 5l-5 5 3 3 5-5a4 4 0 0 0 5-4l-2 2-2-1-1-2z", N_("Экстренный ремонт")),
}


def _icon(ability: str, tier: int) -> str:
    fill, stroke, rings, star = TIERS[tier]
    glyph, name = ICON_ABILITIES[ability]
    parts = [f'<circle cx="12" cy="12" r="11" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>']
    if rings >= 2:
        parts.append(f'<circle cx="12" cy="12" r="9.3" fill="none" stroke="{stroke}" stroke-width="0.6"/>')
    parts.append(
        f'<path d="{glyph}" fill="none" stroke="{stroke}" stroke-width="1.6" stroke-linecap="round" '
        'stroke-linejoin="round"/>'
    )
    if star:
        parts.append(f'<path d="M19 1.5l1 2.2 2.3.3-1.7 1.6.4 2.3-2-1.1-2 1.1.4-2.3-1.7-1.6 2.3-.3z" fill="{stroke}"/>')
    title = _(name)
    return (
        f'<svg class="ability-icon" data-ability="{ability}" data-tier="{tier}" viewBox="0 0 24 24" width="32" '
        f'height="32" role="img" aria-label="{title}"><title>{title}</title>{"".join(parts)}</svg>'
    )


def ability_icons(level: int) -> str:
    """The inline SVG icons of the abilities a commander of ``level`` holds, in the look of its tier (C7).

    :raises ValueError: for a level outside 1…10."""
    tier = tier_of(level)
    abilities = ["air", "sonar", "move"]
    if (ultimate := ultimate_of(level)) is not None:
        abilities.append(ultimate)
    return (
        f'<span class="ability-icons" data-level="{level}" data-tier="{tier}">'
        + "".join(_icon(a, tier) for a in abilities)
        + "</span>"
    )
