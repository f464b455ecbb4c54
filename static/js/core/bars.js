// The player bars of a play screen, for any game: who holds a side (a registered commander's nickname, rank and rating,
// «Гость», «ИИ — <level>»; the viewer's «(вы)»), whether it is its turn, its connection while the game is on (with
// how long it has been gone), its clock; redrawn every second, which also sounds the own clock's low-time warning
// and marks the tab's title and icon on the viewer's move (attention.js).

import { setAttention } from "./attention.js";
import { h } from "./dom.js";
import { SIDE_RU } from "./i18n.js";
import { commanderDetails, commanderLine, ratingLabel } from "./names.js";
import { LowTime } from "./sound.js";
import { t } from "./t.js";

/** The own clock under this many ms marks the tab «⏰» (the clock itself turns red then too: clock.js). */
export const LOW_TITLE_MS = 30000;

/**
 * A commander's rating in this game as players read it (PROGRESSION.md §4): «1523», with «?» while provisional.
 * @param {{rating: number, provisional: boolean}|null|undefined} r the snapshot's `players[side].rating`
 * @returns {string} "" for none (a guest, a bot)
 */
export function ratingText(r) {
  return r ? ratingLabel(r.rating, r.provisional) : "";
}

/** A snapshot's registered player as names.js takes a commander. */
function commander(p) {
  return { name: p.name, rank: p.rank ? t(p.rank.name) : "", rating: p.rating?.rating, provisional: p.rating?.provisional };
}

/**
 * Who holds a side, as a bar's first part names it: the nickname of a registered commander (its rank and rating go
 * to {@link playerDetails}), «ИИ — <level name>» for a bot, «Гость» for a guest, the side's name for a seat nobody
 * took.
 * @param {object} p the snapshot's `game.players[side]`
 * @param {string} side
 * @returns {string}
 */
export function playerName(p, side) {
  if (p?.bot) return t("ИИ — {name}", { name: t(p.bot.name) });
  if (p?.name) return p.name;
  if (p?.joined) return t("Гость");
  return SIDE_RU[side];
}

/**
 * A registered commander's rank and rating («Матрос · 1500?»), after the nickname; "" for anyone else.
 * @param {object} p the snapshot's `game.players[side]`
 * @returns {string}
 */
export function playerDetails(p) {
  return p?.name && !p.bot ? commanderDetails(commander(p)) : "";
}

/**
 * Who holds a side in one line, as names.js orders it everywhere: «Nickname · rank · rating», or
 * {@link playerName}'s words for the others.
 * @param {object} p the snapshot's `game.players[side]`
 * @param {string} side
 * @returns {string}
 */
export function playerLine(p, side) {
  return p?.name && !p.bot ? commanderLine(commander(p)) : playerName(p, side);
}

export class PlayerBars {
  /**
   * @param {HTMLElement} root the screen (the bars stop ticking once it leaves the page)
   * @param {{sides: string[], seat: string|null, countdown: import("./clock.js").Countdown, aiLevel?: boolean,
   *          turn: (side: string) => string|null}} opts `sides`: one bar each, in order; `aiLevel`: a bot's bar
   *          shows its level's number too; `turn(side)`: the word for the side whose turn it is (null: not its turn)
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
    const info = h("span", { class: "pb-info" }); // rank · rating: on a phone the line under the name when it must
    const conn = h("span", { class: "pb-conn" });
    const turn = h("span", { class: "pb-turn" });
    const clock = h("span", { class: "clock", role: "timer", "aria-label": t("Часы: {side}", { side: SIDE_RU[side] }) });
    // A seated player's dot takes the pieces' colours (yours / the enemy's); a spectator's, the sides'.
    const whose = this.seat ? (side === this.seat ? " own" : " enemy") : "";
    const el = h("div", { class: `player-bar side-${side}${whose}` }, h("span", { class: "pb-dot", "aria-hidden": "true" }), name, info, turn, conn, clock);
    return { el, side, name, info, conn, turn, clock };
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

  /** The screen leaves: no more ticks, and the tab no longer calls for the player. */
  stop() {
    clearInterval(this.timer);
    setAttention(null);
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
    const on = g.status === "play" || g.status === "setup" || g.status === "waiting"; // after the end: no connection
    for (const bar of this.bars) {
      const p = g.players?.[bar.side] || {};
      const aiLevel = !!this.opts.aiLevel && !!p.bot?.level;
      bar.name.textContent = `${playerName(p, bar.side)}${bar.side === this.seat ? t(" (вы)") : ""}`;
      bar.name.title = SIDE_RU[bar.side];
      bar.info.textContent = playerDetails(p);
      bar.el.classList.toggle("has-info", bar.info.textContent !== "");
      const turn = this.opts.turn(bar.side);
      bar.turn.textContent = turn ?? "";
      bar.el.classList.toggle("acting", turn != null);
      if (bar.side === this.seat) bar.conn.textContent = "";
      else if (p.bot) bar.conn.textContent = aiLevel ? t("уровень {level}", { level: p.bot.level }) : "";
      else if (!on) bar.conn.textContent = "";
      else if (!p.joined) bar.conn.textContent = t("не присоединился");
      else if (p.connected) bar.conn.textContent = t("в сети");
      else if (g.settings?.days_per_move) bar.conn.textContent = t("не в сети"); // correspondence: away is normal
      else {
        const ms = (p.disconnected_ms || 0) + (performance.now() - this.gameAt);
        bar.conn.textContent = t("нет связи {s} с", { s: Math.floor(ms / 1000) });
      }
      bar.conn.classList.toggle("offline-peer", on && !!p.joined && !p.connected && !p.bot && bar.side !== this.seat);
    }
    this.markTab();
  }

  /** The tab's title and icon: the viewer's move («● Ваш ход»), their clock low («⏰»), or nothing. */
  markTab() {
    const seat = this.seat;
    const g = this.game;
    if (!seat || g?.status !== "play" || this.opts.turn(seat) == null) {
      setAttention(null);
      return;
    }
    const countdown = this.opts.countdown;
    const left = countdown.isRunning(seat) ? countdown.remaining(seat) : null;
    if (left != null && left < LOW_TITLE_MS) setAttention("low", left);
    else setAttention("turn");
  }
}
