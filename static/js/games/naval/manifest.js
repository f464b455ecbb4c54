// «Военно-морская игра»'s tables come from its manifest (GET /games/naval/manifest.json, NavalRuleset.manifest()):
// the map (9 × 13 points on grid lines, land, each side's coastal guns), the ships with their ranks and Russian
// names, the mines of a reserve, the die. The client keeps no copy of them; only the words of the log (the ships'
// accusative and gender, the facings) are the client's own (NAVAL_GAME.md §2–§5).

import { houseReason, otherSide, SIDE_RU_GEN } from "../../core/i18n.js";
import { pt, t } from "../../core/t.js";

/** A ship's letter on its silhouette, by code (translated in the context "naval"). */
const LETTER = { B: pt("naval", "Б"), C: pt("naval", "К"), G: pt("naval", "Кн"), T: pt("naval", "Мн"), M: pt("naval", "Тр"), S: pt("naval", "П") };
/** The object of a strike («ударил в борт канонерку»): the accusative, lower case. */
const ACCUSATIVE = {
  B: pt("naval accusative", "броненосец"),
  C: pt("naval accusative", "крейсер"),
  G: pt("naval accusative", "канонерку"),
  T: pt("naval accusative", "миноносец"),
  M: pt("naval accusative", "тральщик"),
  S: pt("naval accusative", "подлодку"),
};
/** Feminine names take feminine verbs («канонерка ударила»). */
const FEMININE = new Set(["G", "S"]);
/** Where a bow points, in words (the map's compass: n toward North's coast, row 13). */
export const FACING_RU = { n: t("на север"), e: t("на восток"), s: t("на юг"), w: t("на запад") };
/** The side of a target a strike lands on (§4). */
export const STRUCK_RU = { bow: t("в нос"), broadside: t("в борт"), stern: t("в корму") };

export class NavalManifest {
  /** @param {object} data the manifest's JSON */
  constructor(data) {
    this.data = data;
    const map = data.map || {};
    this.width = map.width || 9;
    this.height = map.height || 13;
    this.columns = [...(map.columns || "abcdefghi")];
    this.rows = map.rows || Array.from({ length: this.height }, (_, r) => String(r + 1));
    this.land = new Set(map.land || []);
    this.guns = { south: new Set(map.guns?.south || []), north: new Set(map.guns?.north || []) };
    this.ships = data.ships || [];
    this.mines = data.mines ?? 3;
  }

  /** [col, row] (0-based; row 0 is «1», South's coast) of a point's wire name "e1". */
  pos(point) {
    return [this.columns.indexOf(point[0]), Number(point.slice(1)) - 1];
  }

  /** Wire name of the point at 0-based col and row. */
  point(col, row) {
    return `${this.columns[col]}${row + 1}`;
  }

  /** Every point, South's coast first. */
  points() {
    const out = [];
    for (let r = 0; r < this.height; r++) for (let c = 0; c < this.width; c++) out.push(this.point(c, r));
    return out;
  }

  /** Whose coastal gun stands at `point` ("south" | "north" | null). */
  gunOf(point) {
    if (this.guns.south.has(point)) return "south";
    if (this.guns.north.has(point)) return "north";
    return null;
  }

  kind(code) {
    return this.ships.find((s) => s.code === code) || null;
  }

  /** «Крейсер» (translated). */
  shipName(code) {
    const k = this.kind(code);
    return k ? t(k.name) : code;
  }

  /** «крейсер», «канонерку»: the object of a strike. */
  shipAccusative(code) {
    return ACCUSATIVE[code] || this.shipName(code).toLowerCase();
  }

  feminine(code) {
    return FEMININE.has(code);
  }

  /** The letter on a silhouette: «К», «Кн»… */
  letter(code) {
    return LETTER[code] || code;
  }

  /** The fleet in rank order: [{code, count, name}]; 12 ships. */
  fleetSize() {
    return this.ships.reduce((n, s) => n + s.count, 0);
  }
}

/** Fetch the manifest at `url` (the page's `data-manifest`). */
export async function loadManifest(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(t("Ошибка {status}", { status: res.status }));
  return new NavalManifest(await res.json());
}

/** Why a game of «Военно-морская игра» ended, for the viewer (`me` null for a spectator), §6. */
export function resultReason(result, me) {
  if (!result) return "";
  const house = houseReason(result, me);
  if (house != null) return house;
  const loser = result.winner ? otherSide(result.winner) : null;
  switch (result.reason) {
    case "fleet_destroyed":
      if (me && loser === me) return t("Ваш флот уничтожен.");
      if (me) return t("Флот соперника уничтожен целиком.");
      return t("Флот {side} уничтожен.", { side: SIDE_RU_GEN[loser] });
    case "no_moves":
      if (me && loser === me) return t("У вас не осталось хода.");
      if (me) return t("У соперника не осталось хода.");
      return t("У {side} не осталось хода.", { side: SIDE_RU_GEN[loser] });
    case "quiet":
      return t("Ничья: 100 ходов каждого без потерь.");
    default:
      return result.reason || "";
  }
}
