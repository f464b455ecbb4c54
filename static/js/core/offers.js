// Offers between the two players of any game (issue 18): a draw during play, a rematch after the end. The receiver
// is told when one arrives (a toast and a sound, besides the strip under the board), the offerer when it is declined
// (the server's `declined` message: docs/protocol.md).

import { dismissToast, toast } from "./dom.js";
import { otherSide } from "./i18n.js";
import { sounds } from "./sound.js";
import { t } from "./t.js";

/**
 * What a new snapshot's `game` tells the seat of offers, against the previous one (nothing on the first snapshot,
 * nothing for a spectator): the opponent's new draw or rematch offer.
 * @param {object|null} prev the previous snapshot's `game`
 * @param {object} next the new one
 * @param {string|null} seat the viewer's side
 * @returns {{text: string, sound: string}[]}
 */
export function offerNotices(prev, next, seat) {
  if (!prev || !seat || prev.id !== next.id) return [];
  const opp = otherSide(seat);
  const out = [];
  if (next.draw_offer === opp && prev.draw_offer !== opp) out.push({ text: t("Соперник предлагает ничью"), sound: "offer" });
  if (next.rematch_offer === opp && prev.rematch_offer !== opp && !next.rematch_url) out.push({ text: t("Соперник предлагает реванш"), sound: "offer" });
  return out;
}

/** Drop the toast of an opponent's offer that is no longer there (taken back, answered, or lapsed). */
export function dropStaleNotices(prev, next, seat) {
  if (!prev || !seat) return;
  const opp = otherSide(seat);
  if (prev.draw_offer === opp && next.draw_offer !== opp) dismissToast(t("Соперник предлагает ничью"));
  if (prev.rematch_offer === opp && next.rematch_offer !== opp) dismissToast(t("Соперник предлагает реванш"));
}

/** The words of the server's `declined` message: the opponent declined the viewer's offer (`offer`: its kind). */
export function declinedText(offer) {
  return offer === "rematch" ? t("Соперник отклонил реванш") : t("Соперник отклонил ничью");
}

/**
 * Tell the player: a toast and a sound for each notice, and (issue 19) an «admiral:notify» event that
 * core/notify.js shows as a system notification when the page is hidden and the player asked for them.
 */
export function announce(notices) {
  for (const n of notices) {
    toast(n.text);
    sounds.play(n.sound);
    const detail = { kind: "offer", title: n.text, body: document.title, url: location.href };
    window.dispatchEvent(new CustomEvent("admiral:notify", { detail }));
  }
}
