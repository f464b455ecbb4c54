// Russian texts of «Адмирал» for codes that come from the server or the engine: cells (columns in the Russian
// alphabet, rules §1), setup problems and the game's own ends.

import { houseReason, otherSide, SIDE_RU_GEN } from "../../core/i18n.js";
import { t, tn } from "../../core/t.js";
import { manifest } from "./manifest.js";
import { ru, ruName } from "./units.js";

/** Why a game ended (engine Reason), as a sentence for the viewer (`me` null for a spectator). */
export function resultReason(result, me) {
  if (!result) return "";
  const house = houseReason(result, me);
  if (house != null) return house;
  const w = result.winner;
  const loser = w ? otherSide(w) : null;
  const you = (side) => me && side === me;
  switch (result.reason) {
    case "bases":
      return w ? (you(loser) ? t("Обе ваши базы уничтожены.") : t("Уничтожены обе базы {side}.", { side: SIDE_RU_GEN[loser] })) : t("Последние базы обеих сторон уничтожены одновременно.");
    case "no_actions":
      return you(loser) ? t("У вас не осталось ни одного хода.") : t("У {side} не осталось ни одного хода.", { side: SIDE_RU_GEN[loser] });
    case "quiet_sea": {
      const n = manifest().rules.quiet_limit;
      return tn("Тихое море: {n} полуход подряд без потерь.", "Тихое море: {n} полуходов подряд без потерь.", n);
    }
    default:
      return result.reason || "";
  }
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
      return t("{base} на {cell} стоит в первой линии — базы нельзя ставить в ряд, ближайший к морю", { base: ru(p.kind), cell });
    default:
      return p.message || p.code;
  }
}

/** "e4" → "Д4": a wire cell with its column as the page shows it (the Russian alphabet, rules §1). */
export function cellRu(cell) {
  if (!cell) return "";
  const m = manifest();
  const i = m.columns.indexOf(cell[0]);
  return i < 0 ? cell : m.columnsShown[i] + cell.slice(1);
}
