// What every game's setup screen shares (docs/protocol.md "setup.*"), naming no game's units: the exchange with the
// server (a draft sent after each change, auto-arrangement, «Готов», the answers taken in order and again after a
// reconnect), the opponent's state, the setup timer, «Готов» and «Очистить», the saved setups and the pointer press
// that turns into a drag. The game draws its board and its fleet and says what a draft is.
//
// Auto-arrangement is a re-roll around what the player placed by hand (issue 18): the game keeps which units were
// placed by hand and `setup.auto` sends only those; the server keeps each on its cell or refuses and changes
// nothing. Which units are hand-placed is kept in the tab (sessionStorage, per game and seat): a reload in the same
// tab remembers it; another tab or browser takes every unit of the draft as placed by hand.

import { h, toast } from "./dom.js";
import { otherSide } from "./i18n.js";
import { api } from "./net.js";
import { t } from "./t.js";

/** How far (px) a press moves before it is a drag rather than a click. */
export const DRAG_THRESHOLD_PX = 6;

// a stopwatch drawn inline: an emoji (⏱) is a blank box where the system has no emoji font (Debian's Chromium)
const STOPWATCH = `<svg class="ctl-icon" viewBox="0 0 24 24" focusable="false"><circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 13V9M10 2h4M19 5l-1.5 1.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

/**
 * The base of a game's setup screen. A subclass draws in `build()` (with `opponentEl`, `timerBox`, `readyBtn`,
 * `clearBtn`, `countEl`, `strip` and `handEl` made here) and gives `draftJson()` (the draft as the server takes
 * it: cell → unit code), `handJson()` (the part of it placed by hand), `takeDraft(draft, hand)` (replace the local
 * draft with the server's; `hand`: the entries of it to count as placed by hand), `isComplete()`, `onClear()` and
 * `render()`.
 */
export class SetupScreenBase {
  /**
   * @param {HTMLElement} root
   * @param {{side: string, send: (msg: object) => boolean, countdown: import("./clock.js").Countdown,
   *          lesson?: boolean}} ctx `lesson`: a tutorial lesson (nothing is remembered in the tab)
   * @param {{updateDelayMs: number, aiLevel?: boolean}} opts `updateDelayMs`: how long after a change the draft is
   *        sent; `aiLevel`: a bot with a level is named «ИИ «…»» (as core/bars.js)
   */
  constructor(root, ctx, opts) {
    this.root = root;
    this.side = ctx.side;
    this.send = ctx.send;
    this.countdown = ctx.countdown;
    this.updateDelayMs = opts.updateDelayMs;
    this.aiLevel = !!opts.aiLevel;
    this.problems = [];
    this.ready = false;
    this.dirty = false; // local changes not yet confirmed by a setup.state
    this.synced = false; // took the server's draft once
    this.awaitingAuto = false; // an auto-arrangement was asked for and not answered yet
    this.asked = []; // setup.* messages sent and not answered yet, in order ("update" | "auto" | "ready")
    this.updateTimer = null;
    this.opponentEl = h("span", { class: "opp-state" });
    this.timerEl = h("span", { class: "clock setup-clock" });
    // the words become a stopwatch on a narrow screen (the strip at the bottom of a phone has no room for them)
    this.timerBox = h("span", { class: "setup-timer", title: t("Время на расстановку") }, h("span", { class: "wide-only" }, t("Время на расстановку:")), h("span", { class: "narrow-only", "aria-hidden": "true", html: STOPWATCH }), " ", this.timerEl);
    this.readyBtn = h("button", { type: "button", class: "btn primary big", onclick: () => this.onReady() }, t("Готов"));
    this.clearBtn = h("button", { type: "button", class: "btn", onclick: () => this.onClear() }, t("Очистить"));
    this.countEl = h("span", { class: "placed-count" });
    // what a player needs at every moment, kept in view (issue 18): how many are placed, the setup clock, «Готов»;
    // at the bottom of the screen on a phone, at the bottom of the panel (sticky) on a laptop
    this.strip = h(
      "div",
      { class: "button-row ready-row setup-strip" },
      h("span", { class: "strip-status" }, h("span", { class: "strip-count" }, t("Расставлено:"), " ", this.countEl), " ", this.timerBox),
      this.readyBtn,
    );
    this.handEl = h("p", { class: "hand-note", "aria-live": "polite" });
    this.notice = ""; // why the last auto-arrangement was refused (shown until the next change)
    const app = typeof document !== "undefined" ? document.getElementById("app") : null;
    this.handKey = !ctx.lesson && app?.dataset.gameId ? `admiral.hand.${app.dataset.gameId}.${this.side}` : null;
  }

  // --- what was placed by hand (kept in the tab) ----------------------------------------------

  /** The hand-placed part remembered in this tab for this draft (`{cell: code}`), or null when nothing is. */
  recallHand() {
    if (!this.handKey) return null;
    try {
      const raw = sessionStorage.getItem(this.handKey);
      const parsed = raw ? JSON.parse(raw) : null;
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Remember the hand-placed part in this tab (a reload keeps it). */
  rememberHand() {
    if (!this.handKey) return;
    try {
      sessionStorage.setItem(this.handKey, JSON.stringify(this.handJson()));
    } catch {
      /* storage full or refused: a reload then counts every unit as placed by hand */
    }
  }

  /** The line under «Авторасстановка» saying what a re-roll keeps (`hand`, `placed`: unit counts). */
  renderHandNote(hand, placed, total) {
    this.handEl.hidden = this.ready || hand === 0 || hand === total;
    this.handEl.textContent =
      hand === placed
        ? t("Поставлено вручную: {n}. Авторасстановка расставит остальное вокруг них.", { n: hand })
        : t("Поставлено вручную: {n} (отмечены точкой). Авторасстановка переставит только остальные.", { n: hand });
  }

  /** A button asking for an auto-arrangement (in `style`, when the game has several). */
  autoButton(label, style = null) {
    return h("button", { type: "button", class: "btn", dataset: style ? { style } : null, onclick: () => this.onAuto(style) }, label);
  }

  /** The opponent's name before its state, for a bot (`bot`: the snapshot's `{level, name}`). */
  botName(bot) {
    return this.aiLevel && bot.level ? t("ИИ «{name}» — ", { name: t(bot.name) }) : `${t(bot.name)} — `;
  }

  // --- server messages ----------------------------------------------------------------------

  /** A snapshot during setup: `game` and `setup` ({draft, problems, ready} or null). */
  update(game, setup) {
    const opp = game.players?.[otherSide(this.side)];
    const who = opp?.bot ? this.botName(opp.bot) : "";
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

  /** Send a setup.* message and remember that an answer (setup.state or error) is due (`extra` may replace the
   *  draft sent: `setup.auto` sends only the hand-placed part). */
  ask(type, extra = {}) {
    const ok = this.send({ type: `setup.${type}`, setup: this.draftJson(), ...extra });
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
      // after an auto-arrangement the units sent stay hand-placed; on the first sync the tab may remember them
      // (else every unit of the draft counts as placed by hand: a re-roll then moves nothing the player placed)
      const hand = this.synced ? this.handJson() : this.recallHand() ?? state.draft;
      this.takeDraft(state.draft, Object.fromEntries(Object.entries(hand).filter(([c, k]) => state.draft[c] === k)));
      this.dirty = false;
      this.synced = true;
      this.rememberHand();
    }
    if (!this.dirty) this.problems = state.problems || [];
    this.ready = !!state.ready;
    this.render();
  }

  /** An `error` reply while in setup (e.g. a rejected «Готов»). */
  onError(msg) {
    const answered = this.asked.shift();
    this.awaitingAuto = this.asked.includes("auto");
    if (Array.isArray(msg.detail?.problems)) this.problems = msg.detail.problems;
    // a refused re-roll: the draft is as it was; the reason stays in sight until the next change
    if (answered === "auto") this.notice = msg.message || "";
    this.render();
  }

  // --- changes ------------------------------------------------------------------------------

  /** The local draft changed: draw it now, send it once the changes pause. */
  changed() {
    this.dirty = true;
    this.notice = "";
    this.rememberHand();
    this.render();
    clearTimeout(this.updateTimer);
    this.updateTimer = setTimeout(() => {
      this.dirty = false;
      this.ask("update");
    }, this.updateDelayMs);
  }

  /** Ask the server to arrange the fleet (in `style`) around the hand-placed units, as often as the player likes:
   *  the rest is arranged afresh each time. The subclass clears its selection first. */
  onAuto(style = null) {
    if (this.ready) return;
    clearTimeout(this.updateTimer);
    this.dirty = false;
    this.notice = "";
    if (!this.ask("auto", { setup: this.handJson(), ...(style ? { style } : {}) })) toast(t("Нет связи с сервером"));
  }

  onReady() {
    if (!this.isComplete()) return;
    clearTimeout(this.updateTimer);
    this.dirty = false;
    if (!this.ask("ready")) toast(t("Нет связи с сервером"));
  }

  /** One item of the fleet still to place (a listbox option): `left` of it, whether it is the one chosen. */
  renderStockItem(item, { count, left, chosen, label }) {
    count.textContent = `×${left}`;
    item.classList.toggle("empty", left <= 0);
    item.classList.toggle("selected", chosen);
    item.setAttribute("aria-selected", String(chosen));
    item.setAttribute("aria-label", label);
    item.disabled = this.ready;
  }

  /** «Готов» and «Очистить» as the draft stands (`placed`: how many units are on the board). */
  renderButtons(placed) {
    this.clearBtn.disabled = this.ready || placed === 0;
    this.readyBtn.disabled = this.ready || !this.isComplete();
    this.readyBtn.textContent = this.ready ? t("Вы готовы ✓") : t("Готов");
  }
}

/** The saved setups of the player (docs/protocol.md "/api/setups"): a list to load or delete, a name to save under. */
export class SavedSetups {
  /**
   * @param {{query?: string, body: () => object, load: (setup: object) => void, summary?: (Node|string)[]}} opts
   *        `query`: the list's filter (`game=…&…`); `body()`: what «Сохранить» posts besides the name; `load(setup)`:
   *        take a saved setup; `summary`: more after «Мои расстановки»
   */
  constructor(opts) {
    this.opts = opts;
    this.saved = [];
    this.select = h("select", { "aria-label": t("Сохранённые расстановки") });
    this.name = h("input", { type: "text", maxlength: "40", placeholder: t("Название"), "aria-label": t("Название расстановки") });
    this.loadBtn = h("button", { type: "button", class: "btn", onclick: () => this.onLoad() }, t("Загрузить"));
    this.deleteBtn = h("button", { type: "button", class: "btn", "aria-label": t("Удалить выбранную расстановку"), onclick: () => this.onDelete() }, t("Удалить"));
    this.saveBtn = h("button", { type: "button", class: "btn", onclick: () => this.onSave() }, t("Сохранить"));
    this.el = h(
      "details",
      { class: "saved" },
      h("summary", {}, t("Мои расстановки"), ...(opts.summary || [])),
      h("div", { class: "button-row" }, this.select, this.loadBtn, this.deleteBtn),
      h("div", { class: "button-row" }, this.name, this.saveBtn),
    );
    this.refresh();
  }

  /** «Сохранить» only with something to save. */
  canSave(yes) {
    this.saveBtn.disabled = !yes;
  }

  async refresh() {
    try {
      const data = await api("GET", this.opts.query ? `/api/setups?${this.opts.query}` : "/api/setups");
      this.saved = Array.isArray(data) ? data : data?.setups || [];
    } catch {
      this.saved = [];
    }
    this.select.innerHTML = "";
    if (!this.saved.length) this.select.append(h("option", { value: "" }, t("нет сохранённых")));
    for (const s of this.saved) this.select.append(h("option", { value: String(s.id) }, s.name));
    this.loadBtn.disabled = this.deleteBtn.disabled = !this.saved.length;
  }

  chosen() {
    return this.saved.find((x) => String(x.id) === this.select.value);
  }

  async onSave() {
    const name = this.name.value.trim();
    if (!name) {
      toast(t("Введите название расстановки"));
      this.name.focus();
      return;
    }
    try {
      await api("POST", "/api/setups", { name, ...this.opts.body() });
      this.name.value = "";
      toast(t("Расстановка «{name}» сохранена", { name }), 2500);
      await this.refresh();
    } catch (e) {
      toast(e.message);
    }
  }

  onLoad() {
    const s = this.chosen();
    if (s) this.opts.load(s.setup || {});
  }

  async onDelete() {
    const s = this.chosen();
    if (!s || !confirm(t("Удалить расстановку «{name}»?", { name: s.name }))) return;
    try {
      await api("DELETE", `/api/setups/${encodeURIComponent(s.id)}`);
      await this.refresh();
    } catch (e) {
      toast(e.message);
    }
  }
}

let dragJustEnded = false;

/** Whether the click now being handled ends a drag (the drop did the work): a click handler then does nothing. */
export function afterDrag() {
  return dragJustEnded;
}

/**
 * Follow the pointer pressed in `ev` (pointerdown, main button): once it moves `DRAG_THRESHOLD_PX` it is a drag —
 * `start(e)` once, then `move(e)` at every move (the page does not scroll); when it is let go, `end(e)`
 * (`e.type` "pointercancel" when the system took it). A press that never went that far is a click, left to the
 * click handler. Mouse, pen and touch alike.
 * @param {PointerEvent} ev
 * @param {{start: (e: PointerEvent) => void, move: (e: PointerEvent) => void, end: (e: PointerEvent) => void}} on
 */
export function trackDrag(ev, on) {
  if (ev.button !== 0) return;
  const x = ev.clientX;
  const y = ev.clientY;
  let dragging = false;
  const move = (e) => {
    if (e.pointerId !== ev.pointerId) return;
    if (!dragging) {
      if (Math.hypot(e.clientX - x, e.clientY - y) < DRAG_THRESHOLD_PX) return;
      dragging = true;
      on.start(e);
    }
    e.preventDefault();
    on.move(e);
  };
  const up = (e) => {
    if (e.pointerId !== ev.pointerId) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (!dragging) return; // a click: the click handler does it
    dragJustEnded = true;
    setTimeout(() => (dragJustEnded = false), 0);
    on.end(e);
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
  if (ev.target.releasePointerCapture) {
    try {
      ev.target.releasePointerCapture(ev.pointerId); // touch captures implicitly: we hit-test ourselves
    } catch {
      /* not captured */
    }
  }
}
