// The game screen: board, selection of legal actions, dialogs, clocks, reports, result and replay.

import { Board } from "./board.js";
import { PlayerBars } from "../../core/bars.js";
import { ChatPanel } from "../../core/chat.js";
import { controlSender, fillControls, fillResult } from "../../core/controls.js";
import { choose, h, toast } from "../../core/dom.js";
import { SIDE_RU, otherSide } from "../../core/i18n.js";
import { bindBoardKeys } from "../../core/keys.js";
import { Notes } from "./notes.js";
import { Replay } from "./replay.js";
import { notationRu, ownerClass, reportCard, reportStrip, reportSummary } from "./report.js";
import { t } from "../../core/t.js";
import { bellButton } from "../../core/notify.js";
import { sounds } from "../../core/sound.js";
import { soundsFor } from "./sounds.js";
import { cellRu, resultReason } from "./text.js";
import { manifest } from "./manifest.js";
import { compositionText, iconSvg, kinds, ru, ruName, rulesLink } from "./units.js";

/**
 * Group the view's legal actions (structured by the server, docs/protocol.md) by the unit that makes them.
 * Moves `{src, dst}`, attacks `{src, via, target, formation, kinds, row}`, declarations `{target, formation, kinds,
 * row}` and the detonation `{cell, blast}`; each carries the `notation` the server takes back.
 */
function groupLegal(legal) {
  const bySrc = new Map();
  const declarations = [];
  let detonate = null;
  const entry = (src) => {
    if (!bySrc.has(src)) bySrc.set(src, { moves: new Map(), attacks: [] });
    return bySrc.get(src);
  };
  for (const a of legal || []) {
    if (a.type === "move") entry(a.src).moves.set(a.dst, a);
    else if (a.type === "attack") entry(a.src).attacks.push(a);
    else if (a.type === "declare") declarations.push(a);
    else if (a.type === "detonate") detonate = a;
  }
  return { bySrc, declarations, detonate };
}

export class PlayScreen {
  /**
   * @param {HTMLElement} root
   * @param {{gameId: string, seat: string|null, send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown,
   *          lesson?: boolean, coach?: HTMLElement}} ctx `lesson`: a tutorial lesson (no clocks, game controls,
   *          replay or rematch; `coach`: the lesson's elements, laid out by the
   *          lesson-layout grid around the board)
   */
  constructor(root, ctx) {
    this.root = root;
    this.gameId = ctx.gameId;
    this.seat = ctx.seat;
    this.send = ctx.send;
    this.countdown = ctx.countdown;
    this.lesson = !!ctx.lesson;
    this.coach = ctx.coach || null;
    this.spot = []; // cells a lesson points at
    this.note = null; // a lesson's instruction, repeated in the attack and defence dialogs
    this.closed = false; // a finished lesson: nobody acts any more
    this.game = null;
    this.view = null;
    this.legal = groupLegal([]);
    this.sel = null; // {src, via}
    this.hover = null; // {cells, cls}: a formation pointed at in a dialog, or the bomb's square
    this.busy = false;
    this.seenReports = null;
    this.replayPos = null; // Map while stepping through the replay
    this.replayPly = null;
    this.notes = new Notes({ send: ctx.send, onError: (text) => toast(text) });
    this.control = controlSender(ctx.send);
    this.build();
  }

  get bottomSide() {
    return this.seat || "south";
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    this.root.innerHTML = "";
    const boardEl = h("div", { class: "play-board" });
    this.board = new Board(boardEl, {
      orientation: this.bottomSide,
      label: t("Игровое поле"),
      onCell: (cell) => this.onCellClick(cell),
      onKey: (_cell, ev) => {
        if (ev.key === "Escape") this.clearSelection();
      },
    });
    this.bars = new PlayerBars(this.root, {
      sides: [otherSide(this.bottomSide), this.bottomSide],
      seat: this.seat,
      countdown: this.countdown,
      aiLevel: true,
      turn: (side) => (this.game.status === "play" && !this.closed && this.view?.to_act === side ? (this.view.pending ? t("защищается") : t("ходит")) : null),
    });
    [this.topBar, this.bottomBar] = this.bars.bars;
    this.hintEl = h("p", { class: "hint", "aria-live": "polite" });
    this.finishBtn = h("button", { type: "button", class: "btn primary", onclick: () => this.finishMove() }, t("Остановиться здесь"));
    this.cancelBtn = h("button", { type: "button", class: "btn", onclick: () => this.clearSelection() }, t("Отмена"));
    // offered only with the bomb selected, whose square the board shows meanwhile (rules §8)
    this.detonateBtn = h("button", { type: "button", class: "btn danger", onclick: () => this.detonate() }, t("Подорвать АБ"));
    this.actionBar = h("div", { class: "action-bar" }, this.hintEl, h("div", { class: "button-row" }, this.finishBtn, this.cancelBtn, this.detonateBtn));
    // The last battle's card never covers the board: in full beside it (a laptop), as a one-line strip under it
    // (a phone, where the card opens in place); the player's next action dismisses both.
    this.overlay = h("section", { class: "last-report", hidden: true, "aria-label": t("Последний бой") });
    this.strip = h("div", { class: "report-strip", hidden: true, role: "status" });
    this.defenceEl = h("section", { class: "defence-panel", hidden: true, "aria-label": t("Защита") });
    this.turnBox = h("div", { class: "turn-box" });
    const boardWrap = h("div", { class: "board-wrap" }, boardEl);

    this.resultEl = h("section", { class: "result-panel", hidden: true, "aria-live": "polite" });
    this.controlsEl = h("section", { class: "controls", "aria-label": t("Управление партией") });
    this.drawEl = h("div", { class: "draw-offer offer-strip", hidden: true, role: "status" }); // placed by place() below
    this.autoDeclare = h("input", { type: "checkbox", onchange: () => this.send({ type: "prefs", auto_declare: this.autoDeclare.checked }) });
    this.prefsEl = h("label", { class: "prefs" }, this.autoDeclare, " ", t("Всегда объявлять сильнейший строй (не спрашивать при защите)"));
    this.pendingEl = h("div", { class: "pending-note", hidden: true, role: "status" });
    this.lostEl = h("section", { class: "lost", "aria-label": t("Потери") });
    this.logEl = h("ol", { class: "log", reversed: true });
    this.movesEl = h("ol", { class: "move-list", "aria-label": t("Ходы") });
    this.replay = new Replay(this.gameId, (units, ply) => this.showReplay(units, ply));
    this.replay.el.hidden = true;
    if (this.lesson) this.prefsEl.hidden = this.controlsEl.hidden = true;
    // the players' chat (issue 19; none in a lesson): beside the board on a laptop, a strip under it on a phone
    this.chat = this.lesson ? null : new ChatPanel({ send: this.send, seat: this.seat });

    const side = h(
      "aside",
      { class: "side-panel play-panel" },
      this.resultEl,
      this.turnBox,
      this.overlay,
      this.pendingEl,
      this.controlsEl,
      this.prefsEl,
      this.replay.el,
      this.lostEl,
      h("section", { class: "moves-box" }, h("h2", { class: "panel-title" }, t("Ходы")), this.movesEl),
      h("section", { class: "log-box" }, h("h2", { class: "panel-title" }, t("Журнал боёв")), this.logEl),
    );
    const boardCol = h("div", { class: "board-col" }, this.topBar.el, boardWrap, this.bottomBar.el, this.strip);
    const layout = h("div", { class: `layout play-layout${this.lesson ? " lesson-layout" : ""}` }, this.coach, boardCol, side);
    this.root.append(layout);
    // What the player does next — the hint with its buttons, the defence — sits under the board on a phone (and in
    // a lesson, whose coach is beside it); on a laptop at the top of the panel beside the board, where the board's
    // height leaves it in sight (under the board it fell below the fold at 1366×768).
    const wide = window.matchMedia("(min-width: 901px)");
    // On a phone the result and the opponent's offers also come right under the board (an offer above the result),
    // where they are seen: in the side panel they were a screen below.
    const place = () => {
      if (wide.matches) side.prepend(this.resultEl);
      else boardCol.insertBefore(this.resultEl, this.strip);
      if (wide.matches && !this.lesson) this.turnBox.append(this.drawEl, this.defenceEl, this.actionBar);
      else {
        boardCol.insertBefore(this.drawEl, wide.matches ? this.strip : this.resultEl);
        boardCol.append(this.defenceEl, this.actionBar);
      }
      this.turnBox.hidden = !this.turnBox.childElementCount;
      if (this.chat) {
        if (wide.matches) this.prefsEl.after(this.chat.el);
        else boardCol.append(this.chat.el);
        this.chat.setCollapsible(!wide.matches);
      }
    };
    wide.addEventListener("change", place);
    place();
    this.bottomBar.el.insertBefore(sounds.toggleButton(), this.bottomBar.clock);
    this.bottomBar.el.insertBefore(bellButton(), this.bottomBar.clock); // issue 19: notifications, opt-in
    this.topBar.el.insertBefore(this.zoomButton(boardWrap), this.topBar.clock); // the top bar has the room
    this.bars.bindClocks();
    this.unbindKeys = bindBoardKeys(this);
  }

  /**
   * On a phone the whole board has cells of ~24 px: «Крупнее» draws them ≥ 34 px in a frame panned with a finger
   * (the page itself never scrolls sideways); the choice is remembered. Hidden on wider screens.
   */
  zoomButton(wrap) {
    const KEY = "admiral.zoom";
    const b = h("button", { type: "button", class: "btn icon-btn zoom-toggle" });
    const paint = () => {
      const on = wrap.classList.contains("zoomed");
      b.textContent = on ? "⊖" : "⊕";
      b.setAttribute("aria-pressed", String(on));
      b.setAttribute("aria-label", on ? t("Всё поле") : t("Крупнее"));
      b.title = on ? t("Показать всё поле") : t("Крупные клетки (поле двигается пальцем)");
    };
    const set = (on) => {
      wrap.classList.toggle("zoomed", on);
      try {
        localStorage.setItem(KEY, on ? "1" : "0");
      } catch {
        /* private mode: not remembered */
      }
      paint();
      if (on) requestAnimationFrame(() => this.panTo(wrap));
    };
    b.addEventListener("click", () => set(!wrap.classList.contains("zoomed")));
    let saved = null;
    try {
      saved = localStorage.getItem(KEY);
    } catch {
      /* private mode */
    }
    wrap.classList.toggle("zoomed", saved === "1");
    paint();
    this.zoomWrap = wrap;
    return b;
  }

  /** Pan the zoomed board so that the selection (or else the middle) is in sight. */
  panTo(wrap = this.zoomWrap) {
    if (!wrap?.classList.contains("zoomed")) return;
    const cell = this.sel ? this.board.cells.get(this.sel.via || this.sel.src) : null;
    if (cell) {
      const w = wrap.getBoundingClientRect();
      const c = cell.getBoundingClientRect();
      if (c.left < w.left || c.right > w.right) wrap.scrollLeft += c.left + c.width / 2 - (w.left + w.width / 2);
    } else if (!wrap.dataset.panned) {
      wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
    }
    wrap.dataset.panned = "1";
  }

  /** The screen is replaced (or the lesson left): the bars stop ticking. */
  destroy() {
    this.bars.stop();
    this.chat?.destroy();
  }

  // --- server messages ----------------------------------------------------------------------

  /** A snapshot: `game`, `view` and the seat's own `notes` on enemy markers (null for spectators). */
  update(game, view, notes = null) {
    const ended = this.game?.status === "play" && game.status !== "play";
    for (const name of soundsFor(this.game && { game: this.game, view: this.view }, { game, view }, this.seat)) sounds.play(name);
    this.notes.set(notes);
    this.bars.set(game);
    const plyChanged = !this.view || !view || this.view.ply !== view.ply || this.view.to_act !== view.to_act;
    this.game = game;
    this.view = view;
    if (plyChanged) {
      this.busy = false;
      this.sel = null;
      this.closeDialogs();
    }
    this.legal = groupLegal(view?.legal);
    this.noteReports();
    this.render();
    if (ended) {
      this.hideOverlay(); // the result says how it ended; the last card's note buttons are for a game on
      requestAnimationFrame(() => this.resultEl.scrollIntoView({ block: "nearest" }));
    }
    this.maybeAskDeclaration();
  }

  onError() {
    this.busy = false;
    this.render();
    this.maybeAskDeclaration();
  }

  // --- acting -------------------------------------------------------------------------------

  canAct() {
    return !!this.seat && this.game?.status === "play" && !this.busy && !this.closed && this.view?.to_act === this.seat;
  }

  act(text) {
    if (!this.canAct()) return;
    if (!this.send({ type: "action", ply: this.view.ply, action: text })) {
      toast(t("Нет связи с сервером"));
      return;
    }
    this.busy = true;
    this.sel = null;
    this.render();
  }

  /** Whether a click on `cell` means «note this enemy marker» (not an attack on it). */
  wantsNote(cell) {
    if (!this.seat || this.lesson || this.game?.status !== "play" || this.replayPos) return false;
    const u = this.view?.units.find((x) => x.cell === cell);
    if (!u || u.kind || u.side === this.seat) return false;
    // with a ship selected, a tap on a marker is about that ship (an attack, or leaving the selection)
    return !(this.sel && this.canAct());
  }

  onCellClick(cell) {
    if (this.wantsNote(cell)) return this.notes.edit(cell, this.view.ply);
    if (!this.canAct() || this.replayPos || this.legal.declarations.length) return;
    this.hideOverlay(); // the next action dismisses the last battle's card
    const sel = this.sel;
    const e = sel && this.actionsOf(sel.src);
    if (sel) {
      const attacks = e.attacks.filter((a) => a.via === sel.via && a.target === cell);
      if (attacks.length) return this.chooseAttack(attacks);
      if (!sel.via && e.moves.has(cell)) {
        if (e.attacks.some((a) => a.via === cell)) {
          this.sel = { src: sel.src, via: cell };
          return this.render();
        }
        return this.act(e.moves.get(cell).notation);
      }
    }
    if ((this.legal.bySrc.has(cell) || this.legal.detonate?.cell === cell) && (!sel || sel.src !== cell || sel.via)) {
      this.sel = { src: cell, via: null };
    } else {
      this.sel = null;
    }
    this.render();
  }

  clearSelection() {
    this.sel = null;
    this.render();
  }

  /** The legal actions of the unit on `src`: {moves: Map dst → move, attacks: [...]} (empty for the bomb alone). */
  actionsOf(src) {
    return this.legal.bySrc.get(src) || { moves: new Map(), attacks: [] };
  }

  /** Whether the selected unit is the atomic bomb that may be set off now (rules §8). */
  bombSelected() {
    return !!(this.sel && !this.sel.via && this.legal.detonate && this.legal.detonate.cell === this.sel.src && this.canAct());
  }

  finishMove() {
    const sel = this.sel;
    if (!sel?.via) return;
    const mv = this.legal.bySrc.get(sel.src)?.moves.get(sel.via);
    if (mv) this.act(mv.notation);
  }

  /** Kind of the viewer's unit that will stand on `cell` (the attacker may have moved to `via`). */
  ownKindAt(cell) {
    if (this.sel?.via && cell === this.sel.via) cell = this.sel.src;
    const u = this.view?.units.find((x) => x.cell === cell && x.side === this.seat);
    return u?.kind || null;
  }

  /** A formation's choice in a dialog: «Один: Крейсер» or «Строй: 2 КР», its scale row and cells. */
  formationOption(a) {
    const alone = a.formation.length === 1;
    return {
      value: a,
      label: alone ? t("Один: {unit}", { unit: ruName(a.kinds[0]) }) : t("Строй: {units}", { units: compositionText(a.kinds) }),
      detail: `${a.row == null ? t("вне шкалы") : t("сила {row}", { row: a.row })} · ${a.formation.map(cellRu).join(", ")}`,
    };
  }

  async chooseAttack(attacks) {
    if (attacks.length === 1) return this.act(attacks[0].notation);
    const options = [...attacks]
      .sort((x, y) => x.formation.length - y.formation.length || (y.row ?? 0) - (x.row ?? 0))
      .map((a) => this.formationOption(a));
    const choice = await choose({
      title: t("Атака на {cell}", { cell: cellRu(attacks[0].target) }),
      intro: t("Объявите, кто участвует в бою. Если цель окажется не кораблём шкалы, бьётся только атакующий."),
      note: this.note,
      options,
      onHover: (a) => this.highlight(a ? a.formation : null),
      className: "formation-dialog",
    });
    if (choice) this.act(choice.notation);
  }

  /**
   * The defender's declaration (rules §7.1.2) in a panel under the board, never over it: the attacker, the target
   * and its neighbours stay in sight. The strongest formation is chosen first and outlined on the board; a tap or
   * a click on another option chooses and outlines it (pointing at one outlines it too), «Защищаться» sends.
   */
  maybeAskDeclaration() {
    const decl = this.legal.declarations;
    const el = this.defenceEl;
    if (!decl.length || !this.canAct()) {
      if (!el.hidden) {
        el.hidden = true;
        el.innerHTML = "";
        this.chosenDefence = null;
      }
      return;
    }
    if (!el.hidden && el.dataset.ply === String(this.view.ply)) return;
    const options = [...decl].sort((x, y) => (y.row ?? 0) - (x.row ?? 0)).map((d) => this.formationOption(d));
    el.innerHTML = "";
    el.dataset.ply = String(this.view.ply);
    const list = h("div", { class: "choice-list", role: "radiogroup", "aria-label": t("Строй защиты") });
    const buttons = [];
    const pick = (opt) => {
      this.chosenDefence = opt.value;
      for (const [b, value] of buttons) b.setAttribute("aria-checked", String(value === opt.value));
      this.highlight(opt.value.formation);
    };
    for (const opt of options) {
      const b = h("button", { type: "button", class: "btn choice", role: "radio", "aria-checked": "false", onclick: () => pick(opt) }, opt.label, h("span", { class: "choice-detail" }, opt.detail));
      b.addEventListener("pointerenter", (ev) => ev.pointerType === "mouse" && this.highlight(opt.value.formation));
      b.addEventListener("pointerleave", (ev) => ev.pointerType === "mouse" && this.chosenDefence && this.highlight(this.chosenDefence.formation));
      buttons.push([b, opt.value]);
      list.append(b);
    }
    el.append(h("h2", {}, t("Ваш корабль атакован!")), h("p", { class: "dialog-intro" }, this.defenceIntro(this.view.pending)));
    if (this.note) el.append(h("p", { class: "dialog-note" }, this.note));
    el.append(
      list,
      h("div", { class: "button-row" }, h("button", { type: "button", class: "btn primary big defend", onclick: () => this.chosenDefence && this.act(this.chosenDefence.notation) }, t("Защищаться"))),
    );
    el.hidden = false;
    pick(options[0]);
    requestAnimationFrame(() => el.scrollIntoView({ block: "nearest" }));
  }

  /** The defence dialog's first line: where the attack comes from, and "your clock runs" only when it does. */
  defenceIntro(p) {
    const timed = this.countdown.remaining(this.seat) != null;
    if (p) {
      const at = { src: cellRu(p.src), target: cellRu(p.target) };
      return timed ? t("Атака с {src} на {target}. Объявите защиту — ваши часы идут.", at) : t("Атака с {src} на {target}. Объявите защиту.", at);
    }
    return timed ? t("Объявите защиту — ваши часы идут.") : t("Объявите защиту.");
  }

  closeDialogs() {
    for (const d of document.querySelectorAll("dialog.choice-dialog")) {
      d.close();
      d.remove();
    }
    this.hover = null;
  }

  /** Set off the selected atomic bomb (rules §8) after a confirmation; its square is on the board meanwhile. */
  detonate() {
    const boom = this.legal.detonate;
    if (!boom || !this.bombSelected()) return;
    const size = manifest().rules.blast;
    if (confirm(t("Подорвать атомную бомбу? Всё в квадрате {size}×{size} вокруг неё будет уничтожено.", { size }))) this.act(boom.notation);
  }

  /** Outline `cells` on the board (`cls`: "member" for a formation, "blast" for the bomb's square); null clears. */
  highlight(cells, cls = "member") {
    this.hover = cells && cells.length ? { cells, cls } : null;
    this.renderBoard();
  }

  // --- reports ------------------------------------------------------------------------------

  noteReports() {
    const reports = this.view?.reports || [];
    if (this.seenReports !== null && reports.length > this.seenReports) this.showOverlay(reports[reports.length - 1]);
    this.seenReports = reports.length;
  }

  /** Show `report` beside the board (a laptop) and as a strip under it (a phone); neither covers the board. */
  showOverlay(report) {
    const close = () => h("button", { type: "button", class: "btn close", "aria-label": t("Закрыть карточку боя"), onclick: () => this.hideOverlay() }, "✕");
    const notes = () => {
      if (!(this.seat && !this.lesson && this.game?.status === "play" && !this.replayPos)) return null;
      const markers = new Set((this.view?.units || []).filter((u) => !u.kind && u.side !== this.seat).map((u) => u.cell));
      return this.notes.reportActions(report, this.seat, markers, this.view.ply);
    };
    this.overlay.innerHTML = "";
    this.overlay.append(close(), reportCard(report, this.seat));
    const wideNotes = notes();
    if (wideNotes) this.overlay.append(wideNotes);
    // the strip: one line, the card opening in place under it (pushing the page down, never over the board)
    const card = h("div", { class: "strip-card", hidden: true }, reportCard(report, this.seat));
    const narrowNotes = notes();
    if (narrowNotes) card.append(narrowNotes);
    const more = h("button", { type: "button", class: "btn strip-more", "aria-expanded": "false" }, t("Карточка"));
    more.onclick = () => {
      card.hidden = !card.hidden;
      more.setAttribute("aria-expanded", String(!card.hidden));
    };
    this.strip.innerHTML = "";
    this.strip.append(h("div", { class: "strip-line" }, h("span", { class: "strip-text" }, reportStrip(report, this.seat)), more, close()), card);
    this.overlay.hidden = this.strip.hidden = false;
  }

  hideOverlay() {
    this.overlay.hidden = this.strip.hidden = true;
  }

  // --- replay -------------------------------------------------------------------------------

  showReplay(units, ply) {
    this.replayPos = units;
    this.replayPly = ply;
    this.renderMoves();
    if (ply?.report) this.showOverlay(ply.report);
    else this.hideOverlay();
    this.renderBoard();
    this.renderActionBar();
  }

  // --- drawing ------------------------------------------------------------------------------

  render() {
    if (!this.game) return;
    this.renderBoard();
    this.bars.render();
    this.renderActionBar();
    this.renderControls();
    this.renderResult();
    this.renderLost();
    this.renderLog();
    this.renderMoves();
  }

  /**
   * The move list: every ply in notation (the view's public `history`, rules §11.3–§11.4) with its battle's
   * losses; after the game each line opens the record at the position after it. The line shown on the board is
   * marked (`aria-current`).
   */
  renderMoves() {
    const lines = this.view?.history || [];
    const over = this.game?.status === "over" && !this.lesson;
    const key = `${lines.length}:${over}:${this.replayPly?.ply ?? ""}`;
    if (this.movesEl.dataset.key === key) return;
    this.movesEl.dataset.key = key;
    this.movesEl.innerHTML = "";
    if (!lines.length) this.movesEl.append(h("li", { class: "muted empty" }, t("Ходов ещё не было.")));
    const reports = this.view?.reports || [];
    for (const [ply, side, text, report] of lines) {
      const r = report == null ? null : reports[report];
      const lost = r ? (r.removed.length ? `✕ ${r.removed.map((u) => ru(u.kind)).join(", ")}` : t("без потерь")) : "";
      const parts = [h("span", { class: "mv-n" }, `${ply + 1}.`), h("span", { class: `mv-dot side-${side} ${ownerClass(side, this.seat)}`, title: SIDE_RU[side], "aria-label": SIDE_RU[side] }), h("span", { class: "mv-text" }, notationRu(text))];
      if (lost) parts.push(h("span", { class: "mv-lost" }, lost));
      const current = this.replayPly?.ply === ply;
      const item = over
        ? h("li", {}, h("button", { type: "button", class: "mv-line", "aria-current": current ? "step" : null, title: t("Показать позицию после этого полухода"), onclick: () => this.replay.panel.showAt(ply + 1) }, ...parts))
        : h("li", { class: "mv-line" }, ...parts);
      this.movesEl.append(item);
    }
    const box = this.movesEl;
    if (!this.replayPos) requestAnimationFrame(() => (box.scrollTop = box.scrollHeight)); // the newest ply in sight
  }

  renderBoard() {
    const units = new Map();
    const marks = new Map();
    const add = (cell, cls) => marks.set(cell, [...(marks.get(cell) || []), cls]);
    if (this.replayPos) {
      for (const [c, u] of this.replayPos) units.set(c, u);
      for (const [from, to] of this.replayPly?.moves || []) {
        add(from, "last-from");
        add(to, "last-to");
      }
      for (const r of this.replayPly?.removed || []) add(r.cell, "last-removed");
      this.board.render(units, marks, this.seat);
      return;
    }
    const view = this.view;
    for (const u of view?.units || []) units.set(u.cell, { side: u.side, kind: u.kind });
    for (const e of view?.events || []) {
      if (e.type === "move") {
        add(e.src, "last-from");
        add(e.dst, "last-to");
      } else if (e.type === "report") {
        add(e.report.attacker.cell, "last-attack");
        if (e.report.target) add(e.report.target.cell, "last-attack");
        for (const r of e.report.removed) add(r.cell, "last-removed");
      }
    }
    if (view?.pending) {
      add(view.pending.src, "battle");
      add(view.pending.target, "battle");
    }
    const sel = this.sel;
    if (sel && this.canAct()) {
      const e = this.actionsOf(sel.src);
      if (this.bombSelected()) for (const c of this.legal.detonate.blast) add(c, "blast");
      if (sel.via) {
        units.set(sel.via, units.get(sel.src));
        units.delete(sel.src);
        add(sel.src, "ghost-from");
        add(sel.via, "selected");
      } else {
        add(sel.src, "selected");
        for (const dst of e.moves.keys()) add(dst, "move");
      }
      for (const t of new Set(e.attacks.filter((a) => a.via === sel.via).map((a) => a.target))) add(t, "target");
    } else if (this.canAct() && !this.legal.declarations.length) {
      for (const src of this.legal.bySrc.keys()) add(src, "can-act");
    }
    for (const c of this.hover?.cells || []) add(c, this.hover.cls);
    for (const c of this.spot) add(c, "spot");
    this.board.render(units, marks, this.seat);
    if (this.game?.status === "play") this.notes.decorate(this.board);
  }

  renderActionBar() {
    const g = this.game;
    const view = this.view;
    const mine = this.canAct();
    const sel = this.sel;
    let hint;
    if (this.closed) hint = t("Урок пройден.");
    else if (g.status !== "play") hint = this.replayPos ? t("Запись партии") : t("Партия окончена");
    else if (!this.seat) hint = t("Ходит {side}. Вы смотрите партию как зритель.", { side: SIDE_RU[view?.to_act] || "" });
    else if (this.busy) hint = t("Ход отправлен…");
    else if (view?.pending && view.to_act !== this.seat) hint = t("Соперник выбирает, как защищаться…");
    else if (view?.to_act !== this.seat && g.players?.[view?.to_act]?.bot) hint = t("ИИ обдумывает ход…");
    else if (view?.to_act !== this.seat) hint = t("Ход соперника");
    else if (this.legal.declarations.length) hint = t("Ваш корабль атакован: выберите защиту.");
    else if (sel?.via)
      hint = this.countdown.remaining(this.seat) != null
        ? t("Корабль ждёт на {cell}: атакуйте цель (красный прицел) или остановитесь здесь. Ваши часы идут.", { cell: cellRu(sel.via) })
        : t("Корабль ждёт на {cell}: атакуйте цель (красный прицел) или остановитесь здесь.", { cell: cellRu(sel.via) });
    else if (this.bombSelected()) hint = t("{unit}: подрыв уничтожит всё в подсвеченном квадрате {size}×{size} — и ваше тоже.", { unit: ruName(this.ownKindAt(sel.src)), size: manifest().rules.blast });
    else if (sel) hint = t("Зелёные точки — куда пойти, красные прицелы — кого атаковать.");
    else hint = t("Ваш ход: выберите свой корабль.");
    this.hintEl.textContent = hint;
    const selKind = mine && sel ? this.ownKindAt(sel.src) : null;
    if (selKind) this.hintEl.append(" ", rulesLink(selKind));
    this.finishBtn.hidden = !(mine && sel?.via);
    this.cancelBtn.hidden = !(mine && sel);
    this.detonateBtn.hidden = !(this.bombSelected() && !this.legal.declarations.length);
    this.actionBar.classList.toggle("waiting", !!(mine && sel?.via)); // a move waits for «attack or stop»
    this.actionBar.hidden = !!(mine && this.legal.declarations.length); // the defence panel says it all
  }

  renderControls() {
    const g = this.game;
    const shown = fillControls(this.controlsEl, this.drawEl, { game: g, seat: this.seat, control: this.control, off: this.lesson });
    this.prefsEl.hidden = !shown;
    const pref = g.players?.[this.seat]?.auto_declare;
    if (pref != null && document.activeElement !== this.autoDeclare) this.autoDeclare.checked = !!pref;
    this.pendingEl.hidden = true;
    if (!shown) return;
    if (this.view?.pending && this.view.to_act !== this.seat) {
      this.pendingEl.hidden = false;
      this.pendingEl.textContent = t("Бой {src} → {target}: соперник объявляет защиту.", { src: cellRu(this.view.pending.src), target: cellRu(this.view.pending.target) });
    }
  }

  renderResult() {
    const g = this.game;
    this.replay.el.hidden = g.status !== "over" || this.lesson;
    // a lesson credits nothing and has no rematch, record or new game
    fillResult(this.resultEl, { game: g, view: this.view, seat: this.seat, reasonText: resultReason, bare: this.lesson, gameId: this.gameId, control: this.control, file: `admiral-${this.gameId}.json` });
  }

  renderLost() {
    const lost = this.view?.lost || {};
    this.lostEl.innerHTML = "";
    this.lostEl.append(h("h2", { class: "panel-title" }, t("Потери")));
    for (const side of [this.bottomSide, otherSide(this.bottomSide)]) {
      const counts = lost[side] || {};
      const line = h("div", { class: "lost-line" }, h("span", { class: "rep-label" }, `${SIDE_RU[side]}${side === this.seat ? t(" (вы)") : ""}:`));
      const codes = kinds()
        .map((k) => k.code)
        .filter((c) => counts[c]);
      if (!codes.length) line.append(h("span", { class: "muted" }, t(" нет")));
      for (const c of codes)
        line.append(
          h(
            "span",
            { class: "chip", title: ruName(c) },
            h("span", { class: `mini unit side-${side} ${ownerClass(side, this.seat)} k-${c}`, html: iconSvg(c), "aria-hidden": "true" }),
            `${ru(c)}${counts[c] > 1 ? `×${counts[c]}` : ""}`,
          ),
        );
      this.lostEl.append(line);
    }
  }

  renderLog() {
    const reports = this.view?.reports || [];
    if (this.logEl.dataset.count === String(reports.length)) return;
    this.logEl.dataset.count = String(reports.length);
    this.logEl.innerHTML = "";
    if (!reports.length) this.logEl.append(h("li", { class: "muted empty" }, t("Боёв ещё не было.")));
    for (const r of [...reports].reverse())
      this.logEl.append(h("li", {}, h("details", {}, h("summary", {}, reportSummary(r)), reportCard(r, this.seat))));
  }
}

export { notationRu };
