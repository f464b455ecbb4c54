// The sounds of «Морской бой» on the house's sound board: a splash for «мимо», a bang for a hit, a roar for a ship
// gone down.

import { gameSounds } from "../../core/sound.js";

/** The shots of a view, both sides', in ply order. */
export function allShots(view) {
  const out = [];
  for (const side of ["south", "north"]) for (const s of view?.sides?.[side]?.shots || []) out.push({ ...s, side });
  return out.sort((a, b) => a.ply - b.ply);
}

/** Which sounds a new snapshot calls for: the answer to the newest shot since the previous view, and the end. */
export const soundsFor = gameSounds(
  {
    miss: [[0, [700, 180], 0.22, "sine", 0.16]],
    hit: [
      [0, [260, 90], 0.18, "square", 0.14],
      [0.06, [140, 60], 0.22, "sawtooth", 0.1],
    ],
    sunk: [
      [0, [160, 35], 0.6, "sawtooth", 0.22],
      [0.08, [90, 25], 0.7, "square", 0.14],
    ],
  },
  (prev, view) => {
    const fresh = allShots(view).filter((s) => s.ply >= prev.ply);
    return fresh.length ? fresh[fresh.length - 1].answer : null;
  },
);
