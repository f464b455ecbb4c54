// The sounds of «Адмирал» (issue 7): a move, an attack, an explosion, on the house's sound board.

import { gameSounds } from "../../core/sound.js";

/** Which sounds a new snapshot calls for, comparing it with the previous one (nothing on the first). */
export const soundsFor = gameSounds(
  {
    move: [[0, [520, 640], 0.07, "triangle", 0.18]],
    attack: [
      [0, [300, 160], 0.12, "square", 0.12],
      [0.1, [220, 110], 0.16, "square", 0.1],
    ],
    explosion: [
      [0, [120, 30], 0.7, "sawtooth", 0.25],
      [0.05, [80, 20], 0.8, "square", 0.15],
    ],
  },
  (_prev, view) => {
    const events = view.events || [];
    const reports = events.filter((e) => e.type === "report").map((e) => e.report);
    if (reports.some((r) => r.explosion)) return "explosion";
    if (reports.length) return "attack";
    return events.some((e) => e.type === "move") ? "move" : null;
  },
);
