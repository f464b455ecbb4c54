// «Адмирал»'s tables come from its manifest (GET /games/admiral/manifest.json, docs/protocol.md), computed by the
// engine: the board (size, column letters, each side's zone and front row), the units (codes, Russian names,
// counts, strengths, carriers, how they attack, their roles), the scale of strength and a few rule numbers. The
// client keeps no copy of them. A page loads the manifest once (its URL is the page's `data-manifest`) before it
// draws anything; the game's modules then read it through `manifest()`.

import { pt, t } from "../../core/t.js";

export class Manifest {
  /** @param {object} data the manifest's JSON */
  constructor(data) {
    this.data = data;
    const board = data.board;
    this.width = board.width;
    this.height = board.height;
    this.columns = board.columns; // wire letters, left to right as South sees the board
    // the letters shown: the engine's Russian ones as a message id (context "columns"), one letter a column
    const shown = [...pt("columns", board.columns_ru)];
    this.columnsShown = shown.length === this.width ? shown : [...board.columns_ru];
    this.zones = { south: board.zones.south, north: board.zones.north }; // cells, notation order
    this.frontRows = { south: board.front_rows.south, north: board.front_rows.north };
    // every kind in the fleet's order, with its code and name in the page's language
    this.units = data.units.map((u) => ({ ...u, label: pt("unit", u.ru), title: t(u.name) }));
    this.byCode = new Map(this.units.map((u) => [u.code, u]));
    this.fleetSize = data.fleet_size;
    this.scale = new Map(data.scale.map((r) => [[...r.kinds].sort().join("+"), r.row]));
    this.rules = data.rules; // {tether, blast, quiet_limit, formation: {min, max}}
  }

  /** The unit kind `code` (manifest fields plus `label`, its translated marker code, and `title`, its name). */
  unit(code) {
    return this.byCode.get(code) || null;
  }
}

let current = null;

/** The manifest the page loaded (`loadManifest`); throws before it is there. */
export function manifest() {
  if (!current) throw new Error("the game's manifest is not loaded yet");
  return current;
}

/** Fetch the manifest at `url` (the page's `data-manifest`, cached by the browser) and make it the page's. */
export async function loadManifest(url) {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) throw new Error(t("Ошибка {status}", { status: res.status }));
  current = new Manifest(await res.json());
  return current;
}
