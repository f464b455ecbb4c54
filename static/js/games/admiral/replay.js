// Step-through replay of a finished game from GET /api/games/{id}/replay (docs/protocol.md), on the house's replay
// panel (core/stepper.js). The server sends deltas (moves and removals per ply); the client only applies them.

import { endActionText } from "../../core/i18n.js";
import { ReplayPanel } from "../../core/stepper.js";
import { notationRu } from "./report.js";
import { t, tn } from "../../core/t.js";

/** Positions 0…N: Map cell → {side, kind}, position i being the board after i plies. */
export function buildPositions(data) {
  const start = new Map();
  for (const side of ["south", "north"])
    for (const [cell, kind] of Object.entries(data.setups?.[side] || {})) start.set(cell, { side, kind });
  const out = [start];
  let cur = start;
  for (const p of data.plies || []) {
    cur = new Map(cur);
    for (const [from, to] of p.moves || []) {
      const u = cur.get(from);
      if (u) {
        cur.delete(from);
        cur.set(to, u);
      }
    }
    for (const r of p.removed || []) {
      const u = cur.get(r.cell);
      if (u && u.side === r.side) cur.delete(r.cell);
    }
    out.push(cur);
  }
  return out;
}

export class Replay {
  /**
   * @param {string} gameId
   * @param {(units: Map|null, ply: object|null, index: number) => void} onShow called with null to leave the replay
   */
  constructor(gameId, onShow) {
    let positions = [];
    const plyOf = (data, i) => (i > 0 ? data.plies[i - 1] : null);
    this.panel = new ReplayPanel({
      gameId,
      prepare: (data) => {
        positions = buildPositions(data);
        return positions.length - 1;
      },
      label: (data, i) => {
        const ply = plyOf(data, i);
        const n = positions.length - 1;
        return ply ? t("Полуход {i} из {n}: {action}", { i, n, action: actionText(ply.action) }) : tn("Начальная расстановка ({n} полуход)", "Начальная расстановка ({n} полуходов)", n);
      },
      onShow: (data, i) => onShow(positions[i], plyOf(data, i), i),
      onClose: () => onShow(null, null, -1),
    });
    this.el = this.panel.el;
  }
}

/** A ply's action in words: an end action («resign south» → «Юг сдался.»), else its notation in Russian cells. */
function actionText(action) {
  const [kind, side] = String(action).split(" ");
  return endActionText(kind, side) ?? notationRu(action);
}
