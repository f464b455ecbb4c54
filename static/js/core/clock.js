// Counting down the server's clocks locally with performance.now() (docs/protocol.md).

import { formatClock } from "./i18n.js";

export class Countdown {
  constructor() {
    this.base = null; // snapshot clocks
    this.t0 = 0;
    this.targets = []; // [{el, key, running: () => bool}]
    this.timer = setInterval(() => this.tick(), 100);
  }

  /** New server figures: `clocks` from a snapshot. */
  set(clocks) {
    this.base = clocks || null;
    this.t0 = performance.now();
    this.tick();
  }

  /** Remaining ms now: `key` is "south", "north" or "setup". */
  remaining(key) {
    const c = this.base;
    if (!c) return null;
    const elapsed = performance.now() - this.t0;
    if (key === "setup") return c.setup_ms == null ? null : Math.max(0, c.setup_ms - elapsed);
    const ms = c[`${key}_ms`];
    if (ms == null) return null;
    return c.running === key ? Math.max(0, ms - elapsed) : ms;
  }

  isRunning(key) {
    return !!this.base && (key === "setup" ? this.base.setup_ms != null : this.base.running === key);
  }

  /** Show `key`'s time in `el` until the element leaves the document. */
  bind(el, key) {
    this.targets.push({ el, key });
    this.tick();
  }

  tick() {
    this.targets = this.targets.filter((t) => t.el.isConnected);
    for (const { el, key } of this.targets) {
      const ms = this.remaining(key);
      el.textContent = ms == null ? "∞" : formatClock(ms);
      el.classList.toggle("running", this.isRunning(key));
      el.classList.toggle("low", ms != null && ms < 30000 && this.isRunning(key));
    }
  }
}
