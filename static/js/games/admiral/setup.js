// The setup screen (rules §3): place the whole fleet in the own zone (both from the manifest), by drag and drop or by
// clicks.

import { Board, around, turnCell, unitHtml, zoneCells } from "./board.js";
import { h, toast } from "../../core/dom.js";
import { SIDE_RU, otherSide } from "../../core/i18n.js";
import { cellRu, problemText } from "./text.js";
import { api } from "../../core/net.js";
import { t } from "../../core/t.js";
import { manifest } from "./manifest.js";
import { carrierOf, fleetSize, iconSvg, kinds, ru, ruName, rulesLink } from "./units.js";

const UPDATE_DELAY_MS = 350;
const DRAG_THRESHOLD_PX = 6;

/** A saved setup is side-neutral (rows 1–5 from the owner's edge, docs/protocol.md): North's is turned 180°. */
function toNeutral(setup, side) {
  if (side !== "north") return { ...setup };
  return Object.fromEntries(Object.entries(setup).map(([c, k]) => [turnCell(c), k]));
}

function fromNeutral(setup, side) {
  return toNeutral(setup, side); // the half turn is its own inverse
}

export class SetupScreen {
  /**
   * @param {HTMLElement} root
   * @param {{side: string, send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown,
   *          lesson?: boolean, coach?: HTMLElement}} ctx `lesson`: a tutorial lesson (no saved setups, no
   *          opponent to wait for; `coach`: the lesson's elements, laid out by the
   *          lesson-layout grid around the board)
   */
  constructor(root, ctx) {
    this.root = root;
    this.side = ctx.side;
    this.send = ctx.send;
    this.countdown = ctx.countdown;
    this.lesson = !!ctx.lesson;
    this.coach = ctx.coach || null;
    this.spot = []; // cells a lesson points at
    this.zone = new Set(zoneCells(this.side));
    this.draft = new Map(); // cell → kind code
    this.problems = [];
    this.ready = false;
    this.dirty = false; // local changes not yet confirmed by a setup.state
    this.synced = false; // took the server's draft once
    this.awaitingAuto = false; // an auto-arrangement was asked for and not answered yet
    this.asked = []; // setup.* messages sent and not answered yet, in order ("update" | "auto" | "ready")
    this.selectedKind = null;
    this.selectedCell = null;
    this.updateTimer = null;
    this.drag = null;
    this.suppressClick = false;
    this.build();
    if (!this.lesson) this.loadSaved();
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
    this.opponentEl = h("span", { class: "opp-state" });
    this.timerEl = h("span", { class: "clock setup-clock" });
    this.timerBox = h("span", { class: "setup-timer" }, t("Время на расстановку:"), " ", this.timerEl);
    this.countEl = h("span", { class: "placed-count" });
    this.arsenalEl = h("div", { class: "arsenal", role: "listbox", "aria-label": t("Арсенал: выберите тип и поставьте на поле") });
    this.removeBtn = h("button", { type: "button", class: "btn", onclick: () => this.removeSelected() }, t("Убрать с поля"));
    this.hintEl = h("p", { class: "hint", "aria-live": "polite" });
    this.readyBtn = h("button", { type: "button", class: "btn primary big", onclick: () => this.onReady() }, t("Готов"));
    this.autoBtn = h("button", { type: "button", class: "btn", onclick: () => this.onAuto() }, t("Авторасстановка"));
    this.clearBtn = h("button", { type: "button", class: "btn", onclick: () => this.onClear() }, t("Очистить"));
    this.problemsEl = h("ul", { class: "problems", "aria-live": "polite" });
    this.savedSelect = h("select", { "aria-label": t("Сохранённые расстановки") });
    this.saveName = h("input", { type: "text", maxlength: "40", placeholder: t("Название"), "aria-label": t("Название расстановки") });
    this.loadBtn = h("button", { type: "button", class: "btn", onclick: () => this.onLoad() }, t("Загрузить"));
    this.deleteBtn = h("button", { type: "button", class: "btn", "aria-label": t("Удалить выбранную расстановку"), onclick: () => this.onDelete() }, t("Удалить"));
    this.saveBtn = h("button", { type: "button", class: "btn", onclick: () => this.onSave() }, t("Сохранить"));

    const panel = h(
      "aside",
      { class: "side-panel setup-panel" },
      h("div", { class: "status-line" }, h("strong", {}, t("Вы — {side}.", { side: SIDE_RU[this.side] })), " ", t("Соперник:"), " ", this.opponentEl),
      h("div", { class: "status-line" }, this.timerBox),
      h("h2", { class: "panel-title" }, t("Арсенал"), " ", this.countEl),
      this.arsenalEl,
      this.hintEl,
      h("div", { class: "button-row" }, this.removeBtn, this.autoBtn, this.clearBtn),
      this.problemsEl,
      h("div", { class: "button-row ready-row" }, this.readyBtn),
      this.lesson
        ? null
        : h(
            "details",
            { class: "saved" },
            h("summary", {}, t("Мои расстановки")),
            h("div", { class: "button-row" }, this.savedSelect, this.loadBtn, this.deleteBtn),
            h("div", { class: "button-row" }, this.saveName, this.saveBtn),
          ),
    );
    const layout = h("div", { class: `layout setup-layout${this.lesson ? " lesson-layout" : ""}` }, this.coach, h("div", { class: "board-col" }, boardEl), panel);
    this.root.append(layout);
    this.countdown.bind(this.timerEl, "setup");
    this.bindDrag(boardEl);
    this.render();
  }

  // --- server messages ----------------------------------------------------------------------

  /** A snapshot during setup: `game` and `setup` ({draft, problems, ready} or null). */
  update(game, setup) {
    const opp = game.players?.[otherSide(this.side)];
    const who = opp?.bot ? (opp.bot.level ? t("ИИ «{name}» — ", { name: t(opp.bot.name) }) : `${t(opp.bot.name)} — `) : "";
    this.opponentEl.textContent = who + (!opp?.joined ? t("ещё не присоединился") : opp.ready ? t("готов") : t("расставляет"));
    this.opponentEl.className = `opp-state ${opp?.ready ? "ok" : ""}`;
    this.timerBox.hidden = game.clocks?.setup_ms == null;
    if (setup) this.applyState(setup, (!this.synced && !this.awaitingAuto) || setup.ready);
  }

  /** The socket is back: answers to what was asked are lost, and the server may have missed the last draft. */
  onReconnect() {
    this.asked = [];
    this.awaitingAuto = false;
    if (!this.ready && this.synced) this.ask("update");
  }

  /** Send a setup.* message and remember that an answer (setup.state or error) is due. */
  ask(type) {
    const ok = this.send({ type: `setup.${type}`, setup: Object.fromEntries(this.draft) });
    if (ok) this.asked.push(type);
    if (ok && type === "auto") this.awaitingAuto = true;
    return ok;
  }

  /** A `setup.state` message: the answer to our update, auto-arrangement or «Готов» (the server answers in order). */
  onSetupState(state) {
    const answered = this.asked.shift() || "update";
    if (answered === "auto") this.awaitingAuto = this.asked.includes("auto");
    this.applyState(state, answered === "auto" || !this.synced || !!state.ready);
  }

  /** `setup.state` (or a snapshot's setup); `takeDraft`: replace the local draft with the server's. */
  applyState(state, takeDraft) {
    if (takeDraft && state.draft) {
      this.draft = new Map(Object.entries(state.draft));
      this.dirty = false;
      this.synced = true;
    }
    if (!this.dirty) this.problems = state.problems || [];
    this.ready = !!state.ready;
    this.render();
  }

  /** An `error` reply while in setup (e.g. a rejected «Готов»). */
  onError(msg) {
    this.asked.shift();
    this.awaitingAuto = this.asked.includes("auto");
    if (Array.isArray(msg.detail?.problems)) this.problems = msg.detail.problems;
    this.render();
  }

  // --- changes ------------------------------------------------------------------------------

  remaining(code) {
    let n = 0;
    for (const k of this.draft.values()) if (k === code) n++;
    return (manifest().unit(code)?.count ?? 0) - n;
  }

  changed() {
    this.dirty = true;
    this.render();
    clearTimeout(this.updateTimer);
    this.updateTimer = setTimeout(() => {
      this.dirty = false;
      this.ask("update");
    }, UPDATE_DELAY_MS);
  }

  place(cell, code) {
    if (this.ready || !this.zone.has(cell) || this.remaining(code) <= 0) return;
    this.draft.set(cell, code);
    if (this.remaining(code) <= 0 && this.selectedKind === code) this.selectedKind = null;
    this.changed();
  }

  /** Move the unit on `from` to `to`; a unit already on `to` goes to `from` (swap). */
  moveUnit(from, to) {
    if (this.ready || from === to || !this.zone.has(to) || !this.draft.has(from)) return;
    const a = this.draft.get(from);
    const b = this.draft.get(to);
    this.draft.set(to, a);
    if (b) this.draft.set(from, b);
    else this.draft.delete(from);
    this.changed();
  }

  removeAt(cell) {
    if (this.ready || !this.draft.has(cell)) return;
    this.draft.delete(cell);
    if (this.selectedCell === cell) this.selectedCell = null;
    this.changed();
  }

  removeSelected() {
    if (this.selectedCell) this.removeAt(this.selectedCell);
  }

  // --- clicks -------------------------------------------------------------------------------

  onCellClick(cell) {
    if (this.suppressClick || this.ready || !this.zone.has(cell)) return;
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
    if (this.suppressClick || this.ready) return;
    this.selectedCell = null;
    this.selectedKind = this.selectedKind === code || this.remaining(code) <= 0 ? null : code;
    this.render();
  }

  onAuto() {
    clearTimeout(this.updateTimer);
    this.dirty = false;
    this.selectedKind = this.selectedCell = null;
    if (!this.ask("auto")) toast(t("Нет связи с сервером"));
  }

  onClear() {
    if (this.ready) return;
    this.draft.clear();
    this.selectedKind = this.selectedCell = null;
    this.changed();
  }

  onReady() {
    if (!this.isComplete()) return;
    clearTimeout(this.updateTimer);
    this.dirty = false;
    if (!this.ask("ready")) toast(t("Нет связи с сервером"));
  }

  isComplete() {
    return this.draft.size === fleetSize() && kinds().every((k) => this.remaining(k.code) === 0) && !this.dirty && this.problems.length === 0;
  }

  // --- saved setups -------------------------------------------------------------------------

  async loadSaved() {
    try {
      const data = await api("GET", "/api/setups");
      this.saved = Array.isArray(data) ? data : data?.setups || [];
    } catch {
      this.saved = [];
    }
    this.savedSelect.innerHTML = "";
    if (!this.saved.length) this.savedSelect.append(h("option", { value: "" }, t("нет сохранённых")));
    for (const s of this.saved) this.savedSelect.append(h("option", { value: String(s.id) }, s.name));
    this.loadBtn.disabled = this.deleteBtn.disabled = !this.saved.length;
  }

  async onSave() {
    const name = this.saveName.value.trim();
    if (!name) {
      toast(t("Введите название расстановки"));
      this.saveName.focus();
      return;
    }
    try {
      await api("POST", "/api/setups", { name, setup: toNeutral(Object.fromEntries(this.draft), this.side) });
      this.saveName.value = "";
      toast(t("Расстановка «{name}» сохранена", { name }), 2500);
      await this.loadSaved();
    } catch (e) {
      toast(e.message);
    }
  }

  onLoad() {
    const s = this.saved?.find((x) => String(x.id) === this.savedSelect.value);
    if (!s || this.ready) return;
    this.draft = new Map(Object.entries(fromNeutral(s.setup || {}, this.side)).filter(([c]) => this.zone.has(c)));
    this.selectedKind = this.selectedCell = null;
    this.changed();
  }

  async onDelete() {
    const s = this.saved?.find((x) => String(x.id) === this.savedSelect.value);
    if (!s || !confirm(t("Удалить расстановку «{name}»?", { name: s.name }))) return;
    try {
      await api("DELETE", `/api/setups/${encodeURIComponent(s.id)}`);
      await this.loadSaved();
    } catch (e) {
      toast(e.message);
    }
  }

  // --- drag and drop (pointer events: mouse, pen and touch) ---------------------------------

  bindDrag(boardEl) {
    boardEl.addEventListener("pointerdown", (ev) => {
      const cellEl = ev.target.closest(".cell");
      if (!cellEl || this.ready || !this.draft.has(cellEl.dataset.cell)) return;
      this.startPress(ev, { from: cellEl.dataset.cell, kind: this.draft.get(cellEl.dataset.cell) });
    });
    this.arsenalEl.addEventListener("pointerdown", (ev) => {
      const item = ev.target.closest(".arsenal-item");
      if (!item || this.ready || this.remaining(item.dataset.kind) <= 0) return;
      this.startPress(ev, { from: null, kind: item.dataset.kind });
    });
  }

  startPress(ev, what) {
    if (ev.button !== 0) return;
    const press = { ...what, x: ev.clientX, y: ev.clientY, id: ev.pointerId, ghost: null, over: null };
    const target = ev.target;
    const move = (e) => {
      if (e.pointerId !== press.id) return;
      if (!press.ghost) {
        if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_THRESHOLD_PX) return;
        press.ghost = h("div", { class: "drag-ghost", html: unitHtml({ side: this.side, kind: press.kind }, this.side) });
        document.body.append(press.ghost);
        if (press.from) this.board.element(press.from)?.classList.add("dragging");
      }
      e.preventDefault();
      press.ghost.style.transform = `translate(${e.clientX}px, ${e.clientY}px)`;
      const over = this.board.cellAt(e.clientX, e.clientY);
      if (over !== press.over) {
        if (press.over) this.board.element(press.over)?.classList.remove("drop-hover");
        press.over = over && this.zone.has(over) ? over : null;
        if (press.over) this.board.element(press.over)?.classList.add("drop-hover");
      }
      this.arsenalEl.classList.toggle("drop-hover", !!press.from && this.overArsenal(e));
    };
    const up = (e) => {
      if (e.pointerId !== press.id) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!press.ghost) return; // a click: the click handler does it
      press.ghost.remove();
      this.arsenalEl.classList.remove("drop-hover");
      this.suppressClick = true;
      setTimeout(() => (this.suppressClick = false), 0);
      if (e.type === "pointercancel") return this.render();
      this.drop(press, this.board.cellAt(e.clientX, e.clientY), this.overArsenal(e));
    };
    window.addEventListener("pointermove", move, { passive: false });
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    if (target.releasePointerCapture) {
      try {
        target.releasePointerCapture(ev.pointerId); // touch captures implicitly: we hit-test ourselves
      } catch {
        /* not captured */
      }
    }
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
    for (const p of this.problems) if (p.cell) add(p.cell, "problem");
    for (const c of this.spot) add(c, "spot");
    if (this.selectedCell) add(this.selectedCell, "selected");
    if (this.selectedKind && !this.ready) for (const c of this.zone) if (!this.draft.has(c)) add(c, "placeable");
    this.board.render(units, marks, this.side);
    this.root.querySelector(".setup-layout").classList.toggle("locked", this.ready);

    this.renderArsenal();
    this.countEl.textContent = t("{n} из {total}", { n: this.draft.size, total: fleetSize() });
    this.removeBtn.disabled = this.ready || !this.selectedCell;
    this.autoBtn.disabled = this.ready || this.draft.size === fleetSize();
    this.clearBtn.disabled = this.ready || this.draft.size === 0;
    this.readyBtn.disabled = this.ready || !this.isComplete();
    this.readyBtn.textContent = this.ready ? t("Вы готовы ✓") : t("Готов");
    this.saveBtn.disabled = this.draft.size === 0;

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
      item.querySelector(".a-count").textContent = `×${left}`;
      item.classList.toggle("empty", left <= 0);
      item.classList.toggle("selected", this.selectedKind === code);
      item.setAttribute("aria-selected", String(this.selectedKind === code));
      item.setAttribute("aria-label", t("{name} ({code}), осталось {left}", { name: ruName(code), code: ru(code), left }));
      item.disabled = this.ready;
    }
  }
}
