// Entry point of the game page: one socket, one screen at a time (setup, then play/result/replay).

import { Countdown } from "./clock.js";
import { h, toast } from "./dom.js";
import { errorText } from "./i18n.js";
import { GameSocket } from "./net.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";
import { t } from "./t.js";
import { sounds } from "./sound.js";

const app = document.getElementById("app");
const gameId = app.dataset.gameId;
const role = app.dataset.role; // south | north | spectator
const screenEl = document.getElementById("screen");
const offlineEl = document.getElementById("offline");
const countdown = new Countdown();

let screen = null; // {kind, obj}
let lastGame = null;
let lastView = null;
let lastNotes = null;
let online = false;

const socket = new GameSocket(gameId, { onMessage, onStatus, onRefused });

function send(msg) {
  return socket.send(msg);
}

let everOnline = false;

/** The server refused this tab (docs/protocol.md "Floods"): say why, and reconnect only when asked. */
function onRefused(msg) {
  offlineEl.replaceChildren(
    h("span", {}, errorText(msg)),
    " ",
    h("button", { type: "button", class: "btn", onclick: () => socket.open() }, t("Подключиться снова")),
  );
  offlineEl.hidden = false;
}

const offlineText = offlineEl.textContent;

function onStatus(up) {
  online = up;
  if (up) offlineEl.textContent = offlineText;
  offlineEl.hidden = up;
  if (up && everOnline && screen?.obj.onReconnect) screen.obj.onReconnect();
  everOnline = everOnline || up;
}

const recent = []; // the last few message types, for tests and debugging

function onMessage(msg) {
  recent.push(msg.type === "setup.state" ? `setup.state:${Object.keys(msg.draft || {}).length}` : msg.type === "error" ? `error:${msg.code}` : msg.type);
  if (recent.length > 40) recent.shift();
  switch (msg.type) {
    case "snapshot":
      return onSnapshot(msg);
    case "setup.state":
      if (screen?.kind === "setup") screen.obj.onSetupState(msg);
      return;
    case "error":
      toast(errorText(msg));
      if (screen) screen.obj.onError(msg);
      return;
    case "rematch":
      if (msg.url) location.href = msg.url;
      return;
    default:
      return;
  }
}

function seatOf(game) {
  if (game.seat === "south" || game.seat === "north") return game.seat;
  return role === "south" || role === "north" ? role : null;
}

function onSnapshot(msg) {
  const game = msg.game;
  lastGame = game;
  lastView = msg.view;
  lastNotes = msg.notes ?? null;
  countdown.set(game.clocks);
  renderInvite(game);
  document.title = `${titleFor(game)} — ${t("Адмирал")}`;
  const seat = seatOf(game);
  const inSetup = game.status === "waiting" || game.status === "setup";
  if (inSetup && seat) {
    show("setup", () => new SetupScreen(screenEl, { side: seat, send, countdown }));
    screen.obj.update(game, msg.setup);
  } else if (inSetup) {
    show("wait", () => waitingScreen());
  } else {
    show("play", () => new PlayScreen(screenEl, { gameId, seat, send, countdown }));
    screen.obj.update(game, msg.view, msg.notes);
  }
  app.dataset.status = game.status;
  app.dataset.version = String(game.version);
}

function show(kind, make) {
  if (screen?.kind === kind) return;
  screenEl.innerHTML = "";
  screen = { kind, obj: make() };
}

function waitingScreen() {
  screenEl.append(h("section", { class: "card narrow" }, h("h2", {}, t("Игроки расставляют флот")), h("p", { class: "muted" }, t("Партия начнётся, когда оба будут готовы."))));
  return { update() {}, onError() {} };
}

function titleFor(game) {
  return { waiting: t("Ожидание соперника"), setup: t("Расстановка"), play: t("Партия"), over: t("Партия окончена"), aborted: t("Партия прервана") }[game.status] || t("Партия");
}

// --- the invite link (creator only, until the friend joins) -----------------------------------

function renderInvite(game) {
  const box = document.getElementById("invite");
  const url = game.invite_url;
  if (!url) {
    if (box) box.hidden = true;
    return;
  }
  const input = document.getElementById("invite-link");
  if (box && input) {
    box.hidden = false;
    input.value = new URL(url, location.origin).href;
  }
}

function setupInviteCopy() {
  const input = document.getElementById("invite-link");
  const btn = document.getElementById("copy-invite");
  if (!input || !btn) return;
  input.value = new URL(input.value, location.origin).href;
  btn.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    btn.textContent = t("Скопировано ✓");
    setTimeout(() => (btn.textContent = t("Копировать")), 2000);
  });
  input.addEventListener("focus", () => input.select());
}

setupInviteCopy();
socket.open();
window.addEventListener("beforeunload", () => socket.close());
// for tests and debugging: the last snapshot's game
window.admiral = {
  get game() {
    return lastGame;
  },
  get view() {
    return lastView;
  },
  get online() {
    return online;
  },
  get notes() {
    return lastNotes;
  },
  get sounds() {
    return sounds.played;
  },
  recent,
};
