// What happened in «Военно-морская игра», in Russian words: each turn (a step, a turn, a strike with the side struck,
// a mine laid or lifted), each roll of the die and each sinking (NAVAL_GAME.md §3–§5).
//
// The view carries the rolls and the sinkings (with their plies) but not the orders, so a turn is read off two
// consecutive views (`diffTurn`): the ship that moved or turned, the mines that changed, the strike's side from both
// ships' facings before it. The replay reads each ply's notation instead (`Position.apply`), starting from the
// record's setups, so after the end every position can be shown again.

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

/**
 * The turn made between two consecutive views (`prev` one ply before `next`), or null when it cannot be told (more
 * than one ply apart, an end action).
 */
export function diffTurn(prev, next) {
  if (!prev || !next || next.ply !== prev.ply + 1) return null;
  const side = prev.to_act;
  if (!side) return null;
  const before = prev.sides[side].ships;
  const after = new Map(next.sides[side].ships.map((s) => [s.id, s]));
  const enemyBefore = new Map(prev.sides[side === "south" ? "north" : "south"].ships.map((s) => [s.point, s]));
  const minesBefore = new Set(prev.mines);
  const minesAfter = new Set(next.mines);
  const laid = next.mines.find((p) => !minesBefore.has(p));
  const lifted = prev.mines.find((p) => !minesAfter.has(p));
  const mine = laid ? { op: "lay", at: laid } : lifted && next.sides[side].reserve > prev.sides[side].reserve ? { op: "lift", at: lifted } : null;
  const sunkNow = (next.sides[side].sunk || []).filter((s) => s.ply === prev.ply);
  for (const s of before) {
    const a = after.get(s.id);
    const gone = !a && sunkNow.find((x) => x.ship === s.id);
    if (a && a.point === s.point && a.facing === s.facing) continue;
    if (a && a.point === s.point) {
      return { side, ply: prev.ply, kind: "turn", ship: s.kind, from: s.point, facing: a.facing, turn: a.facing === RIGHT[s.facing] ? "right" : "left", mine };
    }
    const to = a ? a.point : gone ? gone.point : null;
    if (!to) continue;
    const target = enemyBefore.get(to);
    if (target) return { side, ply: prev.ply, kind: "strike", ship: s.kind, from: s.point, to, target: target.kind, struck: struckSide(s.facing, target.facing), mine };
    return { side, ply: prev.ply, kind: "step", ship: s.kind, from: s.point, to, mine };
  }
  if (mine) {
    const sweeper = before.find((s) => s.kind === "M");
    return { side, ply: prev.ply, kind: "mine", ship: "M", from: sweeper ? sweeper.point : mine.at, mine };
  }
  return null;
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
   * Apply one ply of the record (`{action, side, events}`); returns the turn as `turnText` words it (null for an
   * end action) and the last move's points.
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
        if (turn.sep === "x" && target) e = { kind: "strike", ship: s.kind, from: turn.from, to: turn.to, target: target.kind, struck: struckSide(s.facing, target.facing) };
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
