// Battle reports (карточка боя, rules §11.3) in Russian.

import { h } from "../../core/dom.js";
import { SIDE_RU } from "../../core/i18n.js";
import { cellRu } from "./text.js";
import { t } from "../../core/t.js";
import { manifest } from "./manifest.js";
import { compositionText, iconSvg, ru, ruName, rulesLink } from "./units.js";

const METHOD = {
  contact: t("ближний бой"),
  air: t("авиаудар"),
  torpedo: t("торпедный выстрел"),
  detonation: t("подрыв атомной бомбы"),
};

/** A notation as the server sent it, its cells written as the page shows them: "e4-e5xe6 [d5+e5]" → "Д4-Д5×Д6
 * [Г5+Д5]" (display only: the client reads actions from the view's structured `legal`, never from notation). */
export function notationRu(text) {
  const { columns, height } = manifest();
  const cell = new RegExp(`(?<![a-z])[${columns}](\\d{1,2})(?!\\d)`, "g");
  return String(text)
    .replace(new RegExp(`(\\d)x(?=[${columns}])`, "g"), "$1×")
    .replace(cell, (m, row) => (Number(row) >= 1 && Number(row) <= height ? cellRu(m) : m));
}

/** Colour class of a unit for the viewer: own/enemy for a player (as on its board), the side otherwise. */
export function ownerClass(side, me) {
  return me ? (side === me ? "own" : "enemy") : "";
}

function seenEl(s, me) {
  return h(
    "span",
    { class: `seen side-${s.side}` },
    h("span", { class: `mini unit side-${s.side} ${ownerClass(s.side, me)} k-${s.kind}`, html: iconSvg(s.kind), "aria-hidden": "true" }),
    " ",
    rulesLink(s.kind, ruName(s.kind)),
    ` (${ru(s.kind)}) ${cellRu(s.cell)}`,
  );
}

function formationEl(label, members, row) {
  if (!members || !members.length) return null;
  const kinds = members.map((m) => m.kind);
  const rowText = row == null ? t("вне шкалы") : t("сила {row}", { row });
  return h(
    "div",
    { class: "rep-formation" },
    h("span", { class: "rep-label" }, label),
    h("strong", {}, `${members.length > 1 ? t("строй {units}", { units: compositionText(kinds) }) : compositionText(kinds)} — ${rowText}`),
    h("span", { class: "muted" }, ` (${members.map((m) => cellRu(m.cell)).join(", ")})`),
  );
}

/** Who won an ordinary battle, from the rows. */
function verdict(r) {
  if (r.attacker_row == null || r.defender_row == null) return null;
  if (r.attacker_row > r.defender_row) return t("Сила {a} больше силы {d}: победа атакующих.", { a: r.attacker_row, d: r.defender_row });
  if (r.attacker_row < r.defender_row) return t("Сила {d} больше силы {a}: атака отбита.", { a: r.attacker_row, d: r.defender_row });
  return t("Равная сила ({row}): уничтожены обе стороны.", { row: r.attacker_row });
}

/** One-line summary for the log. */
export function reportSummary(r) {
  const who = `${ru(r.attacker.kind)} ${cellRu(r.attacker.cell)}`;
  const target = r.target ? ` → ${ru(r.target.kind)} ${cellRu(r.target.cell)}` : "";
  const lost = r.removed.length ? t(", потери: {units}", { units: r.removed.map((s) => ru(s.kind)).join(", ") }) : t(", без потерь");
  return `${r.ply + 1}. ${SIDE_RU[r.side]}: ${METHOD[r.method] || r.method} ${who}${target}${lost}`;
}

/** The one line of a report on a phone's strip, for the viewer `me` (null: a spectator): who attacked what, and
 * what was destroyed — «Атака противника: Кр Д5 → Лк Д6 · уничтожены: ваш Лк». */
export function reportStrip(r, me = null) {
  const who = me ? (r.side === me ? t("Ваша атака") : t("Атака противника")) : t("Атакует {side}", { side: SIDE_RU[r.side] });
  const target = r.target ? ` → ${ru(r.target.kind)} ${cellRu(r.target.cell)}` : r.explosion ? ` → ${cellRu(r.explosion)}` : "";
  const whose = (s) => {
    if (!me) return ru(s.kind);
    return s.side === me ? t("ваш {unit}", { unit: ru(s.kind) }) : t("его {unit}", { unit: ru(s.kind) });
  };
  const units = r.removed.map(whose).join(", ");
  const lost = r.removed.length ? t("уничтожены: {units}", { units }) : t("без потерь");
  return `${who}: ${ru(r.attacker.kind)} ${cellRu(r.attacker.cell)}${target} · ${lost}`;
}

/** The full card of a report. `me`: the viewer's side (for «ваш»/«противника»), may be null. */
export function reportCard(r, me = null) {
  const who = me ? (r.side === me ? t("Атакуете вы") : t("Атакует противник")) : t("Атакует {side}", { side: SIDE_RU[r.side] });
  const whose = (s) => (me ? (s === me ? t("ваша") : t("противника")) : SIDE_RU[s]);
  const title = r.method === "detonation" ? t("Взрыв атомной бомбы") : t("Карточка боя");
  const card = h(
    "article",
    { class: "report-card", "aria-label": title },
    h("header", {}, h("h3", {}, title), h("span", { class: "muted" }, t("полуход {n}", { n: r.ply + 1 }))),
    h(
      "div",
      { class: "rep-line" },
      h("span", { class: "rep-label" }, `${who} · ${METHOD[r.method] || r.method}:`),
      seenEl(r.attacker, me),
    ),
  );
  if (r.target)
    card.append(h("div", { class: "rep-line" }, h("span", { class: "rep-label" }, t("Цель ({whose}):", { whose: whose(r.target.side) })), seenEl(r.target, me)));
  if (r.explosion) card.append(h("div", { class: "rep-line" }, t("Взрыв на {cell}: уничтожено всё в квадрате {size}×{size}.", { cell: cellRu(r.explosion), size: manifest().rules.blast })));
  const af = formationEl(t("Атака:"), r.attacker_formation, r.attacker_row);
  const df = formationEl(t("Защита:"), r.defender_formation, r.defender_row);
  if (af) card.append(af);
  if (df) card.append(df);
  const v = verdict(r);
  if (v) card.append(h("p", { class: "rep-verdict" }, v));
  const removed = h("div", { class: "rep-line rep-removed" }, h("span", { class: "rep-label" }, t("Уничтожены:")));
  if (r.removed.length) for (const s of r.removed) removed.append(seenEl(s, me));
  else removed.append(h("span", {}, t(" никто")));
  card.append(removed);
  if (r.revealed_only?.length) {
    const rev = h("div", { class: "rep-line" }, h("span", { class: "rep-label" }, t("Раскрыты и остались:")));
    for (const s of r.revealed_only) rev.append(seenEl(s, me));
    card.append(rev);
  }
  return card;
}
