// The play screen of «Военно-морская игра» (NAVAL_GAME.md): the open map (board.js) with the viewer's coast at the
// bottom, the players' bars with their clocks above and below it, whose turn, the selected ship's orders, the die,
// the log of turns, rolls and sinkings, resign / draw / rematch, the chat, the result and the replay.
//
// Acting: tap, click or Enter/Space on an own ship selects it; its legal steps show as green dots, its strikes as
// red sights marked «в борт» / «в нос», its turns as ↺ ↻ beside it (and as buttons in the panel). The minesweeper's
// mine is chosen first in the panel («Поставить мину…», «Снять мину…», each before or after the move as the server
// lists it in `mine.when`), which filters the orders drawn; a mine alone is a button of its own. Only what the view's
// `legal` lists is offered, and its `notation` is what is sent.
//
// In a lesson («Обучение», ctx.lesson; tutorial.js) the screen has no clocks, chat, game controls or replay; the
// coach stands beside the map (under the title on a phone), the points a step is about are ringed (`spot`), and the
// selected ship's refused orders the lesson offers to try (`tries`: sideways, stern first, a strike on the stern…) are
// grey circles: the server answers a try with the rules' reason.

import { PlayerBars } from "../../core/bars.js";
import { ChatPanel } from "../../core/chat.js";
import { controlSender, fillControls, fillResult } from "../../core/controls.js";
import { h, toast } from "../../core/dom.js";
import { SIDE_RU, otherSide } from "../../core/i18n.js";
import { bellButton } from "../../core/notify.js";
import { gameSounds, sounds } from "../../core/sound.js";
import { ReplayPanel } from "../../core/stepper.js";
import { t, tn } from "../../core/t.js";
import { NavalBoard } from "./board.js";
import { Position, readHistory, rollText, sunkText, turnText } from "./events.js";
import { FACING_RU, resultReason } from "./manifest.js";

/** The sounds of the game: a step, a strike, the die's «взрыв» and its «мимо». */
const soundsFor = gameSounds(
  {
    "nv-move": [[0, [420, 520], 0.09, "sine", 0.12]],
    "nv-strike": [
      [0, [260, 90], 0.18, "square", 0.14],
      [0.06, [140, 60], 0.22, "sawtooth", 0.1],
    ],
    "nv-boom": [
      [0, [160, 35], 0.6, "sawtooth", 0.22],
      [0.08, [90, 25], 0.7, "square", 0.14],
    ],
    "nv-safe": [[0, [700, 900], 0.12, "triangle", 0.12]],
  },
  (prev, next) => {
    const rolls = (next.rolls || []).filter((r) => r.ply >= prev.ply);
    if (rolls.some((r) => r.explosion)) return "nv-boom";
    const sunk = ["south", "north"].some((s) => (next.sides[s].sunk || []).some((x) => x.ply >= prev.ply));
    if (sunk) return "nv-strike";
    return rolls.length ? "nv-safe" : "nv-move";
  },
);

/** Pips of a die face 1–6 on a 24-unit square; face 1 («взрыв», value 0) is a burst. */
const PIPS = { 2: [[7, 7], [17, 17]], 3: [[6, 6], [12, 12], [18, 18]], 4: [[7, 7], [17, 7], [7, 17], [17, 17]], 5: [[6, 6], [18, 6], [12, 12], [6, 18], [18, 18]], 6: [[7, 6], [17, 6], [7, 12], [17, 12], [7, 18], [17, 18]] }; // prettier-ignore

function dieSvg(value) {
  const face = value + 1;
  const body =
    face === 1
      ? `<path class="nv-burst" d="M12,3 L14,9 L20,6 L16,11 L22,13 L15.5,14.5 L18,21 L12,16.5 L6,21 L8.5,14.5 L2,13 L8,11 L4,6 L10,9Z"/>`
      : PIPS[face].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2"/>`).join("");
  return `<svg class="nv-die-face${face === 1 ? " boom" : ""}" viewBox="0 0 24 24" aria-hidden="true"><rect x="1" y="1" width="22" height="22" rx="4"/>${body}</svg>`;
}

/** Whether a legal order goes with the chosen mine (`mode`: null for none, else {op, when}). */
function withMine(o, mode) {
  if (!mode) return !o.mine;
  if (!o.mine) return false;
  return o.mine.op === mode.op && (o.type === "turn" || o.mine.when === mode.when);
}

export class PlayScreen {
  /**
   * @param {HTMLElement} root
   * @param {{manifest: import("./manifest.js").NavalManifest, gameId: string, seat: string|null,
   *          send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown,
   *          lesson?: boolean, coach?: HTMLElement[]}} ctx  `lesson`: a tutorial lesson; `coach`: its elements
   */
  constructor(root, ctx) {
    this.root = root;
    this.m = ctx.manifest;
    this.gameId = ctx.gameId;
    this.seat = ctx.seat;
    this.send = ctx.send;
    this.countdown = ctx.countdown;
    this.control = controlSender(ctx.send);
    this.lesson = !!ctx.lesson;
    this.coach = ctx.coach || [];
    this.spot = []; // points a lesson's step is about
    this.tries = []; // orders the rules refuse that a lesson offers to try: [{type, ship, to, notation}]
    this.closed = false; // a finished lesson: nobody acts any more
    this.bottom = this.seat || "south"; // the viewer's own coast at the bottom; a spectator's: South's
    this.top = otherSide(this.bottom);
    this.game = null;
    this.view = null;
    this.busy = false;
    this.selected = null; // the point of the own ship selected
    this.mineMode = null; // {op, when} chosen for the minesweeper's order
    this.replay = null; // {index} while stepping through the record
    this.history = { turns: [], last: null, key: null }; // the view's orders in words (readHistory), and the last one's points
    this.turnsByPly = new Map(); // ply → the order of the history at it
    this.rollsSeen = null; // the highest roll k shown (null: nothing yet)
    this.dieQueue = [];
    this.dieTimer = null;
    this.keyHandler = (ev) => {
      if (ev.key === "Escape" && this.selected) this.deselect();
    };
    document.addEventListener("keydown", this.keyHandler);
    this.build();
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    this.root.innerHTML = "";
    this.bars = new PlayerBars(this.root, {
      sides: [this.top, this.bottom],
      seat: this.seat,
      countdown: this.countdown,
      turn: (side) => (this.game?.status === "play" && !this.closed && this.view?.to_act === side ? t("ходит") : null),
    });
    [this.topBar, this.bottomBar] = this.bars.bars;
    this.topFleet = h("p", { class: "nv-fleet" });
    this.bottomFleet = h("p", { class: "nv-fleet" });
    this.turnEl = h("p", { class: "nv-status", "aria-live": "polite" });
    this.boardEl = h("div", { class: "nv-board-box" });
    this.board = new NavalBoard(this.boardEl, { manifest: this.m, bottom: this.bottom, seat: this.seat, onKey: (key) => this.onKey(key) });
    this.replayTop = h("div", { class: "nv-replay-top" });
    this.actionsEl = h("section", { class: "nv-actions", "aria-label": t("Приказ кораблю") });
    this.dieEl = h("section", { class: "nv-die", "aria-live": "polite", "aria-label": t("Кубик") });
    this.resultEl = h("section", { class: "result-panel", hidden: true, "aria-live": "polite" });
    this.drawEl = h("div", { class: "draw-offer offer-strip nv-offer", hidden: true, role: "status" });
    this.controlsEl = h("section", { class: "controls", "aria-label": t("Управление партией") });
    this.replayPanel = this.lesson ? null : this.makeReplay();
    this.replayEl = this.replayPanel ? this.replayPanel.el : h("div");
    this.replayEl.hidden = true;
    this.logEl = h("ol", { class: "log nv-log", reversed: true });
    const main = h(
      "div",
      { class: "nv-main" },
      this.topBar.el,
      this.topFleet,
      this.replayTop,
      this.boardEl,
      this.bottomFleet,
      this.bottomBar.el,
      this.turnEl,
    );
    const panel = h(
      "aside",
      { class: "side-panel nv-panel" },
      this.drawEl,
      this.resultEl,
      this.actionsEl,
      this.dieEl,
      this.controlsEl,
      this.replayEl,
      h("section", { class: "log-box" }, h("h2", { class: "panel-title" }, t("Журнал")), this.logEl),
    );
    const layout = h("div", { class: `nv-layout${this.lesson ? " nv-lesson" : ""}` }, main, panel);
    this.root.append(layout);
    this.chat = this.lesson ? null : new ChatPanel({ send: this.send, seat: this.seat });
    const [coachEl, notesEl] = this.coach;
    const wide = window.matchMedia("(min-width: 901px)");
    const place = () => {
      if (wide.matches) {
        if (this.chat) this.controlsEl.after(this.chat.el);
        panel.prepend(this.turnEl); // beside the map: the map keeps the window's height
        if (notesEl) panel.prepend(notesEl);
        if (coachEl) panel.prepend(coachEl); // a lesson's coach first, beside the map
      } else {
        if (this.chat) panel.append(this.chat.el);
        this.bottomBar.el.after(this.turnEl);
        if (coachEl) layout.prepend(coachEl); // on a phone above the map, what happened under it
        if (notesEl) main.after(notesEl);
      }
      this.chat?.setCollapsible(!wide.matches);
    };
    wide.addEventListener("change", place);
    place();
    this.bottomBar.el.insertBefore(sounds.toggleButton(), this.bottomBar.clock);
    if (!this.lesson) this.bottomBar.el.insertBefore(bellButton(), this.bottomBar.clock);
    this.bars.bindClocks();
  }

  destroy() {
    this.bars.stop();
    this.chat?.destroy();
    clearTimeout(this.dieTimer);
    document.removeEventListener("keydown", this.keyHandler);
  }

  // --- server messages ----------------------------------------------------------------------

  update(game, view) {
    const ended = this.game?.status === "play" && game.status !== "play";
    for (const name of soundsFor(this.game && { game: this.game, view: this.view }, { game, view }, this.seat)) sounds.play(name);
    if (!this.view || !view || this.view.ply !== view.ply) {
      this.busy = false;
      this.selected = null;
      this.mineMode = null;
    }
    this.bars.set(game);
    this.game = game;
    this.view = view;
    this.legal = view?.legal || [];
    this.readHistory(view);
    if (this.selected && !this.pickable().has(this.selected)) this.selected = null;
    this.takeRolls(view?.rolls || []);
    this.render();
    if (ended) requestAnimationFrame(() => this.resultEl.scrollIntoView({ block: "nearest" }));
  }

  onError() {
    this.busy = false;
    this.render();
  }

  // --- the log of turns (from the view's history: the same after a reload, on another device, for a spectator) ---

  /** The view's orders in words and the last one's points, read again only when the history grew. */
  readHistory(view) {
    const hist = view?.history || [];
    const key = `${hist.length}:${hist.length ? hist[hist.length - 1].ply : -1}`;
    if (this.history.key === key) return;
    this.history = { ...readHistory(view), key };
    this.turnsByPly = new Map(this.history.turns.map((e) => [e.ply, e]));
  }

  // --- acting -------------------------------------------------------------------------------

  canAct() {
    return !!this.seat && this.game?.status === "play" && !this.busy && !this.closed && !this.replay && this.view?.to_act === this.seat;
  }

  /** Own ships with at least one legal order (points). */
  pickable() {
    return new Set(this.canAct() ? this.legal.map((o) => o.ship) : []);
  }

  /** The selected ship's orders with the chosen mine: {steps, strikes, turns, alone (mine only)}. */
  options() {
    const mine = this.legal.filter((o) => o.ship === this.selected);
    const moves = mine.filter((o) => ["step", "turn", "strike"].includes(o.type) && withMine(o, this.mineMode));
    return {
      all: mine,
      steps: moves.filter((o) => o.type === "step"),
      strikes: moves.filter((o) => o.type === "strike"),
      turns: moves.filter((o) => o.type === "turn"),
      alone: mine.filter((o) => o.type === "lay" || o.type === "lift"),
    };
  }

  /** The mine choices the selected ship's orders allow: [{op, when}] (turns count as «before»). */
  mineModes() {
    const seen = new Map();
    for (const o of this.options().all) {
      if (!o.mine || o.type === "lay" || o.type === "lift") continue;
      const when = o.type === "turn" ? "before" : o.mine.when;
      seen.set(`${o.mine.op}:${when}`, { op: o.mine.op, when, at: o.mine.at });
    }
    return [...seen.values()];
  }

  onKey(key) {
    if (!this.canAct()) return;
    if (key.startsWith("ship:")) {
      const point = key.slice(5);
      this.selected = this.selected === point ? null : point;
      this.mineMode = null;
      this.render();
      return;
    }
    if (key.startsWith("order:")) this.act(key.slice(6));
    if (key.startsWith("try:")) this.tryOrder(key.slice(4));
  }

  /** The selected ship's orders a lesson offers to try although the rules refuse them. */
  selectedTries() {
    return this.lesson && this.selected && this.canAct() ? this.tries.filter((x) => x.ship === this.selected) : [];
  }

  /** A lesson's try of an order the rules refuse: the lesson answers with their reason. */
  tryOrder(notation) {
    if (!this.canAct() || !this.tries.some((x) => x.notation === notation)) return;
    if (!this.send({ type: "action", ply: this.view.ply, action: notation })) return;
    this.busy = true;
    this.render();
  }

  deselect() {
    this.selected = null;
    this.mineMode = null;
    this.render();
  }

  /** Send the legal order `notation`. */
  act(notation) {
    if (!this.canAct() || !this.legal.some((o) => o.notation === notation)) return;
    if (!this.send({ type: "action", ply: this.view.ply, action: notation })) {
      toast(t("Нет связи с сервером"));
      return;
    }
    this.busy = true;
    this.render();
  }

  // --- the die ------------------------------------------------------------------------------

  /** New rolls since the last view: shown one by one with a short animation (the first view: the last one, still). */
  takeRolls(rolls) {
    const top = rolls.length ? rolls[rolls.length - 1].k : -1;
    if (this.rollsSeen === null) {
      this.rollsSeen = top;
      this.showRoll(rolls[rolls.length - 1] || null, false);
      return;
    }
    const fresh = rolls.filter((r) => r.k > this.rollsSeen);
    this.rollsSeen = Math.max(this.rollsSeen, top);
    if (!fresh.length) return;
    this.dieQueue.push(...fresh);
    if (!this.dieTimer) this.nextRoll();
  }

  nextRoll() {
    const r = this.dieQueue.shift();
    if (!r) {
      this.dieTimer = null;
      return;
    }
    this.showRoll(r, true);
    this.dieTimer = setTimeout(() => this.nextRoll(), 1400);
  }

  showRoll(r, animate) {
    const el = this.dieEl;
    el.innerHTML = "";
    el.hidden = !r;
    if (!r) return;
    const face = h("span", { class: "nv-die-box", html: dieSvg(r.value) });
    const boom = r.explosion || r.value === 0;
    const words = h("p", { class: "nv-die-text" }, rollText(this.m, r));
    const verdict = h("strong", { class: `nv-die-result ${boom ? "boom" : "safe"}` }, boom ? t("Взрыв!") : t("Мимо"));
    const who = this.seat ? (r.side === this.seat ? t("ваш корабль") : t("корабль соперника")) : SIDE_RU[r.side];
    el.append(h("h2", { class: "panel-title" }, t("Кубик")), h("div", { class: "nv-die-row" }, face, h("div", {}, verdict, words, h("p", { class: "muted nv-die-who" }, `${who} · ${t("бросок №{k}", { k: r.k + 1 })}`))));
    el.dataset.k = String(r.k);
    el.dataset.result = boom ? "boom" : "safe";
    if (!animate || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    // a short roll: random faces, then the result
    el.classList.add("rolling");
    verdict.hidden = true;
    let n = 0;
    const spin = setInterval(() => {
      n += 1;
      if (n < 8) {
        face.innerHTML = dieSvg(1 + Math.floor(Math.random() * 5));
        return;
      }
      clearInterval(spin);
      face.innerHTML = dieSvg(r.value);
      verdict.hidden = false;
      el.classList.remove("rolling");
    }, 80);
  }

  // --- replay -------------------------------------------------------------------------------

  makeReplay() {
    return new ReplayPanel({
      gameId: this.gameId,
      holder: this.replayTop,
      prepare: (data) => {
        // every position of the record, from the setups, and what each ply did
        const pos = new Position(data.setups);
        this.replaySteps = [{ pos: pos.copy(), turn: null, last: null }];
        for (const p of data.plies || []) {
          const r = pos.apply(p);
          this.replaySteps.push({ pos: pos.copy(), ...r, ply: p });
        }
        this.replayRolls = data.chance?.draws || [];
        return (data.plies || []).length;
      },
      onShow: (_data, i) => {
        this.replay = { index: i };
        this.selected = null;
        this.render();
      },
      label: (data, i) => {
        const n = (data.plies || []).length;
        if (i === 0) return tn("Начальная расстановка ({n} полуход)", "Начальная расстановка ({n} полуходов)", n);
        const step = this.replaySteps[i];
        if (!step.turn && step.text) return t("Полуход {i} из {n}: {action}", { i, n, action: step.text }); // «Север сдался.»
        const what = step.turn ? turnText(this.m, step.turn) : step.text || step.ply.action;
        const rolls = this.replayRolls.filter((r) => r.ply === step.ply.ply).map((r) => rollText(this.m, r));
        return t("Полуход {i} из {n}: {side}, {action}", { i, n, side: SIDE_RU[step.ply.side] || "", action: [what, ...rolls].join("; ") });
      },
      onOpen: () => this.replayTop.scrollIntoView({ block: "nearest" }),
      onClose: () => {
        this.replay = null;
        this.render();
      },
    });
  }

  // --- drawing ------------------------------------------------------------------------------

  render() {
    if (!this.game) return;
    // stepping through the record: the live die is not the shown position's (each step's label names its rolls)
    this.root.classList.toggle("nv-replaying", !!this.replay);
    this.renderBoard();
    this.bars.render();
    this.renderTurn();
    this.renderFleets();
    this.renderActions();
    this.renderControls();
    this.renderResult();
    this.renderLog();
  }

  renderBoard() {
    if (this.replay && this.replaySteps) {
      const step = this.replaySteps[this.replay.index];
      this.board.render({ ships: step.pos.sides(), mines: [...step.pos.mines], last: step.last });
      return;
    }
    const v = this.view;
    if (!v) return;
    const marks = { pickable: this.pickable(), spot: this.spot };
    if (this.selected && this.canAct()) {
      marks.tries = this.selectedTries().map((x) => ({ key: `try:${x.notation}`, to: x.to, type: x.type }));
      const o = this.options();
      marks.selected = this.selected;
      marks.steps = o.steps.map((x) => ({ key: `order:${x.notation}`, to: x.to }));
      marks.strikes = o.strikes.map((x) => ({ key: `order:${x.notation}`, to: x.to, struck: x.struck }));
      marks.turns = o.turns.map((x) => ({ key: `order:${x.notation}`, turn: x.turn }));
    }
    const last = this.history.last;
    this.board.render({ ships: { south: v.sides.south.ships, north: v.sides.north.ships }, mines: v.mines, last, marks });
    this.boardEl.classList.toggle("can-act", this.canAct());
  }

  renderTurn() {
    const g = this.game;
    const v = this.view;
    let text;
    if (this.replay) text = t("Запись партии");
    else if (this.closed) text = t("Урок пройден.");
    else if (g.status !== "play") text = t("Партия окончена");
    else if (!this.seat) text = t("Ходит {side}.", { side: SIDE_RU[v?.to_act] || "" });
    else if (this.busy) text = t("Ход отправлен…");
    else if (v?.to_act !== this.seat) text = g.players?.[v?.to_act]?.bot ? t("ИИ думает…") : t("Ходит соперник…");
    else if (this.selected) text = t("Выберите приказ: шаг (зелёная точка), удар (прицел) или поворот (↺ ↻).");
    else text = t("Ваш ход: выберите свой корабль.");
    this.turnEl.textContent = text;
    // the quiet sea (§6): from halfway on, how near the draw is
    const limit = this.m.data.quiet_plies || 200;
    if (!this.replay && !this.lesson && g.status === "play" && v && v.quiet >= limit / 2) {
      const left = limit - v.quiet;
      const note = tn("Без потерь {n} полуход подряд: ещё {left} — и ничья.", "Без потерь {n} полуходов подряд: ещё {left} — и ничья.", v.quiet, { left });
      this.turnEl.append(h("span", { class: "nv-quiet muted", dataset: { quiet: String(v.quiet) } }, note));
    }
    this.turnEl.classList.toggle("mine", !!this.seat && g.status === "play" && v?.to_act === this.seat && !this.replay);
  }

  renderFleets() {
    const v = this.view;
    for (const [el, side] of [
      [this.topFleet, this.top],
      [this.bottomFleet, this.bottom],
    ]) {
      const sv = v?.sides?.[side];
      el.hidden = !sv || !!this.replay;
      if (!sv) continue;
      // a lesson's fleets are a few ships: no «of 12»
      if (this.lesson) el.textContent = t("На плаву: {n} · мин в запасе: {mines}", { n: sv.afloat, mines: sv.reserve });
      else el.textContent = t("На плаву: {n} из {total} · мин в запасе: {mines}", { n: sv.afloat, total: this.m.fleetSize(), mines: sv.reserve });
    }
  }

  /** The selected ship's orders in the panel: its name, the mine's choice, the turns, steps and strikes as buttons. */
  renderActions() {
    const el = this.actionsEl;
    el.innerHTML = "";
    el.hidden = !this.canAct();
    if (el.hidden) return;
    if (!this.selected) {
      el.append(h("p", { class: "muted nv-hint" }, t("Нажмите на свой корабль: появятся его ходы. Esc — снять выбор.")));
      return;
    }
    const ship = this.view.sides[this.seat].ships.find((s) => s.point === this.selected);
    const o = this.options();
    const name = ship ? `${this.m.shipName(ship.kind)} ${ship.point}` : this.selected;
    el.append(h("h2", { class: "panel-title" }, name, ship ? h("span", { class: "muted nv-facing" }, ` · ${t("нос {facing}", { facing: FACING_RU[ship.facing] })}`) : null));
    // the minesweeper's mine: chosen before the move
    const modes = this.mineModes();
    if (modes.length || o.alone.length) {
      const row = h("div", { class: "nv-mine-choice", role: "group", "aria-label": t("Мина") });
      const opt = (mode, label) => {
        const on = mode ? this.mineMode?.op === mode.op && this.mineMode?.when === mode.when : !this.mineMode;
        return h("button", { type: "button", class: `btn nv-mine-mode${on ? " on" : ""}`, "aria-pressed": String(on), dataset: { mode: mode ? `${mode.op}:${mode.when}` : "none" }, onclick: () => { this.mineMode = mode; this.render(); } }, label);
      }; // prettier-ignore
      row.append(opt(null, t("Без мины")));
      for (const m of modes) {
        let label;
        if (m.op === "lay") label = m.when === "before" ? t("Поставить мину на {point}, затем ход", { point: m.at }) : t("Ход, затем поставить мину");
        else label = m.when === "before" ? t("Снять мину с {point}, затем ход", { point: m.at }) : t("Ход, затем снять мину");
        row.append(opt({ op: m.op, when: m.when }, label));
      }
      for (const a of o.alone) {
        const label = a.type === "lay" ? t("Только поставить мину на {point}", { point: a.at }) : t("Только снять мину с {point}", { point: a.at });
        row.append(h("button", { type: "button", class: "btn nv-mine-alone", dataset: { notation: a.notation }, onclick: () => this.act(a.notation) }, label));
      }
      el.append(row);
    }
    const orders = h("div", { class: "nv-orders" });
    for (const x of o.turns) {
      const label = x.turn === "left" ? t("↺ Налево (нос {facing})", { facing: FACING_RU[x.facing] }) : t("↻ Направо (нос {facing})", { facing: FACING_RU[x.facing] });
      orders.append(h("button", { type: "button", class: "btn nv-order", dataset: { notation: x.notation }, onclick: () => this.act(x.notation) }, label));
    }
    for (const x of o.steps) orders.append(h("button", { type: "button", class: "btn nv-order", dataset: { notation: x.notation }, onclick: () => this.act(x.notation) }, t("Шаг на {point}", { point: x.to })));
    const enemy = new Map((this.view.sides[otherSide(this.seat)].ships || []).map((s) => [s.point, s]));
    for (const x of o.strikes) {
      const target = enemy.get(x.to);
      const what = target ? `${this.m.shipAccusative(target.kind)} ${x.to}` : x.to;
      const label = x.struck === "bow" ? t("Удар в нос: {target}", { target: what }) : t("Удар в борт: {target}", { target: what });
      orders.append(h("button", { type: "button", class: `btn nv-order nv-order-strike struck-${x.struck}`, dataset: { notation: x.notation }, onclick: () => this.act(x.notation) }, label));
    }
    if (!this.mineMode) {
      for (const x of this.selectedTries()) {
        const label = x.type === "strike" ? t("Попробовать удар: {point}", { point: x.to }) : t("Попробовать шаг: {point}", { point: x.to });
        orders.append(h("button", { type: "button", class: "btn nv-order nv-try-order", dataset: { notation: x.notation }, onclick: () => this.tryOrder(x.notation) }, label));
      }
    }
    if (!orders.childNodes.length) orders.append(h("p", { class: "muted" }, t("С этой миной кораблю некуда идти.")));
    el.append(orders, h("button", { type: "button", class: "btn ghost nv-deselect", onclick: () => this.deselect() }, t("Снять выбор")));
  }

  renderControls() {
    fillControls(this.controlsEl, this.drawEl, { game: this.game, seat: this.seat, control: this.control, off: this.lesson });
  }

  renderResult() {
    const g = this.game;
    this.replayEl.hidden = g.status !== "over" || !!this.replay || this.lesson;
    // a lesson credits nothing and has no rematch, record or new game
    fillResult(this.resultEl, { game: g, view: this.view, seat: this.seat, reasonText: resultReason, bare: this.lesson, gameId: this.gameId, control: this.control, file: `naval-${this.gameId}.json` });
  }

  /** Every order given (the view's history), every roll and every sinking, newest first; while stepping through
   * the record, only those before the shown position. */
  renderLog() {
    const v = this.view;
    if (!v) return;
    const upto = this.replay ? this.replay.index : Infinity; // the shown position comes after this many plies
    const key = `${v.ply}:${(v.rolls || []).length}:${this.history.key}:${upto}`;
    if (this.logEl.dataset.count === key) return;
    this.logEl.dataset.count = key;
    const entries = [];
    for (const e of this.history.turns) entries.push({ ply: e.ply, order: 0, side: e.side, cls: `nv-log-${e.kind}`, text: turnText(this.m, e) });
    for (const r of v.rolls || []) entries.push({ ply: r.ply, order: 1 + r.k / 1e6, side: r.side, cls: r.explosion ? "nv-log-boom" : "nv-log-safe", text: rollText(this.m, r) });
    for (const side of ["south", "north"]) {
      for (const s of v.sides[side].sunk || []) {
        if (s.cause === "strike" && this.turnsByPly.get(s.ply)?.kind === "strike") continue; // the strike's line says it
        entries.push({ ply: s.ply, order: 2, side, cls: "nv-log-sunk", text: sunkText(this.m, s) });
      }
    }
    entries.sort((a, b) => a.ply - b.ply || a.order - b.order);
    const cut = entries.findIndex((e) => e.ply >= upto);
    if (cut >= 0) entries.length = cut;
    this.logEl.innerHTML = "";
    if (!entries.length) this.logEl.append(h("li", { class: "muted empty" }, t("Ходов ещё не было.")));
    for (const e of entries.reverse()) {
      const whose = this.seat ? (e.side === this.seat ? "own" : "enemy") : `side-${e.side}`;
      this.logEl.append(h("li", { class: e.cls }, h("span", { class: `nv-log-ply ${whose}` }, String(e.ply + 1)), " ", e.text));
    }
  }
}
