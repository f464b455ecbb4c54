// The play screen of «Морской бой: расширенный»: classic's (../battleship/play.js) on the room's board, with what
// the variant adds (rules C3–C7, D7–D13):
// - the marks as the seed draws them: an own mine (orange circle) and minesweeper (triangle), a destroyed
//   minesweeper (crossed red triangle), an exploded mine (a dot), a crosshair on an enemy deck handed over (a sure
//   hit), a gold circle on an enemy mine handed over (avoid it), the own decks and mines handed to the opponent (an
//   eye), «отремонтирована» on a repaired deck; the own sonar and satellite answers on the attack map;
// - the energy bar (value/max and the gain next turn) and the ability buttons from the view's `abilities` (cost,
//   condition, why disabled); an area ability previews its cross, 3×3 or 5×5 under the pointer and on a tap, and
//   is sent only on a confirmation; the manoeuvre is a boat then a cell on the own grid, the repair a hit deck;
// - the opponent's abilities named in the answer line and the log; the commanders' levels with a tier badge; the
//   fair-chance commitment and the seed are the house's line under the screen (core/chance.js);
// - the attack map zoomed and panned on a phone (core/zoom.js).
// The client sends only what the view lists as legal (`legal`: shots, one area entry per ready area ability,
// moves, repairs).

import { h, toast } from "../../core/dom.js";
import { SIDE_RU } from "../../core/i18n.js";
import { t, tn } from "../../core/t.js";
import { ZoomPan } from "../../core/zoom.js";
import { PlayScreen } from "../battleship/play.js";
import { allShots } from "../battleship/sounds.js";
import { abilityIcon, MARKS, tierIcon } from "./icons.js";
import { tierOf } from "./manifest.js";

const AREA_ABILITIES = new Set(["air", "sonar", "carpet", "satellite"]);
const DOT = `<span class="bs-dot" aria-hidden="true"></span>`;

/** Why an ability cannot be used now, in words (the view's `why`). */
function whyText(why) {
  switch (why) {
    case "energy": return t("не хватает энергии");
    case "no_ship": return t("нужного корабля нет на плаву");
    case "used": return t("уже использована");
    case "one_ability": return t("одна способность за ход");
    case "not_your_turn": return t("не ваш ход");
    case "no_target": return t("нет цели");
    default: return why ? String(why) : "";
  }
} // prettier-ignore

/** A scan's answer in words: «есть палуба» / «пусто» (sonar), «3 палубы» (satellite), with the mines (level 6). */
function scanAnswer(scan) {
  if (scan.answer == null) return "";
  const parts = [];
  if (typeof scan.answer === "number") parts.push(tn("{n} палуба", "{n} палуб", scan.answer));
  else parts.push(scan.answer ? t("есть палуба") : t("палуб нет"));
  if (scan.mines != null) parts.push(scan.mines ? t("есть мина") : t("мин нет"));
  return parts.join(", ");
}

export class ExtPlayScreen extends PlayScreen {
  /**
   * @param {HTMLElement} root
   * @param {{manifest: import("./manifest.js").ExtManifest, gameId: string, seat: string|null,
   *          send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown}} ctx
   *          `manifest`: on the room's board (ExtManifest.forOptions)
   */
  constructor(root, ctx) {
    super(root, ctx);
    this.mode = null; // an ability being aimed: {key, kind: "area"|"move"|"repair", …}
    this.aim = null; // its chosen target: {cell, notation} (area, repair) or {src, dst, notation} (move)
    this.hover = null; // the attack map's cell under the pointer (the area's preview)
    this.keyHandler = (ev) => {
      if (ev.key === "Escape" && this.mode) this.cancelMode();
    };
    document.addEventListener("keydown", this.keyHandler);
  }

  get rules() {
    return this.m.boardKey;
  }

  // --- layout -------------------------------------------------------------------------------

  build() {
    super.build();
    const m = this.m;
    const layout = this.root.querySelector(".bs-play");
    layout.classList.add(`bsx-n${m.width}`);
    layout.style.setProperty("--bsx-cols", String(m.width));
    // the attack map in a frame that zooms and pans (a phone: the 18×18 map at a finger's size)
    const grid = this.attack.root;
    const parent = grid.parentElement;
    const next = grid.nextSibling;
    const cellPx = () => grid.querySelector(".bs-cell")?.getBoundingClientRect().width || 20;
    this.zoom = new ZoomPan(grid, {
      cell: cellPx,
      setCell: (px) => (px == null ? grid.style.removeProperty("--bs-cell") : grid.style.setProperty("--bs-cell", `${px}px`)),
      min: 14,
      max: 44,
    });
    parent.insertBefore(this.zoom.el, next);
    grid.addEventListener("pointerover", (ev) => this.onHover(ev.target.closest(".bs-cell")?.dataset.cell || null));
    grid.addEventListener("pointerleave", () => this.onHover(null));
    grid.addEventListener("focusin", (ev) => this.onHover(ev.target.closest(".bs-cell")?.dataset.cell || null));

    // energy and abilities: at the top of the panel on a laptop, right under the attack map on a phone
    this.energyEl = h("div", { class: "bsx-energy", role: "group", "aria-label": t("Энергия") });
    this.abilitiesEl = h("div", { class: "bsx-ability-list" });
    this.aimEl = h("div", { class: "bsx-aim", "aria-live": "polite", hidden: true });
    this.abilityBox = h("section", { class: "bsx-abilities", "aria-label": t("Способности") }, h("h2", { class: "panel-title" }, t("Способности")), this.energyEl, this.aimEl, this.abilitiesEl);
    const targetBox = this.root.querySelector(".bs-target");
    const wide = window.matchMedia("(min-width: 901px)");
    const place = () => {
      if (wide.matches) this.drawEl.after(this.abilityBox);
      else targetBox.after(this.abilityBox);
    };
    wide.addEventListener("change", place);
    place();
    // the levels beside the names (D12: public), a badge of the tier (C7)
    for (const bar of this.bars.bars) {
      bar.level = h("span", { class: "bsx-level" });
      bar.el.insertBefore(bar.level, bar.turn);
    }
  }

  destroy() {
    super.destroy();
    document.removeEventListener("keydown", this.keyHandler);
  }

  // --- server messages ----------------------------------------------------------------------

  update(game, view) {
    const moved = !this.view || !view || this.view.ply !== view.ply;
    if (moved || game.status !== "play") {
      this.mode = null;
      this.aim = null;
    }
    super.update(game, view);
  }

  onError(msg) {
    this.aim = null;
    super.onError(msg);
  }

  // --- acting -------------------------------------------------------------------------------

  canAct() {
    return this.canShoot();
  }

  /** The legal entries of the view of `type`. */
  legalOf(type) {
    return (this.view?.legal || []).filter((a) => a.type === type);
  }

  /** An ability button pressed: aim it (again: put it away). */
  choose(ability) {
    if (!this.canAct() || !ability.ready) return;
    if (this.mode?.key === ability.key) return this.cancelMode();
    this.aim = null;
    if (AREA_ABILITIES.has(ability.key)) {
      const entry = this.legalOf("area").find((a) => a.ability === ability.key);
      if (!entry) return toast(t("Сейчас эту способность применить некуда"), 2500);
      this.mode = { key: ability.key, kind: "area", prefix: entry.prefix || ability.key, cells: new Set(entry.cells), area: ability.area };
    } else if (ability.key === "move") {
      const moves = this.legalOf("move");
      if (!moves.length) return toast(t("Катеру некуда перейти"), 2500);
      this.mode = { key: "move", kind: "move", moves, src: moves.length && new Set(moves.map((a) => a.src)).size === 1 ? moves[0].src : null };
    } else if (ability.key === "repair") {
      const repairs = this.legalOf("repair");
      if (!repairs.length) return toast(t("Чинить нечего"), 2500);
      this.mode = { key: "repair", kind: "repair", repairs };
    }
    this.render();
  }

  cancelMode() {
    this.mode = null;
    this.aim = null;
    this.render();
  }

  /** A click on the attack map: a shot, or the centre of the area being aimed (a second click on it confirms). */
  shoot(cell) {
    if (this.mode?.kind !== "area") return super.shoot(cell);
    if (!this.canAct()) return;
    if (!this.mode.cells.has(cell)) {
      toast(t("Сюда нельзя: в области нет клеток, по которым вы ещё не стреляли"), 2500);
      return;
    }
    if (this.aim?.cell === cell) return this.confirm();
    this.aim = { cell, notation: `${this.mode.prefix} ${cell}` };
    this.render();
    this.showConfirm();
  }

  /** The chosen target's «Подтвердить» brought into view (a phone: it sits under the map, maybe below the fold). */
  showConfirm() {
    if (this.aimEl.hidden || !this.aimEl.querySelector(".bsx-confirm")) return;
    this.aimEl.scrollIntoView({ block: "nearest", inline: "nearest" }); // the whole prompt: its text and both buttons
  }

  /** A click on the own grid: the manoeuvre's boat, then its cell; the repair's deck. */
  onOwnCell(cell) {
    const mode = this.mode;
    if (!mode || !this.canAct()) return;
    if (mode.kind === "move") {
      const move = mode.src && mode.moves.find((a) => a.src === mode.src && a.dst === cell);
      if (move) {
        if (this.aim?.notation === move.notation) return this.confirm();
        this.aim = { src: move.src, dst: move.dst, notation: move.notation };
      } else if (mode.moves.some((a) => a.src === cell)) {
        mode.src = cell;
        this.aim = null;
      } else {
        toast(mode.src ? t("Катер ходит на соседнюю клетку, не касаясь других фигур") : t("Выберите свой нетронутый катер"), 2500);
        return;
      }
    } else if (mode.kind === "repair") {
      const entry = mode.repairs.find((a) => a.cell === cell);
      if (!entry) return toast(t("Выберите подбитую палубу корабля на плаву"), 2500);
      if (this.aim?.notation === entry.notation) return this.confirm();
      this.aim = { cell, notation: entry.notation };
    }
    this.render();
    if (this.aim) this.showConfirm();
  }

  confirm() {
    if (!this.aim || !this.canAct()) return;
    if (!this.send({ type: "action", ply: this.view.ply, action: this.aim.notation })) {
      toast(t("Нет связи с сервером"));
      return;
    }
    this.busy = true;
    this.pending = this.aim.cell || this.aim.dst || null;
    this.mode = null;
    this.aim = null;
    this.render();
  }

  /** The pointer over the attack map: the area's preview follows it (classes only: the cells' content stays, so a
   *  tap's press and release land on the same elements and make a click). */
  onHover(cell) {
    if (this.hover === cell) return;
    this.hover = cell;
    if (this.mode?.kind !== "area" || this.aim) return;
    const area = new Set(cell && this.mode.cells.has(cell) ? this.areaCells(this.mode.key, cell) : []);
    for (const [name, el] of this.attack.cells) {
      el.classList.toggle("bsx-area", area.has(name));
      el.classList.toggle("bsx-area-preview", area.has(name));
      el.classList.toggle("bsx-area-centre", area.size > 0 && name === cell);
    }
  }

  /** The cells an area ability `key` covers centred at `cell`, cut at the board's edge (C5, C6, D7). */
  areaCells(key, cell) {
    const [r, c] = this.m.cellPos(cell);
    const out = [];
    const add = (rr, cc) => this.m.onGrid(rr, cc) && out.push(this.m.cellName(rr, cc));
    if (key === "air") {
      for (const [dr, dc] of [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]) add(r + dr, c + dc); // prettier-ignore
      return out;
    }
    const half = key === "satellite" ? 2 : 1;
    for (let dr = -half; dr <= half; dr++) for (let dc = -half; dc <= half; dc++) add(r + dr, c + dc);
    return out;
  }

  // --- replay -------------------------------------------------------------------------------

  boardData(side) {
    if (!(this.replay && this.replayData)) return super.boardData(side);
    // the record's abilities are not shots on one cell: the replay shows each ply's `shots` (an area attack fires
    // several, D7), the fleets without the figures, and a manoeuvred boat where it went (D9)
    const plies = this.replayData.plies || [];
    const index = this.replay.index;
    const done = plies.slice(0, index);
    const fleetOnly = (setup) => Object.fromEntries(Object.entries(setup || {}).filter(([, code]) => code !== "M" && code !== "T"));
    const setups = Object.fromEntries(Object.entries(this.replayData.setups || {}).map(([s, setup]) => [s, fleetOnly(setup)]));
    for (const p of done) {
      const layout = p.moved && setups[p.side];
      if (!layout?.[p.moved.src]) continue;
      layout[p.moved.dst] = layout[p.moved.src];
      delete layout[p.moved.src];
    }
    const shotsOf = (p) => (p.shots ? p.shots.map((x) => ({ ...p, ...x, action: x.cell })) : /^[a-z]\d+$/.test(String(p.action)) ? [p] : []);
    const saved = this.replayData;
    const flat = plies.flatMap(shotsOf);
    this.replayData = { ...saved, setups, plies: flat };
    this.replay = { index: done.flatMap(shotsOf).length };
    try {
      return super.boardData(side);
    } finally {
      this.replayData = saved;
      this.replay = { index };
    }
  }

  /** The replay's line: an ability in words (classic's line reads an action as one shot's cell). */
  makeReplay() {
    const panel = super.makeReplay();
    const classic = panel.opts.label;
    panel.opts.label = (data, i) => {
      const p = i > 0 ? data.plies?.[i - 1] : null;
      if (!p?.ability) return classic(data, i);
      const [, cell] = String(p.action).split(" ");
      const e = { ability: p.ability, cell: p.ability === "move" ? null : cell, shots: p.shots || [], scan: p.scan };
      let what = this.eventText(e);
      if (p.moved) what += `: ${this.m.cellText(p.moved.src)} → ${this.m.cellText(p.moved.dst)}`;
      return t("Полуход {i} из {n}: {side}, {action}", { i, n: data.plies.length, side: SIDE_RU[p.side] || "", action: what });
    };
    return panel;
  }

  // --- drawing ------------------------------------------------------------------------------

  render() {
    super.render();
    if (!this.game) return;
    this.renderAbilities();
    this.renderLevels();
  }

  /** The marks the variant adds to classic's look of a cell. */
  decorate(side, cell, look, d) {
    const v = this.view;
    const cls = [...look.cls];
    const extra = [];
    const labels = look.label ? [look.label] : [];
    let html = look.html;
    let title = look.title;
    const shot = d.shot;
    const shotsHere = d.shots.filter((s) => s.cell === cell).length;
    if (shot?.answer === "mine") {
      html = DOT; // an exploded mine: a dot, as a miss (C3)
      cls.push("shot-miss", "bsx-exploded");
    } else if (shot?.answer === "sweeper") {
      html = MARKS.sweeperDown();
    }
    const sv = v?.sides?.[side];
    // a repaired deck (D10): the shot's flag; a view without it, the side's list while the cell was shot once
    const repaired = !this.replay && (shot && "repaired" in shot ? !!shot.repaired : (sv?.repaired || []).includes(cell) && shotsHere <= 1);
    if (repaired) {
      html = MARKS.repaired();
      cls.push("bsx-repaired");
      const i = shot ? cls.indexOf(`shot-${shot.answer}`) : -1;
      if (i >= 0) cls.splice(i, 1);
      labels.push(t("отремонтирована"));
      title = t("отремонтирована");
    }
    // the figures open to this audience (own ones; everyone's after the game)
    // the replay's from the record's setups (its boards keep only the fleets: boardData), as the setup draws them
    const fig = this.replay ? this.replayFigure(side, cell) : (sv?.figures || []).find((f) => f.cell === cell);
    if (fig && !shot) {
      html = fig.code === "M" ? MARKS.mine() : MARKS.sweeper();
      cls.push("bsx-fig", fig.code === "M" ? "bsx-fig-mine" : "bsx-fig-sweeper");
      if (!d.mine) cls.push("revealed");
      labels.push(this.m.shipName(this.rules, fig.code));
    } else if (fig && fig.state === "sunk" && shot?.answer !== "sweeper") {
      html = MARKS.sweeperDown();
    }
    const mySide = this.seat ? v?.sides?.[this.seat] : null;
    if (this.seat && side === this.targetSide && mySide && !this.replay) {
      if (!shot && (mySide.crosshairs || []).includes(cell)) {
        extra.push(MARKS.crosshair());
        cls.push("bsx-sure");
        labels.push(t("палуба соперника: верное попадание"));
        title = t("Здесь палуба соперника: выстрел — верное попадание");
      }
      if (!shot && (mySide.gold || []).includes(cell)) {
        extra.push(MARKS.gold());
        cls.push("bsx-avoid");
        labels.push(t("мина соперника: не стреляйте"));
        title = t("Здесь мина соперника: не стреляйте сюда");
      }
      this.decorateScans(cell, cls, extra, labels, mySide.scans || []);
      this.decorateArea(cell, cls);
    }
    if (this.seat && side === this.homeSide && mySide && !this.replay) {
      if ((mySide.handed || []).includes(cell)) {
        extra.push(`<span class="bsx-corner">${MARKS.handed()}</span>`);
        cls.push("bsx-handed");
        labels.push(t("известна сопернику"));
        title = [title, t("Эту клетку соперник знает (передана ему)")].filter(Boolean).join("\n");
      }
      const oppScans = v?.sides?.[this.targetSide]?.scans || [];
      if (oppScans.some((s) => (s.cells || []).includes(cell))) cls.push("bsx-opp-scan");
      this.decorateOwnMode(cell, cls);
    }
    return { cls, html: html + extra.join(""), label: labels.join(", "), title };
  }

  /** A mine or minesweeper of `side` at `cell` in the replayed record's setups (`{cell, code}`), or null. */
  replayFigure(side, cell) {
    const code = this.replayData?.setups?.[side]?.[cell];
    return code === "M" || code === "T" ? { cell, code } : null;
  }

  /** The own scans on the attack map: the area tinted, its answer on the centre. */
  decorateScans(cell, cls, extra, labels, scans) {
    const last = scans[scans.length - 1];
    for (const s of scans) {
      if (!(s.cells || []).includes(cell)) continue;
      cls.push("bsx-scanned");
      if (s === last) cls.push("bsx-scanned-last");
      if (s.center === cell && s.answer != null) {
        const yes = typeof s.answer === "number" ? s.answer > 0 : s.answer;
        const text = typeof s.answer === "number" ? String(s.answer) : s.answer ? "!" : "0";
        // on a shot cell the answer moves to the corner: the shot's mark stays in sight
        const shot = this.view.sides[this.seat].shots.some((x) => x.cell === cell);
        extra.push(`<span class="bsx-scan-badge ${yes ? "yes" : "no"}${s.mines ? " mines" : ""}${shot ? " corner" : ""}">${text}</span>`);
        labels.push(`${this.m.abilityName(s.ability)}: ${scanAnswer(s)}`);
      }
    }
  }

  /** The area being aimed: under the pointer (a preview) or chosen (awaiting the confirmation). */
  decorateArea(cell, cls) {
    if (this.mode?.kind !== "area") return;
    if (!this.mode.cells.has(cell)) {
      const i = cls.indexOf("can-shoot");
      if (i >= 0) cls.splice(i, 1);
    } else if (this.canAct()) cls.push("can-shoot");
    const centre = this.aim?.cell || this.hover;
    if (!centre || !this.mode.cells.has(centre)) return;
    if (this.areaCells(this.mode.key, centre).includes(cell)) cls.push("bsx-area", this.aim ? "bsx-area-set" : "bsx-area-preview");
    if (cell === centre) cls.push("bsx-area-centre");
  }

  /** The manoeuvre's boats and cells, the repair's decks, on the own grid. */
  decorateOwnMode(cell, cls) {
    const mode = this.mode;
    if (!mode) return;
    if (mode.kind === "move") {
      if (mode.moves.some((a) => a.src === cell)) cls.push("bsx-pick");
      if (mode.src === cell) cls.push("selected");
      if (mode.src && mode.moves.some((a) => a.src === mode.src && a.dst === cell)) cls.push("bsx-dst");
      if (this.aim?.dst === cell) cls.push("bsx-area-set");
    } else if (mode.kind === "repair") {
      if (mode.repairs.some((a) => a.cell === cell)) cls.push("bsx-pick");
      if (this.aim?.cell === cell) cls.push("bsx-area-set");
    }
  }

  renderGrid(grid, side, shooting) {
    super.renderGrid(grid, side, shooting);
    // aiming the manoeuvre or the repair, the own grid is the one played on
    if (grid === this.own) grid.root.classList.toggle("can-shoot", !!this.mode && this.mode.kind !== "area" && this.canAct());
  }

  /** The energy bar and the ability buttons (own seat only: D12), with the aim's confirmation. */
  renderAbilities() {
    const v = this.view;
    const box = this.abilityBox;
    box.hidden = !this.seat || this.replay || this.game.status !== "play" || !v?.abilities;
    if (box.hidden) return;
    // the opponent's turn: on a phone the buttons fold to names and costs (every reason would be «не ваш ход»)
    box.classList.toggle("waiting", !this.canAct());
    const e = v.energy;
    this.energyEl.innerHTML = "";
    if (e) {
      const pct = Math.max(0, Math.min(100, (100 * e.value) / (e.max || 1)));
      const fill = h("span", { class: "bsx-energy-fill" });
      fill.style.width = `${pct}%`;
      this.energyEl.append(
        h("span", { class: "bsx-energy-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(e.max), "aria-valuenow": String(e.value), "aria-label": t("Энергия") }, fill),
        h("span", { class: "bsx-energy-text" }, h("strong", {}, t("Энергия: {value}/{max}", { value: e.value, max: e.max })), " ", h("span", { class: "muted" }, t("+{gain} в начале хода", { gain: e.gain }))),
      );
    }
    const tier = tierOf(v.levels?.[this.seat]);
    this.abilitiesEl.innerHTML = "";
    for (const a of v.abilities) {
      const active = this.mode?.key === a.key;
      const usable = a.ready && this.canAct();
      const facts = [this.m.abilityNeeds(a.key)];
      if (a.reveal) facts.push(t("раскрывает вашу палубу: {p} %", { p: a.reveal }));
      if (!a.ends_turn) facts.push(t("не тратит ход"));
      const btn = h(
        "button",
        {
          type: "button",
          class: `bsx-ability${a.ultimate ? " ultimate" : ""}${active ? " active" : ""}`,
          dataset: { ability: a.key },
          disabled: !usable,
          "aria-pressed": active ? "true" : "false",
          title: a.why ? `${this.m.abilityName(a.key)}: ${whyText(a.why)}` : this.m.abilityName(a.key),
          onclick: () => this.choose(a),
        },
        h("span", { class: "bsx-ability-icon-box", html: abilityIcon(a.key, tier) }),
        h(
          "span",
          { class: "bsx-ability-body" },
          h("span", { class: "bsx-ability-name" }, this.m.abilityName(a.key), a.ultimate ? h("span", { class: "visually-hidden" }, ", ") : null, a.ultimate ? h("span", { class: "bsx-ult" }, t("ульта")) : null),
          h("span", { class: "bsx-ability-facts" }, facts.filter(Boolean).join(" · ")),
          a.why ? h("span", { class: "bsx-why" }, whyText(a.why)) : null,
        ),
        h("span", { class: `bsx-cost${e && e.value < a.cost ? " short" : ""}`, title: t("Цена: {cost} энергии", { cost: a.cost }) }, `⚡${a.cost}`),
      );
      this.abilitiesEl.append(btn);
    }
    this.renderAim();
  }

  /** What is being aimed, and «Подтвердить» / «Отмена». */
  renderAim() {
    const mode = this.mode;
    this.aimEl.hidden = !mode;
    this.aimEl.innerHTML = "";
    if (!mode) return;
    const name = this.m.abilityName(mode.key);
    let text;
    if (mode.kind === "area") text = this.aim ? t("{name}: центр {cell}. Подтвердите или выберите другую клетку.", { name, cell: this.m.cellText(this.aim.cell) }) : t("{name}: выберите центр на поле соперника.", { name });
    else if (mode.kind === "move") text = this.aim ? t("{name}: {src} → {dst}. Подтвердите.", { name, src: this.m.cellText(this.aim.src), dst: this.m.cellText(this.aim.dst) }) : mode.src ? t("{name}: выберите соседнюю клетку для катера {src}.", { name, src: this.m.cellText(mode.src) }) : t("{name}: выберите свой катер на своём поле.", { name });
    else text = this.aim ? t("{name}: палуба {cell}. Подтвердите.", { name, cell: this.m.cellText(this.aim.cell) }) : t("{name}: выберите подбитую палубу на своём поле.", { name });
    this.aimEl.append(
      h("p", { class: "bsx-aim-text" }, text),
      h(
        "div",
        { class: "button-row" },
        h("button", { type: "button", class: "btn primary bsx-confirm", disabled: !this.aim, onclick: () => this.confirm() }, t("Подтвердить")),
        h("button", { type: "button", class: "btn bsx-cancel", onclick: () => this.cancelMode() }, t("Отмена")),
      ),
    );
  }

  renderTurn() {
    super.renderTurn();
    if (this.mode && this.canAct()) {
      const name = this.m.abilityName(this.mode.key);
      // the next step: the target, or its confirmation once chosen
      if (this.aim) this.turnEl.textContent = this.aim.cell ? t("{name} — {cell}: подтвердите или выберите другую клетку", { name, cell: this.m.cellText(this.aim.cell) }) : t("{name} — {src} → {dst}: подтвердите или выберите другую клетку", { name, src: this.m.cellText(this.aim.src), dst: this.m.cellText(this.aim.dst) });
      else this.turnEl.textContent = this.mode.kind === "area" ? t("Выберите центр: {name}", { name }) : this.mode.kind === "move" ? t("Манёвр: катер, затем клетка на своём поле") : t("Ремонт: подбитая палуба на своём поле");
    }
    // the newest event of the game: an ability, said as such (the opponent's named: D12)
    const last = this.events().pop();
    if (!last || this.replay || last.kind !== "use") return;
    const who = this.seat ? (last.side === this.seat ? t("Вы") : t("Соперник")) : SIDE_RU[last.side];
    this.answerEl.className = "bs-answer bsx-use-line";
    this.answerEl.textContent = `${who}: ${this.eventText(last)}`;
  }

  /** The game's events, ply order: each shot, and each ability use with the shots and the scan of its ply. */
  events() {
    const v = this.view;
    const out = [];
    for (const side of ["south", "north"]) {
      const sv = v?.sides?.[side];
      if (!sv) continue;
      const uses = sv.uses || [];
      const usePly = new Set(uses.map((u) => u.ply));
      for (const u of uses) {
        out.push({ kind: "use", side, ply: u.ply, ability: u.ability, cell: u.cell, shots: (sv.shots || []).filter((s) => s.ply === u.ply), scan: (sv.scans || []).find((s) => s.ply === u.ply) || null });
      }
      for (const s of sv.shots || []) if (!usePly.has(s.ply) || !s.via) out.push({ kind: "shot", side, ply: s.ply, shot: s });
    }
    // a ply's shot fired by an ability is in its use's line
    const byPly = new Set(out.filter((e) => e.kind === "use").map((e) => `${e.side}:${e.ply}`));
    return out.filter((e) => e.kind === "use" || !(e.shot.via && byPly.has(`${e.side}:${e.ply}`))).sort((a, b) => a.ply - b.ply || (a.kind === "use" ? -1 : 1));
  }

  /** An ability use in words: «Сонар 3×3 — Б5: есть палуба», «Авиаудар — Б5: Б5 мимо, Б6 ранен». */
  eventText(e) {
    const name = this.m.abilityName(e.ability);
    const where = e.cell ? ` — ${this.m.cellText(e.cell)}` : "";
    const parts = [];
    if (e.shots.length) parts.push(e.shots.map((s) => `${this.m.cellText(s.cell)} ${this.m.answerText(this.rules, s).toLowerCase()}`).join(", "));
    if (e.scan && e.scan.answer != null) parts.push(scanAnswer(e.scan));
    return `${name}${where}${parts.length ? `: ${parts.join("; ")}` : ""}`;
  }

  /** A cell's name for the log: the row letter set apart from the column («З» next to «10» reads as «310»). */
  cellNode(cell) {
    const text = this.m.cellText(cell);
    const m = /^(\D+)(\d+)$/.exec(text);
    if (!m) return text;
    return h("span", { class: "bsx-cellname" }, h("span", { class: "bsx-cellname-row" }, m[1]), m[2]);
  }

  /** `eventText`'s line as nodes, each cell by `cellNode`. */
  eventNodes(e) {
    const out = [this.m.abilityName(e.ability)];
    if (e.cell) out.push(" — ", this.cellNode(e.cell));
    const parts = [];
    if (e.shots.length) parts.push(e.shots.flatMap((s, i) => [i ? ", " : "", this.cellNode(s.cell), ` ${this.m.answerText(this.rules, s).toLowerCase()}`]));
    if (e.scan && e.scan.answer != null) parts.push([scanAnswer(e.scan)]);
    if (parts.length) out.push(": ", ...parts.flatMap((p, i) => (i ? ["; ", ...p] : p)));
    return out.filter((x) => x !== "");
  }

  renderLog() {
    const events = this.events();
    const key = `${events.length}:${allShots(this.view).length}`;
    if (this.logEl.dataset.count === key) return;
    this.logEl.dataset.count = key;
    this.logEl.innerHTML = "";
    if (!events.length) this.logEl.append(h("li", { class: "muted empty" }, t("Выстрелов ещё не было.")));
    for (const e of [...events].reverse()) {
      const who = this.seat ? (e.side === this.seat ? t("Вы") : t("Соперник")) : SIDE_RU[e.side];
      if (e.kind === "use") {
        this.logEl.append(h("li", { class: "bsx-log-use" }, h("span", { class: "bs-log-who" }, who), " ", h("span", { class: "bsx-log-icon", html: abilityIcon(e.ability, tierOf(this.view?.levels?.[e.side])) }), " ", ...this.eventNodes(e)));
      } else {
        const s = e.shot;
        this.logEl.append(h("li", { class: `answer-${s.answer}` }, h("span", { class: "bs-log-who" }, who), " ", h("strong", {}, this.cellNode(s.cell)), " — ", this.m.answerText(this.rules, s)));
      }
    }
  }

  /** Each bar: the commander's level and the badge of its tier. */
  renderLevels() {
    const levels = this.view?.levels || {};
    for (const bar of this.bars.bars) {
      const l = levels[bar.side];
      bar.level.hidden = l == null;
      if (l == null) continue;
      const tier = tierOf(l);
      if (bar.level.dataset.level === String(l)) continue;
      bar.level.dataset.level = String(l);
      bar.level.className = `bsx-level tier-${tier}`;
      bar.level.title = t("Уровень {level}", { level: l });
      // a phone's bar keeps only the number beside the badge
      bar.level.innerHTML = `${tierIcon(tier)}<span class="bsx-level-text">${t("ур. {level}", { level: l })}</span><span class="bsx-level-num" aria-hidden="true">${l}</span>`;
    }
  }
}
