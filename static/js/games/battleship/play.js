// The play screen of «Морской бой»: the opponent's grid (own shots and their answers: «мимо» a dot, a hit a cross,
// a sunk ship outlined; the classic ring around it known empty, A6) and the own grid (the fleet and the opponent's
// shots), whose turn, the salvo's shots left, clocks, the shots' log, resign / draw / rematch, the result and the
// replay with both fleets open. A shot is a click, a tap, or Enter/Space on the grid's keyboard cursor; the client
// only offers the cells the server's view lists as legal.

import { PlayerBars } from "../../core/bars.js";
import { ChatPanel } from "../../core/chat.js";
import { controlSender, fillControls, fillResult } from "../../core/controls.js";
import { h, toast } from "../../core/dom.js";
import { SIDE_RU, endActionText, otherSide } from "../../core/i18n.js";
import { bellButton } from "../../core/notify.js";
import { sounds } from "../../core/sound.js";
import { ReplayPanel } from "../../core/stepper.js";
import { t, tn } from "../../core/t.js";
import { Grid, LABELS, shotHtml } from "./grid.js";
import { resultReason } from "./manifest.js";
import { hullClasses, shipsOf } from "./ships.js";
import { allShots, soundsFor } from "./sounds.js";

export class PlayScreen {
  /**
   * @param {HTMLElement} root
   * @param {{manifest: import("./manifest.js").Manifest, gameId: string, seat: string|null,
   *          send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown}} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.m = ctx.manifest;
    this.gameId = ctx.gameId;
    this.seat = ctx.seat;
    this.send = ctx.send;
    this.countdown = ctx.countdown;
    this.game = null;
    this.view = null;
    this.busy = false;
    this.replay = null; // {index} while stepping through the record
    this.control = controlSender(ctx.send);
    // the grid played on is the opponent's; a spectator sees North's on the left, South's on the right
    this.targetSide = this.seat ? otherSide(this.seat) : "north";
    this.homeSide = this.seat || "south";
    this.build();
  }

  get rules() {
    return this.view?.options?.rules || this.game?.settings?.options?.rules || "classic";
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    this.root.innerHTML = "";
    const attackEl = h("div");
    const ownEl = h("div");
    const seated = !!this.seat;
    this.attack = new Grid(attackEl, {
      manifest: this.m,
      name: seated ? "attack" : this.targetSide,
      label: seated ? t("Поле соперника: ваши выстрелы") : t("Поле: {side}", { side: SIDE_RU[this.targetSide] }),
      onCell: (cell) => this.shoot(cell),
    });
    this.own = new Grid(ownEl, {
      manifest: this.m,
      name: seated ? "own" : this.homeSide,
      label: seated ? t("Ваше поле: выстрелы соперника") : t("Поле: {side}", { side: SIDE_RU[this.homeSide] }),
      onCell: (cell) => this.onOwnCell(cell),
    });
    this.bars = new PlayerBars(this.root, {
      sides: [this.targetSide, this.homeSide],
      seat: this.seat,
      countdown: this.countdown,
      turn: (side) => (this.game.status === "play" && this.view?.to_act === side ? t("стреляет") : null),
    });
    [this.targetBar, this.homeBar] = this.bars.bars;
    this.turnEl = h("p", { class: "bs-turn", "aria-live": "polite" });
    this.answerEl = h("p", { class: "bs-answer", "aria-live": "polite" });
    this.targetFleet = h("div", { class: "bs-fleet" });
    this.homeFleet = h("div", { class: "bs-fleet" });
    const titleTarget = seated ? t("Поле соперника") : t("Флот: {side}", { side: SIDE_RU[this.targetSide] });
    const titleHome = seated ? t("Ваше поле") : t("Флот: {side}", { side: SIDE_RU[this.homeSide] });
    const targetBox = h("section", { class: "bs-board bs-target" }, this.targetBar.el, h("h2", { class: "bs-board-title" }, titleTarget), attackEl, this.targetFleet);
    const homeBox = h("section", { class: "bs-board bs-home" }, this.homeBar.el, h("h2", { class: "bs-board-title" }, titleHome), ownEl, this.homeFleet);

    this.resultEl = h("section", { class: "result-panel", hidden: true, "aria-live": "polite" });
    // the opponent's offers: at the top of the panel beside the grids on a laptop, a bar fixed at the foot of the
    // screen on a phone (in sight wherever it is scrolled); neither moves the grids
    this.drawEl = h("div", { class: "draw-offer offer-strip bs-offer", hidden: true, role: "status" });
    this.controlsEl = h("section", { class: "controls", "aria-label": t("Управление партией") });
    this.replayTop = h("div", { class: "bs-replay-top" }); // the replay's controls, right above the grids
    this.replayPanel = this.makeReplay();
    this.replayEl = this.replayPanel.el;
    this.replayEl.hidden = true;
    this.logEl = h("ol", { class: "log bs-log", reversed: true });
    const panel = h(
      "aside",
      { class: "side-panel bs-panel" },
      this.resultEl,
      this.controlsEl,
      this.replayEl,
      h("section", { class: "log-box" }, h("h2", { class: "panel-title" }, t("Журнал выстрелов")), this.logEl),
    );
    const boards = h("div", { class: "bs-boards" }, targetBox, homeBox);
    const main = h("div", { class: "bs-main" }, h("div", { class: "bs-info" }, this.turnEl, this.answerEl), this.replayTop, boards);
    panel.prepend(this.drawEl);
    this.root.append(h("div", { class: "bs-layout bs-play" }, main, panel));
    // the players' chat (issue 19): in the panel beside the grids on a laptop, a strip under them on a phone
    this.chat = new ChatPanel({ send: this.send, seat: this.seat });
    const wide = window.matchMedia("(min-width: 901px)");
    const place = () => {
      if (wide.matches) this.controlsEl.after(this.chat.el);
      else main.append(this.chat.el);
      this.chat.setCollapsible(!wide.matches);
    };
    wide.addEventListener("change", place);
    place();
    this.homeBar.el.insertBefore(sounds.toggleButton(), this.homeBar.clock);
    this.homeBar.el.insertBefore(bellButton(), this.homeBar.clock); // issue 19: notifications, opt-in
    this.bars.bindClocks();
  }

  /** The screen is replaced: the bars stop ticking. */
  destroy() {
    this.bars.stop();
    this.chat.destroy();
  }

  // --- server messages ----------------------------------------------------------------------

  /** A snapshot: `game` and `view` (the seat's, the spectator's, or the full one after the end). */
  update(game, view) {
    const ended = this.game?.status === "play" && game.status !== "play";
    for (const name of soundsFor(this.game && { game: this.game, view: this.view }, { game, view }, this.seat)) sounds.play(name);
    this.bars.set(game);
    if (!this.view || !view || this.view.ply !== view.ply) this.busy = false;
    this.game = game;
    this.view = view;
    this.legal = new Set((view?.legal || []).filter((a) => (a.type || "shot") === "shot").map((a) => a.cell));
    this.render();
    if (ended) requestAnimationFrame(() => this.resultEl.scrollIntoView({ block: "nearest" }));
  }

  onError() {
    this.busy = false;
    this.render();
  }

  // --- acting -------------------------------------------------------------------------------

  canShoot() {
    return !!this.seat && this.game?.status === "play" && !this.busy && !this.replay && this.view?.to_act === this.seat;
  }

  shoot(cell) {
    if (!this.canShoot()) return;
    if (!this.legal.has(cell)) {
      if (allShots(this.view).some((s) => s.side === this.seat && s.cell === cell)) toast(t("По {cell} вы уже стреляли", { cell: this.m.cellText(cell) }), 2000);
      return;
    }
    const action = this.view.legal.find((a) => (a.type || "shot") === "shot" && a.cell === cell).notation;
    if (!this.send({ type: "action", ply: this.view.ply, action })) {
      toast(t("Нет связи с сервером"));
      return;
    }
    this.busy = true;
    this.pending = cell;
    this.render();
  }

  /** A click on the own grid: nothing in classic play (a variant may act on its own fleet there). */
  onOwnCell(_cell) {}

  // --- replay -------------------------------------------------------------------------------

  /** The record's panel; open, its stepper sits above the grids and both fleets show as they stood. */
  makeReplay() {
    return new ReplayPanel({
      gameId: this.gameId,
      holder: this.replayTop,
      prepare: (data) => {
        this.replayData = data;
        return (data.plies || []).length;
      },
      onShow: (_data, i) => {
        this.replay = { index: i };
        this.render();
      },
      label: (data, i) => {
        const plies = data.plies || [];
        const p = i > 0 ? plies[i - 1] : null;
        if (!p) return tn("Начальная расстановка ({n} полуход)", "Начальная расстановка ({n} полуходов)", plies.length);
        const ending = p.answer ? null : endActionText(...String(p.action).split(" ")); // «resign south» → «Юг сдался.»
        if (ending) return t("Полуход {i} из {n}: {action}", { i, n: plies.length, action: ending });
        const what = p.answer ? `${this.m.cellText(p.action)} — ${this.m.answerText(data.options?.rules || this.rules, p)}` : p.action;
        return t("Полуход {i} из {n}: {side}, {action}", { i, n: plies.length, side: SIDE_RU[p.side] || "", action: what });
      },
      onOpen: () => this.replayTop.scrollIntoView({ block: "nearest" }), // a phone: from the panel below up to the grids
      onClose: () => {
        this.replay = null;
        this.render();
      },
    });
  }

  /** What the grid of `side` shows: its ships (null: hidden), the shots at it, the ring marks, the last shot. */
  boardData(side) {
    const shooter = otherSide(side);
    if (this.replay && this.replayData) {
      const plies = this.replayData.plies.slice(0, this.replay.index);
      const fleet = this.m.fleet(this.replayData.options?.rules || this.rules);
      const ships = shipsOf(this.m, fleet, this.replayData.setups?.[side] || {});
      const shots = plies.filter((p) => p.side === shooter && p.answer).map((p) => ({ cell: p.action, answer: p.answer, ship: p.ship, sunk_cells: p.sunk_cells || [], ply: p.ply }));
      const hit = new Set(shots.map((s) => s.cell));
      const sunkCells = new Set(shots.flatMap((s) => s.sunk_cells));
      const shipViews = ships.map((s) => ({ ...s, hits: s.cells.filter((c) => hit.has(c)), sunk: s.cells.every((c) => hit.has(c)) || s.cells.some((c) => sunkCells.has(c)) }));
      const last = plies.length ? plies[plies.length - 1] : null;
      return { ships: shipViews, shots, marks: [], last: last && last.side === shooter ? last.action : null, open: true };
    }
    const v = this.view;
    const shots = v?.sides?.[shooter]?.shots || [];
    const last = allShots(v).pop();
    return {
      ships: v?.sides?.[side]?.ships || null,
      shots,
      marks: v?.sides?.[shooter]?.marks || [],
      last: last && last.side === shooter ? last.cell : null,
      open: this.game?.status === "over",
    };
  }

  // --- drawing ------------------------------------------------------------------------------

  render() {
    if (!this.game) return;
    this.renderGrid(this.attack, this.targetSide, this.canShoot());
    this.renderGrid(this.own, this.homeSide, false);
    this.bars.render();
    this.renderTurn();
    this.renderFleets();
    this.renderControls();
    this.renderResult();
    this.renderLog();
  }

  renderGrid(grid, side, shooting) {
    const d = this.boardData(side);
    const ships = d.ships || [];
    const hull = hullClasses(this.m, ships);
    const sunkShip = new Set(ships.filter((s) => s.sunk).flatMap((s) => s.cells));
    // a sunk ship the answers showed (classic, Hasbro named) is outlined on the shooter's grid too
    const order = this.m.cells();
    const told = d.shots.filter((s) => s.sunk_cells?.length).map((s) => ({ code: s.ship, cells: order.filter((c) => s.sunk_cells.includes(c)) }));
    const toldHull = hullClasses(this.m, told);
    const shotAt = new Map(d.shots.map((s) => [s.cell, s]));
    const marks = new Set(d.marks);
    const mine = !!this.seat && side === this.seat;
    grid.root.classList.toggle("can-shoot", shooting);
    grid.render((cell) => {
      const cls = [];
      const shot = shotAt.get(cell);
      const hulls = hull.get(cell) || toldHull.get(cell);
      if (hulls) cls.push(...hulls);
      if (hull.has(cell) && !mine) cls.push("revealed");
      if (sunkShip.has(cell) || toldHull.has(cell)) cls.push("sunk");
      if (shot) cls.push("shot", `shot-${shot.answer}`);
      if (marks.has(cell) && !shot) cls.push("mark");
      if (d.last === cell) cls.push("last");
      if (shooting && this.legal.has(cell)) cls.push("can-shoot");
      if (this.busy && this.pending === cell && side === this.targetSide) cls.push("pending");
      const labels = [];
      if (hull.has(cell)) labels.push(mine ? LABELS.ship() : this.m.shipName(this.rules, ships.find((s) => s.cells.includes(cell))?.code));
      if (shot) labels.push(shot.answer === "miss" ? LABELS.miss() : shot.answer === "sunk" || sunkShip.has(cell) ? LABELS.sunk() : LABELS.hit());
      else if (marks.has(cell)) labels.push(LABELS.mark());
      const html = shot ? shotHtml(shot.answer) : marks.has(cell) ? `<span class="bs-mark" aria-hidden="true"></span>` : "";
      return this.decorate(side, cell, { cls, html, label: labels.join(", "), title: shot ? this.m.answerText(this.rules, shot) : "" }, { ...d, shot, mine });
    });
  }

  /**
   * A cell's look (`{cls, html, label, title}`) as a variant draws it on top of the classic one (here: unchanged).
   * @param {string} side whose grid  @param {object} d the grid's `boardData`, with `shot` (the cell's) and `mine`
   *        (the grid is the viewer's own)
   */
  decorate(_side, _cell, look, _d) {
    return look;
  }

  /** The last shot of the game, in words, and whose turn it is (with the salvo's shots left). */
  renderTurn() {
    const g = this.game;
    const v = this.view;
    const shots = allShots(v);
    const last = this.replay ? null : shots[shots.length - 1];
    this.answerEl.className = `bs-answer ${last ? `answer-${last.answer}` : "muted"}`;
    this.answerEl.hidden = !!this.replay; // the replay's own line says what each shot was
    if (last) {
      const who = this.seat ? (last.side === this.seat ? t("Вы") : t("Соперник")) : SIDE_RU[last.side];
      this.answerEl.textContent = t("{who}: {cell} — {answer}", { who, cell: this.m.cellText(last.cell), answer: this.m.answerText(this.rules, last) });
    } else {
      this.answerEl.textContent = this.replay ? "" : t("Выстрелов ещё не было.");
    }
    let text;
    const salvo = !!v?.options?.salvo;
    const left = v?.shots_left ?? 0;
    const total = left + (v?.turn_shots ?? 0);
    if (this.replay) text = t("Запись партии");
    else if (g.status !== "play") text = t("Партия окончена");
    else if (!this.seat) text = t("Стреляет {side}.", { side: SIDE_RU[v?.to_act] || "" });
    else if (this.busy) text = t("Выстрел отправлен…");
    else if (v?.to_act !== this.seat) text = g.players?.[v?.to_act]?.bot ? t("ИИ целится…") : t("Стреляет соперник…");
    else if (salvo) text = tn("Ваш залп: остался {n} выстрел из {total}.", "Ваш залп: осталось {n} выстрелов из {total}.", left, { total });
    else if (last && last.side === this.seat && last.answer !== "miss") text = t("Попадание — стреляйте ещё!");
    else text = t("Ваш ход: выберите клетку на поле соперника.");
    this.turnEl.textContent = text;
    this.turnEl.classList.toggle("mine", !!this.seat && g.status === "play" && v?.to_act === this.seat);
  }

  /** Each fleet: its ships afloat and, as far as the answers told, which went down. */
  renderFleets() {
    for (const [el, side] of [
      [this.targetFleet, this.targetSide],
      [this.homeFleet, this.homeSide],
    ]) {
      el.innerHTML = "";
      const sv = this.view?.sides?.[side];
      if (!sv || this.replay) continue;
      const fleet = this.m.fleet(this.rules);
      const total = fleet.reduce((n, s) => n + s.count, 0);
      el.append(h("span", { class: "bs-afloat" }, t("На плаву: {n} из {total}", { n: sv.afloat, total })));
      const sunk = sv.ships ? sv.ships.filter((s) => s.sunk).map((s) => s.code) : sv.sunk;
      if (!sunk) continue; // hits not named: only how many went down (D4)
      const left = Object.fromEntries(fleet.map((s) => [s.code, 0]));
      for (const code of sunk) left[code] = (left[code] || 0) + 1;
      for (const s of fleet) {
        for (let i = 0; i < s.count; i++) {
          const down = i < left[s.code];
          const hull = h("span", { class: `bs-chip${down ? " down" : ""}`, title: `${t(s.name)}${down ? ` — ${this.m.answerWord(this.rules, "sunk").toLowerCase()}` : ""}` });
          for (let k = 0; k < s.size; k++) hull.append(h("span", { class: "bs-seg" }));
          el.append(hull);
        }
      }
    }
  }

  renderControls() {
    fillControls(this.controlsEl, this.drawEl, { game: this.game, seat: this.seat, control: this.control });
  }

  renderResult() {
    const g = this.game;
    this.replayEl.hidden = g.status !== "over" || !!this.replay; // open, its controls sit above the grids
    const more = g.status === "over" ? [h("p", { class: "muted" }, t("Оба флота открыты: нетронутые корабли видны на обоих полях."))] : [];
    fillResult(this.resultEl, { game: g, view: this.view, seat: this.seat, reasonText: resultReason, more, gameId: this.gameId, control: this.control, file: `battleship-${this.gameId}.json` });
  }

  renderLog() {
    const shots = allShots(this.view);
    if (this.logEl.dataset.count === String(shots.length)) return;
    this.logEl.dataset.count = String(shots.length);
    this.logEl.innerHTML = "";
    if (!shots.length) this.logEl.append(h("li", { class: "muted empty" }, t("Выстрелов ещё не было.")));
    for (const s of [...shots].reverse()) {
      const who = this.seat ? (s.side === this.seat ? t("Вы") : t("Соперник")) : SIDE_RU[s.side];
      this.logEl.append(h("li", { class: `answer-${s.answer}` }, h("span", { class: "bs-log-who" }, who), " ", h("strong", {}, this.m.cellText(s.cell)), " — ", this.m.answerText(this.rules, s)));
    }
  }
}
