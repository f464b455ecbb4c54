// How a commander is named wherever the page lists one: «Nickname · rank · rating» — one order for the lobby's
// lists, the player bars and any other place (QA: the lobby read «QaRatC · Матрос · 1500?», the bars
// «QaRatT · 1500? · Матрос»). Pages call these rather than joining the parts themselves.

/**
 * A commander's rating in a game as players read it (PROGRESSION.md §4): «1523», with «?» while provisional.
 * @param {number|null|undefined} rating
 * @param {boolean} [provisional]
 * @returns {string} "" for none (a guest, a bot)
 */
export function ratingLabel(rating, provisional) {
  return rating === undefined || rating === null ? "" : `${rating}${provisional ? "?" : ""}`;
}

/**
 * The parts after the nickname, in order: rank, then rating («Матрос · 1500?»); "" when there are none.
 * @param {{rank?: string|null, rating?: number|null, provisional?: boolean}} c `rank`: the rank's name, translated
 * @returns {string}
 */
export function commanderDetails(c) {
  return [c.rank || "", ratingLabel(c.rating, c.provisional)].filter(Boolean).join(" · ");
}

/**
 * A registered commander in one line: «Nickname · rank · rating» (the parts it has).
 * @param {{name: string, rank?: string|null, rating?: number|null, provisional?: boolean}} c
 * @returns {string}
 */
export function commanderLine(c) {
  return [c.name, commanderDetails(c)].filter(Boolean).join(" · ");
}
