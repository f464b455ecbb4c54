// What every game's entry module (games/<key>/main.js) does: start the page's frame (page.js), load the game's
// manifest, then show one screen at a time — the setup for a seat, a wait for the other fleet for a spectator, then
// play (with the result and the replay). The game gives only how to make its setup and play screens.

import { ChanceLine } from "./chance.js";
import { h } from "./dom.js";
import { startGamePage } from "./page.js";
import { t } from "./t.js";

/**
 * @typedef {{update: Function, onError: (msg: object) => void, onSetupState?: (msg: object) => void,
 *            onReconnect?: () => void, destroy?: () => void, chat?: import("./chat.js").ChatPanel}} Screen
 *            `chat`: the play screen's chat panel (issue 19), fed from each snapshot's `chat` and the `chat` messages
 * @typedef {{manifest: object, game: object, seat: string|null, gameId: string, send: (msg: object) => boolean,
 *            countdown: import("./clock.js").Countdown}} ScreenCtx
 */

/**
 * Start a game's page.
 * @param {{loadManifest: (url: string) => Promise<object>, setup: (root: HTMLElement, ctx: ScreenCtx) => Screen,
 *          play: (root: HTMLElement, ctx: ScreenCtx) => Screen}} game  `setup`'s screen gets `update(game, setup)`,
 *          `play`'s `update(game, view, notes)`; each is made once, when its screen is first shown
 */
export function startGameEntry(game) {
  let screen = null; // {kind, obj}
  // The seat's chat (issue 19): the last snapshot's state with every message known. A socket's first snapshot
  // brings the messages, later ones only the state (`messages: null`), `chat` messages the new ones; a screen made
  // later (play after the setup) gets them all.
  let chat = null;
  let manifest = null;
  // Messages wait for the manifest (the first snapshot may come before it), then run in order.
  let queue = game.loadManifest(document.getElementById("app").dataset.manifest).then(
    (m) => {
      manifest = m;
    },
    () => {
      page.screenEl.replaceChildren(h("p", { class: "card" }, t("Не удалось загрузить игру. Обновите страницу.")));
    },
  );
  const later = (fn) => (msg) => {
    queue = queue.then(() => manifest && fn(msg));
  };

  const page = startGamePage({
    onSnapshot: later(onSnapshot),
    onSetupState: later((msg) => {
      if (screen?.kind === "setup") screen.obj.onSetupState(msg);
    }),
    onError: later((msg) => screen?.obj.onError(msg)),
    onReconnect: later(() => screen?.obj.onReconnect?.()),
    onChat: later((msg) => {
      if (chat && !chat.messages.some((m) => m.id === msg.message.id)) chat.messages.push(msg.message);
      screen?.obj.chat?.receive(msg.message);
    }),
  });
  const { gameId, screenEl, countdown, send } = page;
  // A game with chance (D13): its seed's commitment under the play screen from the start, the seed at the end.
  const chanceLine = new ChanceLine();
  screenEl.after(chanceLine.el);

  function onSnapshot(msg) {
    const g = msg.game;
    chat = msg.chat ? { ...msg.chat, messages: msg.chat.messages ?? chat?.messages ?? [] } : null;
    countdown.set(g.clocks);
    const seat = page.seatOf(g);
    const ctx = () => ({ manifest, game: g, seat, gameId, send, countdown });
    const inSetup = g.status === "waiting" || g.status === "setup";
    if (inSetup && seat) {
      show("setup", () => game.setup(screenEl, ctx()));
      screen.obj.update(g, msg.setup);
      screen.obj.chat?.set(chat, g);
    } else if (inSetup) {
      show("wait", () => waitingScreen());
    } else {
      show("play", () => game.play(screenEl, ctx()));
      screen.obj.update(g, msg.view, msg.notes);
      screen.obj.chat?.set(chat, g);
    }
    chanceLine.update(inSetup ? null : msg.view?.chance);
  }

  /** Show a screen of `kind` (made by `make` unless it is the one shown). */
  function show(kind, make) {
    if (screen?.kind === kind) return;
    screen?.obj.destroy?.();
    screenEl.innerHTML = "";
    screen = { kind, obj: make() };
  }

  function waitingScreen() {
    screenEl.append(h("section", { class: "card narrow" }, h("h2", {}, t("Игроки расставляют флот")), h("p", { class: "muted" }, t("Партия начнётся, когда оба будут готовы."))));
    return { update() {}, onError() {} };
  }
}
