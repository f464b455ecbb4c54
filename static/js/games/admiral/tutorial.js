// «Обучение»: one lesson on the game's own screens (setup.js, play.js) against a scripted opponent.
// The server plays the lesson (GET /api/tutorial/{slug}, POST /api/tutorial/{slug}/act, docs/protocol.md):
// this page only shows its views and sends the player's tries; every step's texts come with the page.

import { Countdown } from "../../core/clock.js";
import { h, toast } from "../../core/dom.js";
import { api } from "../../core/net.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";
import { t } from "../../core/t.js";

const app = document.getElementById("app");
const slug = app.dataset.slug;
const kind = app.dataset.kind; // play | setup
const screenEl = document.getElementById("screen");
const nextLink = document.getElementById("next-lesson");
const STEPS = [...document.querySelectorAll("#lesson-steps > li")].map((li) => ({
  say: li.querySelector(".say").textContent,
  hint: li.querySelector(".hint").textContent,
  explain: li.querySelector(".explain").textContent,
}));
/** The pause between the views of one step: the player's action, then each of the opponent's replies. */
const FRAME_MS = 900;
const OPPONENT = { joined: true, connected: true, ready: true, bot: { name: t("Учебный противник"), level: null } };

const countdown = new Countdown();
let screen = null;
let step = 0;
let done = false;
let busy = true; // the lesson is loading, a try is on its way, or its views are being shown
let explained = null; // the step whose result the coach shows
let lastView = null;
let lastGame = null;
let queue = Promise.resolve();

const coach = buildCoach();

// --- the coach: what to do, what happened -------------------------------------------------------

function buildCoach() {
  const progress = h("span", { class: "coach-progress" });
  const bar = h("progress", { max: String(STEPS.length), value: "0", "aria-hidden": "true" });
  const say = h("p", { class: "coach-say" });
  const hint = h("p", { class: "coach-hint", role: "alert", hidden: true });
  const jump = h("a", { class: "coach-jump", href: "#lesson-result", hidden: true }, `↓ ${t("Что произошло")}`);
  const buttons = h("div", { class: "button-row" });
  if (nextLink) buttons.append(h("a", { class: "btn primary", href: nextLink.getAttribute("href") }, nextLink.textContent));
  else buttons.append(h("a", { class: "btn primary", href: "/#play-ai" }, t("Сыграть с ИИ")));
  buttons.append(h("a", { class: "btn", href: "/tutorial" }, t("Все уроки")));
  const finished = h("div", { class: "coach-done", hidden: true }, h("p", { class: "coach-done-title" }, `✓ ${t("Урок пройден!")}`), buttons);
  const el = h(
    "section",
    { class: "coach", "aria-label": t("Урок"), "aria-live": "polite" },
    h("div", { class: "coach-head" }, progress, bar),
    say,
    hint,
    jump,
    finished,
  );
  // What happened: beside the board on a wide screen, under it on a phone (the board stays in view).
  const result = h("div", { class: "coach-result", id: "lesson-result", hidden: true });
  const restart = h("button", { type: "button", class: "btn ghost coach-restart", onclick: () => load(0) }, t("Начать урок заново"));
  const notes = h("section", { class: "coach-notes", "aria-label": t("Что произошло"), "aria-live": "polite" }, result, restart);
  return { el, notes, progress, bar, result, say, hint, jump, finished, restart };
}

/** Redraw the coach; `refused`: the last try was not the step's action (show its hint); `waiting`: the
 * step's views are still being shown. */
function renderCoach({ refused = false, waiting = false } = {}) {
  coach.progress.textContent = done ? t("Все шаги пройдены") : t("Шаг {n} из {total}", { n: step + 1, total: STEPS.length });
  coach.bar.value = done ? STEPS.length : step;
  const shown = waiting ? null : explained;
  coach.result.hidden = shown == null;
  coach.result.innerHTML = "";
  if (shown != null) coach.result.append(h("strong", {}, t("Что произошло.")), " ", STEPS[shown].explain);
  coach.say.hidden = done || waiting;
  coach.say.textContent = done ? "" : STEPS[step].say;
  coach.hint.hidden = !refused;
  if (refused) {
    coach.hint.textContent = STEPS[step].hint;
    coach.hint.classList.remove("again");
    void coach.hint.offsetWidth; // restart the shake for a repeated refusal
    coach.hint.classList.add("again");
  }
  coach.jump.hidden = shown == null;
  coach.finished.hidden = !done || waiting;
  coach.restart.hidden = step === 0 && !done;
  coach.notes.hidden = coach.result.hidden && coach.restart.hidden;
}

// --- the screens ---------------------------------------------------------------------------------

function gameOf(view) {
  return {
    status: view.result ? "over" : "play",
    version: view.ply,
    result: view.result,
    players: { south: { joined: true, connected: true }, north: OPPONENT },
    clocks: null,
  };
}

function mount(data) {
  screen?.destroy?.();
  screenEl.innerHTML = "";
  const ctx = { side: "south", seat: "south", gameId: null, send, countdown, lesson: true, coach: [coach.el, coach.notes] };
  if (kind === "setup") {
    screen = new SetupScreen(screenEl, ctx);
    screen.spot = data.spot;
    screen.update({ players: { north: OPPONENT }, clocks: null }, data.setup);
  } else {
    screen = new PlayScreen(screenEl, ctx);
    show(data.view, data.spot);
  }
}

/** Show a view on the play screen; `spot`: the cells the next step is about (null between views). */
function show(view, spot) {
  lastView = done ? { ...view, legal: [] } : view; // a finished lesson takes no more actions
  lastGame = gameOf(view);
  screen.closed = done;
  screen.spot = spot || [];
  screen.note = spot && !done ? STEPS[step].say : null;
  screen.update(lastGame, lastView);
}

async function load(at) {
  let data;
  try {
    data = await api("GET", `/api/tutorial/${encodeURIComponent(slug)}${at == null ? "" : `?step=${at}`}`);
  } catch (e) {
    toast(e.message);
    return;
  }
  step = data.step;
  done = data.done;
  explained = step > 0 ? step - 1 : null;
  busy = false;
  mount(data);
  renderCoach();
}

// --- the player's tries ----------------------------------------------------------------------------

/** The screens' `send`: actions and setup changes go to the lesson, one at a time, in order. */
function send(msg) {
  if (msg.type === "action") queue = queue.then(() => tryStep({ action: msg.action }));
  else if (msg.type === "setup.update" || msg.type === "setup.auto" || msg.type === "setup.ready")
    queue = queue.then(() => tryStep({ op: msg.type.slice(6), setup: msg.setup }));
  else return false;
  return true;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function tryStep(body) {
  const at = step;
  busy = true;
  let res;
  try {
    res = await api("POST", `/api/tutorial/${encodeURIComponent(slug)}/act`, { step: at, ...body });
  } catch (e) {
    busy = false;
    toast(e.message);
    screen.onError({});
    return;
  }
  if (!res.accepted) {
    busy = false;
    screen.onError({});
    if (kind === "setup" && res.setup) {
      screen.selectedKind = screen.selectedCell = null; // start the step afresh: pick from the arsenal again
      screen.applyState(res.setup, true); // back to the step's own draft
    }
    renderCoach({ refused: true });
    return;
  }
  step = res.step;
  done = res.done;
  explained = at;
  if (kind === "setup") {
    screen.spot = res.spot;
    screen.onSetupState(res.setup);
  } else {
    renderCoach({ waiting: true });
    const frames = res.frames;
    for (let i = 0; i < frames.length; i++) {
      if (i) await sleep(FRAME_MS);
      show(frames[i], i === frames.length - 1 ? res.spot : null);
    }
  }
  busy = false;
  renderCoach();
}

// the board draws from the game's manifest: the lesson starts once it is here
loadManifest(app.dataset.manifest).then(
  () => load(null),
  (e) => toast(e.message),
);
window.addEventListener("beforeunload", () => screen?.destroy?.());
// for tests and debugging
window.admiral = {
  get game() {
    return lastGame;
  },
  get view() {
    return lastView;
  },
  get step() {
    return step;
  },
  get done() {
    return done;
  },
  get busy() {
    return busy;
  },
};
