// Ships as shapes on the grid, for drawing and for the setup's drag and drop: geometry only (which cells a ship
// covers, whether it is on the grid). Whether a fleet is valid is the server's word (`setup.problems`).

/** A ship's direction: "h" (left to right), "v" (top to bottom) or "1" (one cell). */
export function dirOf(m, cells) {
  if (cells.length < 2) return "1";
  const [r0] = m.cellPos(cells[0]);
  const [r1] = m.cellPos(cells[1]);
  return r0 === r1 ? "h" : "v";
}

/** Cells of a ship of `size` with its bow (top or left cell) at [row, col] going `dir`; null when off the grid. */
export function lineCells(m, row, col, size, dir) {
  const out = [];
  for (let i = 0; i < size; i++) {
    const r = dir === "v" ? row + i : row;
    const c = dir === "v" ? col : col + i;
    if (!m.onGrid(r, c)) return null;
    out.push(m.cellName(r, c));
  }
  return out;
}

/** The same, shifted back onto the grid when it would stick out past the right or bottom edge. */
export function fitCells(m, row, col, size, dir) {
  const r = dir === "v" ? Math.min(row, m.height - size) : row;
  const c = dir === "v" ? col : Math.min(col, m.width - size);
  return lineCells(m, Math.max(0, r), Math.max(0, c), size, dir);
}

/**
 * The ships of a draft `{cell: code}`: the orthogonally connected cells of one code (as the server reads a setup),
 * a straight run longer than its class cut into ships of the class's size, anything else kept as it is.
 * @returns {{code: string, cells: string[]}[]} each ship's cells in reading order
 */
export function shipsOf(m, fleet, draft) {
  const size = Object.fromEntries(fleet.map((s) => [s.code, s.size]));
  const seen = new Set();
  const ships = [];
  const order = m.cells().filter((c) => draft[c]);
  for (const start of order) {
    if (seen.has(start)) continue;
    const code = draft[start];
    const group = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const cell = stack.pop();
      group.push(cell);
      const [r, c] = m.cellPos(cell);
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        if (!m.onGrid(r + dr, c + dc)) continue;
        const n = m.cellName(r + dr, c + dc);
        if (!seen.has(n) && draft[n] === code) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    const cells = order.filter((c) => group.includes(c));
    const rows = new Set(cells.map((c) => m.cellPos(c)[0]));
    const cols = new Set(cells.map((c) => m.cellPos(c)[1]));
    const straight = rows.size === 1 || cols.size === 1;
    const n = size[code] || cells.length;
    if (straight && cells.length > n) {
      for (let i = 0; i < cells.length; i += n) ships.push({ code, cells: cells.slice(i, i + n) });
    } else {
      ships.push({ code, cells });
    }
  }
  return ships;
}

/** The draft `{cell: code}` of a list of ships. */
export function draftOf(ships) {
  const out = {};
  for (const s of ships) for (const c of s.cells) out[c] = s.code;
  return out;
}

/** Per cell of the ships, the classes that draw a hull: `ship`, its direction and its bow and stern. */
export function hullClasses(m, ships) {
  const out = new Map();
  for (const s of ships) {
    const dir = dirOf(m, s.cells);
    s.cells.forEach((cell, i) => {
      const cls = ["ship", `ship-${dir}`];
      if (i === 0) cls.push("ship-bow");
      if (i === s.cells.length - 1) cls.push("ship-stern");
      out.set(cell, cls);
    });
  }
  return out;
}
