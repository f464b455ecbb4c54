// «Морской бой»'s tables come from its manifest (GET /games/battleship/manifest.json, docs/protocol.md): the grid,
// its row letters (Latin on the wire, Russian on screen: А–К without Й), the fleets of each rule set with their
// Russian names, and the words of the answers. The client keeps no copy of them.

import { houseReason, otherSide, SIDE_RU_GEN } from "../../core/i18n.js";
import { lang, t } from "../../core/t.js";

export class Manifest {
  /**
   * @param {object} data the manifest's JSON
   * @param {{width: number, height: number, rows: string, rows_ru: string, columns?: string[]}} [board] the grid
   *        drawn (a variant with several boards gives the room's; default the manifest's one `board`)
   */
  constructor(data, board = data.board) {
    this.data = data;
    this.board = board;
    this.width = board.width;
    this.height = board.height;
    this.rows = board.rows; // wire letters, top to bottom
    // on screen: Russian letters in Russian, the wire's in capitals otherwise
    this.rowsShown = lang() === "ru" ? [...board.rows_ru] : [...board.rows.toUpperCase()];
    this.columns = board.columns || Array.from({ length: board.width }, (_, c) => String(c + 1));
  }

  /** Wire name of the cell at 0-based `row` (top) and `col` (left): "b5". */
  cellName(row, col) {
    return `${this.rows[row]}${this.columns[col]}`;
  }

  /** [row, col] of a wire cell name (0-based). */
  cellPos(cell) {
    return [this.rows.indexOf(cell[0]), Number(cell.slice(1)) - 1];
  }

  /** Whether [row, col] is on the grid. */
  onGrid(row, col) {
    return row >= 0 && row < this.height && col >= 0 && col < this.width;
  }

  /** A cell as the screen writes it: "b5" → «Б5» (rules A1). */
  cellText(cell) {
    if (!cell) return "";
    const [r] = this.cellPos(cell);
    return r < 0 ? cell : `${this.rowsShown[r]}${cell.slice(1)}`;
  }

  /** Every cell, reading order. */
  cells() {
    const out = [];
    for (let r = 0; r < this.height; r++) for (let c = 0; c < this.width; c++) out.push(this.cellName(r, c));
    return out;
  }

  /** The fleet of rule set `rules` ("classic" | "hasbro"): [{code, size, count, name}], biggest first. */
  fleet(rules) {
    return this.data.fleets[rules] || [];
  }

  /** A ship class of `rules` by its code. */
  shipClass(rules, code) {
    return this.fleet(rules).find((s) => s.code === code) || null;
  }

  /** The translated name of ship class `code`. */
  shipName(rules, code) {
    const s = this.shipClass(rules, code);
    return s ? t(s.name) : code;
  }

  /** Ships may touch under `rules` (B1), or not (A2). */
  touching(rules) {
    return !!this.data.rule_sets?.[rules]?.touching;
  }

  /** The word of an answer ("miss" | "hit" | "sunk") under `rules`, translated: «Мимо», «Ранен», «Потоплен»… */
  answerWord(rules, answer) {
    const word = this.data.answers?.[rules]?.[answer];
    return word ? t(word) : answer;
  }

  /** An answer as the shooter heard it: the word, with the ship's name when the answer named one (Hasbro). */
  answerText(rules, shot) {
    const word = this.answerWord(rules, shot.answer);
    return shot.ship && rules === "hasbro" ? `${word}: ${this.shipName(rules, shot.ship)}` : word;
  }

  /** The auto-arrangement styles: [[value, label]] (translated labels). */
  setupStyles() {
    return (this.data.setup_styles || []).map(([v, label]) => [v, t(label)]);
  }

  /** The room options in words, as the home page named them: «Hasbro · Залп». */
  roomText(options) {
    const parts = [];
    for (const o of this.data.options || []) {
      const value = options?.[o.name] ?? o.default;
      if (typeof o.default === "boolean") {
        const applies = Object.entries(o.applies || {}).every(([k, vs]) => vs.includes(options?.[k]));
        if (value !== o.default && applies) parts.push(t(o.label));
      } else {
        const choice = o.choices.find(([v]) => v === value);
        parts.push(choice ? t(choice[1]) : String(value));
      }
    }
    return parts.join(" · ");
  }
}

/** Fetch the manifest at `url` (the page's `data-manifest`, cached by the browser). */
export async function loadManifest(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(t("Ошибка {status}", { status: res.status }));
  return new Manifest(await res.json());
}

/** Why a game of «Морской бой» ended, for the viewer (`me` null for a spectator). */
export function resultReason(result, me) {
  if (!result) return "";
  const house = houseReason(result, me);
  if (house != null) return house;
  if (result.reason === "fleet_sunk") {
    const loser = result.winner ? otherSide(result.winner) : null;
    if (me && loser === me) return t("Ваш флот потоплен.");
    if (me) return t("Флот соперника потоплен целиком.");
    return t("Флот {side} потоплен.", { side: SIDE_RU_GEN[loser] });
  }
  return result.reason || "";
}
