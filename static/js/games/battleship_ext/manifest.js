// «Морской бой: расширенный» draws from its manifest (GET /games/battleship_ext/manifest.json) as classic «Морской
// бой» does (../battleship/manifest.js), with one grid per room: the board the creator chose (rules C1, D1:
// 10×10 «Классика», 16×16 «Перельман», 18×18 «Гигант»), its fleet, and the figures that are not ships (mines «M»
// and minesweepers «T», C3). Where the manifest does not carry a table, the one the rules fix is derived here
// (rows and columns by D1, the fleets of C1): the screen then still matches the server's view.

import { Manifest, resultReason as classicReason } from "../battleship/manifest.js";
import { t } from "../../core/t.js";

// Row letters on the wire and on screen (D1): Latin a…, Russian А Б В … without Й.
const ROWS = "abcdefghijklmnopqrstuvwxyz";
const ROWS_RU = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩ";
// Board keys (C1) → side length and fleet [size, count], biggest first; names by size (C1 decision).
const BOARDS = {
  classic: { n: 10, fleet: [[4, 1], [3, 2], [2, 3], [1, 4]], name: "Классика" },
  perelman: { n: 16, fleet: [[4, 2], [3, 3], [2, 4], [1, 5]], name: "Перельман" },
  giant: { n: 18, fleet: [[5, 2], [4, 3], [3, 4], [2, 5], [1, 6]], name: "Гигант" },
}; // prettier-ignore
const SHIP_NAMES = { 5: "Супер-линкор", 4: "Линкор", 3: "Крейсер", 2: "Эсминец", 1: "Катер" };
const FIGURE_NAMES = { M: "Мина", T: "Тральщик" };
const ANSWERS = { miss: "Мимо", hit: "Ранен", sunk: "Убит", mine: "Мина!", sweeper: "Тральщик!" };
/** The abilities (C5, C6): their Russian names and what must hold to use them (the condition shown on a button). */
export const ABILITIES = {
  air: { name: "Авиаудар", needs: "корабль от 4 палуб на плаву", shape: "крест" },
  sonar: { name: "Сонар 3×3", needs: "эсминец на плаву", shape: "3×3" },
  move: { name: "Манёвр катера", needs: "нетронутый катер, раз за партию", shape: "" },
  carpet: { name: "Ковровый удар", needs: "корабль от 4 палуб на плаву, раз за бой", shape: "3×3" },
  satellite: { name: "Спутник-сканер", needs: "эсминец на плаву, раз за бой", shape: "5×5" },
  repair: { name: "Экстренный ремонт", needs: "подбитый корабль на плаву, раз за бой", shape: "" },
};

// the same words as message ids, for `admiral i18n update` (the catalog extracts string literals given to t())
() => [
  t("Классика"), t("Перельман"), t("Гигант"), t("Супер-линкор"), t("Линкор"), t("Крейсер"), t("Эсминец"), t("Катер"),
  t("Мина"), t("Тральщик"), t("Мимо"), t("Ранен"), t("Убит"), t("Мина!"), t("Тральщик!"), t("Авиаудар"), t("Сонар 3×3"),
  t("Манёвр катера"), t("Ковровый удар"), t("Спутник-сканер"), t("Экстренный ремонт"),
  t("корабль от 4 палуб на плаву"), t("эсминец на плаву"), t("нетронутый катер, раз за партию"),
  t("корабль от 4 палуб на плаву, раз за бой"), t("эсминец на плаву, раз за бой"), t("подбитый корабль на плаву, раз за бой"),
  t("крест"),
]; // prettier-ignore

/** The grid of board `key` ({width, height, rows, rows_ru, columns}): the manifest's, else D1's. */
function boardOf(data, key) {
  const given = data.boards?.[key];
  if (given) return given;
  const n = BOARDS[key]?.n ?? data.board?.width ?? 10;
  return { width: n, height: n, rows: ROWS.slice(0, n), rows_ru: ROWS_RU.slice(0, n), columns: Array.from({ length: n }, (_, c) => String(c + 1)) };
}

export class ExtManifest extends Manifest {
  /**
   * @param {object} data the manifest's JSON
   * @param {string} boardKey "classic" | "perelman" | "giant" (the room's `options.board`)
   * @param {object} [board] the grid, when a view gave it (`view.board`)
   */
  constructor(data, boardKey = "classic", board = null) {
    super(data, board || boardOf(data, boardKey));
    this.boardKey = boardKey;
  }

  /** The same manifest drawn on the board of room `options` ({board, mines, sweepers}). */
  forOptions(options) {
    return new ExtManifest(this.data, options?.board || "classic");
  }

  /** The fleet of board `key`: [{code, size, count, name}], biggest first. */
  fleet(key = this.boardKey) {
    const given = this.data.fleets?.[key] || this.data.boards?.[key]?.fleet;
    if (given) return given.map((s) => ({ ...s, name: s.name || SHIP_NAMES[s.size] || s.code }));
    return (BOARDS[key]?.fleet || []).map(([size, count]) => ({ code: String(size), size, count, name: SHIP_NAMES[size] }));
  }

  /** The figures that are not ships (C3) a room gives each side: [{code: "M"|"T", size: 1, count, name}]. */
  figures(options) {
    const out = [];
    if (options?.mines) out.push({ code: "M", size: 1, count: options.mines, name: FIGURE_NAMES.M, figure: true });
    if (options?.sweepers) out.push({ code: "T", size: 1, count: options.sweepers, name: FIGURE_NAMES.T, figure: true });
    return out;
  }

  shipClass(key, code) {
    return this.fleet(key).find((s) => s.code === code) || null;
  }

  /** The translated name of a ship class or a figure: «Линкор», «Мина»… */
  shipName(key, code) {
    const figure = (this.data.figures || []).find((f) => f.code === code)?.name || FIGURE_NAMES[code];
    if (figure) return t(figure);
    const s = this.shipClass(key, code);
    return s ? t(s.name) : SHIP_NAMES[code] ? t(SHIP_NAMES[code]) : code;
  }

  touching() {
    return false; // C2: no figure touches another
  }

  answerWord(key, answer) {
    const word = this.data.answers?.[key]?.[answer] || this.data.answers?.[answer] || ANSWERS[answer];
    return word ? t(word) : answer;
  }

  answerText(key, shot) {
    return this.answerWord(key, shot.answer);
  }

  /** The auto-arrangement styles: the manifest's, else one button in the server's own style. */
  setupStyles() {
    const given = super.setupStyles();
    return given.length ? given : [[null, t("Расставить")]];
  }

  /** The board's name with its size: «Гигант 18×18». */
  boardName(key = this.boardKey) {
    const b = boardOf(this.data, key);
    const name = this.data.boards?.[key]?.name || BOARDS[key]?.name || key;
    return `${t(name)} ${b.width}×${b.height}`;
  }

  /** The room in words: «Гигант 18×18 · мин: 3 · тральщиков: 1». */
  roomText(options) {
    const o = options || {};
    return [this.boardName(o.board || this.boardKey), t("мин: {n}", { n: o.mines ?? 0 }), t("тральщиков: {n}", { n: o.sweepers ?? 0 })].join(" · ");
  }

  /** The manifest's entry of ability `key` (`abilities`: a list of `{key, name, …}`, or a table by key). */
  ability(key) {
    const a = this.data.abilities;
    return Array.isArray(a) ? a.find((x) => x.key === key) : a?.[key];
  }

  /** An ability's translated name (C5, C6). */
  abilityName(key) {
    const name = this.ability(key)?.name || ABILITIES[key]?.name;
    return name ? t(name) : key;
  }

  /** What an ability needs, translated («эсминец на плаву»). */
  abilityNeeds(key) {
    const needs = this.ability(key)?.needs || ABILITIES[key]?.needs;
    return needs ? t(needs) : "";
  }
}

/** Fetch the manifest at `url`. */
export async function loadManifest(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(t("Ошибка {status}", { status: res.status }));
  return new ExtManifest(await res.json());
}

/** The tier of a commander's level (C7: one look per tier): 1 (levels 1–3), 2 (4–6), 3 (7–9), 4 (10). */
export function tierOf(level) {
  const l = Number(level) || 1;
  return l >= 10 ? 4 : l >= 7 ? 3 : l >= 4 ? 2 : 1;
}

export const resultReason = classicReason;
