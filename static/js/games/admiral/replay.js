// Step-through replay of a finished game from GET /api/games/{id}/replay (docs/protocol.md).
// The server sends deltas (moves and removals per ply); the client only applies them.

import { h, toast } from "../../core/dom.js";
import { api } from "../../core/net.js";
import { notationRu } from "./report.js";
import { t, tn } from "../../core/t.js";

/** Positions 0…N: Map cell → {side, kind}, position i being the board after i plies. */
export function buildPositions(data) {
  const start = new Map();
  for (const side of ["south", "north"])
    for (const [cell, kind] of Object.entries(data.setups?.[side] || {})) start.set(cell, { side, kind });
  const out = [start];
  let cur = start;
  for (const p of data.plies || []) {
    cur = new Map(cur);
    for (const [from, to] of p.moves || []) {
      const u = cur.get(from);
      if (u) {
        cur.delete(from);
        cur.set(to, u);
      }
    }
    for (const r of p.removed || []) {
      const u = cur.get(r.cell);
      if (u && u.side === r.side) cur.delete(r.cell);
    }
    out.push(cur);
  }
  return out;
}

// ⏮ ◀ ▶ ⏭ drawn as SVG: not every system font has the media-control glyphs.
const ICONS = {
  first: `<rect x="4" y="5" width="2.5" height="14"/><path d="M20 5v14L8 12z"/>`,
  prev: `<path d="M17 5v14L6 12z"/>`,
  next: `<path d="M7 5v14l11-7z"/>`,
  last: `<rect x="17.5" y="5" width="2.5" height="14"/><path d="M4 5v14l12-7z"/>`,
};

function svg(name) {
  return `<svg class="ctl-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}

export class Replay {
  /**
   * @param {string} gameId
   * @param {(units: Map|null, ply: object|null, index: number) => void} onShow called with null to leave the replay
   */
  constructor(gameId, onShow) {
    this.gameId = gameId;
    this.onShow = onShow;
    this.data = null;
    this.positions = [];
    this.index = 0;
    this.el = h("section", { class: "replay", "aria-label": t("Запись партии") });
    this.openBtn = h("button", { type: "button", class: "btn", onclick: () => this.open() }, t("Смотреть запись"));
    this.el.append(h("h2", { class: "panel-title" }, t("Запись партии")), this.openBtn);
  }

  async open() {
    if (!this.data) {
      try {
        this.data = await api("GET", `/api/games/${encodeURIComponent(this.gameId)}/replay`);
      } catch (e) {
        toast(e.message);
        return;
      }
      this.positions = buildPositions(this.data);
      this.buildControls();
    }
    this.controls.hidden = false;
    this.openBtn.hidden = true;
    this.show(this.index);
  }

  close() {
    this.controls.hidden = true;
    this.openBtn.hidden = false;
    this.onShow(null, null, -1);
  }

  buildControls() {
    const n = this.positions.length - 1;
    const btn = (icon, name, fn) =>
      h("button", { type: "button", class: "btn icon-btn", "aria-label": name, title: name, onclick: fn, html: svg(icon) });
    this.slider = h("input", { type: "range", min: "0", max: String(n), value: "0", step: "1", "aria-label": t("Полуход") });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.label = h("div", { class: "replay-label", "aria-live": "polite" });
    this.controls = h(
      "div",
      { class: "replay-controls" },
      h(
        "div",
        { class: "button-row" },
        btn("first", t("В начало"), () => this.show(0)),
        btn("prev", t("Назад"), () => this.show(this.index - 1)),
        btn("next", t("Вперёд"), () => this.show(this.index + 1)),
        btn("last", t("В конец"), () => this.show(n)),
      ),
      this.slider,
      this.label,
      h("button", { type: "button", class: "btn", onclick: () => this.close() }, t("Закрыть запись")),
    );
    this.el.append(this.controls);
  }

  show(i) {
    const n = this.positions.length - 1;
    this.index = Math.max(0, Math.min(n, i));
    this.slider.value = String(this.index);
    const ply = this.index > 0 ? this.data.plies[this.index - 1] : null;
    this.label.textContent = ply
      ? t("Полуход {i} из {n}: {action}", { i: this.index, n, action: notationRu(ply.action) })
      : tn("Начальная расстановка ({n} полуход)", "Начальная расстановка ({n} полуходов)", n);
    this.onShow(this.positions[this.index], ply, this.index);
  }
}
