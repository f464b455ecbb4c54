// The sounds of «Морской бой» on the house's sound board: a splash for «мимо», a bang for a hit, a roar for a ship
// gone down.

import { endSound, sounds } from "../../core/sound.js";

sounds.define({
  miss: [[0, [700, 180], 0.22, "sine", 0.16]],
  hit: [
    [0, [260, 90], 0.18, "square", 0.14],
    [0.06, [140, 60], 0.22, "sawtooth", 0.1],
  ],
  sunk: [
    [0, [160, 35], 0.6, "sawtooth", 0.22],
    [0.08, [90, 25], 0.7, "square", 0.14],
  ],
});

/** The shots of a view, both sides', in ply order. */
export function allShots(view) {
  const out = [];
  for (const side of ["south", "north"]) for (const s of view?.sides?.[side]?.shots || []) out.push({ ...s, side });
  return out.sort((a, b) => a.ply - b.ply);
}

/**
 * Which sounds a new snapshot calls for: the answer to the newest shot since the previous view, and the end.
 * @returns {string[]}
 */
export function soundsFor(prev, next, seat) {
  if (!prev?.view || !next?.view) return [];
  const out = [];
  if (next.view.ply > prev.view.ply) {
    const fresh = allShots(next.view).filter((s) => s.ply >= prev.view.ply);
    const last = fresh[fresh.length - 1];
    if (last) out.push(last.answer);
  }
  const end = endSound(prev.game, next.game, seat);
  if (end) out.push(end);
  return out;
}
