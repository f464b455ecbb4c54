// Unit kinds of «Адмирал» (rules §2) as the client shows them: their codes, names and counts come from the game's
// manifest (manifest.js), the icons are drawn here. Display only: the client never decides legality (the server's
// view lists what is legal, each action with the kinds and scale row of its formation).

import { t } from "../../core/t.js";
import { manifest } from "./manifest.js";

/** Every kind in the fleet's order: the manifest's units (`code`, `count`, `carrier`, `attack`…, `label`, `title`). */
export function kinds() {
  return manifest().units;
}

/** Units in one fleet (the manifest's `fleet_size`). */
export function fleetSize() {
  return manifest().fleetSize;
}

/** The kind a weapon `code` is tethered to (rules §5.2), or null. */
export function carrierOf(code) {
  return manifest().unit(code)?.carrier ?? null;
}

/** Row of a composition (kind codes) on the scale of strength (rules §7.1), or null when it is not on it. */
export function scaleRow(codes) {
  return manifest().scale.get([...codes].sort().join("+")) ?? null;
}

/** «2 КР + ЭС» for a list of codes, kinds in the fleet's order. */
export function compositionText(codes) {
  const counts = new Map();
  for (const c of codes) counts.set(c, (counts.get(c) || 0) + 1);
  const order = kinds()
    .map((k) => k.code)
    .filter((c) => counts.has(c));
  return order.map((c) => (counts.get(c) > 1 ? `${counts.get(c)} ${ru(c)}` : ru(c))).join(" + ");
}

/** The marker's code of a kind in the page's language («КР», «CR»). */
export function ru(code) {
  return manifest().unit(code)?.label ?? code;
}

/** The name of a kind in the page's language («Крейсер», «Cruiser»). */
export function ruName(code) {
  return manifest().unit(code)?.title ?? code;
}

/** The kind's section of the rules page (templates/rules.html has an anchor `unit-{code}` per kind). */
export function rulesHref(code) {
  return `/rules#unit-${code}`;
}

/** A link «Правила: Крейсер» to the kind's section, in a new tab so the game stays open. */
export function rulesLink(code, text = null) {
  const a = document.createElement("a");
  a.href = rulesHref(code);
  a.target = "_blank";
  a.rel = "noopener";
  a.className = "rules-link";
  a.dataset.kind = code;
  a.textContent = text ?? t("Правила: {name}", { name: ruName(code) });
  return a;
}

// --- icons: 24×24 inline SVG, currentColor ---------------------------------------------------

const HULL = "M2 14h20l-3 4H5z";
const ICON_BODY = {
  // carrier: long flat deck with an island
  A: `<path d="M1 13h22l-3 5H4z"/><rect x="1" y="11" width="22" height="2"/><rect x="15" y="7" width="3" height="4"/>`,
  // battleship: three turrets
  L: `<path d="${HULL}"/><rect x="4" y="11" width="3" height="3"/><rect x="10" y="8" width="4" height="6"/><rect x="17" y="11" width="3" height="3"/><rect x="11.5" y="5" width="1" height="3"/>`,
  // cruiser: two turrets
  KR: `<path d="${HULL}"/><rect x="6" y="11" width="3" height="3"/><rect x="11" y="9" width="4" height="5"/>`,
  // raider: one big turret, raked bow and a skull flag
  R: `<path d="M1 14h22l-5 4H5z"/><rect x="8" y="10" width="6" height="4"/><path d="M14 5v5M14 5l4 1.5-4 1.5z"/>`,
  // destroyer: low and sleek
  ES: `<path d="M1 15h22l-4 3H4z"/><rect x="9" y="12" width="5" height="3"/><rect x="11" y="9" width="1" height="3"/>`,
  // patrol ship: small hull with a mast
  ST: `<path d="M4 15h16l-3 3H7z"/><rect x="9" y="12" width="4" height="3"/><rect x="11" y="7" width="1" height="5"/>`,
  // torpedo boat: a wedge with speed lines
  TK: `<path d="M6 15h16l-6 3H7z"/><rect x="11" y="12" width="3" height="3"/><path d="M1 13h4M2 16h3" stroke="currentColor" stroke-width="1.2" fill="none"/>`,
  // cruiser submarine: big sub with a star
  KRPL: `<ellipse cx="12" cy="15" rx="11" ry="3"/><rect x="9" y="9" width="5" height="4"/><path d="M18 6l.9 1.8 2 .3-1.45 1.4.35 2-1.8-.95-1.8.95.35-2-1.45-1.4 2-.3z"/>`,
  // minesweeper: hull trailing a zigzag sweep
  TR: `<path d="M8 12h14l-3 4H10z"/><rect x="14" y="9" width="3" height="3"/><path d="M9 15l-2 3-2-3-2 3" stroke="currentColor" stroke-width="1.4" fill="none"/>`,
  // submarine
  PL: `<ellipse cx="12" cy="15" rx="9" ry="2.6"/><rect x="10" y="10" width="4" height="3.5"/><rect x="11.5" y="7" width="1" height="3"/>`,
  // aircraft
  S: `<path d="M12 2c1 0 1.5 1 1.5 2.5V9l8 4.5V16l-8-2.5V19l2.5 2v1.5L12 21.5 8 22.5V21l2.5-2v-5.5l-8 2.5v-2.5l8-4.5V4.5C10.5 3 11 2 12 2z"/>`,
  // torpedo
  T: `<path d="M3 12c0-1.7 1.3-2.5 3-2.5h12l3 2.5-3 2.5H6c-1.7 0-3-.8-3-2.5z"/><path d="M19 8.5l2.5-1v9l-2.5-1z"/>`,
  // mine: ball with horns
  M: `<circle cx="12" cy="12" r="6"/><path d="M12 2v4M12 18v4M2 12h4M18 12h4M5 5l3 3M16 16l3 3M19 5l-3 3M8 16l-3 3" stroke="currentColor" stroke-width="2"/>`,
  // stationary mine: horned ball on an anchor chain
  SM: `<circle cx="12" cy="9" r="5"/><path d="M12 1v3M4 9h3M17 9h3M6.5 3.5l2 2M17.5 3.5l-2 2" stroke="currentColor" stroke-width="2"/><path d="M12 14v5M8 22h8" stroke="currentColor" stroke-width="2"/><rect x="7" y="19" width="10" height="3"/>`,
  // fireship: a flame
  BR: `<path d="M12 2c1 4 6 6 6 12a6 6 0 0 1-12 0c0-3 2-5 3-6 0 2 1 3 2 3 0-3-1-6 1-9z"/>`,
  // atomic bomb: radiation trefoil
  AB: `<circle cx="12" cy="12" r="2"/><path d="M12 12L7 3.3A10 10 0 0 0 2 12zM12 12l10 0A10 10 0 0 0 17 3.3zM12 12l5 8.7A10 10 0 0 1 7 20.7z"/>`,
  // naval base: an anchor
  VMB: `<circle cx="12" cy="4.5" r="2.2" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M12 7v14M7 10h10M4 14c0 4 4 7 8 7s8-3 8-7" stroke="currentColor" stroke-width="2" fill="none"/>`,
};

/** Inline SVG markup of a kind's icon (decorative: the code next to it is the accessible text). */
export function iconSvg(code) {
  const body = ICON_BODY[code] ?? "";
  return `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${body}</svg>`;
}
