// The home page's lobby (issue 19, docs/protocol.md "Lobby socket"): one socket to /ws/lobby per tab, reconnecting
// with backoff. It draws the open challenges («Вызовы»: the picked game's only), the games in play («Сейчас
// играют»), and drives quick pairing; accepting, cancelling and pairing go over the socket. When someone accepts
// this browser's challenge, or the pool pairs it, the page goes to the game.

import { formatClock, timeControlText } from "./core/i18n.js";
import { commanderLine } from "./core/names.js";
import { t } from "./core/t.js";

const root = document.getElementById("challenges");
const liveRoot = document.getElementById("live-games");
/** Refusals at the opening: another try soon would only repeat them. */
const REFUSALS = new Set(["too_many_tabs", "too_many_sockets", "no_cookie"]);
/** Refusals that a closed tab elsewhere lifts: tried again now and then (backoff up to REFUSED_MAX_MS). */
const WAIT_FOR_SLOT = new Set(["too_many_tabs", "too_many_sockets"]);
const REFUSED_FIRST_MS = 5000;
const REFUSED_MAX_MS = 60000;
const PING_MS = 25000;

const state = { me: null, offset: 0, challenges: new Map(), live: [], liveAt: 0, seek: null };
let ws = null;
let retry = 0;
let refusal = null;
let refusedTries = 0;
let refusedTimer = null;
/** Whether this tab has the list (a ``lobby`` message came on the current socket): only then may it say "none". */
let listed = false;

function gameNames() {
  try {
    return JSON.parse(root.dataset.games || "{}");
  } catch {
    return {};
  }
}
const NAMES = root ? gameNames() : {};

/** The game the picker shows (the list shows its challenges only). */
function picked() {
  return document.querySelector('input[name="pick_game"]:checked')?.value || "admiral";
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function timeControl(x) {
  if (x.time_control === "none" || !x.base_ms || x.days_per_move) return timeControlText(x);
  if (x.time_control === "custom") return `${Math.round(x.base_ms / 60000)}+${Math.round(x.increment_ms / 1000)}`;
  return x.time_control;
}

/** A commander as the lists show them: nickname, rank and rating, «Гость», or the AI's level. */
function who(p) {
  if (!p) return "—";
  if (p.ai) return t("ИИ, уровень {n}", { n: p.ai });
  if (p.guest || !p.name) return t("Гость");
  return commanderLine({ name: p.name, rank: p.rank ? t(p.rank.name) : null, rating: p.rating, provisional: p.provisional });
}

function age(created) {
  const s = Math.max(0, (Date.now() - state.offset - created) / 1000);
  if (s < 60) return t("только что");
  return t("{n} мин назад", { n: Math.floor(s / 60) });
}

function renderChallenges() {
  const list = root.querySelector("[data-challenge-list]");
  const game = picked();
  const items = [...state.challenges.values()].filter((c) => c.game === game).sort((a, b) => b.created - a.created);
  list.replaceChildren(...items.map(challengeItem));
  root.querySelector("[data-challenge-empty]").hidden = !listed || items.length > 0;
}

function challengeItem(c) {
  const mine = c.by === state.me;
  const li = el("li", `challenge${mine ? " mine" : ""}`);
  li.dataset.id = c.id;
  const what = [NAMES[c.game] || c.game, ...(c.room || []).map((label) => t(label)), timeControl(c)].join(" · ");
  li.append(el("span", "what", what));
  li.append(el("span", c.rated ? "tag-rated" : "muted", c.rated ? t("рейтинговая") : t("без рейтинга")));
  li.append(el("span", "who", mine ? t("Ваш вызов") : who(c.player)));
  li.append(el("span", "age muted", age(c.created)));
  const actions = el("span", "actions");
  if (mine) {
    const open = el("a", "btn", t("Открыть"));
    open.href = c.url;
    const cancel = el("button", "btn danger", t("Отменить"));
    cancel.type = "button";
    cancel.addEventListener("click", () => send({ type: "cancel", id: c.id }));
    actions.append(open, cancel);
  } else {
    const accept = el("button", "btn primary", t("Принять"));
    accept.type = "button";
    if (c.rated && root.dataset.registered !== "yes") {
      // a guest cannot take a rated game (PROGRESSION.md §4): say why before the click, not after
      accept.disabled = true;
      accept.title = t("Рейтинговые партии — для зарегистрированных командиров.");
      actions.append(el("span", "muted rated-note", t("только для зарегистрированных")));
    }
    accept.addEventListener("click", () => {
      accept.disabled = true;
      send({ type: "accept", id: c.id });
    });
    actions.append(accept);
  }
  li.append(actions);
  return li;
}

function renderLive() {
  if (!liveRoot) return;
  const list = liveRoot.querySelector("[data-live-list]");
  const elapsed = Date.now() - state.liveAt;
  list.replaceChildren(
    ...state.live.map((g) => {
      const li = el("li", "live-game");
      li.append(el("span", "what", `${NAMES[g.game] || g.game} · ${timeControl(g)}`));
      if (g.rated) li.append(el("span", "tag-rated", t("рейтинговая")));
      li.append(el("span", "who", `${who(g.players.south)} — ${who(g.players.north)}`));
      if (g.clock) {
        const clocks = el("span", "live-clocks");
        for (const side of ["south", "north"]) {
          const running = g.clock.running === side;
          const left = g.clock[side] - (running ? elapsed : 0);
          if (side === "north") clocks.append(" — ");
          clocks.append(el("span", `live-clock${running ? " running" : ""}`, formatClock(left)));
        }
        li.append(clocks);
      }
      const actions = el("span", "actions");
      const watch = el("a", "btn", t("Смотреть"));
      watch.href = g.url;
      actions.append(watch);
      li.append(actions);
      return li;
    }),
  );
  liveRoot.querySelector("[data-live-empty]").hidden = !listed || state.live.length > 0;
}

function renderSeek() {
  const box = root.querySelector("[data-seeking]");
  box.hidden = !state.seek;
  for (const b of root.querySelectorAll("[data-pair]")) {
    b.classList.toggle("on", Boolean(state.seek && state.seek.game === b.dataset.game && state.seek.time_control === b.dataset.tc));
  }
  if (state.seek) {
    root.querySelector("[data-seeking-text]").textContent = t("Ищем соперника: {game}, {tc}…", {
      game: NAMES[state.seek.game] || state.seek.game,
      tc: state.seek.time_control,
    });
  }
}

function status(text) {
  const p = root.querySelector("[data-lobby-status]");
  p.textContent = text || "";
  p.hidden = !text;
}

function go(url) {
  location.href = url;
}

function onMessage(msg) {
  switch (msg.type) {
    case "lobby":
      retry = 0;
      refusedTries = 0;
      refusal = null;
      listed = true;
      state.me = msg.me;
      if (msg.registered !== undefined) root.dataset.registered = msg.registered ? "yes" : "no";
      state.offset = Date.now() - msg.now;
      state.challenges = new Map(msg.challenges.map((c) => [c.id, c]));
      state.live = msg.live;
      state.liveAt = Date.now();
      state.seek = msg.seek;
      status("");
      renderChallenges();
      renderLive();
      renderSeek();
      break;
    case "challenges":
      for (const id of msg.remove) state.challenges.delete(id);
      for (const c of msg.add) state.challenges.set(c.id, c);
      renderChallenges();
      break;
    case "live":
      state.live = msg.games;
      state.liveAt = Date.now();
      renderLive();
      break;
    case "seeking":
      state.seek = msg.seek;
      renderSeek();
      break;
    case "accepted": {
      const title = t("Ваш вызов принят");
      const body = t("Соперник найден — партия начинается.");
      window.dispatchEvent(new CustomEvent("admiral:notify", { detail: { kind: "challenge.accepted", title, body, url: msg.url } }));
      go(msg.url);
      break;
    }
    case "go":
    case "paired":
      go(msg.url);
      break;
    case "cancelled":
      state.challenges.delete(msg.id);
      renderChallenges();
      break;
    case "error":
      if (REFUSALS.has(msg.code)) {
        refusal = msg;
        unlisted();
        status(
          WAIT_FOR_SLOT.has(msg.code)
            ? `${msg.message} ${t("Список вызовов в этой вкладке недоступен. Подключимся сами, как только освободится место.")}`
            : msg.message,
        );
        break;
      }
      status(msg.message);
      for (const b of root.querySelectorAll(".challenge .btn.primary")) b.disabled = false;
      break;
    default:
      break;
  }
}

/** This tab has no list (refused a socket): nothing is shown as if it were the list, "none" included. */
function unlisted() {
  listed = false;
  state.challenges = new Map();
  state.live = [];
  state.seek = null;
  renderChallenges();
  renderLive();
  renderSeek();
}

/** A refused tab tries again now and then (a tab closed elsewhere frees its place), and at once when shown. */
function retryRefused() {
  clearTimeout(refusedTimer);
  const delay = Math.min(REFUSED_MAX_MS, REFUSED_FIRST_MS * 2 ** refusedTries) * (0.8 + Math.random() * 0.4);
  refusedTries += 1;
  refusedTimer = setTimeout(reconnectRefused, delay);
}

function reconnectRefused() {
  clearTimeout(refusedTimer);
  refusedTimer = null;
  refusal = null;
  connect();
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    status(t("Нет связи с сервером. Переподключаемся…"));
    return false;
  }
  ws.send(JSON.stringify(msg));
  return true;
}

function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`;
  const socket = new WebSocket(url);
  ws = socket;
  let ping = null;
  socket.addEventListener("open", () => {
    ping = setInterval(() => send({ type: "ping" }), PING_MS);
  });
  socket.addEventListener("message", (e) => {
    try {
      onMessage(JSON.parse(e.data));
    } catch {
      /* a message this page does not read */
    }
  });
  socket.addEventListener("close", () => {
    clearInterval(ping);
    if (ws !== socket) return;
    if (refusal) {
      if (WAIT_FOR_SLOT.has(refusal.code)) retryRefused();
      return;
    }
    status(t("Нет связи с сервером. Переподключаемся…"));
    const delay = Math.min(10000, 500 * 2 ** retry) * (0.8 + Math.random() * 0.4);
    retry += 1;
    setTimeout(connect, delay);
  });
  socket.addEventListener("error", () => socket.close());
}

if (root) {
  for (const b of root.querySelectorAll("[data-pair]")) {
    b.addEventListener("click", () => {
      const rated = Boolean(root.querySelector("[data-pair-rated]")?.checked);
      send({ type: "pair", game: b.dataset.game, time_control: b.dataset.tc, rated });
    });
  }
  root.querySelector("[data-unpair]").addEventListener("click", () => send({ type: "unpair" }));
  document.getElementById("pick-game")?.addEventListener("change", () => renderChallenges());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && refusedTimer !== null) reconnectRefused();
  });
  setInterval(() => {
    renderLive();
    for (const li of root.querySelectorAll(".challenge")) {
      const c = state.challenges.get(li.dataset.id);
      const span = li.querySelector(".age");
      if (c && span) span.textContent = age(c.created);
    }
  }, 1000);
  connect();
}
