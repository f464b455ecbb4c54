// One 10×10 grid of «Морской бой» (rules A1): rows А–К top to bottom, columns 1–10 left to right, drawn from the
// manifest. Every cell is a button (a click, a tap, Enter or Space act alike); the grid is one tab stop and the
// arrow keys move over it (Home/End: the row's ends, Ctrl+Home/End: the corners).

import { t } from "../../core/t.js";

export class Grid {
  /**
   * @param {HTMLElement} root an empty element that becomes the grid
   * @param {{manifest: import("./manifest.js").Manifest, label: string, name: string,
   *          onCell?: (cell: string, ev: Event) => void, onKey?: (cell: string, ev: KeyboardEvent) => void}} opts
   *          `name`: the grid's data-grid (own | attack | setup | south | north)
   */
  constructor(root, opts) {
    this.root = root;
    this.m = opts.manifest;
    this.onCell = opts.onCell || null;
    this.onKeyCb = opts.onKey || null;
    this.cells = new Map();
    this.focusable = null;
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
        const b = document.createElement("button");
        b.type = "button";
        b.className = "bs-cell";
        b.dataset.cell = cell;
        b.setAttribute("role", "gridcell");
        b.setAttribute("aria-label", m.cellText(cell));
        b.tabIndex = -1;
        b.addEventListener("click", (ev) => this.onCell && this.onCell(cell, ev));
        b.addEventListener("keydown", (ev) => this.onKey(cell, ev));
        b.addEventListener("focus", () => this.setFocusable(cell));
        rowEl.append(b);
        this.cells.set(cell, b);
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

  setFocusable(cell) {
    if (this.focusable === cell) return;
    if (this.focusable) this.cells.get(this.focusable).tabIndex = -1;
    this.focusable = cell;
    this.cells.get(cell).tabIndex = 0;
  }

  /** Put the keyboard cursor on `cell` (and the focus, with `focus`). */
  cursor(cell, focus = false) {
    if (!this.cells.has(cell)) return;
    this.setFocusable(cell);
    if (focus) this.cells.get(cell).focus();
  }

  onKey(cell, ev) {
    const m = this.m;
    let [r, c] = m.cellPos(cell);
    const ctrl = ev.ctrlKey || ev.metaKey;
    switch (ev.key) {
      case "ArrowUp": r -= 1; break;
      case "ArrowDown": r += 1; break;
      case "ArrowLeft": c -= 1; break;
      case "ArrowRight": c += 1; break;
      case "Home": c = 0; if (ctrl) r = 0; break;
      case "End": c = m.width - 1; if (ctrl) r = m.height - 1; break;
      default:
        if (this.onKeyCb) this.onKeyCb(cell, ev);
        return;
    } // prettier-ignore
    ev.preventDefault();
    if (!m.onGrid(r, c)) return;
    this.cursor(m.cellName(r, c), true);
  }

  /** The cell under a viewport point, or null. */
  cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest(".bs-cell");
    return cell && this.root.contains(cell) ? cell.dataset.cell : null;
  }

  /** The button of `cell`. */
  element(cell) {
    return this.cells.get(cell);
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
