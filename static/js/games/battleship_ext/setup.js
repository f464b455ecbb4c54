// The setup screen of «Морской бой: расширенный» (rules C1, C2): classic's setup (../battleship/setup.js) on the
// room's board, its fleet and, in the same dock, the room's mines (an orange circle) and minesweeper (a triangle),
// each a one-cell figure dragged or tapped onto the grid. Every figure keeps the no-touch rule with every other; the
// server's problems name the figures and cells, numbered on the board (both figures of a touching pair marked) and
// listed under it. Saved setups are kept per variant («<board>-<mines>-<sweepers>»). On the 16×16 and 18×18 boards
// the grid sits in a zoom frame (core/zoom.js, as the attack map in play): on a phone «+» makes the cells a finger's
// size, a finger on an empty cell pans the frame, a tap still places the piece picked in the dock, and a press on a
// placed ship or figure still drags it.

import { h } from "../../core/dom.js";
import { t } from "../../core/t.js";
import { ZoomPan } from "../../core/zoom.js";
import { SetupScreen } from "../battleship/setup.js";
import { MARKS } from "./icons.js";

export class ExtSetupScreen extends SetupScreen {
  /**
   * @param {HTMLElement} root
   * @param {{manifest: import("./manifest.js").ExtManifest, side: string, options: object,
   *          send: (msg: object) => boolean, countdown: import("../../core/clock.js").Countdown}} ctx
   *          `manifest`: already on the room's board (ExtManifest.forOptions)
   */
  constructor(root, ctx) {
    const m = ctx.manifest;
    // the dock: the ships, then the figures (classic's setup reads `fleet` as the units to place)
    const fleet = [...m.fleet(m.boardKey), ...m.figures(ctx.options)];
    super(root, { ...ctx, rules: m.boardKey, manifest: withFleet(m, fleet) });
    this.root.querySelector(".bs-layout")?.classList.add(`bsx-n${m.width}`);
    this.root.querySelector(".bs-setup")?.style.setProperty("--bsx-cols", String(m.width));
    this.addLegend();
  }

  build() {
    super.build();
    if (this.m.width <= 10) return; // a 10×10 grid fits a phone at a finger's size
    const grid = this.grid.root;
    const parent = grid.parentElement;
    const next = grid.nextSibling;
    const cellPx = () => grid.querySelector(".bs-cell")?.getBoundingClientRect().width || 20;
    this.zoom = new ZoomPan(grid, {
      cell: cellPx,
      setCell: (px) => (px == null ? grid.style.removeProperty("--bs-cell") : grid.style.setProperty("--bs-cell", `${px}px`)),
      min: 14,
      max: 44,
      pans: (ev) => !ev.target.closest?.(".ship, .bsx-fig"),
    });
    parent.insertBefore(this.zoom.el, next);
  }

  variant() {
    const o = this.options || {};
    return `${this.m.boardKey}-${o.mines ?? 0}-${o.sweepers ?? 0}`;
  }

  savedSetups() {
    const o = this.options || {};
    const opts = { board: this.m.boardKey, mines: o.mines ?? 0, sweepers: o.sweepers ?? 0 };
    return {
      query: `game=battleship_ext&${new URLSearchParams(Object.entries(opts).map(([k, v]) => [k, String(v)]))}`,
      body: () => ({ setup: this.draftJson(), game: "battleship_ext", options: opts }),
      load: (setup) => this.loadSetup(setup),
      summary: [" ", h("span", { class: "muted" }, `(${this.m.roomText(opts)})`)],
    };
  }

  dockHull(s) {
    if (s.code === "M" || s.code === "T") {
      return h("span", { class: "bs-hull bsx-fig-hull", "aria-hidden": "true" }, h("span", { class: "bs-seg bsx-fig-seg", dataset: { i: "0" }, html: s.code === "M" ? MARKS.mine() : MARKS.sweeper() }));
    }
    return super.dockHull(s);
  }

  /** A mine or a minesweeper on the grid: its mark instead of a hull. */
  decorate(cell, look) {
    const i = this.shipAt(cell);
    const code = i >= 0 ? this.ships[i].code : null;
    if (code !== "M" && code !== "T") return look;
    const cls = look.cls.filter((c) => !c.startsWith("ship"));
    cls.push("bsx-fig", code === "M" ? "bsx-fig-mine" : "bsx-fig-sweeper");
    return { ...look, cls, html: `${code === "M" ? MARKS.mine() : MARKS.sweeper()}${look.html}` };
  }

  /** The rules of the figures in one line under the dock. */
  addLegend() {
    const o = this.options || {};
    if (!o.mines && !o.sweepers) return;
    const parts = [];
    if (o.mines) parts.push(h("span", { class: "bsx-legend-item" }, h("span", { html: MARKS.mine() }), " ", t("Мина: выстрел по ней кончает ход стрелявшего и выдаёт вам его палубу.")));
    if (o.sweepers) parts.push(h("span", { class: "bsx-legend-item" }, h("span", { html: MARKS.sweeper() }), " ", t("Тральщик: выстрел по нему кончает ход, и стрелявший выдаёт вам одну свою мину.")));
    parts.push(h("span", { class: "bsx-legend-item muted" }, t("Никакие две фигуры не касаются, даже углами.")));
    this.dockEl.after(h("p", { class: "bsx-legend" }, ...parts));
  }
}

/** `m` whose fleet (for the setup's dock) is `fleet`: ships and figures. */
function withFleet(m, fleet) {
  const out = Object.create(m);
  out.fleet = () => fleet;
  out.shipClass = (_key, code) => fleet.find((s) => s.code === code) || null;
  return out;
}
