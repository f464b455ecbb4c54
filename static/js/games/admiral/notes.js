// Notes on enemy markers (issue 7): the player's own guesses («КР?», «слабый», «сильный»).
// The server keeps them per seat and moves them with their markers (docs/protocol.md `note`, snapshot `notes`);
// this module only shows them, asks for a new one and offers the kind a battle report revealed.

import { cellRu } from "./text.js";
import { choose, h } from "../../core/dom.js";
import { t } from "../../core/t.js";
import { kinds, ru, ruName } from "./units.js";

const CLEAR = "__clear";

/** Short text of a note on the board badge. */
export function noteBadge(note) {
  if (note === "weak") return "−";
  if (note === "strong") return "+";
  if (note === "?") return "?";
  return ru(note);
}

/** The note in words, for labels and dialogs. */
export function noteText(note) {
  if (note === "weak") return t("слабый");
  if (note === "strong") return t("сильный");
  if (note === "?") return t("неизвестно");
  return ruName(note);
}

export class Notes {
  /**
   * @param {{send: (msg: object) => boolean, onError: (text: string) => void}} ctx
   */
  constructor(ctx) {
    this.send = ctx.send;
    this.onError = ctx.onError;
    this.notes = new Map(); // cell → note
  }

  /** The snapshot's `notes` ({cell: note} or null). */
  set(notes) {
    this.notes = new Map(Object.entries(notes || {}));
  }

  get(cell) {
    return this.notes.get(cell) ?? null;
  }

  /** Badges on the noted markers and the note in each cell's accessible name (after every board render). */
  decorate(board) {
    for (const [cell, note] of this.notes) {
      const el = board.element(cell);
      if (!el || !el.querySelector(".unit.marker")) continue;
      el.classList.add("noted");
      el.append(h("span", { class: `note-badge note-${note === "?" ? "unknown" : note}`, "aria-hidden": "true" }, noteBadge(note)));
      el.setAttribute("aria-label", `${el.getAttribute("aria-label")}, ${t("заметка")}: ${noteText(note)}`);
      if (!el.title) el.title = t("Заметка: {note}", { note: noteText(note) });
    }
  }

  /** Send a note (null removes it) for the marker on `cell` as seen at version `ply`. */
  put(cell, note, ply) {
    if (!this.send({ type: "note", ply, cell, note })) this.onError(t("Нет связи с сервером"));
  }

  /** Ask which note to put on the marker on `cell` (the dialog is usable by touch and keyboard). */
  async edit(cell, ply) {
    const current = this.get(cell);
    const options = [
      { value: "?", label: "?", detail: t("неизвестно") },
      { value: "weak", label: "−", detail: t("слабый") },
      { value: "strong", label: "+", detail: t("сильный") },
      ...kinds().map((k) => ({ value: k.code, label: k.label, detail: k.title })),
    ].map((o) => ({ ...o, class: o.value === current ? "current" : "" }));
    if (current) options.push({ value: CLEAR, label: "✕", detail: t("Убрать заметку"), class: "clear" });
    const choice = await choose({
      title: t("Заметка на {cell}", { cell: cellRu(cell) }),
      intro: t("Ваша догадка о корабле противника. Видна только вам и переходит вместе с фишкой."),
      options,
      className: "note-dialog",
    });
    if (choice == null || choice === current) return;
    this.put(cell, choice === CLEAR ? null : choice, ply);
  }

  /**
   * One-click buttons under a battle report: note each enemy unit the report revealed that is still on the board.
   * @param {object} report the report (`revealed_only`: units that stay)
   * @param {string} seat the viewer's side
   * @param {Set<string>} markers cells of the enemy markers now
   * @param {number} ply the version the report was seen at
   */
  reportActions(report, seat, markers, ply) {
    const enemy = (report.revealed_only || []).filter((s) => s.side !== seat && markers.has(s.cell));
    if (!enemy.length) return null;
    const row = h("div", { class: "button-row note-actions" });
    for (const s of enemy) {
      const done = this.get(s.cell) === s.kind;
      const label = done
        ? t("Отмечено: {kind} на {cell}", { kind: ruName(s.kind), cell: cellRu(s.cell) })
        : t("Отметить: {kind} на {cell}", { kind: ruName(s.kind), cell: cellRu(s.cell) });
      const btn = h("button", { type: "button", class: "btn note-reveal", disabled: done }, `✎ ${label}`);
      btn.addEventListener("click", () => {
        this.put(s.cell, s.kind, ply);
        btn.disabled = true;
        btn.textContent = `✓ ${t("Отмечено: {kind} на {cell}", { kind: ruName(s.kind), cell: cellRu(s.cell) })}`;
      });
      row.append(btn);
    }
    return row;
  }
}
