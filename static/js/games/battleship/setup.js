// The setup screen of «Морской бой» (rules A2, A3, B1): drag ships from the dock onto the grid (mouse, pen or
// touch), tap a placed ship or press R to turn it, drag it back to the dock to take it off. The server checks the
// fleet at every change and every problem it names is shown on the board (a numbered mark on the ship) and under
// it; auto-arrangement in either style, saved setups per rule set, «Готов» and the setup timer.

import { h, toast } from "../../core/dom.js";
import { SavedSetups, SetupScreenBase, afterDrag, trackDrag } from "../../core/setup.js";
import { t } from "../../core/t.js";
import { Grid } from "./grid.js";
import { dirOf, draftOf, fitCells, hullClasses, lineCells, shipsOf } from "./ships.js";

const UPDATE_DELAY_MS = 300;

export class SetupScreen extends SetupScreenBase {
  /**
   * @param {HTMLElement} root
   * @param {{manifest: import("./manifest.js").Manifest, side: string, rules: string, options: object,
   *          send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown}} ctx
   */
  constructor(root, ctx) {
    super(root, ctx, { updateDelayMs: UPDATE_DELAY_MS });
    this.m = ctx.manifest;
    this.rules = ctx.rules;
    this.options = ctx.options;
    this.fleet = this.m.fleet(this.rules);
    this.ships = []; // [{code, cells, hand}] (`hand`: placed by hand, a re-roll keeps it: core/setup.js)
    this.dir = "h"; // the direction of the next ship taken from the dock
    this.pickCode = null; // a class chosen in the dock for tap-to-place
    this.selected = -1; // index of the selected placed ship
    this.drag = null; // the press being dragged
    this.build();
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    this.root.innerHTML = "";
    const gridEl = h("div");
    this.grid = new Grid(gridEl, {
      manifest: this.m,
      name: "setup",
      label: t("Ваше поле: расстановка флота"),
      onCell: (cell) => this.onCellClick(cell),
      onKey: (cell, ev) => this.onGridKey(cell, ev),
    });
    this.dockEl = h("div", { class: "bs-dock", role: "listbox", "aria-label": t("Корабли: перетащите на поле") });
    this.rotateBtn = h("button", { type: "button", class: "btn", onclick: () => this.rotateKey() }, "");
    this.removeBtn = h("button", { type: "button", class: "btn", onclick: () => this.removeSelected() }, t("Убрать с поля"));
    this.hintEl = h("p", { class: "hint", "aria-live": "polite" });
    this.autoBtns = this.m.setupStyles().map(([style, label]) => this.autoButton(label, style));
    this.problemsEl = h("ol", { class: "bs-problems", "aria-live": "polite" });
    this.saved = new SavedSetups(this.savedSetups());

    const panel = h(
      "aside",
      { class: "side-panel bs-panel" },
      h("h2", { class: "panel-title" }, t("Флот")),
      this.dockEl,
      h("div", { class: "button-row" }, this.rotateBtn, this.removeBtn),
      this.hintEl,
      h("div", { class: "button-row bs-auto" }, h("span", { class: "bs-auto-label" }, t("Авторасстановка:")), ...this.autoBtns),
      this.handEl,
      h("div", { class: "button-row" }, this.clearBtn),
      this.strip,
      this.saved.el,
    );
    const head = h(
      "div",
      { class: "bs-status" },
      h("span", { class: "bs-room" }, t("Расстановка"), " · ", this.m.roomText(this.options)),
      h("span", {}, t("Соперник:"), " ", this.opponentEl),
    );
    const layout = h("div", { class: "bs-layout bs-setup" }, h("div", { class: "bs-board-col" }, head, gridEl, this.problemsEl), panel);
    this.root.append(layout);
    this.layout = layout;
    this.countdown.bind(this.timerEl, "setup");
    this.bindDrag(gridEl);
    this.keyHandler = (ev) => this.onPageKey(ev);
    document.addEventListener("keydown", this.keyHandler);
    this.buildDock();
    this.render();
  }

  /** What the saved setups are kept under: per rule set here (a fleet is the rule set's); a variant may key them
   *  otherwise (core/setup.js SavedSetups's options). */
  savedSetups() {
    return {
      query: `game=battleship&rules=${encodeURIComponent(this.rules)}`,
      body: () => ({ setup: this.draftJson(), game: "battleship", options: { rules: this.rules } }),
      load: (setup) => this.loadSetup(setup),
      summary: [" ", h("span", { class: "muted" }, `(${this.m.roomText({ rules: this.rules })})`)],
    };
  }

  /** The picture of a dock item of class `s` ({code, size}): its hull, one segment per deck. */
  dockHull(s) {
    const hull = h("span", { class: "bs-hull", "aria-hidden": "true" });
    for (let i = 0; i < s.size; i++) hull.append(h("span", { class: "bs-seg", dataset: { i: String(i) } }));
    return hull;
  }

  /** A cell's look (`{cls, html, label, title}`) as a variant draws it on top of the fleet's (here: unchanged). */
  decorate(_cell, look) {
    return look;
  }

  buildDock() {
    for (const s of this.fleet) {
      const hull = this.dockHull(s);
      const item = h(
        "button",
        { type: "button", class: "bs-dock-item", role: "option", dataset: { code: s.code }, onclick: () => this.pick(s.code) },
        hull,
        h("span", { class: "bs-dock-name" }, t(s.name)),
        h("span", { class: "bs-dock-count" }),
      );
      this.dockEl.append(item);
    }
  }

  // --- the draft ---------------------------------------------------------------------------

  draftJson() {
    return draftOf(this.ships);
  }

  takeDraft(draft, hand = {}) {
    this.ships = shipsOf(this.m, this.fleet, draft).map((s) => ({ ...s, hand: s.cells.every((c) => hand[c] === s.code) }));
    this.selected = -1;
  }

  handJson() {
    return draftOf(this.ships.filter((s) => s.hand));
  }

  /** The screen is replaced: stop listening to the page's keys. */
  destroy() {
    document.removeEventListener("keydown", this.keyHandler);
  }

  // --- the fleet ----------------------------------------------------------------------------

  left(code) {
    const cls = this.fleet.find((s) => s.code === code);
    return (cls?.count ?? 0) - this.ships.filter((s) => s.code === code).length;
  }

  totalShips() {
    return this.fleet.reduce((n, s) => n + s.count, 0);
  }

  /** Cells taken by ships other than ship `except`. */
  taken(except = -1) {
    const out = new Set();
    this.ships.forEach((s, i) => {
      if (i !== except) for (const c of s.cells) out.add(c);
    });
    return out;
  }

  fits(cells, except = -1) {
    if (!cells) return false;
    const taken = this.taken(except);
    return cells.every((c) => !taken.has(c));
  }

  shipAt(cell) {
    return this.ships.findIndex((s) => s.cells.includes(cell));
  }

  /** The cells of a ship of `size` whose segment `grab` lies on `cell`, going `dir` (null: off the grid). */
  shape(cell, size, grab, dir) {
    const [r, c] = this.m.cellPos(cell);
    return dir === "v" ? lineCells(this.m, r - grab, c, size, "v") : lineCells(this.m, r, c - grab, size, "h");
  }

  place(code, cells) {
    if (this.ready || !this.fits(cells) || this.left(code) <= 0) return false;
    this.ships.push({ code, cells, hand: true });
    if (this.left(code) <= 0 && this.pickCode === code) this.pickCode = null;
    this.changed();
    return true;
  }

  moveShip(i, cells) {
    if (this.ready || !this.fits(cells, i)) return false;
    this.ships[i] = { ...this.ships[i], cells, hand: true };
    this.changed();
    return true;
  }

  /** Turn ship `i` about its cell `pivot` (else its bow), shifted back onto the grid if it sticks out. */
  rotate(i, pivot = null) {
    const s = this.ships[i];
    if (this.ready || !s || s.cells.length < 2) return;
    const dir = dirOf(this.m, s.cells) === "h" ? "v" : "h";
    const grab = pivot ? Math.max(0, s.cells.indexOf(pivot)) : 0;
    const [r, c] = this.m.cellPos(s.cells[grab]);
    const size = s.cells.length;
    const tries = [
      dir === "v" ? fitCells(this.m, r - grab, c, size, "v") : fitCells(this.m, r, c - grab, size, "h"),
      fitCells(this.m, ...this.m.cellPos(s.cells[0]), size, dir),
    ];
    const cells = tries.find((x) => this.fits(x, i));
    if (!cells) {
      toast(t("Повернуть нельзя: мешает край поля или другой корабль"), 2500);
      return;
    }
    this.moveShip(i, cells);
  }

  remove(i) {
    if (this.ready || i < 0) return;
    this.ships.splice(i, 1);
    this.selected = -1;
    this.changed();
  }

  removeSelected() {
    this.remove(this.selected);
  }

  // --- clicks and keys ----------------------------------------------------------------------

  pick(code) {
    if (afterDrag() || this.ready) return;
    this.selected = -1;
    this.pickCode = this.pickCode === code || this.left(code) <= 0 ? null : code;
    this.render();
  }

  onCellClick(cell) {
    if (afterDrag() || this.ready) return;
    const i = this.shipAt(cell);
    if (i >= 0) {
      // a tap on a placed ship turns it (rules: a ship is a straight line, either way)
      this.selected = i;
      this.pickCode = null;
      if (this.ships[i].cells.length > 1) this.rotate(i, cell);
      else this.render();
      return;
    }
    if (this.pickCode) {
      const size = this.fleet.find((s) => s.code === this.pickCode).size;
      const cells = fitCells(this.m, ...this.m.cellPos(cell), size, this.dir);
      if (!this.place(this.pickCode, cells)) toast(t("Здесь не помещается: мешает другой корабль"), 2500);
      return;
    }
    this.selected = -1;
    this.render();
  }

  onGridKey(cell, ev) {
    if (ev.key === "Delete" || ev.key === "Backspace") {
      const i = this.shipAt(cell);
      if (i >= 0) {
        ev.preventDefault();
        this.remove(i);
      }
    } else if (ev.key === "Escape") {
      this.selected = -1;
      this.pickCode = null;
      this.render();
    }
  }

  /** R turns the ship being dragged, else the selected one, else the next one from the dock. */
  onPageKey(ev) {
    if (!this.root.isConnected) return this.destroy();
    if (ev.key !== "r" && ev.key !== "R" && ev.key !== "к" && ev.key !== "К") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    const el = document.activeElement;
    if (el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA")) return;
    ev.preventDefault();
    this.rotateKey();
  }

  rotateKey() {
    if (this.ready) return;
    if (this.drag?.ghost) {
      this.drag.dir = this.drag.dir === "h" ? "v" : "h";
      this.paintGhost();
      this.dragOver(this.drag.lastX, this.drag.lastY);
      return;
    }
    if (this.selected >= 0) return this.rotate(this.selected);
    this.dir = this.dir === "h" ? "v" : "h";
    this.render();
  }

  onAuto(style) {
    if (this.ready) return;
    this.selected = -1;
    this.pickCode = null;
    super.onAuto(style);
  }

  onClear() {
    if (this.ready) return;
    this.ships = [];
    this.selected = -1;
    this.changed();
  }

  isComplete() {
    return this.ships.length === this.totalShips() && this.fleet.every((s) => this.left(s.code) === 0) && !this.dirty && this.problems.length === 0;
  }

  /** Take a saved setup: the player chose it, so it counts as placed by hand. */
  loadSetup(setup) {
    if (this.ready) return;
    this.ships = shipsOf(this.m, this.fleet, setup).map((s) => ({ ...s, hand: true }));
    this.selected = -1;
    this.changed();
  }

  // --- drag and drop (pointer events: mouse, pen and touch) ---------------------------------

  bindDrag(gridEl) {
    gridEl.addEventListener("pointerdown", (ev) => {
      const cellEl = ev.target.closest(".bs-cell");
      if (!cellEl || this.ready) return;
      const i = this.shipAt(cellEl.dataset.cell);
      if (i < 0) return;
      const s = this.ships[i];
      const dir = dirOf(this.m, s.cells);
      this.press(ev, { ship: i, code: s.code, size: s.cells.length, grab: s.cells.indexOf(cellEl.dataset.cell), dir: dir === "1" ? this.dir : dir });
    });
    this.dockEl.addEventListener("pointerdown", (ev) => {
      const item = ev.target.closest(".bs-dock-item");
      if (!item || this.ready || this.left(item.dataset.code) <= 0) return;
      const cls = this.fleet.find((s) => s.code === item.dataset.code);
      const seg = ev.target.closest(".bs-seg");
      const grab = seg ? Number(seg.dataset.i) : 0;
      this.press(ev, { ship: -1, code: cls.code, size: cls.size, grab, dir: this.dir });
    });
  }

  /** A press on a ship (`ship` its index, or -1 from the dock) that may become a drag. */
  press(ev, what) {
    const press = { ...what, lastX: ev.clientX, lastY: ev.clientY, ghost: null, cells: null };
    trackDrag(ev, {
      start: () => {
        this.drag = press;
        press.ghost = h("div", { class: "bs-ghost", "aria-hidden": "true" });
        document.body.append(press.ghost);
        this.paintGhost();
        this.layout.classList.add("dragging");
      },
      move: (e) => this.dragOver(e.clientX, e.clientY),
      end: (e) => {
        press.ghost.remove();
        this.drag = null;
        this.layout.classList.remove("dragging");
        this.dockEl.classList.remove("drop-hover");
        if (e.type === "pointercancel") return this.render();
        this.drop(press, e);
      },
    });
  }

  /** The floating ship under the pointer, at the grid's cell size, the grabbed segment under the pointer. */
  paintGhost() {
    const d = this.drag;
    if (!d?.ghost) return;
    const size = this.grid.element(this.m.cellName(0, 0)).getBoundingClientRect().width;
    d.ghost.innerHTML = "";
    d.ghost.className = `bs-ghost bs-ghost-${d.dir}`;
    d.ghost.style.setProperty("--g", `${size}px`);
    for (let i = 0; i < d.size; i++) d.ghost.append(h("span", { class: "bs-seg" }));
    d.offset = (d.grab + 0.5) * size;
    this.moveGhost(d.lastX, d.lastY);
  }

  moveGhost(x, y) {
    const d = this.drag;
    const size = parseFloat(d.ghost.style.getPropertyValue("--g"));
    const dx = d.dir === "h" ? x - d.offset : x - size / 2;
    const dy = d.dir === "v" ? y - d.offset : y - size / 2;
    d.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  dragOver(x, y) {
    const d = this.drag;
    d.lastX = x;
    d.lastY = y;
    this.moveGhost(x, y);
    const cell = this.grid.cellAt(x, y);
    d.cells = cell ? this.shape(cell, d.size, Math.min(d.grab, d.size - 1), d.dir) : null;
    d.over = cell;
    d.ok = !!d.cells && this.fits(d.cells, d.ship);
    this.dockEl.classList.toggle("drop-hover", d.ship >= 0 && this.overDock(x, y));
    this.render();
  }

  overDock(x, y) {
    const el = document.elementFromPoint(x, y);
    return !!el && !!el.closest(".bs-dock");
  }

  drop(press, e) {
    if (press.ship >= 0 && this.overDock(e.clientX, e.clientY)) return this.remove(press.ship);
    const cell = this.grid.cellAt(e.clientX, e.clientY);
    const cells = cell ? this.shape(cell, press.size, Math.min(press.grab, press.size - 1), press.dir) : null;
    if (cells && this.fits(cells, press.ship)) {
      if (press.ship >= 0) this.moveShip(press.ship, cells);
      else this.place(press.code, cells);
      return;
    }
    if (cell) toast(t("Здесь не помещается: мешает край поля или другой корабль"), 2500);
    this.render();
  }

  // --- drawing ------------------------------------------------------------------------------

  render() {
    const hull = hullClasses(this.m, this.ships.filter((_, i) => !(this.drag?.ghost && this.drag.ship === i)));
    const dragged = this.drag?.ghost && this.drag.ship >= 0 ? new Set(this.ships[this.drag.ship].cells) : new Set();
    const preview = new Set(this.drag?.ghost && this.drag.cells ? this.drag.cells : []);
    const problemAt = new Map(); // cell → problem numbers
    const problemShips = new Set();
    this.problems.forEach((p, n) => {
      if (!p.cell) return;
      problemAt.set(p.cell, [...(problemAt.get(p.cell) || []), n + 1]);
      const i = this.shipAt(p.cell);
      if (i >= 0) for (const c of this.ships[i].cells) problemShips.add(c);
      else problemShips.add(p.cell);
      // a touching problem also names where the ships meet: both ships are marked, not only the first
      for (const c of p.cells || []) {
        const j = this.shipAt(c);
        if (j >= 0) for (const d of this.ships[j].cells) problemShips.add(d);
      }
    });
    const sel = this.selected >= 0 ? new Set(this.ships[this.selected]?.cells || []) : new Set();
    const byHand = this.ships.filter((s) => s.hand);
    const handCells = byHand.length < this.ships.length ? new Set(byHand.flatMap((s) => s.cells)) : new Set();
    this.grid.render((cell) => {
      const cls = [...(hull.get(cell) || [])];
      if (dragged.has(cell)) cls.push("ghost-from");
      if (preview.has(cell)) cls.push(this.drag.ok ? "drop-ok" : "drop-bad");
      if (problemShips.has(cell)) cls.push("problem");
      if (sel.has(cell)) cls.push("selected");
      if (handCells.has(cell)) cls.push("hand");
      if (this.pickCode && !this.ready && !hull.has(cell)) cls.push("placeable");
      const nums = problemAt.get(cell);
      const i = hull.has(cell) ? this.shipAt(cell) : -1;
      const label = i >= 0 ? this.m.shipName(this.rules, this.ships[i].code) : "";
      return this.decorate(cell, {
        cls,
        html: nums ? `<span class="bs-badge" aria-hidden="true">${nums.join(",")}</span>` : "",
        label: nums ? `${label}; ${nums.map((n) => this.problems[n - 1].message).join("; ")}` : label,
        title: nums ? nums.map((n) => this.problems[n - 1].message).join("\n") : label,
      });
    });
    this.layout.classList.toggle("locked", this.ready);

    for (const item of this.dockEl.children) {
      const code = item.dataset.code;
      const left = this.left(code);
      const label = t("{name}, осталось {left}", { name: this.m.shipName(this.rules, code), left });
      this.renderStockItem(item, { count: item.querySelector(".bs-dock-count"), left, chosen: this.pickCode === code, label });
    }
    const placed = this.ships.length;
    this.countEl.textContent = t("{n} из {total}", { n: placed, total: this.totalShips() });
    this.rotateBtn.textContent = this.selected >= 0 ? t("Повернуть корабль (R)") : this.dir === "h" ? t("Ставить вертикально (R)") : t("Ставить горизонтально (R)");
    this.rotateBtn.disabled = this.ready;
    this.removeBtn.disabled = this.ready || this.selected < 0;
    // a re-roll as often as the player likes: only when every ship was placed by hand is there nothing to arrange
    for (const b of this.autoBtns) b.disabled = this.ready || byHand.length >= this.totalShips();
    this.renderHandNote(byHand.length, placed, this.totalShips());
    this.renderButtons(placed);
    this.saved.canSave(placed > 0);
    this.hintEl.textContent = this.ready
      ? t("Расстановка принята. Ждём соперника…")
      : this.pickCode
        ? t("{ship}: нажмите клетку — там встанет нос корабля.", { ship: this.m.shipName(this.rules, this.pickCode) })
        : this.selected >= 0
          ? t("Нажмите корабль или R, чтобы повернуть; перетащите, чтобы переставить, или обратно к флоту, чтобы убрать.")
          : placed === 0
            ? t("Перетащите корабли на поле или нажмите «{auto}».", { auto: this.autoBtns[0]?.textContent || "" })
            : t("Нажмите корабль, чтобы повернуть; перетащите, чтобы переставить.");

    this.problemsEl.innerHTML = "";
    this.problems.forEach((p) => this.problemsEl.append(h("li", { class: "problem" }, p.message || p.code)));
    // a refused re-roll: its reason, unnumbered (no ship carries it)
    if (this.notice) this.problemsEl.append(h("li", { class: "problem auto-refused" }, this.notice));
    this.problemsEl.hidden = this.problems.length === 0 && !this.notice;
  }
}
