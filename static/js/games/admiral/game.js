// Entry point of «Адмирал»'s game page: the house's page frame (core/page.js) and the game's manifest (manifest.js),
// then one screen at a time (setup, then play/result/replay).

import { h } from "../../core/dom.js";
import { startGamePage } from "../../core/page.js";
import { t } from "../../core/t.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";

let screen = null; // {kind, obj}
let loaded = false;
// Messages wait for the manifest (the first snapshot may come before it), then run in order.
let queue = loadManifest(document.getElementById("app").dataset.manifest).then(
  () => {
    loaded = true;
  },
  () => {
    page.screenEl.replaceChildren(h("p", { class: "card" }, t("Не удалось загрузить игру. Обновите страницу.")));
  },
);
const later = (fn) => (msg) => {
  queue = queue.then(() => loaded && fn(msg));
};

const page = startGamePage({
  onSnapshot: later(onSnapshot),
  onSetupState: later((msg) => {
    if (screen?.kind === "setup") screen.obj.onSetupState(msg);
  }),
  onError: later((msg) => screen?.obj.onError(msg)),
  onReconnect: later(() => screen?.obj.onReconnect?.()),
});
const { gameId, screenEl, countdown, send } = page;

function onSnapshot(msg) {
  const game = msg.game;
  countdown.set(game.clocks);
  const seat = page.seatOf(game);
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
