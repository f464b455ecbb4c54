// What the page shows outside itself (issue 18): the tab's title and favicon tell a player whose tab is in the
// background that it is their move («● Ваш ход — …») or that their own clock runs low («⏰ 0:25 — …»), with a dot on
// the site's icon; both go back as soon as it is not their move. Any game: PlayerBars drives it from the turn, the
// seat and the countdown. The moment it becomes the player's move it also announces «admiral:notify» (issue 19).

import { formatClock } from "./i18n.js";
import { t } from "./t.js";

const DOT = { turn: "#1f8a3b", low: "#c62828" };
let base = document.title;
let shown = { kind: null, ms: null };
let plainIcon = null; // the page's own favicon (the data URL in base.html)
let unreadChat = 0; // the opponent's chat messages that came while the tab was hidden (chat.js, issue 19)

function iconLink() {
  return document.querySelector('link[rel="icon"]');
}

/** The site's icon with a coloured dot in its upper right corner (an SVG data URL), or null if it is not an SVG. */
function dotted(href, colour) {
  const prefix = "data:image/svg+xml,";
  if (!href || !href.startsWith(prefix)) return null;
  const svg = decodeURIComponent(href.slice(prefix.length));
  const dot = `<circle cx='19' cy='5' r='5' fill='${colour}' stroke='white' stroke-width='1.5'/>`;
  return prefix + encodeURIComponent(svg.replace("</svg>", `${dot}</svg>`));
}

function paint() {
  const { kind, ms } = shown;
  if (kind === "low") document.title = `⏰ ${formatClock(ms ?? 0)} — ${base}`;
  else if (kind === "turn") document.title = `● ${t("Ваш ход")} — ${base}`;
  else document.title = base;
  if (unreadChat) document.title = `(${unreadChat}) ${document.title}`;
  const link = iconLink();
  if (!link) return;
  if (plainIcon == null) plainIcon = link.getAttribute("href");
  const href = kind ? dotted(plainIcon, DOT[kind]) || plainIcon : plainIcon;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.attention = kind || "";
}

/** The page's own title (what it says when nothing calls for the player). */
export function setBaseTitle(text) {
  if (text === base) return;
  base = text;
  paint();
}

/**
 * What calls for the player: null (nothing), "turn" (their move) or "low" (their move, their clock under the limit;
 * `ms`: its time left, shown in the title).
 */
export function setAttention(kind, ms = null) {
  const secs = kind === "low" ? Math.ceil((ms ?? 0) / 1000) : null;
  if (shown.kind === kind && (kind !== "low" || Math.ceil((shown.ms ?? 0) / 1000) === secs)) return;
  const becameTurn = kind && !shown.kind;
  shown = { kind, ms };
  if (becameTurn) {
    // issue 19: core/notify.js turns this into a system notification if the player asked for them and the page is
    // hidden (it drops it otherwise)
    const detail = { kind: "turn", title: t("Ваш ход"), body: base, url: location.href };
    window.dispatchEvent(new CustomEvent("admiral:notify", { detail }));
  }
  paint();
}

/** The count of unread chat messages the title shows first, as «(2) …» (0: none). */
export function setUnreadChat(n) {
  if (n === unreadChat) return;
  unreadChat = n;
  paint();
}

/** What the title and icon show now (for tests and debugging). */
export function attention() {
  return shown.kind;
}
