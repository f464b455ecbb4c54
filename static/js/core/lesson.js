// «Обучение»: what every game's lesson page shares — the coach (what to do, a wrong try's hint and the rules' reason,
// what happened, the end of the lesson), the lesson's requests (GET /api/tutorial/{slug}, POST
// /api/tutorial/{slug}/act, docs/protocol.md) and the pacing of a step's views. A game's tutorial.js
// (static/js/games/<key>/tutorial.js) brings its screen: `mount` builds it, `show` draws one view on it. The
// server plays the lesson; this page only shows its views and sends the player's tries; every step's texts come
// with the page (#lesson-steps). No game's rules here.

import { Countdown } from "./clock.js";
import { h, toast } from "./dom.js";
import { api } from "./net.js";
import { t } from "./t.js";

/** The pause between the views of one step: the player's action, then each of the opponent's replies. */
export const FRAME_MS = 900;
/** The scripted opponent as the players' bars show it. */
export const OPPONENT = { joined: true, connected: true, ready: true, bot: { name: t("Учебный противник"), level: null } };

/** The house's game state around a lesson's view (no clocks, no invite, the opponent a bot). */
export function gameOf(view) {
  return {
    status: view.result ? "over" : "play",
    version: view.ply,
    result: view.result,
    players: { south: { joined: true, connected: true }, north: OPPONENT },
    clocks: null,
  };
}

/**
 * Run the lesson of the page.
 * @param {{loadManifest: (url: string) => Promise<any>,
 *          mount: (root: HTMLElement, data: object, ctx: object) => object,
 *          show: (screen: object, shown: {game: object, view: object, spot: string[]|null, note: string|null,
 *                 done: boolean, data: object|null}) => void,
 *          refused?: (screen: object, res: object) => void,
 *          accepted?: (screen: object, res: object) => boolean}} game
 *   `mount(root, data, ctx)`: the game's screen for the lesson's first snapshot (`ctx`: manifest, side, seat, send,
 *   countdown, lesson, coach); `show`: draw one view (`spot` and `data` — the last snapshot or reply, with the game's
 *   own keys — only on a step's last view); `refused`: after a refused try (default: the screen's `onError`);
 *   `accepted`: handle an accepted try itself, returning true (a setup lesson), else its views are shown in turn.
 */
export function startLesson(game) {
  const app = document.getElementById("app");
  const slug = app.dataset.slug;
  const screenEl = document.getElementById("screen");
  const nextLink = document.getElementById("next-lesson");
  const STEPS = [...document.querySelectorAll("#lesson-steps > li")].map((li) => ({
    say: li.querySelector(".say").textContent,
    hint: li.querySelector(".hint").textContent,
    explain: li.querySelector(".explain").textContent,
  }));
  const countdown = new Countdown();
  let manifest = null;
  let screen = null;
  let step = 0;
  let done = false;
  let busy = true; // the lesson is loading, a try is on its way, or its views are being shown
  let explained = null; // the step whose result the coach shows
  let ruled = null; // the rules' reason that made the last step (a try the rules refuse, on purpose)
  let lastView = null;
  let lastGame = null;
  let queue = Promise.resolve();

  // --- the coach: what to do, what happened -----------------------------------------------------

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

  const coach = buildCoach();

  /** Redraw the coach; `refused`: the last try was not the step's (show its hint and `reason`, the rules' refusal
   * if the rules refused it); `waiting`: the step's views are still being shown. */
  function renderCoach({ refused = false, reason = null, waiting = false } = {}) {
    coach.progress.textContent = done ? t("Все шаги пройдены") : t("Шаг {n} из {total}", { n: step + 1, total: STEPS.length });
    coach.bar.value = done ? STEPS.length : step;
    const shown = waiting ? null : explained;
    coach.result.hidden = shown == null;
    coach.result.innerHTML = "";
    if (shown != null) {
      coach.result.append(h("strong", {}, t("Что произошло.")), " ", STEPS[shown].explain);
      if (ruled) coach.result.append(h("span", { class: "coach-rule" }, h("strong", {}, t("Правила:")), " ", ruled));
    }
    coach.say.hidden = done || waiting;
    coach.say.textContent = done ? "" : STEPS[step].say;
    coach.hint.hidden = !refused;
    if (refused) {
      coach.hint.innerHTML = "";
      if (reason) coach.hint.append(h("span", { class: "coach-reason" }, h("strong", {}, t("Правила:")), " ", reason), " ");
      coach.hint.append(STEPS[step].hint);
      coach.hint.classList.remove("again");
      void coach.hint.offsetWidth; // restart the shake for a repeated refusal
      coach.hint.classList.add("again");
    }
    coach.jump.hidden = shown == null;
    coach.finished.hidden = !done || waiting;
    coach.restart.hidden = step === 0 && !done;
    coach.notes.hidden = coach.result.hidden && coach.restart.hidden;
  }

  // --- the screen ----------------------------------------------------------------------------------

  /** Show a view; `spot` and `data` (the snapshot or reply it ends) only on a step's last view. */
  function show(view, spot, data) {
    lastView = done ? { ...view, legal: [] } : view; // a finished lesson takes no more actions
    lastGame = gameOf(view);
    game.show(screen, { game: lastGame, view: lastView, spot: spot || null, note: spot && !done ? STEPS[step].say : null, done, data: data || null });
  }

  function mount(data) {
    screen?.destroy?.();
    screenEl.innerHTML = "";
    const ctx = { manifest, side: "south", seat: "south", gameId: null, send, countdown, lesson: true, coach: [coach.el, coach.notes], opponent: OPPONENT };
    screen = game.mount(screenEl, data, ctx);
    if (data.view) show(data.view, data.spot, data);
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
    ruled = null;
    busy = false;
    mount(data);
    renderCoach();
  }

  // --- the player's tries ----------------------------------------------------------------------------

  /** The screen's `send`: actions and setup changes go to the lesson, one at a time, in order. */
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
      if (game.refused) game.refused(screen, res);
      else screen.onError({});
      renderCoach({ refused: true, reason: res.reason });
      return;
    }
    step = res.step;
    done = res.done;
    explained = at;
    ruled = res.reason || null;
    if (!game.accepted?.(screen, res)) {
      renderCoach({ waiting: true });
      const frames = res.frames;
      for (let i = 0; i < frames.length; i++) {
        if (i) await sleep(FRAME_MS);
        const last = i === frames.length - 1;
        show(frames[i], last ? res.spot : null, last ? res : null);
      }
    }
    busy = false;
    renderCoach();
  }

  // the board draws from the game's manifest: the lesson starts once it is here
  game.loadManifest(app.dataset.manifest).then(
    (m) => {
      manifest = m;
      load(null);
    },
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
}
