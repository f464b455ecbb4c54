// The setup screen (rules §3): place the whole fleet in the own zone (both from the manifest), by drag and drop or by
// clicks.

import { Board, around, turnCell, unitHtml, zoneCells } from "./board.js";
import { h, toast } from "../../core/dom.js";
import { SIDE_RU } from "../../core/i18n.js";
import { SavedSetups, SetupScreenBase, afterDrag, trackDrag } from "../../core/setup.js";
import { cellRu, problemText } from "./text.js";
import { t } from "../../core/t.js";
import { manifest } from "./manifest.js";
import { carrierOf, fleetSize, iconSvg, kinds, ru, ruName, rulesLink } from "./units.js";

const UPDATE_DELAY_MS = 350;

/** A saved setup is side-neutral (rows 1–5 from the owner's edge, docs/protocol.md): North's is turned 180°. */
function toNeutral(setup, side) {
  if (side !== "north") return { ...setup };
  return Object.fromEntries(Object.entries(setup).map(([c, k]) => [turnCell(c), k]));
}

function fromNeutral(setup, side) {
  return toNeutral(setup, side); // the half turn is its own inverse
}

export class SetupScreen extends SetupScreenBase {
  /**
   * @param {HTMLElement} root
   * @param {{side: string, send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown,
   *          lesson?: boolean, coach?: HTMLElement}} ctx `lesson`: a tutorial lesson (no saved setups, no
   *          opponent to wait for; `coach`: the lesson's elements, laid out by the
   *          lesson-layout grid around the board)
   */
  constructor(root, ctx) {
    super(root, ctx, { updateDelayMs: UPDATE_DELAY_MS, aiLevel: true });
    this.lesson = !!ctx.lesson;
    this.coach = ctx.coach || null;
    this.spot = []; // cells a lesson points at
    this.zone = new Set(zoneCells(this.side));
    this.draft = new Map(); // cell → kind code
    this.hand = new Set(); // cells of the units placed by hand (a re-roll keeps them: core/setup.js)
    this.selectedKind = null;
    this.selectedCell = null;
    this.build();
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    this.root.innerHTML = "";
    const boardEl = h("div", { class: "setup-board" });
    this.board = new Board(boardEl, {
      orientation: this.side,
      label: t("Поле: ваша зона расстановки внизу"),
      onCell: (cell) => this.onCellClick(cell),
      onKey: (cell, ev) => {
        if ((ev.key === "Delete" || ev.key === "Backspace") && this.draft.has(cell)) {
          ev.preventDefault();
          this.removeAt(cell);
        } else if (ev.key === "Escape") {
          this.selectedKind = this.selectedCell = null;
          this.render();
        }
      },
    });
    this.arsenalEl = h("div", { class: "arsenal", role: "listbox", "aria-label": t("Арсенал: выберите тип и поставьте на поле") });
    this.removeBtn = h("button", { type: "button", class: "btn", onclick: () => this.removeSelected() }, t("Убрать с поля"));
    this.hintEl = h("p", { class: "hint", "aria-live": "polite" });
    this.autoBtn = this.autoButton(t("Авторасстановка"));
    this.problemsEl = h("ul", { class: "problems", "aria-live": "polite" });
    this.saved = this.lesson
      ? null
      : new SavedSetups({
          body: () => ({ setup: toNeutral(this.draftJson(), this.side) }),
          load: (setup) => this.loadSetup(fromNeutral(setup, this.side)),
        });

    const panel = h(
      "aside",
      { class: "side-panel setup-panel" },
      h("div", { class: "status-line" }, h("strong", {}, t("Вы — {side}.", { side: SIDE_RU[this.side] })), " ", t("Соперник:"), " ", this.opponentEl),
      h("h2", { class: "panel-title" }, t("Арсенал")),
      this.arsenalEl,
      this.hintEl,
      h("div", { class: "button-row" }, this.removeBtn, this.autoBtn, this.clearBtn),
      this.handEl,
      this.problemsEl,
      this.strip,
      this.saved?.el,
    );
    const layout = h("div", { class: `layout setup-layout${this.lesson ? " lesson-layout" : ""}` }, this.coach, h("div", { class: "board-col" }, boardEl), panel);
    this.root.append(layout);
    this.countdown.bind(this.timerEl, "setup");
    this.bindDrag(boardEl);
    this.render();
  }

  // --- the draft ---------------------------------------------------------------------------

  draftJson() {
    return Object.fromEntries(this.draft);
  }

  takeDraft(draft, hand = {}) {
    this.draft = new Map(Object.entries(draft));
    this.hand = new Set(Object.keys(hand));
  }

  handJson() {
    return Object.fromEntries([...this.draft].filter(([c]) => this.hand.has(c)));
  }

  // --- changes ------------------------------------------------------------------------------

  remaining(code) {
    let n = 0;
    for (const k of this.draft.values()) if (k === code) n++;
    return (manifest().unit(code)?.count ?? 0) - n;
  }

  place(cell, code) {
    if (this.ready || !this.zone.has(cell) || this.remaining(code) <= 0) return;
    this.draft.set(cell, code);
    this.hand.add(cell);
    if (this.remaining(code) <= 0 && this.selectedKind === code) this.selectedKind = null;
    this.changed();
  }

  /** Move the unit on `from` to `to`; a unit already on `to` goes to `from` (swap). The unit moved is placed by
   *  hand from now on; one swapped away keeps what it was. */
  moveUnit(from, to) {
    if (this.ready || from === to || !this.zone.has(to) || !this.draft.has(from)) return;
    const a = this.draft.get(from);
    const b = this.draft.get(to);
    const bByHand = this.hand.has(to);
    this.draft.set(to, a);
    this.hand.add(to);
    this.hand.delete(from);
    if (b) {
      this.draft.set(from, b);
      if (bByHand) this.hand.add(from);
    } else this.draft.delete(from);
    this.changed();
  }

  removeAt(cell) {
    if (this.ready || !this.draft.has(cell)) return;
    this.draft.delete(cell);
    this.hand.delete(cell);
    if (this.selectedCell === cell) this.selectedCell = null;
    this.changed();
  }

  removeSelected() {
    if (this.selectedCell) this.removeAt(this.selectedCell);
  }

  // --- clicks -------------------------------------------------------------------------------

  onCellClick(cell) {
    if (afterDrag() || this.ready || !this.zone.has(cell)) return;
    if (this.selectedCell) {
      const from = this.selectedCell;
      this.selectedCell = null;
      if (from !== cell) this.moveUnit(from, cell);
      else this.render();
      return;
    }
    if (this.selectedKind) {
      const old = this.draft.get(cell);
      if (old === this.selectedKind) {
        this.selectedKind = null;
        this.selectedCell = cell;
        return this.render();
      }
      this.place(cell, this.selectedKind);
      if (old) toast(t("{unit} возвращён в арсенал", { unit: ru(old) }), 2000);
      return;
    }
    if (this.draft.has(cell)) {
      this.selectedCell = cell;
      this.render();
    }
  }

  selectKind(code) {
    if (afterDrag() || this.ready) return;
    this.selectedCell = null;
    this.selectedKind = this.selectedKind === code || this.remaining(code) <= 0 ? null : code;
    this.render();
  }

  onAuto() {
    this.selectedKind = this.selectedCell = null;
    super.onAuto();
  }

  onClear() {
    if (this.ready) return;
    this.draft.clear();
    this.hand.clear();
    this.selectedKind = this.selectedCell = null;
    this.changed();
  }

  isComplete() {
    return this.draft.size === fleetSize() && kinds().every((k) => this.remaining(k.code) === 0) && !this.dirty && this.problems.length === 0;
  }

  /** Take a saved setup (its cells off the own zone left out): the player chose it, so it counts as placed by hand. */
  loadSetup(setup) {
    if (this.ready) return;
    this.draft = new Map(Object.entries(setup).filter(([c]) => this.zone.has(c)));
    this.hand = new Set(this.draft.keys());
    this.selectedKind = this.selectedCell = null;
    this.changed();
  }

  // --- drag and drop (pointer events: mouse, pen and touch) ---------------------------------

  bindDrag(boardEl) {
    boardEl.addEventListener("pointerdown", (ev) => {
      const cellEl = ev.target.closest(".cell");
      if (!cellEl || this.ready || !this.draft.has(cellEl.dataset.cell)) return;
      this.press(ev, { from: cellEl.dataset.cell, kind: this.draft.get(cellEl.dataset.cell) });
    });
    this.arsenalEl.addEventListener("pointerdown", (ev) => {
      const item = ev.target.closest(".arsenal-item");
      if (!item || this.ready || this.remaining(item.dataset.kind) <= 0) return;
      this.press(ev, { from: null, kind: item.dataset.kind });
    });
  }

  /** A press on a unit (`from` its cell, or null from the arsenal) that may become a drag. */
  press(ev, what) {
    const press = { ...what, ghost: null, over: null };
    trackDrag(ev, {
      start: () => {
        press.ghost = h("div", { class: "drag-ghost", html: unitHtml({ side: this.side, kind: press.kind }, this.side) });
        document.body.append(press.ghost);
        if (press.from) this.board.element(press.from)?.classList.add("dragging");
      },
      move: (e) => {
        press.ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
        const over = this.board.cellAt(e.clientX, e.clientY);
        if (over !== press.over) {
          if (press.over) this.board.element(press.over)?.classList.remove("drop-hover");
          press.over = over && this.zone.has(over) ? over : null;
          if (press.over) this.board.element(press.over)?.classList.add("drop-hover");
        }
        this.arsenalEl.classList.toggle("drop-hover", !!press.from && this.overArsenal(e));
      },
      end: (e) => {
        press.ghost.remove();
        this.arsenalEl.classList.remove("drop-hover");
        if (e.type === "pointercancel") return this.render();
        this.drop(press, this.board.cellAt(e.clientX, e.clientY), this.overArsenal(e));
      },
    });
  }

  overArsenal(e) {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    return !!el && !!el.closest(".arsenal");
  }

  drop(press, cell, onArsenal) {
    this.selectedCell = null;
    if (press.from) {
      if (onArsenal) return this.removeAt(press.from);
      if (cell && this.zone.has(cell)) return this.moveUnit(press.from, cell);
      return this.render();
    }
    if (cell && this.zone.has(cell)) {
      const old = this.draft.get(cell);
      this.place(cell, press.kind);
      if (old && old !== press.kind) toast(t("{unit} возвращён в арсенал", { unit: ru(old) }), 2000);
      return;
    }
    this.render();
  }

  // --- drawing ------------------------------------------------------------------------------

  /** Weapons with no carrier of their kind within the tether (rules §3.3: legal, but the client warns). */
  untethered() {
    const out = [];
    const reach = manifest().rules.tether;
    for (const [cell, kind] of this.draft) {
      const carrier = carrierOf(kind);
      if (carrier && !around(cell, reach).some((c) => this.draft.get(c) === carrier)) out.push([cell, kind, carrier]);
    }
    return out;
  }

  render() {
    const units = new Map();
    const marks = new Map();
    const add = (cell, cls) => marks.set(cell, [...(marks.get(cell) || []), cls]);
    for (const cell of this.board.cells.keys()) add(cell, this.zone.has(cell) ? "zone" : "off");
    for (const [cell, kind] of this.draft) units.set(cell, { side: this.side, kind });
    const warn = this.untethered();
    for (const [cell] of warn) add(cell, "warn");
    if (this.hand.size < this.draft.size) for (const c of this.hand) add(c, "hand");
    for (const p of this.problems) if (p.cell) add(p.cell, "problem");
    for (const c of this.spot) add(c, "spot");
    if (this.selectedCell) add(this.selectedCell, "selected");
    if (this.selectedKind && !this.ready) for (const c of this.zone) if (!this.draft.has(c)) add(c, "placeable");
    this.board.render(units, marks, this.side);
    this.root.querySelector(".setup-layout").classList.toggle("locked", this.ready);

    this.renderArsenal();
    this.countEl.textContent = t("{n} из {total}", { n: this.draft.size, total: fleetSize() });
    this.removeBtn.disabled = this.ready || !this.selectedCell;
    // a re-roll as often as the player likes: only when every unit was placed by hand is there nothing to arrange
    this.autoBtn.disabled = this.ready || this.hand.size >= fleetSize();
    this.renderHandNote(this.hand.size, this.draft.size, fleetSize());
    this.renderButtons(this.draft.size);
    this.saved?.canSave(this.draft.size > 0);

    this.hintEl.textContent = this.ready
      ? this.lesson
        ? t("Расстановка принята.")
        : t("Расстановка принята. Ждём соперника…")
      : this.selectedCell
        ? t("{unit} на {cell}: нажмите другую клетку, чтобы переставить (или поменять местами), или «Убрать с поля».", { unit: ruName(this.draft.get(this.selectedCell)), cell: cellRu(this.selectedCell) })
        : this.selectedKind
          ? t("{unit}: нажмите свободную клетку своей зоны (осталось {left}).", { unit: ruName(this.selectedKind), left: this.remaining(this.selectedKind) })
          : t("Перетащите корабль из арсенала на поле или выберите тип и нажмите клетку. Перетащите обратно в арсенал, чтобы убрать.");
    const infoKind = this.ready ? null : this.selectedCell ? this.draft.get(this.selectedCell) : this.selectedKind;
    if (infoKind) this.hintEl.append(" ", rulesLink(infoKind));

    this.problemsEl.innerHTML = "";
    if (this.notice) this.problemsEl.append(h("li", { class: "problem auto-refused" }, this.notice));
    for (const p of this.problems) this.problemsEl.append(h("li", { class: "problem" }, problemText(p)));
    for (const [cell, kind, carrier] of warn) {
      const args = { unit: ru(kind), cell: cellRu(cell), carrier: ruName(carrier).toLowerCase() };
      const text = manifest().unit(kind)?.attack
        ? t("{unit} на {cell} не рядом с носителем ({carrier}): без него не сможет ни ходить, ни атаковать.", args)
        : t("{unit} на {cell} не рядом с носителем ({carrier}): без него не сможет ходить.", args);
      this.problemsEl.append(h("li", { class: "warning" }, text));
    }
  }

  renderArsenal() {
    if (!this.arsenalEl.childElementCount) {
      for (const k of kinds()) {
        const item = h(
          "button",
          { type: "button", class: "arsenal-item", role: "option", dataset: { kind: k.code }, onclick: () => this.selectKind(k.code) },
          h("span", { class: `unit own side-${this.side} k-${k.code}`, html: `${iconSvg(k.code)}<span class="code">${k.label}</span>`, "aria-hidden": "true" }),
          h("span", { class: "a-name" }, k.title),
          h("span", { class: "a-count" }),
        );
        this.arsenalEl.append(item);
      }
    }
    for (const item of this.arsenalEl.children) {
      const code = item.dataset.kind;
      const left = this.remaining(code);
      const label = t("{name} ({code}), осталось {left}", { name: ruName(code), code: ru(code), left });
      this.renderStockItem(item, { count: item.querySelector(".a-count"), left, chosen: this.selectedKind === code, label });
    }
  }
}
