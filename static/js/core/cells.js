// What every game's board of cells shares, naming no game: each cell a button (a click, a tap, Enter or Space act
// alike), one tab stop for the whole grid (roving tabindex) and the ARIA grid keys moving over it as it is seen on
// screen, and which cell lies under a pointer. A game's board draws its rows, labels and cells' looks.

/**
 * Where an ARIA grid key moves from the screen position (`x` from the left, `y` from the top) of a `width`×`height`
 * grid: the arrows one cell, Home/End to the row's ends (with Ctrl or ⌘, the corners), PageUp/PageDown `page` rows
 * (0: not the grid's keys). The position may be off the grid; null for any other key.
 * @returns {[number, number]|null}
 */
export function gridKeyStep(ev, x, y, width, height, page = 0) {
  const ctrl = ev.ctrlKey || ev.metaKey;
  switch (ev.key) {
    case "ArrowUp": return [x, y - 1];
    case "ArrowDown": return [x, y + 1];
    case "ArrowLeft": return [x - 1, y];
    case "ArrowRight": return [x + 1, y];
    case "Home": return [0, ctrl ? 0 : y];
    case "End": return [width - 1, ctrl ? height - 1 : y];
    case "PageUp": return page ? [x, Math.max(0, y - page)] : null;
    case "PageDown": return page ? [x, Math.min(height - 1, y + page)] : null;
    default: return null;
  } // prettier-ignore
}

/**
 * The base of a game's board. A subclass makes its cells with `cellButton` and gives `screenSize()` ([width,
 * height]), `screenPos(cell)` ([x, y] as drawn) and `cellOnScreen(x, y)`; `pageRows` makes PageUp/PageDown move.
 */
export class CellGrid {
  /**
   * @param {HTMLElement} root an empty element that becomes the board
   * @param {{onCell?: (cell: string, ev: Event) => void, onKey?: (cell: string, ev: KeyboardEvent) => void}} opts
   *        `onKey`: the keys that are not the grid's
   */
  constructor(root, opts) {
    this.root = root;
    this.onCell = opts.onCell || null;
    this.onKeyCb = opts.onKey || null;
    this.cells = new Map();
    this.focusable = null;
    this.pageRows = 0;
  }

  /** The button of cell `name` (class `className`, spoken as `label`), out of the tab order until it is the cursor. */
  cellButton(name, className, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.dataset.cell = name;
    b.setAttribute("role", "gridcell");
    b.setAttribute("aria-label", label);
    b.tabIndex = -1;
    b.addEventListener("click", (ev) => this.onCell && this.onCell(name, ev));
    b.addEventListener("keydown", (ev) => this.onKey(name, ev));
    b.addEventListener("focus", () => this.setFocusable(name));
    this.cells.set(name, b);
    return b;
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

  /** The grid's keys move the cursor as the board is seen (the page does not scroll); others go to `opts.onKey`. */
  onKey(cell, ev) {
    const [width, height] = this.screenSize();
    const [x, y] = this.screenPos(cell);
    const to = gridKeyStep(ev, x, y, width, height, this.pageRows);
    if (!to) {
      if (this.onKeyCb) this.onKeyCb(cell, ev);
      return;
    }
    ev.preventDefault();
    if (to[0] < 0 || to[0] >= width || to[1] < 0 || to[1] >= height) return;
    this.cursor(this.cellOnScreen(to[0], to[1]), true);
  }

  /** The cell under a viewport point, or null. */
  cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest("[data-cell]");
    return cell && this.root.contains(cell) ? cell.dataset.cell : null;
  }

  /** The button of `cell`. */
  element(cell) {
    return this.cells.get(cell);
  }
}
