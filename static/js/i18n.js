// Russian texts for codes that come from the server or the engine.

import { ru, ruName } from "./units.js";

export const SIDE_RU = { south: "Юг", north: "Север" };
export const SIDE_RU_GEN = { south: "Юга", north: "Севера" };

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
      return w ? (you(loser) ? "Обе ваши базы уничтожены." : `Уничтожены обе базы ${SIDE_RU_GEN[loser]}.`) : "Последние базы обеих сторон уничтожены одновременно.";
    case "no_actions":
      return you(loser) ? "У вас не осталось ни одного хода." : `У ${SIDE_RU_GEN[loser]} не осталось ни одного хода.`;
    case "quiet_sea":
      return "Тихое море: 200 полуходов подряд без потерь.";
    case "agreement":
      return "Ничья по соглашению сторон.";
    case "resignation":
      return you(loser) ? "Вы сдались." : me ? "Соперник сдался." : `${SIDE_RU[loser]} сдался.`;
    case "flag":
      return you(loser) ? "У вас закончилось время." : `У ${me ? "соперника" : SIDE_RU_GEN[loser]} закончилось время.`;
    case "abandonment":
      return you(loser) ? "Вы слишком долго были не на связи." : `${me ? "Соперник" : SIDE_RU[loser]} покинул партию.`;
    default:
      return result.reason || "";
  }
}

/** The headline of a result for the viewer (`me` is null for a spectator). */
export function resultHeadline(result, me) {
  if (!result) return "";
  if (!result.winner) return "Ничья";
  if (!me) return `Победа ${SIDE_RU_GEN[result.winner]}`;
  return result.winner === me ? "Победа!" : "Поражение";
}

/** A Russian text for a setup problem from the engine (`{code, message, cell, kind}`). */
export function problemText(p) {
  const cell = p.cell ? cellRu(p.cell) : "";
  const kind = p.kind ? `${ru(p.kind)} (${ruName(p.kind)})` : "";
  switch (p.code) {
    case "bad_cell":
      return `Неверная клетка ${p.cell ?? ""}`.trim();
    case "outside_zone":
      return `${kind} на ${cell}: клетка вне вашей зоны`;
    case "occupied_twice":
      return `Клетка ${cell} занята дважды`;
    case "unknown_kind":
      return `Неизвестный тип корабля на ${cell}`;
    case "too_many":
      return `Слишком много: ${kind}`;
    case "too_few":
      return `Не хватает: ${kind}`;
    case "base_in_front_row":
      return `ВМБ на ${cell} стоит в первой линии — базы нельзя ставить в ряд, ближайший к морю`;
    default:
      return p.message || p.code;
  }
}

/** Russian for a server `error` message: the server already sends Russian text; codes are a fallback. */
const ERRORS = {
  bad_message: "Неверное сообщение",
  not_your_turn: "Сейчас не ваш ход",
  stale_ply: "Позиция уже изменилась — ход не принят",
  illegal_action: "Недопустимое действие",
  not_a_player: "Вы зритель в этой партии",
  game_over: "Партия окончена",
};

export function errorText(msg) {
  return msg.message || ERRORS[msg.code] || msg.code || "Ошибка";
}

const COLS = "abcdefghijklmn";
const COLS_RU = ["А", "Б", "В", "Г", "Д", "Е", "Ж", "З", "И", "К", "Л", "М", "Н", "О"];
export { COLS, COLS_RU };

/** "e4" → "Д4" (columns in the Russian alphabet, rules §1). */
export function cellRu(cell) {
  if (!cell) return "";
  const i = COLS.indexOf(cell[0]);
  return i < 0 ? cell : COLS_RU[i] + cell.slice(1);
}

/** «5 мин + 3 с» / «без ограничения» from game settings. */
export function timeControlText(settings) {
  if (!settings || !settings.base_ms) return "без ограничения";
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
