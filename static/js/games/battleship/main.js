// Entry point of «Морской бой»'s game page: the house's page frame (core/page.js) and the game's manifest, then
// one screen at a time: the setup, a wait for the other fleet, play (the result and the replay are part of it).

import { h } from "../../core/dom.js";
import { startGamePage } from "../../core/page.js";
import { t } from "../../core/t.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";

let screen = null; // {kind, obj}
let manifest = null;
// Messages wait for the manifest (the first snapshot may come before it), then run in order.
let queue = loadManifest(document.getElementById("app").dataset.manifest).then(
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
});
const { gameId, screenEl, countdown, send } = page;

function onSnapshot(msg) {
  const game = msg.game;
  countdown.set(game.clocks);
  const seat = page.seatOf(game);
  const options = game.settings?.options || {};
  const rules = options.rules || "classic";
  const inSetup = game.status === "waiting" || game.status === "setup";
  if (inSetup && seat) {
    show("setup", () => new SetupScreen(screenEl, { manifest, side: seat, rules, options, send, countdown }));
    screen.obj.update(game, msg.setup);
  } else if (inSetup) {
    show("wait", () => waitingScreen());
  } else {
    const fresh = show("play", () => new PlayScreen(screenEl, { manifest, gameId, seat, send, countdown }));
    screen.obj.update(game, msg.view);
    if (fresh) window.scrollTo(0, 0); // from «Готов» at the foot of the setup to the top of the grids (a phone)
  }
}

/** Show a screen of `kind` (made by `make` unless it is the one shown); true when it is new. */
function show(kind, make) {
  if (screen?.kind === kind) return false;
  screen?.obj.destroy?.();
  screenEl.innerHTML = "";
  screen = { kind, obj: make() };
  return true;
}

function waitingScreen() {
  screenEl.append(h("section", { class: "card narrow" }, h("h2", {}, t("Игроки расставляют флот")), h("p", { class: "muted" }, t("Партия начнётся, когда оба будут готовы."))));
  return { update() {}, onError() {} };
}
