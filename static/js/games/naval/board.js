// The map of «Военно-морская игра» drawn as SVG (NAVAL_GAME.md §1): 9 × 13 points on the grid lines, the islands as
// land, the coastal guns marked in their side's colour, the mines, the column and row labels, and every ship as an
// oriented silhouette (its bow where it faces, a letter and a shape by kind, its side's colour). The viewer's own
// coast is at the bottom: North's player sees the map turned a half-turn; a spectator sees South at the bottom.
// What may be done is drawn from the play screen's `marks` (the selected ship, its steps, strikes and turn buttons);
// every interactive mark is an SVG element with a `data-key`, a tab stop that Enter or Space act on as a click. A lesson
// adds `spot` (the points its step is about, ringed) and `tries` (orders the rules refuse, offered to try: grey).

import { FACING_RU, STRUCK_RU } from "./manifest.js";
import { SIDE_RU } from "../../core/i18n.js";
import { t } from "../../core/t.js";

/** Distance between two points and the margin around the grid, in SVG units. */
const S = 40;
const M = 38;
const ANGLE = { n: 0, e: 90, s: 180, w: 270 };

/** Hull outlines pointing up (bow at negative y), centred on the point: long and broad for the senior ships. */
const HULLS = {
  // battleship: long, broad, a turret fore and aft
  B: { path: "M0,-18 C6,-12 8,-6 8,2 L8,14 C8,17 5,18 0,18 C-5,18 -8,17 -8,14 L-8,2 C-8,-6 -6,-12 0,-18Z", deck: `<circle cx="0" cy="-6" r="3"/><circle cx="0" cy="9" r="3"/>` },
  // cruiser: long, a little slimmer
  C: { path: "M0,-17 C5,-11 7,-5 7,2 L7,13 C7,16 4,17 0,17 C-4,17 -7,16 -7,13 L-7,2 C-7,-5 -5,-11 0,-17Z", deck: `<circle cx="0" cy="-5" r="2.5"/>` },
  // gunboat: short and beamy
  G: { path: "M0,-14 C6,-9 8,-3 8,3 L8,10 C8,13 5,14 0,14 C-5,14 -8,13 -8,10 L-8,3 C-8,-3 -6,-9 0,-14Z", deck: `<rect x="-3" y="-4" width="6" height="6" rx="1"/>` },
  // torpedo boat: slim and sharp
  T: { path: "M0,-16 C3,-10 5,-4 5,3 L5,13 L-5,13 L-5,3 C-5,-4 -3,-10 0,-16Z", deck: "" },
  // minesweeper: a square stern with the sweep
  M: { path: "M0,-13 C5,-8 7,-3 7,3 L7,12 L-7,12 L-7,3 C-7,-3 -5,-8 0,-13Z", deck: `<path d="M-7,14 L7,14" stroke-width="2"/>` },
  // submarine: a cigar with a conning tower
  S: { path: "M0,-17 C5,-14 6,-6 6,2 C6,11 4,17 0,17 C-4,17 -6,11 -6,2 C-6,-6 -5,-14 0,-17Z", deck: `<rect x="-2.5" y="-4" width="5" height="8" rx="2"/>` },
};

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

export class NavalBoard {
  /**
   * @param {HTMLElement} root an element that becomes the map
   * @param {{manifest: import("./manifest.js").NavalManifest, bottom: "south"|"north", seat: string|null,
   *          onKey: (key: string, ev: Event) => void}} opts  `bottom`: whose coast is drawn at the bottom;
   *          `onKey(key)`: an interactive mark was clicked, tapped or activated by Enter/Space
   */
  constructor(root, opts) {
    this.root = root;
    this.m = opts.manifest;
    this.bottom = opts.bottom;
    this.seat = opts.seat;
    this.onKey = opts.onKey;
    this.width = 2 * M + (this.m.width - 1) * S;
    this.height = 2 * M + (this.m.height - 1) * S;
    root.classList.add("nv-board");
    root.addEventListener("click", (ev) => {
      const el = ev.target.closest("[data-key]");
      if (el && root.contains(el)) this.onKey(el.dataset.key, ev);
    });
    root.addEventListener("keydown", (ev) => {
      const el = ev.target.closest("[data-key]");
      if (!el || (ev.key !== "Enter" && ev.key !== " ")) return;
      ev.preventDefault();
      this.onKey(el.dataset.key, ev);
    });
  }

  /** Screen [x, y] of a point: the bottom side's coast (its row 1 or 13) at the bottom. */
  xy(point) {
    const [c, r] = this.m.pos(point);
    const flip = this.bottom === "north";
    const col = flip ? this.m.width - 1 - c : c;
    const row = flip ? r : this.m.height - 1 - r;
    return [M + col * S, M + row * S];
  }

  /** Screen rotation (degrees) of a facing. */
  angle(facing) {
    return (ANGLE[facing] + (this.bottom === "north" ? 180 : 0)) % 360;
  }

  /**
   * Draw a position.
   * @param {{ships: {south: object[], north: object[]}, mines: string[], last?: {from?: string, to?: string, point?: string},
   *          marks?: {selected?: string, steps?: object[], strikes?: object[], turns?: object[], pickable?: Set<string>,
   *                   spot?: string[], tries?: object[]},
   *          flash?: string}} pos  `ships`: the view's per side ({id, kind, point, facing}); `marks`: what the viewer
   *          may do (steps/strikes: {key, to, struck?}, turns: {key, turn}); `pickable`: own ships with an order;
   *          a lesson's `spot` (points) and `tries` ({key, to, type}: orders the rules refuse, to be tried)
   */
  render(pos) {
    const focusKey = this.root.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
    const m = this.m;
    const out = [];
    out.push(`<svg class="nv-map" viewBox="0 0 ${this.width} ${this.height}" role="group" aria-label="${esc(t("Карта"))}" xmlns="http://www.w3.org/2000/svg">`);
    out.push(this.sea());
    // land and guns
    for (const p of m.land) out.push(this.island(p));
    for (const side of ["south", "north"]) for (const p of m.guns[side]) out.push(this.gun(p, side));
    // the last move: where the ship came from, where it went
    if (pos.last?.from && pos.last?.to) {
      const [x1, y1] = this.xy(pos.last.from);
      const [x2, y2] = this.xy(pos.last.to);
      out.push(`<line class="nv-last-path" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`);
    }
    if (pos.last?.point) {
      const [x, y] = this.xy(pos.last.point);
      out.push(`<circle class="nv-last" cx="${x}" cy="${y}" r="19"/>`);
    }
    for (const p of pos.mines || []) out.push(this.mine(p));
    const marks = pos.marks || {};
    for (const p of marks.spot || []) {
      const [x, y] = this.xy(p);
      out.push(`<circle class="nv-spot" data-point="${p}" cx="${x}" cy="${y}" r="21"/>`);
    }
    // ships
    for (const side of ["south", "north"]) {
      for (const ship of pos.ships?.[side] || []) out.push(this.ship(ship, side, marks));
    }
    // what the selected ship may do
    for (const s of marks.steps || []) {
      const [x, y] = this.xy(s.to);
      const label = t("Шаг на {point}", { point: s.to });
      out.push(`<g class="nv-step" data-key="${esc(s.key)}" data-point="${s.to}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title><circle class="nv-hit" cx="${x}" cy="${y}" r="18"/><circle class="nv-dot" cx="${x}" cy="${y}" r="7"/></g>`);
    }
    for (const s of marks.strikes || []) {
      const [x, y] = this.xy(s.to);
      const label = t("Удар {struck}: {point}", { struck: STRUCK_RU[s.struck] || "", point: s.to });
      // the word on the far side of the target from the striker (the striker stands next to it)
      const [fx, fy] = marks.selected ? this.xy(marks.selected) : [x, y + S];
      const [lx, ly] = [Math.max(20, Math.min(this.width - 20, x + Math.sign(x - fx) * 27)), y + Math.sign(y - fy) * 25];
      out.push(
        `<g class="nv-strike struck-${s.struck}" data-key="${esc(s.key)}" data-point="${s.to}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
          `<circle class="nv-hit" cx="${x}" cy="${y}" r="19"/><circle class="nv-aim" cx="${x}" cy="${y}" r="17"/>` +
          `<path class="nv-aim-tick" d="M${x - 21},${y}h7M${x + 14},${y}h7M${x},${y - 21}v7M${x},${y + 14}v7"/>` +
          `<text class="nv-struck-label" x="${lx}" y="${ly}">${esc(STRUCK_RU[s.struck] || "")}</text></g>`,
      );
    }
    for (const s of marks.tries || []) {
      const [x, y] = this.xy(s.to);
      const label = s.type === "strike" ? t("Попробовать удар: {point}", { point: s.to }) : t("Попробовать шаг: {point}", { point: s.to });
      const r = s.type === "strike" ? 17 : 9;
      out.push(
        `<g class="nv-try try-${s.type}" data-key="${esc(s.key)}" data-point="${s.to}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
          `<circle class="nv-hit" cx="${x}" cy="${y}" r="18"/><circle class="nv-try-ring" cx="${x}" cy="${y}" r="${r}"/>` +
          `<path class="nv-try-x" d="M${x - 4},${y - 4}l8,8M${x + 4},${y - 4}l-8,8"/></g>`,
      );
    }
    if (marks.selected && marks.turns?.length) out.push(this.turnButtons(marks.selected, marks.turns));
    out.push(this.labels());
    out.push("</svg>");
    this.root.innerHTML = out.join("");
    if (focusKey) this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  sea() {
    const m = this.m;
    const lines = [];
    for (let c = 0; c < m.width; c++) lines.push(`M${M + c * S},${M}V${M + (m.height - 1) * S}`);
    for (let r = 0; r < m.height; r++) lines.push(`M${M},${M + r * S}H${M + (m.width - 1) * S}`);
    // the two coasts: a strip beyond the first and the last row, in the colour of the side whose coast it is
    const top = this.bottom === "north" ? "south" : "north";
    const bottom = this.bottom;
    const w = this.width;
    return (
      `<rect class="nv-water" x="0" y="0" width="${w}" height="${this.height}" rx="6"/>` +
      `<rect class="nv-coast coast-${top}" x="0" y="0" width="${w}" height="5"/>` +
      `<rect class="nv-coast coast-${bottom}" x="0" y="${this.height - 5}" width="${w}" height="5"/>` +
      `<path class="nv-lines" d="${lines.join("")}"/>`
    );
  }

  island(p) {
    const [x, y] = this.xy(p);
    // a neighbouring land point joins it into one island
    const m = this.m;
    const [c, r] = m.pos(p);
    let join = "";
    for (const [dc, dr] of [[1, 0], [0, 1]]) {
      const q = c + dc < m.width && r + dr < m.height ? m.point(c + dc, r + dr) : null;
      if (q && m.land.has(q)) {
        const [x2, y2] = this.xy(q);
        join += `<rect class="nv-land" x="${Math.min(x, x2) - 13}" y="${Math.min(y, y2) - 13}" width="${Math.abs(x2 - x) + 26}" height="${Math.abs(y2 - y) + 26}" rx="11"/>`;
      }
    } // prettier-ignore
    const label = t("Остров {point}", { point: p });
    return `<g class="nv-island" data-point="${p}"><title>${esc(label)}</title><rect class="nv-land" x="${x - 15}" y="${y - 15}" width="30" height="30" rx="12"/>${join}<path class="nv-land-hill" d="M${x - 7},${y + 5} L${x - 1},${y - 5} L${x + 2},${y} L${x + 5},${y - 3} L${x + 9},${y + 5}Z"/></g>`;
  }

  gun(p, side) {
    const [x, y] = this.xy(p);
    const whose = this.seat ? (side === this.seat ? "own" : "enemy") : `side-${side}`;
    const label = t("Береговая батарея ({side}) {point}: бьёт по кораблям соперника", { side: SIDE_RU[side], point: p });
    return `<g class="nv-gun ${whose}" data-point="${p}" data-side="${side}"><title>${esc(label)}</title><rect class="nv-gun-base" x="${x - 16}" y="${y - 16}" width="32" height="32" rx="4" transform="rotate(45 ${x} ${y})"/><path class="nv-gun-mark" d="M${x - 6},${y - 15}l6,-5l6,5M${x - 6},${y + 15}l6,5l6,-5M${x - 15},${y - 6}l-5,6l5,6M${x + 15},${y - 6}l5,6l-5,6"/></g>`;
  }

  mine(p) {
    const [x, y] = this.xy(p);
    const spikes = [0, 45, 90, 135].map((a) => `<path d="M${x},${y - 17}V${y + 17}" transform="rotate(${a} ${x} ${y})"/>`).join("");
    const label = t("Мина {point}", { point: p });
    return `<g class="nv-mine" data-point="${p}"><title>${esc(label)}</title><g class="nv-mine-spikes">${spikes}</g><circle class="nv-mine-body" cx="${x}" cy="${y}" r="11"/></g>`;
  }

  ship(ship, side, marks) {
    const [x, y] = this.xy(ship.point);
    const hull = HULLS[ship.kind] || HULLS.T;
    const whose = this.seat ? (side === this.seat ? "own" : "enemy") : `side-${side}`;
    const cls = ["nv-ship", whose, `kind-${ship.kind}`];
    const pickable = marks.pickable?.has(ship.point);
    if (pickable) cls.push("pickable");
    if (marks.selected === ship.point) cls.push("selected");
    const name = `${this.m.shipName(ship.kind)} ${ship.point}`;
    const label = `${name}, ${SIDE_RU[side]}, ${t("нос {facing}", { facing: FACING_RU[ship.facing] || ship.facing })}`;
    const act = pickable ? ` data-key="ship:${ship.point}" tabindex="0" role="button" aria-pressed="${marks.selected === ship.point}"` : "";
    const letter = this.m.letter(ship.kind);
    const font = letter.length > 1 ? 9.5 : 11;
    return (
      `<g class="${cls.join(" ")}" data-point="${ship.point}" data-side="${side}" data-kind="${ship.kind}" data-facing="${ship.facing}"${act} aria-label="${esc(label)}"><title>${esc(label)}</title>` +
      `<circle class="nv-hit" cx="${x}" cy="${y}" r="19"/>` +
      (marks.selected === ship.point ? `<circle class="nv-sel" cx="${x}" cy="${y}" r="20"/>` : "") +
      `<g transform="translate(${x} ${y}) rotate(${this.angle(ship.facing)}) scale(1.25 1)"><path class="nv-hull" d="${hull.path}"/><g class="nv-deck">${hull.deck}</g><path class="nv-bow" d="M0,-20 l-3,4 h6z"/></g>` +
      `<text class="nv-letter" x="${x}" y="${y}" font-size="${font}">${esc(letter)}</text></g>`
    );
  }

  /** ↺ and ↻ beside the selected ship: in the empty squares between points, below-left and below-right of it. */
  turnButtons(point, turns) {
    const [x, y] = this.xy(point);
    const out = [];
    for (const tr of turns) {
      const dx = tr.turn === "left" ? -S / 2 : S / 2;
      const dy = y + S / 2 > this.height - M ? -S / 2 : S / 2;
      const cx = Math.max(16, Math.min(this.width - 16, x + dx)); // at the map's edge: inside it
      const cy = y + dy;
      const label = tr.turn === "left" ? t("Повернуть налево") : t("Повернуть направо");
      const arrow = tr.turn === "left" ? `M${cx + 5},${cy + 4} A6,6 0 1 0 ${cx - 5},${cy + 3}` : `M${cx - 5},${cy + 4} A6,6 0 1 1 ${cx + 5},${cy + 3}`;
      const head = tr.turn === "left" ? `M${cx - 9},${cy} l3.5,4.5 l3.5,-3` : `M${cx + 9},${cy} l-3.5,4.5 l-3.5,-3`;
      out.push(`<g class="nv-turn" data-key="${esc(tr.key)}" data-turn="${tr.turn}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title><circle class="nv-turn-bg" cx="${cx}" cy="${cy}" r="14"/><path class="nv-turn-arrow" d="${arrow}${head}"/></g>`);
    }
    return out.join("");
  }

  labels() {
    const m = this.m;
    const out = [`<g class="nv-labels" aria-hidden="true">`];
    for (let c = 0; c < m.width; c++) {
      const p = m.point(c, 0);
      const [x] = this.xy(p);
      out.push(`<text x="${x}" y="${this.height - 12}">${m.columns[c]}</text><text x="${x}" y="12">${m.columns[c]}</text>`);
    }
    for (let r = 0; r < m.height; r++) {
      const [, y] = this.xy(m.point(0, r));
      out.push(`<text x="11" y="${y}">${m.rows[r]}</text><text x="${this.width - 11}" y="${y}">${m.rows[r]}</text>`);
    }
    out.push("</g>");
    return out.join("");
  }
}
