// What every game's play screen offers around its board, the same for every game of the house
// (docs/protocol.md): resign, draw offer and answer, abort, claim a win, and after the end the credit, rematch,
// the record's download and a new game.

import { h, toast } from "./dom.js";
import { otherSide, resultHeadline } from "./i18n.js";
import { t } from "./t.js";

const btn = (label, onclick, cls = "") => h("button", { type: "button", class: `btn ${cls}`, onclick }, label);

/** `control(type, question)`: send a control message over `send`, asking `question` first (if any). */
export function controlSender(send) {
  return (type, question) => {
    if (question && !confirm(question)) return;
    if (!send({ type })) toast(t("Нет связи с сервером"));
  };
}

/**
 * The controls section of a play screen (`el`) and the strip of the opponent's offer (`drawEl`, placed by the game
 * right under its board so that a phone shows it without scrolling): the controls go to a seat while the game is on,
 * unless `off`; the strip holds the opponent's draw offer in play, or their rematch offer after the end, with the
 * answers.
 * @returns {boolean} whether the controls are shown
 */
export function fillControls(el, drawEl, { game, seat, control, off = false }) {
  el.innerHTML = "";
  el.hidden = !seat || game.status !== "play" || off;
  drawEl.hidden = true;
  drawEl.innerHTML = "";
  let offer = null;
  if (!el.hidden) {
    const controls = gameControls(game, seat, control);
    el.append(controls.row);
    offer = controls.offer;
  } else if (!off) offer = rematchOffer(game, seat, control);
  if (offer) {
    drawEl.hidden = false;
    drawEl.append(...offer);
  }
  drawEl.dataset.offer = offer ? (game.status === "play" ? "draw" : "rematch") : "";
  return !el.hidden;
}

/** After the end, the opponent's rematch offer with its answers (null: none waiting for this seat). */
function rematchOffer(game, seat, control) {
  if (!seat || game.rematch_url || game.rematch_offer !== otherSide(seat)) return null;
  if (game.status !== "over" && game.status !== "aborted") return null;
  return [
    h("p", {}, t("Соперник предлагает реванш")),
    h("div", { class: "button-row" }, btn(t("Принять"), () => control("rematch.accept"), "primary"), btn(t("Отклонить"), () => control("rematch.decline"))),
  ];
}

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
    if (credit.rating) lines.push(ratingLine(credit.rating));
    return h("div", { class: "credit" }, ...lines, h("a", { href: "/profile" }, t("Личное дело")));
  }
  if (credit && credit.unrated?.length) {
    // PROGRESSION.md §2: a game that earns nothing says why, one sentence per reason
    const why = { same_commander: t("Оба места заняты одним командиром."), same_browser: t("Оба места заняты из одного браузера."), repeated: t("Эти два командира уже сыграли три партии за сутки с одного адреса.") };
    const lines = credit.unrated.map((code) => h("p", { class: "credit-why" }, why[code] || code));
    return h("div", { class: "credit credit-unrated muted" }, h("p", { class: "credit-points" }, t("Партия без начисления очков.")), ...lines);
  }
  if (credit && !credit.counted) return h("p", { class: "credit muted" }, t("Партия закончилась слишком рано: очки не начислены."));
  return null;
}

/** A rated game's change of the viewer's rating (`game.credit.rating`, PROGRESSION.md §4): «Рейтинг: 1512 (+12)». */
function ratingLine(r) {
  const delta = r.delta > 0 ? `+${r.delta}` : r.delta < 0 ? `−${-r.delta}` : "±0";
  const after = `${r.after}${r.provisional ? "?" : ""}`;
  return h("p", { class: "credit-rating" }, t("Рейтинг: {rating} ({delta}).", { rating: after, delta }));
}

/**
 * The buttons after the end: the rematch (a seat: offer it, its offer waiting with «Отменить», or the link to the
 * game made; the opponent's offer is answered in the strip under the board), the record's download (`file`: its name), a new game.
 * @returns {HTMLElement}
 */
export function resultButtons({ game, seat, gameId, control, file }) {
  const row = h("div", { class: "button-row" });
  if (seat) {
    const opp = otherSide(seat);
    if (game.rematch_url) row.append(h("a", { class: "btn primary", href: game.rematch_url }, t("К реваншу")));
    else if (game.rematch_offer === seat) {
      const offered = btn(t("Реванш предложен"), null, "ghost rematch-offered");
      offered.disabled = true;
      row.append(offered, btn(t("Отменить"), () => control("rematch.cancel"), "rematch-cancel"));
    } else if (game.rematch_offer !== opp) row.append(btn(t("Реванш"), () => control("rematch"), "primary"));
  }
  if (game.status === "over") row.append(h("a", { class: "btn", href: `/api/games/${encodeURIComponent(gameId)}/record.json`, download: file }, t("Скачать запись (JSON)")));
  row.append(h("a", { class: "btn", href: game.settings?.game ? `/?game=${encodeURIComponent(game.settings.game)}` : "/" }, t("Новая партия")));
  return row;
}

/**
 * The result panel `el` once the game is over or aborted (hidden before): the headline for the viewer, the reason
 * (`reasonText(result, seat)`, the game's words), `more` lines, then — unless `bare` (a lesson) — the credit and the
 * buttons after the end (`file`: the record's download name).
 */
export function fillResult(el, { game, view, seat, reasonText, more = [], bare = false, gameId, control, file }) {
  const over = game.status === "over" || game.status === "aborted";
  el.hidden = !over;
  if (!over) return;
  const result = game.result || view?.result;
  el.innerHTML = "";
  const headline = game.status === "aborted" ? t("Партия прервана") : resultHeadline(result, seat);
  const cls = !result?.winner ? "draw" : result.winner === seat ? "win" : seat ? "loss" : "draw";
  const reason = game.status === "aborted" ? "" : reasonText(result, seat);
  el.className = `result-panel ${cls}`;
  el.append(h("h2", {}, headline));
  if (reason) el.append(h("p", { class: "reason" }, reason));
  el.append(...more);
  if (bare) return;
  const credit = creditBlock(game.credit);
  if (credit) el.append(credit);
  el.append(resultButtons({ game, seat, gameId, control, file }));
}
