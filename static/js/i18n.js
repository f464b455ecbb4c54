// Russian texts for codes that come from the server or the engine.

import { pt, t } from "./t.js";
import { ru, ruName } from "./units.js";

export const SIDE_RU = { south: t("Юг"), north: t("Север") };
export const SIDE_RU_GEN = { south: t("Юга"), north: t("Севера") };

export function otherSide(side) {
  return side === "south" ? "north" : "south";
}

/** Why a game ended (engine Reason), as a sentence for the viewer (`me` null for a spectator). */
export function resultReason(result, me) {
  if (!result) return "";
  const w = result.winner;
  const loser = w ? otherSide(w) : null;
  const you = (side) => me && side === me;
  switch (result.reason) {
    case "bases":
      return w ? (you(loser) ? t("Обе ваши базы уничтожены.") : t("Уничтожены обе базы {side}.", { side: SIDE_RU_GEN[loser] })) : t("Последние базы обеих сторон уничтожены одновременно.");
    case "no_actions":
      return you(loser) ? t("У вас не осталось ни одного хода.") : t("У {side} не осталось ни одного хода.", { side: SIDE_RU_GEN[loser] });
    case "quiet_sea":
      return t("Тихое море: 200 полуходов подряд без потерь.");
    case "agreement":
      return t("Ничья по соглашению сторон.");
    case "resignation":
      return you(loser) ? t("Вы сдались.") : me ? t("Соперник сдался.") : t("{side} сдался.", { side: SIDE_RU[loser] });
    case "flag":
      return you(loser) ? t("У вас закончилось время.") : me ? t("У соперника закончилось время.") : t("У {side} закончилось время.", { side: SIDE_RU_GEN[loser] });
    case "abandonment":
      return you(loser) ? t("Вы слишком долго были не на связи.") : me ? t("Соперник покинул партию.") : t("{side} покинул партию.", { side: SIDE_RU[loser] });
    default:
      return result.reason || "";
  }
}

/** The headline of a result for the viewer (`me` is null for a spectator). */
export function resultHeadline(result, me) {
  if (!result) return "";
  if (!result.winner) return t("Ничья");
  if (!me) return t("Победа {side}", { side: SIDE_RU_GEN[result.winner] });
  return result.winner === me ? t("Победа!") : t("Поражение");
}

/** A Russian text for a setup problem from the engine (`{code, message, cell, kind}`). */
export function problemText(p) {
  const cell = p.cell ? cellRu(p.cell) : "";
  const kind = p.kind ? `${ru(p.kind)} (${ruName(p.kind)})` : "";
  switch (p.code) {
    case "bad_cell":
      return t("Неверная клетка {cell}", { cell: p.cell ?? "" }).trim();
    case "outside_zone":
      return t("{kind} на {cell}: клетка вне вашей зоны", { kind, cell });
    case "occupied_twice":
      return t("Клетка {cell} занята дважды", { cell });
    case "unknown_kind":
      return t("Неизвестный тип корабля на {cell}", { cell });
    case "too_many":
      return t("Слишком много: {kind}", { kind });
    case "too_few":
      return t("Не хватает: {kind}", { kind });
    case "base_in_front_row":
      return t("{base} на {cell} стоит в первой линии — базы нельзя ставить в ряд, ближайший к морю", { base: ru("VMB"), cell });
    default:
      return p.message || p.code;
  }
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

const COLS = "abcdefghijklmn";
// TRANSLATORS: the 14 column letters of the board in order, one character each (rules §1); English: a to n.
const COLS_RU = [...pt("columns", "АБВГДЕЖЗИКЛМНО")];
export { COLS, COLS_RU };

/** "e4" → "Д4" (columns in the Russian alphabet, rules §1). */
export function cellRu(cell) {
  if (!cell) return "";
  const i = COLS.indexOf(cell[0]);
  return i < 0 ? cell : COLS_RU[i] + cell.slice(1);
}

/** «5 мин + 3 с» / «без ограничения» from game settings. */
export function timeControlText(settings) {
  if (!settings || !settings.base_ms) return t("без ограничения");
  const m = Math.round(settings.base_ms / 60000);
  const inc = Math.round((settings.increment_ms || 0) / 1000);
  return `${m}+${inc}`;
}

/** "mm:ss" (or "h:mm:ss") for a clock in milliseconds; tenths under 10 seconds. */
export function formatClock(ms) {
  if (ms == null) return "—";
  const t = Math.max(0, ms);
  if (t < 10000) return `0:${(t / 1000).toFixed(1).padStart(4, "0")}`;
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}
