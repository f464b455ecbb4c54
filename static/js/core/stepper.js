// The replay of a finished game, for any game: the panel «Запись партии» whose «Смотреть запись» fetches the record
// once (GET /api/games/{id}/replay, docs/protocol.md), and the stepper — to the start, back, forward, to the end, a
// slider and a line saying where we are. The game draws each position (`onShow(i)`); this only counts. A record
// with `chance` (D13) gets the line saying whether every draw checks out against the revealed seed (chance.js).

import { drawsCheckLine } from "./chance.js";
import { h, toast } from "./dom.js";
import { api } from "./net.js";
import { t } from "./t.js";

// ⏮ ◀ ▶ ⏭ drawn as SVG: not every system font has the media-control glyphs.
const ICONS = {
  first: `<rect x="4" y="5" width="2.5" height="14"/><path d="M20 5v14L8 12z"/>`,
  prev: `<path d="M17 5v14L6 12z"/>`,
  next: `<path d="M7 5v14l11-7z"/>`,
  last: `<rect x="17.5" y="5" width="2.5" height="14"/><path d="M4 5v14l12-7z"/>`,
};

function svg(name) {
  return `<svg class="ctl-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[name]}</svg>`;
}

export class Stepper {
  /**
   * @param {{count: number, onShow: (i: number) => void, label: (i: number) => string, onClose: () => void}} opts
   *        positions 0…count; `label(i)` says what position i is
   */
  constructor(opts) {
    this.opts = opts;
    this.index = 0;
    const n = opts.count;
    const btn = (icon, name, fn) => h("button", { type: "button", class: "btn icon-btn", "aria-label": name, title: name, onclick: fn, html: svg(icon) });
    this.slider = h("input", { type: "range", min: "0", max: String(n), value: "0", step: "1", "aria-label": t("Полуход") });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.label = h("div", { class: "replay-label", "aria-live": "polite" });
    this.el = h(
      "div",
      { class: "replay-controls" },
      h(
        "div",
        { class: "button-row" },
        btn("first", t("В начало"), () => this.show(0)),
        btn("prev", t("Назад"), () => this.show(this.index - 1)),
        btn("next", t("Вперёд"), () => this.show(this.index + 1)),
        btn("last", t("В конец"), () => this.show(n)),
      ),
      this.slider,
      this.label,
      h("button", { type: "button", class: "btn", onclick: () => opts.onClose() }, t("Закрыть запись")),
    );
  }

  show(i) {
    this.index = Math.max(0, Math.min(this.opts.count, i));
    this.slider.value = String(this.index);
    this.label.textContent = this.opts.label(this.index);
    this.opts.onShow(this.index);
  }
}

export class ReplayPanel {
  /**
   * @param {{gameId: string, prepare: (data: object) => number, label: (data: object, i: number) => string,
   *          onShow: (data: object, i: number) => void, onClose: () => void, onOpen?: () => void,
   *          holder?: HTMLElement}} opts  `prepare(data)`: take the record, give its number of plies; `holder`: where the stepper
   *          goes (else in the panel, under the button); `onOpen` after the stepper shows
   */
  constructor(opts) {
    this.opts = opts;
    this.data = null;
    this.stepper = null;
    this.el = h("section", { class: "replay", "aria-label": t("Запись партии") });
    this.openBtn = h("button", { type: "button", class: "btn", onclick: () => this.open() }, t("Смотреть запись"));
    this.el.append(h("h2", { class: "panel-title" }, t("Запись партии")), this.openBtn);
  }

  async open() {
    const opts = this.opts;
    if (!this.data) {
      try {
        this.data = await api("GET", `/api/games/${encodeURIComponent(opts.gameId)}/replay`);
      } catch (e) {
        toast(e.message);
        return;
      }
      this.stepper = new Stepper({
        count: opts.prepare(this.data),
        onShow: (i) => opts.onShow(this.data, i),
        label: (i) => opts.label(this.data, i),
        onClose: () => this.close(),
      });
      (opts.holder || this.el).append(this.stepper.el);
      // a game with chance (D13): every draw re-checked here against the revealed seed
      if (this.data.chance?.draws) this.stepper.el.append(drawsCheckLine(this.data.chance));
    }
    this.stepper.el.hidden = false;
    this.openBtn.hidden = true;
    this.stepper.show(this.stepper.index);
    opts.onOpen?.();
  }

  /** Open the record (fetching it once) at position `i`: the board after `i` plies. */
  async showAt(i) {
    await this.open();
    this.stepper?.show(i);
  }

  close() {
    this.stepper.el.hidden = true;
    this.openBtn.hidden = false;
    this.opts.onClose();
  }
}
