// Draws the board from the viewer's side (rules §1): North sees it rotated 180°. Its size, column letters and
// zones are the manifest's (manifest.js).

import { CellGrid } from "../../core/cells.js";
import { cellRu } from "./text.js";
import { t } from "../../core/t.js";
import { manifest } from "./manifest.js";
import { iconSvg, ru, ruName } from "./units.js";

/** The wire name of the cell at 0-based `col` (0 = a) and `row` (0 = row 1, South's edge): "e4". */
export function cellName(col, row) {
  return `${manifest().columns[col]}${row + 1}`;
}

export function cellCol(cell) {
  return manifest().columns.indexOf(cell[0]);
}

export function cellRow(cell) {
  return Number(cell.slice(1)) - 1;
}

/** Whether 0-based `col`, `row` is on the board. */
export function onBoard(col, row) {
  const m = manifest();
  return col >= 0 && col < m.width && row >= 0 && row < m.height;
}

/** The cells of a side's start zone (rules §3.1), in notation order. */
export function zoneCells(side) {
  return manifest().zones[side === "north" ? "north" : "south"];
}

/** The cells within `reach` of `cell` counted as a king moves (`reach` 1: the 8 around it), itself left out. */
export function around(cell, reach = 1) {
  const c = cellCol(cell);
  const r = cellRow(cell);
  const out = [];
  for (let dc = -reach; dc <= reach; dc++)
    for (let dr = -reach; dr <= reach; dr++) {
      if ((dc || dr) && onBoard(c + dc, r + dr)) out.push(cellName(c + dc, r + dr));
    }
  return out;
}

/** The half turn the board is drawn with for North: a1 ↔ n15 (a saved setup is stored as South's). */
export function turnCell(cell) {
  const m = manifest();
  return cellName(m.width - 1 - cellCol(cell), m.height - 1 - cellRow(cell));
}

/** Markup of a unit token. `unit`: {side, kind|null}; `me`: the viewer's side or null. */
export function unitHtml(unit, me) {
  const owner = me ? (unit.side === me ? "own" : "enemy") : unit.side;
  if (!unit.kind) return `<span class="unit marker side-${unit.side} ${owner}" aria-hidden="true"></span>`;
  return (
    `<span class="unit side-${unit.side} ${owner} k-${unit.kind}" aria-hidden="true">` +
    `${iconSvg(unit.kind)}<span class="code">${ru(unit.kind)}</span></span>`
  );
}

export class Board extends CellGrid {
  /**
   * @param {HTMLElement} root an empty element that becomes the board
   * @param {{orientation: "south"|"north", label?: string, onCell?: (cell: string, ev: Event) => void,
   *          onKey?: (cell: string, ev: KeyboardEvent) => void}} opts
   */
  constructor(root, opts) {
    super(root, opts);
    this.orientation = opts.orientation === "north" ? "north" : "south";
    this.pageRows = 5;
    this.build(opts.label || t("Игровое поле"));
  }

  /** Display order: rows top → bottom and columns left → right, as seen by the viewer. */
  displayRows() {
    const rows = [...Array(manifest().height).keys()];
    return this.orientation === "north" ? rows : rows.reverse();
  }

  displayCols() {
    const cols = [...Array(manifest().width).keys()];
    return this.orientation === "north" ? cols.reverse() : cols;
  }

  build(label) {
    const root = this.root;
    root.classList.add("board");
    root.setAttribute("role", "grid");
    root.setAttribute("aria-label", label);
    root.innerHTML = "";
    for (const r of this.displayRows()) {
      // an ARIA grid is rows of cells; the row box takes no room (display: contents), the CSS grid places the cells
      const rowEl = document.createElement("div");
      rowEl.className = "board-row";
      rowEl.setAttribute("role", "row");
      root.append(rowEl);
      const lab = document.createElement("div");
      lab.className = "lab lab-row";
      lab.textContent = String(r + 1);
      lab.setAttribute("aria-hidden", "true");
      rowEl.append(lab);
      for (const c of this.displayCols()) {
        const name = cellName(c, r);
        rowEl.append(this.cellButton(name, (c + r) % 2 ? "cell alt" : "cell", cellRu(name)));
      }
    }
    // one tab stop for the whole board (roving tabindex), first on the middle of the viewer's front row
    const front = manifest().frontRows[this.orientation];
    this.setFocusable(front[Math.floor((front.length - 1) / 2)]);
    root.append(Object.assign(document.createElement("div"), { className: "lab corner" }));
    for (const c of this.displayCols()) {
      const lab = document.createElement("div");
      lab.className = "lab lab-col";
      lab.textContent = manifest().columnsShown[c];
      lab.setAttribute("aria-hidden", "true");
      root.append(lab);
    }
  }

  /**
   * Redraw everything.
   * @param {Map<string, {side: string, kind: string|null}>} units cell → unit
   * @param {Map<string, string[]>} marks cell → extra CSS classes (move, target, selected, last, …)
   * @param {string|null} me the viewer's side (own/enemy colouring), null for spectators/full view
   */
  render(units, marks = new Map(), me = null) {
    for (const [name, el] of this.cells) {
      const u = units.get(name);
      el.className = "cell" + ((cellCol(name) + cellRow(name)) % 2 ? " alt" : "");
      for (const cls of marks.get(name) || []) el.classList.add(cls);
      el.innerHTML = u ? unitHtml(u, me) : "";
      let label = cellRu(name);
      if (u && !u.kind) label += t(", фишка противника");
      else if (u && me && u.side === me) label += t(", ваш объект: {name}", { name: ruName(u.kind) });
      else if (u && me) label += t(", противник: {name}", { name: ruName(u.kind) });
      else if (u) label += `: ${ruName(u.kind)}`;
      el.setAttribute("aria-selected", String(el.classList.contains("selected")));
      if (el.classList.contains("move")) label += t(" — сюда можно пойти");
      if (el.classList.contains("target")) label += t(" — атаковать");
      el.setAttribute("aria-label", label);
      el.title = el.classList.contains("target") ? t("Атаковать") : el.classList.contains("move") ? t("Сюда") : u?.kind ? ruName(u.kind) : "";
    }
  }

  // Screen coordinates (the grid's keys): x from the left, y from the top, as the viewer sees the board.

  screenSize() {
    return [manifest().width, manifest().height];
  }

  screenPos(cell) {
    const { width, height } = manifest();
    return this.orientation === "north" ? [width - 1 - cellCol(cell), cellRow(cell)] : [cellCol(cell), height - 1 - cellRow(cell)];
  }

  cellOnScreen(x, y) {
    const { width, height } = manifest();
    return this.orientation === "north" ? cellName(width - 1 - x, y) : cellName(x, height - 1 - y);
  }
}
