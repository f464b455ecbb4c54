// The pictures of «Морской бой: расширенный», drawn as inline SVG (an emoji is a blank box where the system has no
// emoji font): the marks on the grids (C3: an orange circle for a mine, a triangle for a minesweeper, a crossed red
// triangle for a destroyed one, a crosshair for an enemy deck handed over, a gold circle for an enemy mine handed
// over), the abilities' icons and the commander's tier badge, whose look changes with the tier (C7: levels 1–3,
// 4–6, 7–9, 10).

const svg = (cls, body, box = "0 0 24 24") => `<svg class="bsx-svg ${cls}" viewBox="${box}" aria-hidden="true" focusable="false">${body}</svg>`;

/** Markup of the grid marks, by name. */
export const MARKS = {
  mine: () => svg("bsx-mine", `<circle cx="12" cy="12" r="7.5" fill="#f08a24" stroke="#8a4300" stroke-width="1.5"/><circle cx="9.5" cy="9.5" r="2" fill="#ffd3a6"/>`),
  sweeper: () => svg("bsx-sweeper", `<path d="M12 3.5 21 20H3z" fill="#3f7fb0" stroke="#123a5a" stroke-width="1.5" stroke-linejoin="round"/>`),
  sweeperDown: () =>
    svg("bsx-sweeper-down", `<path d="M12 3.5 21 20H3z" fill="#f3c1bc" stroke="#c21d12" stroke-width="1.8" stroke-linejoin="round"/><path d="M5 5l14 14M19 5 5 19" stroke="#c21d12" stroke-width="2.4" stroke-linecap="round"/>`),
  crosshair: () =>
    svg("bsx-crosshair", `<circle cx="12" cy="12" r="7" fill="none" stroke="#c21d12" stroke-width="2"/><path d="M12 2v6M12 16v6M2 12h6M16 12h6" stroke="#c21d12" stroke-width="2" stroke-linecap="round"/>`),
  gold: () => svg("bsx-gold", `<circle cx="12" cy="12" r="7.5" fill="#f2c230" stroke="#8a6a00" stroke-width="1.8"/><path d="M8 12h8" stroke="#8a6a00" stroke-width="2" stroke-linecap="round"/>`),
  handed: () => svg("bsx-eye", `<path d="M2 12s3.6-6 10-6 10 6 10 6-3.6 6-10 6S2 12 2 12z" fill="#fff" stroke="#7a1a14" stroke-width="1.8"/><circle cx="12" cy="12" r="2.8" fill="#7a1a14"/>`),
  repaired: () => svg("bsx-wrench", `<path d="M14.5 3.5a5 5 0 0 0-5.6 6.7L3.5 15.6a2 2 0 0 0 2.9 2.9l5.4-5.4a5 5 0 0 0 6.7-5.6l-3 3-2.6-.5-.5-2.6z" fill="#1f8a4c" stroke="#0d4a27" stroke-width="1.2" stroke-linejoin="round"/>`),
};

// the abilities' pictures, the same as the profile's (src/admiral/games/battleship_ext/icons.py): a glyph in a disc
// whose colours, rings and star change with the tier (C7)
const ABILITY_GLYPH = {
  air: "M12 4v16M4 12h16M9 7l3-3 3 3M9 17l3 3 3-3",
  sonar: "M10 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M7 7a7 7 0 0 1 10 0M5 5a10 10 0 0 1 14 0",
  move: "M5 15h10l3-4H8zM9 11V7M15 8l3 3-3 3",
  carpet: "M6 6h12v12H6zM10 6v12M14 6v12M6 10h12M6 14h12",
  satellite: "M9 9l6 6M6 12l6-6 2 2-6 6zM13 13l5 5M16 6a4 4 0 0 1 2 2",
  repair: "M14 5a4 4 0 0 0-4 5l-5 5 3 3 5-5a4 4 0 0 0 5-4l-2 2-2-1-1-2z",
};
// tier → [fill, stroke, rings, star]
const TIER_LOOK = { 1: ["none", "#4a5a6a", 0, false], 2: ["#e8c9a0", "#8a5a2b", 1, false], 3: ["#e4e8ee", "#5f6b78", 2, false], 4: ["#f7dc6f", "#9a7400", 2, true] };

/** An ability's icon in the look of `tier` (1–4). */
export function abilityIcon(key, tier = 1) {
  const [fill, stroke, rings, star] = TIER_LOOK[tier] || TIER_LOOK[1];
  const parts = [`<circle cx="12" cy="12" r="11" fill="${fill}" stroke="${stroke}" stroke-width="1.2"/>`];
  if (rings >= 2) parts.push(`<circle cx="12" cy="12" r="9.3" fill="none" stroke="${stroke}" stroke-width="0.6"/>`);
  parts.push(`<path d="${ABILITY_GLYPH[key] || ""}" fill="none" stroke="${stroke}" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>`);
  if (star) parts.push(`<path d="M19 1.5l1 2.2 2.3.3-1.7 1.6.4 2.3-2-1.1-2 1.1.4-2.3-1.7-1.6 2.3-.3z" fill="${stroke}"/>`);
  return svg(`bsx-ability-icon tier-${tier}`, parts.join(""));
}

const TIER_BADGE = {
  1: `<path d="M5 14l7-5 7 5" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`,
  2: `<path d="M5 11l7-5 7 5M5 17l7-5 7 5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>`,
  3: `<path d="M12 3l2.6 5.6 6 .7-4.5 4.1 1.2 6L12 16.4 6.7 19.4l1.2-6L3.4 9.3l6-.7z" fill="currentColor"/>`,
  4: `<path d="M4 18h16l-1.5-9-4 3.5L12 6l-2.5 6.5-4-3.5z" fill="currentColor" stroke="currentColor" stroke-width="1" stroke-linejoin="round"/><circle cx="12" cy="4" r="1.6" fill="currentColor"/>`,
};

/** The small badge of a commander's tier (1–4). */
export function tierIcon(tier) {
  return svg(`bsx-tier tier-${tier}`, TIER_BADGE[tier] || TIER_BADGE[1]);
}
