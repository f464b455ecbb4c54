// The frame of every game page (templates/game.html): one socket per tab, the «Нет связи» banner, the invite
// link for the creator, the page title, the notices of the opponent's offers and of declined ones (offers.js), and
// `window.admiral` for tests and debugging. A game's entry module
// (games/<key>/…) starts it with its own handlers and draws its screens into `screenEl`.

import { setBaseTitle } from "./attention.js";
import { Countdown } from "./clock.js";
import { h, toast } from "./dom.js";
import { errorText } from "./i18n.js";
import { GameSocket } from "./net.js";
import { announce, declinedText, dropStaleNotices, offerNotices } from "./offers.js";
import { sounds } from "./sound.js";
import { t } from "./t.js";

/** The page's title for a game's status (the game's name follows it). */
export function titleFor(game) {
  return { waiting: t("Ожидание соперника"), setup: t("Расстановка"), play: t("Партия"), over: t("Партия окончена"), aborted: t("Партия прервана") }[game.status] || t("Партия");
}

/**
 * Start the game page.
 * @param {{onSnapshot: (msg: object) => void, onSetupState?: (msg: object) => void, onError?: (msg: object) => void,
 *          onReconnect?: () => void, onChat?: (msg: object) => void}} handlers  onError runs after the error's toast;
 *          onReconnect when the socket is back after a loss; onChat on a `chat` message
 * @returns {{app: HTMLElement, gameId: string, role: string, game: string, screenEl: HTMLElement,
 *            countdown: Countdown, send: (msg: object) => boolean, seatOf: (game: object) => string|null,
 *            setTitle: (game: object) => void}}
 */
export function startGamePage(handlers) {
  const app = document.getElementById("app");
  const gameId = app.dataset.gameId;
  const role = app.dataset.role; // south | north | spectator
  const offlineEl = document.getElementById("offline");
  const offlineText = offlineEl.textContent;
  const gameName = app.dataset.gameName || t("Адмирал");
  const recent = []; // the last few message types, for tests and debugging
  const state = { game: null, view: null, notes: null, online: false, everOnline: false };

  const socket = new GameSocket(gameId, { onMessage, onStatus, onRefused });

  /** The server refused this tab (docs/protocol.md "Floods"): say why, and reconnect only when asked. */
  function onRefused(msg) {
    offlineEl.replaceChildren(
      h("span", {}, errorText(msg)),
      " ",
      h("button", { type: "button", class: "btn", onclick: () => socket.open() }, t("Подключиться снова")),
    );
    offlineEl.hidden = false;
  }

  function onStatus(up) {
    state.online = up;
    if (up) offlineEl.textContent = offlineText;
    offlineEl.hidden = up;
    if (up && state.everOnline) handlers.onReconnect?.();
    state.everOnline = state.everOnline || up;
  }

  function onMessage(msg) {
    recent.push(msg.type === "setup.state" ? `setup.state:${Object.keys(msg.draft || {}).length}` : msg.type === "error" ? `error:${msg.code}` : msg.type);
    if (recent.length > 40) recent.shift();
    switch (msg.type) {
      case "snapshot":
        dropStaleNotices(state.game, msg.game, seatOf(msg.game));
        announce(offerNotices(state.game, msg.game, seatOf(msg.game)));
        state.game = msg.game;
        state.view = msg.view;
        state.notes = msg.notes ?? null;
        renderInvite(msg.game);
        setTitle(msg.game);
        handlers.onSnapshot(msg);
        app.dataset.status = msg.game.status;
        app.dataset.version = String(msg.game.version);
        return;
      case "setup.state":
        handlers.onSetupState?.(msg);
        return;
      case "error":
        toast(errorText(msg));
        handlers.onError?.(msg);
        return;
      case "rematch": // the rematch was made (the viewer accepted, or their offer was): its setup
        if (msg.url) location.href = msg.url;
        return;
      case "chat": // the seats' chat (issue 19): the play screen's panel shows it
        handlers.onChat?.(msg);
        return;
      case "declined":
        announce([{ text: declinedText(msg.offer), sound: "declined" }]);
        return;
      default:
        return;
    }
  }

  function setTitle(game) {
    setBaseTitle(`${titleFor(game)} — ${gameName}`);
  }

  function seatOf(game) {
    if (game.seat === "south" || game.seat === "north") return game.seat;
    return role === "south" || role === "north" ? role : null;
  }

  setupInviteCopy();
  socket.open();
  window.addEventListener("beforeunload", () => socket.close());
  window.admiral = {
    get game() {
      return state.game;
    },
    get view() {
      return state.view;
    },
    get online() {
      return state.online;
    },
    get notes() {
      return state.notes;
    },
    get sounds() {
      return sounds.played;
    },
    recent,
  };
  return {
    app,
    gameId,
    role,
    game: app.dataset.game || "admiral",
    screenEl: document.getElementById("screen"),
    countdown: new Countdown(),
    send: (msg) => socket.send(msg),
    seatOf,
    setTitle,
  };
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
