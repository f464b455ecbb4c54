// What happened in «Военно-морская игра», in Russian words: each turn (a step, a turn, a strike with the side struck,
// a mine laid or lifted), each roll of the die and each sinking (NAVAL_GAME.md §3–§5).
//
// The view carries the orders given so far (`history`: ply, side, notation), the rolls and the sinkings with their
// plies. `readHistory` words every order from them alone (a reload, another device or a spectator who joins late
// shows the same log): it walks the history back from the view's position to the start, then forward again
// (`Position.apply`), so each strike's side is told from both ships' facings before it. The replay reads each
// ply's notation the same way (`Position.apply`), starting from the record's setups, so after the end every
// position can be shown again.

import { SIDE_RU, endActionText } from "../../core/i18n.js";
import { t } from "../../core/t.js";
import { FACING_RU, STRUCK_RU } from "./manifest.js";

const BACK = { n: "s", s: "n", e: "w", w: "e" };
const RIGHT = { n: "e", e: "s", s: "w", w: "n" };
const LEFT = { n: "w", w: "s", s: "e", e: "n" };

/** The side a strike from a ship facing `striker` lands on, for a target facing `target` (§4). */
export function struckSide(striker, target) {
  if (target === BACK[striker]) return "bow";
  if (target === striker) return "stern";
  return "broadside";
}

/** «Крейсер d1» (the ship as it stood). */
function shipAt(m, kind, point) {
  return `${m.shipName(kind)} ${point}`;
}

/**
 * A turn in words.
 * @param {import("./manifest.js").NavalManifest} m
 * @param {{kind: "step"|"turn"|"strike"|"mine", ship: string, from: string, to?: string, facing?: string,
 *          turn?: "left"|"right", target?: string, struck?: string, mine?: {op: string, at: string}}} e
 */
export function turnText(m, e) {
  const fem = m.feminine(e.ship);
  const who = shipAt(m, e.ship, e.from);
  let text = "";
  if (e.kind === "step") text = fem ? t("{ship} прошла на {to}", { ship: who, to: e.to }) : t("{ship} прошёл на {to}", { ship: who, to: e.to });
  else if (e.kind === "turn") {
    const facing = FACING_RU[e.facing] || e.facing;
    if (e.turn === "left") text = fem ? t("{ship} повернула налево (нос {facing})", { ship: who, facing }) : t("{ship} повернул налево (нос {facing})", { ship: who, facing });
    else text = fem ? t("{ship} повернула направо (нос {facing})", { ship: who, facing }) : t("{ship} повернул направо (нос {facing})", { ship: who, facing });
  } else if (e.kind === "strike") {
    const params = { ship: who, struck: STRUCK_RU[e.struck] || "", target: `${m.shipAccusative(e.target)} ${e.to}` };
    text = fem ? t("{ship} ударила {struck} {target}", params) : t("{ship} ударил {struck} {target}", params);
  }
  if (e.mine) {
    const mine = e.mine.op === "lay" ? t("мина поставлена на {point}", { point: e.mine.at }) : t("мина снята с {point}", { point: e.mine.at });
    text = text ? `${text}; ${mine}` : `${m.shipName("M")} ${e.from}: ${mine}`;
  }
  return text;
}

/** A roll in words: «Береговая батарея e11: миноносец T1 на e11 — взрыв!». */
export function rollText(m, r) {
  const what = r.cause === "gun" ? t("Береговая батарея") : t("Мина");
  const result = r.explosion || r.value === 0 ? t("взрыв!") : t("мимо");
  return t("{what} {point}: {ship} — {result}", { what, point: r.point, ship: m.shipName(r.kind).toLowerCase(), result });
}

/** A sinking in words: «Канонерка d5 (Юг) потоплена ударом». */
export function sunkText(m, s) {
  const cause = { strike: t("ударом"), mine: t("на мине"), gun: t("береговой батареей") }[s.cause] || s.cause;
  const params = { ship: shipAt(m, s.kind, s.point), side: SIDE_RU[s.side], cause };
  return m.feminine(s.kind) ? t("{ship} ({side}) потоплена {cause}", params) : t("{ship} ({side}) потоплен {cause}", params);
}

const STEP = { n: [0, 1], s: [0, -1], e: [1, 0], w: [-1, 0] };

/** The facing of a step or strike from `from` to `to` (bow first, §3): "n" toward row 13, "e" toward column i. */
function heading(from, to) {
  const dc = to.charCodeAt(0) - from.charCodeAt(0);
  const dr = Number(to.slice(1)) - Number(from.slice(1));
  return Object.keys(STEP).find((f) => STEP[f][0] === Math.sign(dc) && STEP[f][1] === Math.sign(dr)) || null;
}

/** An order's notation in parts: {mine: {op, at}|null, mineFirst, move: {from, sep, to}|null, rot: {from, rot}|null}. */
function parseOrder(notation) {
  const words = String(notation).split(/\s+/);
  const out = { mine: null, mineFirst: false, move: null, rot: null };
  for (const w of words) {
    let g;
    if ((g = /^([+-])([a-i]\d+)$/.exec(w))) out.mine = { op: g[1] === "+" ? "lay" : "lift", at: g[2] };
    else if ((g = /^([a-i]\d+)([-x])([a-i]\d+)$/.exec(w))) out.move = { from: g[1], sep: g[2], to: g[3] };
    else if ((g = /^([a-i]\d+)([<>])$/.exec(w))) out.rot = { from: g[1], rot: g[2] };
  }
  out.mineFirst = !!out.mine && !/^[+-]/.test(words[words.length - 1]);
  return out;
}

/**
 * The orders of a view's `history` in words, from the view alone: `{turns: [{ply, side, text, kind, …}], last}` —
 * every order as `turnText` words it (with `ply`, `side`), and the last order's points for the board's mark
 * (`{from, to, point}`, null before the first order).
 *
 * Back from the view's position to the start: each order undone (a step or a strike moves its ship back, a sunk ship
 * comes back where it sank, a turn turns back, a mine goes or comes back); a ship that sank stepping keeps the
 * facing of its step (bow first); the side a strike landed on is the history's own (`struck`), so a game from a
 * position (a lesson) words it right too. Then forward again through `Position.apply`, which words each order.
 */
export function readHistory(view) {
  const history = view?.history || [];
  if (!history.length) return { turns: [], last: null };
  const ships = new Map(); // point → {side, kind, facing}
  for (const side of ["south", "north"]) for (const s of view.sides[side].ships) ships.set(s.point, { side, kind: s.kind, facing: s.facing });
  const mines = new Set(view.mines || []);
  const sunkAt = new Map(); // ply → [sunk]
  for (const side of ["south", "north"]) {
    for (const s of view.sides[side].sunk || []) {
      if (!sunkAt.has(s.ply)) sunkAt.set(s.ply, []);
      sunkAt.get(s.ply).push({ ...s, side });
    }
  }
  for (const entry of [...history].reverse()) {
    const o = parseOrder(entry.notation);
    const sunk = sunkAt.get(entry.ply) || [];
    if (o.mine) {
      if (o.mine.op === "lay") mines.delete(o.mine.at);
      else mines.add(o.mine.at);
    }
    if (o.rot) {
      const s = ships.get(o.rot.from);
      if (s?.facing) s.facing = o.rot.rot === ">" ? LEFT[s.facing] : RIGHT[s.facing];
    } else if (o.move) {
      const { from, to } = o.move;
      const lost = sunk.find((x) => x.side === entry.side && x.point === to && x.cause !== "strike"); // gun or mine
      let mover = lost ? { side: entry.side, kind: lost.kind, facing: heading(from, to) } : ships.get(to);
      if (mover && mover.side !== entry.side) mover = null;
      if (mover) {
        ships.delete(to);
        ships.set(from, mover);
      }
      const struck = sunk.find((x) => x.side !== entry.side && x.point === to && x.cause === "strike");
      if (struck) ships.set(to, { side: struck.side, kind: struck.kind, facing: null });
    }
  }
  const setups = { south: {}, north: {} };
  for (const [point, s] of ships) setups[s.side][point] = `${s.kind}${s.facing || (s.side === "south" ? "n" : "s")}`;
  const pos = new Position(setups);
  for (const m of mines) pos.mines.add(m);
  const turns = [];
  let last = null;
  for (const entry of history) {
    const events = (sunkAt.get(entry.ply) || []).map((x) => `${x.side} ${x.ship} sunk at ${x.point} (${x.cause})`);
    const r = pos.apply({ action: entry.notation, side: entry.side, events, struck: entry.struck });
    if (r.turn) turns.push({ ...r.turn, ply: entry.ply, side: entry.side });
    last = r.last;
  }
  return { turns, last };
}

/** A position to replay: ships by point ({side, kind, facing}), the mines. */
export class Position {
  /** From the record's setups: {south: {"e1": "Bn", …}, north: {…}}. */
  constructor(setups) {
    this.ships = new Map();
    this.mines = new Set();
    for (const side of ["south", "north"]) {
      for (const [point, code] of Object.entries(setups?.[side] || {})) this.ships.set(point, { side, kind: code[0], facing: code[1] || (side === "south" ? "n" : "s") });
    }
  }

  copy() {
    const p = new Position({});
    for (const [k, v] of this.ships) p.ships.set(k, { ...v });
    p.mines = new Set(this.mines);
    return p;
  }

  /** The position as the board draws it. */
  sides() {
    const out = { south: [], north: [] };
    for (const [point, s] of this.ships) out[s.side].push({ id: point, kind: s.kind, point, facing: s.facing });
    return out;
  }

  /**
   * Apply one ply of the record (`{action, side, events, struck?}`: `struck` the side a strike landed on, when
   * known); returns the turn as `turnText` words it (null for an end action) and the last move's points.
   */
  apply(ply) {
    const action = String(ply.action);
    const words = action.split(/\s+/);
    if (["resign", "flag", "abandon", "draw"].includes(words[0])) return { text: endActionText(words[0], words[1]), last: null };
    let turn = null;
    let mine = null;
    for (const w of words) {
      let g;
      if ((g = /^([+-])([a-i]\d+)$/.exec(w))) mine = { op: g[1] === "+" ? "lay" : "lift", at: g[2] };
      else if ((g = /^([a-i]\d+)([-x])([a-i]\d+)$/.exec(w))) turn = { from: g[1], sep: g[2], to: g[3] };
      else if ((g = /^([a-i]\d+)([<>])$/.exec(w))) turn = { from: g[1], rot: g[2] };
    }
    let e = null;
    const doMine = () => {
      if (!mine) return;
      if (mine.op === "lay") this.mines.add(mine.at);
      else this.mines.delete(mine.at);
    };
    const mineFirst = mine && !/^[+-]/.test(words[words.length - 1]);
    if (mineFirst) doMine();
    if (turn?.rot) {
      const s = this.ships.get(turn.from);
      if (s) {
        const facing = turn.rot === ">" ? RIGHT[s.facing] : LEFT[s.facing];
        e = { kind: "turn", ship: s.kind, from: turn.from, facing, turn: turn.rot === ">" ? "right" : "left" };
        s.facing = facing;
      }
    } else if (turn) {
      const s = this.ships.get(turn.from);
      const target = this.ships.get(turn.to);
      if (s) {
        // the side struck as the server tells it (history's `struck`), else from both facings (the replay)
        if (turn.sep === "x" && target) e = { kind: "strike", ship: s.kind, from: turn.from, to: turn.to, target: target.kind, struck: ply.struck || struckSide(s.facing, target.facing) };
        else e = { kind: "step", ship: s.kind, from: turn.from, to: turn.to };
        this.ships.delete(turn.from);
        this.ships.set(turn.to, s);
      }
    }
    if (!mineFirst) doMine();
    if (!e && mine) e = { kind: "mine", ship: "M", from: mine.at };
    if (e) e.mine = mine;
    // the sinkings the server logged: «south T1 sunk at d5 (gun)» (a strike's target is already replaced)
    for (const ev of ply.events || []) {
      const g = /^(south|north) \S+ sunk at ([a-i]\d+) \((\w+)\)$/.exec(ev);
      if (!g) continue;
      const s = this.ships.get(g[2]);
      if (s && s.side === g[1]) this.ships.delete(g[2]);
    }
    return { turn: e, last: turn ? { from: turn.from, to: turn.to || null, point: turn.to || turn.from } : mine ? { point: mine.at } : null };
  }
}
