// One 10×10 grid of «Морской бой» (rules A1): rows А–К top to bottom, columns 1–10 left to right, drawn from the
// manifest. Every cell is a button (a click, a tap, Enter or Space act alike); the grid is one tab stop and the
// arrow keys move over it (Home/End: the row's ends, Ctrl+Home/End: the corners).

import { CellGrid } from "../../core/cells.js";
import { t } from "../../core/t.js";

export class Grid extends CellGrid {
  /**
   * @param {HTMLElement} root an empty element that becomes the grid
   * @param {{manifest: import("./manifest.js").Manifest, label: string, name: string,
   *          onCell?: (cell: string, ev: Event) => void, onKey?: (cell: string, ev: KeyboardEvent) => void}} opts
   *          `name`: the grid's data-grid (own | attack | setup | south | north)
   */
  constructor(root, opts) {
    super(root, opts);
    this.m = opts.manifest;
    this.build(opts.label, opts.name);
  }

  build(label, name) {
    const root = this.root;
    const m = this.m;
    root.className = "bs-grid";
    root.dataset.grid = name;
    root.setAttribute("role", "grid");
    root.setAttribute("aria-label", label);
    root.style.setProperty("--cols", String(m.width));
    root.style.setProperty("--rows", String(m.height));
    root.innerHTML = "";
    const head = document.createElement("div");
    head.className = "bs-row bs-head";
    head.setAttribute("aria-hidden", "true");
    head.append(Object.assign(document.createElement("div"), { className: "bs-lab bs-corner" }));
    for (let c = 0; c < m.width; c++) head.append(Object.assign(document.createElement("div"), { className: "bs-lab bs-col", textContent: m.columns[c] }));
    root.append(head);
    for (let r = 0; r < m.height; r++) {
      const rowEl = document.createElement("div");
      rowEl.className = "bs-row";
      rowEl.setAttribute("role", "row");
      const lab = Object.assign(document.createElement("div"), { className: "bs-lab bs-rowlab", textContent: m.rowsShown[r] });
      lab.setAttribute("aria-hidden", "true");
      rowEl.append(lab);
      for (let c = 0; c < m.width; c++) {
        const cell = m.cellName(r, c);
        rowEl.append(this.cellButton(cell, "bs-cell", m.cellText(cell)));
      }
      root.append(rowEl);
    }
    this.setFocusable(m.cellName(Math.floor(m.height / 2) - 1, Math.floor(m.width / 2) - 1));
  }

  /**
   * Redraw every cell.
   * @param {(cell: string) => {cls?: string[], html?: string, label?: string, title?: string}} look
   */
  render(look) {
    for (const [cell, el] of this.cells) {
      const l = look(cell) || {};
      el.className = `bs-cell${l.cls?.length ? ` ${l.cls.join(" ")}` : ""}`;
      el.innerHTML = l.html || "";
      el.setAttribute("aria-label", l.label ? `${this.m.cellText(cell)}: ${l.label}` : this.m.cellText(cell));
      el.title = l.title || "";
    }
  }

  // Screen coordinates (the grid's keys): x the column, y the row.

  screenSize() {
    return [this.m.width, this.m.height];
  }

  screenPos(cell) {
    const [r, c] = this.m.cellPos(cell);
    return [c, r];
  }

  cellOnScreen(x, y) {
    return this.m.cellName(y, x);
  }
}

/** Markup of a shot's answer on a cell: a dot for «мимо», a cross for a hit. */
export function shotHtml(answer) {
  if (answer === "miss") return `<span class="bs-dot" aria-hidden="true"></span>`;
  return `<span class="bs-cross" aria-hidden="true"></span>`;
}

/** Labels of the marks for screen readers. */
export const LABELS = {
  miss: () => t("мимо"),
  hit: () => t("попадание"),
  sunk: () => t("потоплен"),
  mark: () => t("пусто (рядом с потопленным)"),
  ship: () => t("ваш корабль"),
};
