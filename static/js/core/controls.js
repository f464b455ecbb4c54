// What every game's play screen offers around its board, the same for every game of the house
// (docs/protocol.md): resign, draw offer and answer, abort, claim a win, and after the end the credit, rematch,
// the record's download and a new game.

import { h } from "./dom.js";
import { otherSide } from "./i18n.js";
import { t } from "./t.js";

const btn = (label, onclick, cls = "") => h("button", { type: "button", class: `btn ${cls}`, onclick }, label);

/**
 * The controls of a seat in play: a button row, and the opponent's draw offer with its answers (or null).
 * @param {object} game the snapshot's `game`
 * @param {string} seat the viewer's side
 * @param {(type: string, question?: string) => void} control sends a control message (asking `question` first)
 * @returns {{row: HTMLElement, offer: HTMLElement[]|null}}
 */
export function gameControls(game, seat, control) {
  const row = h("div", { class: "button-row" });
  const opp = otherSide(seat);
  if (game.draw_offer === seat) row.append(btn(t("Ничья предложена"), null, "ghost"));
  else if (game.draw_offer !== opp && !game.players?.[opp]?.bot) row.append(btn(t("Предложить ничью"), () => control("draw.offer")));
  if (game.can_abort) row.append(btn(t("Прервать партию"), () => control("abort", t("Прервать партию без результата?"))));
  row.append(btn(t("Сдаться"), () => control("resign", t("Сдаться? Партия будет проиграна.")), "danger"));
  if (game.can_claim) row.append(btn(t("Забрать победу"), () => control("claim", t("Соперник давно не на связи. Засчитать победу?")), "primary"));
  if (game.draw_offer === seat) row.firstChild.disabled = true;
  const offer =
    game.draw_offer === opp
      ? [h("p", {}, t("Соперник предлагает ничью.")), h("div", { class: "button-row" }, btn(t("Принять ничью"), () => control("draw.accept"), "primary"), btn(t("Отклонить"), () => control("draw.decline")))]
      : null;
  return { row, offer };
}

/** What the viewer's commander got from a finished game (`game.credit`), or null. */
export function creditBlock(credit) {
  if (credit && credit.counted) {
    const sums = { points: credit.points, total: credit.total_points, rank: t(credit.rank.name) };
    // with a new rank the rank is named once, in its own line
    const points = credit.new_rank ? t("Очки за партию: {points} (всего {total}).", sums) : t("Очки за партию: {points} (всего {total}). Звание: {rank}.", sums);
    const lines = [h("p", { class: "credit-points" }, points)];
    if (credit.new_rank) lines.push(h("p", { class: "credit-rank" }, t("Новое звание: {rank}!", { rank: t(credit.new_rank.name) })));
    for (const a of credit.awards || []) {
      const degree = { 1: "III", 2: "II", 3: "I" }[a.after] || "";
      lines.push(h("p", { class: "credit-award" }, t("Награда: {award}, {degree} степени.", { award: t(a.name), degree })));
    }
    return h("div", { class: "credit" }, ...lines, h("a", { href: "/profile" }, t("Личное дело")));
  }
  if (credit && !credit.counted) return h("p", { class: "credit muted" }, t("Партия закончилась слишком рано: очки не начислены."));
  return null;
}

/**
 * The buttons after the end: rematch (a seat), the record's download (`file`: its name), a new game.
 * @returns {HTMLElement}
 */
export function resultButtons({ game, seat, gameId, control, file }) {
  const row = h("div", { class: "button-row" });
  if (seat) {
    if (game.rematch_url) row.append(h("a", { class: "btn primary", href: game.rematch_url }, t("К реваншу")));
    else row.append(btn(t("Реванш"), () => control("rematch"), "primary"));
  }
  if (game.status === "over") row.append(h("a", { class: "btn", href: `/api/games/${encodeURIComponent(gameId)}/record.json`, download: file }, t("Скачать запись (JSON)")));
  row.append(h("a", { class: "btn", href: game.settings?.game ? `/?game=${encodeURIComponent(game.settings.game)}` : "/" }, t("Новая партия")));
  return row;
}
