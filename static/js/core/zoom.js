// A board bigger than the screen, zoomed and panned inside its frame, for any game: «+»/«−» and «По размеру»
// buttons, a pinch of two fingers, a finger's drag (the frame's own scrolling) and a mouse's drag. The frame never
// grows wider than its column, so the page never scrolls sideways; a drag that moved is not a click on a cell.
// The game says how big a cell is and how to make it another size.

import { h } from "./dom.js";
import { t } from "./t.js";

const DRAG_PX = 6;

export class ZoomPan {
  /**
   * @param {HTMLElement} content the board (it goes inside the frame)
   * @param {{cell: () => number, setCell: (px: number|null) => void, min?: number, max?: number, step?: number,
   *          pans?: (ev: PointerEvent) => boolean}} opts
   *        `cell()`: a cell's size now (px); `setCell(px)`: draw cells `px` wide (null: the page's own size, the
   *        board fitted); `min`/`max`: the range of `px`; `step`: the factor of «+» and «−»; `pans(ev)`: whether a
   *        mouse press may pan the board (a setup's press on a ship drags the ship instead)
   */
  constructor(content, opts) {
    this.opts = { min: 14, max: 44, step: 1.3, ...opts };
    this.content = content;
    this.size = null;
    this.frame = h("div", { class: "zoom-frame" }, content);
    this.level = h("span", { class: "zoom-level", "aria-live": "polite" });
    const btn = (label, title, fn, cls) => h("button", { type: "button", class: `btn zoom-btn ${cls}`, title, "aria-label": title, onclick: fn }, label);
    this.outBtn = btn("−", t("Мельче"), () => this.zoomBy(1 / this.opts.step), "zoom-out");
    this.inBtn = btn("+", t("Крупнее"), () => this.zoomBy(this.opts.step), "zoom-in");
    this.fitBtn = btn("⤢", t("По размеру"), () => this.set(null), "zoom-fit");
    this.bar = h("div", { class: "zoom-bar", role: "group", "aria-label": t("Масштаб поля") }, this.outBtn, this.level, this.inBtn, this.fitBtn);
    this.el = h("div", { class: "zoom-box" }, this.bar, this.frame);
    this.bindPinch();
    this.bindMouseDrag();
    this.render();
  }

  /** Cells `px` wide (null: fitted), kept within the range; the point under `focus` ([x, y] in the frame) stays. */
  set(px, focus = null) {
    const before = this.opts.cell();
    const next = px == null ? null : Math.max(this.opts.min, Math.min(this.opts.max, px));
    const f = focus || [this.frame.clientWidth / 2, this.frame.clientHeight / 2];
    const x = this.frame.scrollLeft + f[0];
    const y = this.frame.scrollTop + f[1];
    this.size = next;
    this.opts.setCell(next);
    const ratio = this.opts.cell() / (before || 1);
    this.frame.scrollLeft = x * ratio - f[0];
    this.frame.scrollTop = y * ratio - f[1];
    this.render();
  }

  zoomBy(factor, focus = null) {
    this.set(this.opts.cell() * factor, focus);
  }

  render() {
    const px = this.opts.cell();
    this.level.textContent = `${Math.round(px)} px`;
    this.outBtn.disabled = px <= this.opts.min + 0.5 || this.size == null;
    this.inBtn.disabled = px >= this.opts.max - 0.5;
    this.fitBtn.disabled = this.size == null;
    this.el.classList.toggle("zoomed", this.size != null);
  }

  /** Two fingers: the distance between them scales the cells (one finger scrolls the frame: touch-action). */
  bindPinch() {
    let start = null;
    const dist = (ts) => Math.hypot(ts[0].clientX - ts[1].clientX, ts[0].clientY - ts[1].clientY);
    const mid = (ts) => {
      const r = this.frame.getBoundingClientRect();
      return [(ts[0].clientX + ts[1].clientX) / 2 - r.left, (ts[0].clientY + ts[1].clientY) / 2 - r.top];
    };
    this.frame.addEventListener(
      "touchstart",
      (ev) => {
        if (ev.touches.length === 2) start = { d: dist(ev.touches), px: this.opts.cell() };
      },
      { passive: true },
    );
    this.frame.addEventListener(
      "touchmove",
      (ev) => {
        if (!start || ev.touches.length !== 2) return;
        ev.preventDefault();
        this.set((start.px * dist(ev.touches)) / start.d, mid(ev.touches));
      },
      { passive: false },
    );
    this.frame.addEventListener("touchend", (ev) => {
      if (ev.touches.length < 2) start = null;
    });
  }

  /** A mouse dragging the board pans it; the click at the end of such a drag is swallowed. */
  bindMouseDrag() {
    let press = null;
    let swallow = false;
    this.frame.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType !== "mouse" || ev.button !== 0 || (this.opts.pans && !this.opts.pans(ev))) return;
      press = { x: ev.clientX, y: ev.clientY, left: this.frame.scrollLeft, top: this.frame.scrollTop, moved: false };
    });
    window.addEventListener("pointermove", (ev) => {
      if (!press || ev.pointerType !== "mouse") return;
      const dx = ev.clientX - press.x;
      const dy = ev.clientY - press.y;
      if (!press.moved && Math.hypot(dx, dy) < DRAG_PX) return;
      if (this.frame.scrollWidth <= this.frame.clientWidth && this.frame.scrollHeight <= this.frame.clientHeight) return;
      press.moved = true;
      this.frame.classList.add("panning");
      this.frame.scrollLeft = press.left - dx;
      this.frame.scrollTop = press.top - dy;
    });
    window.addEventListener("pointerup", () => {
      if (press?.moved) swallow = true;
      press = null;
      this.frame.classList.remove("panning");
      setTimeout(() => (swallow = false), 0);
    });
    this.frame.addEventListener(
      "click",
      (ev) => {
        if (!swallow) return;
        ev.stopPropagation();
        ev.preventDefault();
        swallow = false;
      },
      true,
    );
  }
}
