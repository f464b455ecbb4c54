// Fair chance made visible, for every game whose rules draw at random (BATTLESHIP.md D13): the play screen's line
// with the seed's SHA-256 commitment from the start and the seed itself once the game is over (the view's
// `chance: {commitment, seed}`), and the replay's check of every draw against the revealed seed, in the browser.
//
// The algorithm (D13): the seed is 32 bytes; draw k among n choices is the first byte below 252 of
// HMAC-SHA256(seed, message) taken modulo n, the message being k in ASCII decimal ("0"), then "0.1", "0.2"… while
// no byte of the digest is below 252.

import { h } from "./dom.js";
import { t } from "./t.js";

function bytesOf(hex) {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/i.test(hex)) throw new Error("bad hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of the seed's bytes (hex), the commitment shown from the start. */
export async function commitmentOf(seedHex) {
  return hexOf(await crypto.subtle.digest("SHA-256", bytesOf(seedHex)));
}

/** Draw `k` among `n` choices from the seed (hex), as the server drew it (D13). */
export async function drawOf(seedHex, k, n) {
  const key = await crypto.subtle.importKey("raw", bytesOf(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  for (let counter = 0; counter < 64; counter++) {
    const message = counter === 0 ? `${k}` : `${k}.${counter}`;
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
    for (const byte of digest) if (byte < 252) return byte % n;
  }
  return null; // 64 digests with no byte below 252: never in practice
}

/**
 * Check a replay's `chance` ({commitment, seed, draws: [{k, n, value, what}]}) against its revealed seed.
 * @returns {Promise<{ok: boolean, count: number, bad: null|"commitment"|object}>} `bad`: the first mismatch
 */
export async function checkDraws(chance) {
  const draws = chance?.draws || [];
  if (!chance?.seed) return { ok: false, count: draws.length, bad: "commitment" };
  if ((await commitmentOf(chance.seed)) !== String(chance.commitment).toLowerCase()) {
    return { ok: false, count: draws.length, bad: "commitment" };
  }
  // every draw in order, none left out between them (k = 0, 1, 2, …); which draw decided what is the record's to
  // say (the replay re-plays it on the server), the values are the seed's
  for (const [i, d] of draws.entries()) {
    if (d.k !== i || (await drawOf(chance.seed, d.k, d.n)) !== d.value) return { ok: false, count: draws.length, bad: d };
  }
  return { ok: true, count: draws.length, bad: null };
}

/** The replay's line saying how the check went (an element; filled in when the check ends). */
export function drawsCheckLine(chance) {
  const el = h("p", { class: "chance-check muted", "aria-live": "polite" }, t("Сверяем жребии с зерном…"));
  if (!globalThis.crypto?.subtle) {
    el.textContent = t("Браузер не умеет сверять жребии (нужен HTTPS).");
    return el;
  }
  checkDraws(chance).then(
    (r) => {
      el.dataset.ok = String(r.ok);
      if (r.ok) el.textContent = t("Жребии сверены с зерном: {n} из {n}, по порядку ✓", { n: r.count });
      else if (r.bad === "commitment") el.textContent = t("Зерно не совпадает с обещанным SHA-256 ✗");
      else el.textContent = t("Жребий №{k} ({what}) не сходится с зерном ✗", { k: r.bad.k, what: r.bad.what });
      el.classList.toggle("bad", !r.ok);
    },
    () => {
      el.dataset.ok = "false";
      el.textContent = t("Жребии сверить не удалось.");
    },
  );
  return el;
}

/** The play screen's line: the commitment from the start, the seed once over. */
export class ChanceLine {
  constructor() {
    this.el = h("p", { class: "chance-line muted" });
    this.el.hidden = true;
  }

  /** @param {{commitment: string, seed: string|null}|undefined} chance  the view's */
  update(chance) {
    this.el.hidden = !chance?.commitment;
    if (!chance?.commitment) return;
    const parts = [h("span", {}, `${t("Жребий честный: SHA-256 зерна")} `), h("code", { class: "chance-commitment" }, chance.commitment)];
    if (chance.seed) parts.push(h("span", {}, ` · ${t("зерно")} `), h("code", { class: "chance-seed" }, chance.seed));
    this.el.replaceChildren(...parts);
  }
}
