// The player bars of a play screen, for any game: a side's name (the viewer's «(вы)», a bot's name), whether it is
// its turn, its connection (with how long it has been gone), its clock; redrawn every second, which also sounds the
// own clock's low-time warning.

import { h } from "./dom.js";
import { SIDE_RU } from "./i18n.js";
import { LowTime } from "./sound.js";
import { t } from "./t.js";

export class PlayerBars {
  /**
   * @param {HTMLElement} root the screen (the bars stop ticking once it leaves the page)
   * @param {{sides: string[], seat: string|null, countdown: import("./clock.js").Countdown, aiLevel?: boolean,
   *          turn: (side: string) => string|null}} opts `sides`: one bar each, in order; `aiLevel`: a bot is named
   *          «ИИ «…»» with its level; `turn(side)`: the word for the side whose turn it is (null: not its turn)
   */
  constructor(root, opts) {
    this.opts = opts;
    this.seat = opts.seat;
    this.game = null;
    this.gameAt = 0;
    this.lowTime = new LowTime();
    this.bars = opts.sides.map((side) => this.bar(side));
    this.timer = setInterval(() => root.isConnected && this.game && this.tick(), 1000);
  }

  bar(side) {
    const name = h("span", { class: "pb-name" });
    const conn = h("span", { class: "pb-conn" });
    const turn = h("span", { class: "pb-turn" });
    const clock = h("span", { class: "clock", role: "timer", "aria-label": t("Часы: {side}", { side: SIDE_RU[side] }) });
    // A seated player's dot takes the pieces' colours (yours / the enemy's); a spectator's, the sides'.
    const whose = this.seat ? (side === this.seat ? " own" : " enemy") : "";
    const el = h("div", { class: `player-bar side-${side}${whose}` }, h("span", { class: "pb-dot", "aria-hidden": "true" }), name, turn, conn, clock);
    return { el, side, name, conn, turn, clock };
  }

  /** Show the clocks: once the bars are in the page (the countdown drops elements that are not). */
  bindClocks() {
    for (const bar of this.bars) this.opts.countdown.bind(bar.clock, bar.side);
  }

  /** A new snapshot's `game` (the disconnection times count from now). */
  set(game) {
    this.game = game;
    this.gameAt = performance.now();
  }

  stop() {
    clearInterval(this.timer);
  }

  /** Every second: the opponent's connection time, and the low-time warning of the own clock. */
  tick() {
    this.render();
    const seat = this.seat;
    const countdown = this.opts.countdown;
    if (seat && this.game.status === "play") this.lowTime.check(countdown.isRunning(seat), countdown.remaining(seat), this.game.version);
  }

  render() {
    const g = this.game;
    const aiLevel = !!this.opts.aiLevel;
    for (const bar of this.bars) {
      const p = g.players?.[bar.side] || {};
      const bot = p.bot ? (aiLevel && p.bot.level ? t(" — ИИ «{name}»", { name: t(p.bot.name) }) : ` — ${t(p.bot.name)}`) : "";
      bar.name.textContent = `${SIDE_RU[bar.side]}${bar.side === this.seat ? t(" (вы)") : bot}`;
      const turn = this.opts.turn(bar.side);
      bar.turn.textContent = turn ?? "";
      bar.el.classList.toggle("acting", turn != null);
      if (bar.side === this.seat) bar.conn.textContent = "";
      else if (p.bot) bar.conn.textContent = aiLevel && p.bot.level ? t("уровень {level}", { level: p.bot.level }) : "";
      else if (!p.joined) bar.conn.textContent = t("не присоединился");
      else if (p.connected) bar.conn.textContent = t("в сети");
      else {
        const ms = (p.disconnected_ms || 0) + (performance.now() - this.gameAt);
        bar.conn.textContent = t("нет связи {s} с", { s: Math.floor(ms / 1000) });
      }
      bar.conn.classList.toggle("offline-peer", !!p.joined && !p.connected && bar.side !== this.seat);
    }
  }
}
