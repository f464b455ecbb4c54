// Texts every game of the house shares: seat names, the ends of a game outside its rules (resignation, a
// flag, abandonment, an agreed draw), server error codes, clocks and time controls. A game's own texts
// (its units, its cells, its setup problems) live in its folder under games/.

import { t } from "./t.js";

export const SIDE_RU = { south: t("Юг"), north: t("Север") };
export const SIDE_RU_GEN = { south: t("Юга"), north: t("Севера") };

export function otherSide(side) {
  return side === "south" ? "north" : "south";
}

/**
 * Why a game ended, for the ends the house itself makes (docs/protocol.md: resign, flag, abandon, draw — each
 * game's record names them its own way, `resignation` or `resign`…); null for a game's own reason.
 * `me` is the viewer's side, null for a spectator.
 */
export function houseReason(result, me) {
  if (!result) return "";
  const w = result.winner;
  const loser = w ? otherSide(w) : null;
  const you = (side) => me && side === me;
  switch (result.reason) {
    case "agreement":
    case "draw":
      return t("Ничья по соглашению сторон.");
    case "resignation":
    case "resign":
      return you(loser) ? t("Вы сдались.") : me ? t("Соперник сдался.") : t("{side} сдался.", { side: SIDE_RU[loser] });
    case "flag":
      return you(loser) ? t("У вас закончилось время.") : me ? t("У соперника закончилось время.") : t("У {side} закончилось время.", { side: SIDE_RU_GEN[loser] });
    case "abandonment":
    case "abandon":
      return you(loser) ? t("Вы слишком долго были не на связи.") : me ? t("Соперник покинул партию.") : t("{side} покинул партию.", { side: SIDE_RU[loser] });
    default:
      return null;
  }
}

/**
 * The words for one of the house's end actions as a record lists it (the protocol's `end_action` kinds: `resign`,
 * `flag`, `abandon` with the side that lost, `draw`), e.g. «Юг сдался.»; null for any other kind (a game's own
 * action: the game words it). Each game reads its own notation into `kind` and `side`.
 */
export function endActionText(kind, side) {
  switch (kind) {
    case "resign":
      return t("{side} сдался.", { side: SIDE_RU[side] ?? "" });
    case "flag":
      return t("У {side} закончилось время.", { side: SIDE_RU_GEN[side] ?? "" });
    case "abandon":
      return t("{side} покинул партию.", { side: SIDE_RU[side] ?? "" });
    case "draw":
      return t("Ничья по соглашению сторон.");
    default:
      return null;
  }
}

/** The headline of a result for the viewer (`me` is null for a spectator). */
export function resultHeadline(result, me) {
  if (!result) return "";
  if (!result.winner) return t("Ничья");
  if (!me) return t("Победа {side}", { side: SIDE_RU_GEN[result.winner] });
  return result.winner === me ? t("Победа!") : t("Поражение");
}

/** Text for a server `error` message: the server already sends it in the player's language; codes are a fallback. */
const ERRORS = {
  bad_message: t("Неверное сообщение"),
  not_your_turn: t("Сейчас не ваш ход"),
  stale_ply: t("Позиция уже изменилась — ход не принят"),
  illegal_action: t("Недопустимое действие"),
  not_a_player: t("Вы зритель в этой партии"),
  game_over: t("Партия окончена"),
};

export function errorText(msg) {
  return msg.message || ERRORS[msg.code] || msg.code || t("Ошибка");
}

/** «5 мин + 3 с» / «без ограничения» / «по переписке, 3 дн на ход» from game settings. */
export function timeControlText(settings) {
  if (!settings || !settings.base_ms) return t("без ограничения");
  if (settings.days_per_move) return t("по переписке, {d} дн на ход", { d: settings.days_per_move });
  const m = Math.round(settings.base_ms / 60000);
  const inc = Math.round((settings.increment_ms || 0) / 1000);
  return `${m}+${inc}`;
}

/**
 * "mm:ss" (or "h:mm:ss") for a clock in milliseconds; tenths under 10 seconds. A day or more (a correspondence
 * game's move, issue 19) is shown as days and hours, «2 дн 5 ч» (whole hours, rounded down: the clock never
 * promises more than is left).
 */
export function formatClock(ms) {
  if (ms == null) return "—";
  const left = Math.max(0, ms);
  if (left >= 86400000) {
    const hours = Math.floor(left / 3600000);
    return t("{d} дн {h} ч", { d: Math.floor(hours / 24), h: hours % 24 });
  }
  if (left < 10000) return `0:${(left / 1000).toFixed(1).padStart(4, "0")}`;
  const s = Math.ceil(left / 1000);
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
