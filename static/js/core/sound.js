// Sounds of a game (issue 7): short tones synthesised with WebAudio (no sound files), a mute toggle
// remembered in localStorage. Browsers allow audio only after a user gesture: the context is made then.
// The house's own sounds are the low-time warning, the ends and the offers (made, declined); each game adds its voices (`sounds.define`)
// and decides from its views when to play them.

import { h } from "./dom.js";
import { t } from "./t.js";

const STORE_KEY = "admiral.muted";

const SPEAKER = `<path d="M3 9v6h4l5 4V5L7 9H3z"/>`;
const svg = (body) => `<svg class="ctl-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${SPEAKER}${body}</svg>`;
const ICON_ON = svg(`<path d="M15.5 8.5a4.5 4.5 0 0 1 0 7M18 6a8 8 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`);
const ICON_MUTED = svg(`<path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`);

/** Each sound: a list of notes [start s, frequency Hz (end Hz for a sweep), duration s, wave, volume]. */
const VOICES = {
  lowtime: [
    [0, 880, 0.08, "sine", 0.2],
    [0.16, 880, 0.08, "sine", 0.2],
  ],
  win: [
    [0, 523, 0.14, "triangle", 0.2],
    [0.14, 659, 0.14, "triangle", 0.2],
    [0.28, 784, 0.3, "triangle", 0.2],
  ],
  end: [
    [0, 440, 0.18, "triangle", 0.2],
    [0.18, 349, 0.32, "triangle", 0.2],
  ],
  // the opponent offers something (a draw, a rematch): a soft rising call
  offer: [
    [0, 587, 0.12, "sine", 0.18],
    [0.13, 784, 0.2, "sine", 0.18],
  ],
  // the opponent declined the viewer's offer: a soft falling pair
  declined: [
    [0, 523, 0.12, "sine", 0.16],
    [0.13, 392, 0.22, "sine", 0.16],
  ],
};

function storedMute() {
  try {
    return localStorage.getItem(STORE_KEY) === "1";
  } catch {
    return false;
  }
}

class SoundBoard {
  constructor() {
    this.muted = storedMute();
    this.voices = { ...VOICES };
    this.ctx = null;
    this.played = []; // names of the sounds played (for tests and debugging), newest last
    this.toggles = new Set();
    const wake = () => this.context();
    for (const ev of ["pointerdown", "keydown"]) window.addEventListener(ev, wake, { capture: true, passive: true });
  }

  /** The AudioContext, made (or resumed) on a user gesture; null where WebAudio is missing. */
  context() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    try {
      if (!this.ctx) this.ctx = new Ctx();
      if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    } catch {
      this.ctx = null;
    }
    return this.ctx;
  }

  /** Add (or replace) voices: `{name: [[start, freq, duration, wave, volume], …]}` (a game's own sounds). */
  define(voices) {
    Object.assign(this.voices, voices);
  }

  /** Play `name` (lowtime, win, end, offer, declined, or a voice a game defined) unless muted. */
  play(name) {
    const voice = this.voices[name];
    if (!voice || this.muted) return;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    const ctx = this.ctx; // only after a gesture: never start audio on our own
    if (!ctx || ctx.state !== "running") return;
    const now = ctx.currentTime;
    for (const [start, freq, dur, wave, vol] of voice) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      const [f0, f1] = Array.isArray(freq) ? freq : [freq, freq];
      osc.frequency.setValueAtTime(f0, now + start);
      if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, now + start + dur);
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(vol, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + dur + 0.02);
    }
  }

  setMuted(muted) {
    this.muted = !!muted;
    try {
      localStorage.setItem(STORE_KEY, this.muted ? "1" : "0");
    } catch {
      /* private mode: remembered for this page only */
    }
    for (const b of this.toggles) this.paint(b);
  }

  /** A toggle button «Без звука» (aria-pressed = muted); its state is remembered by the browser. */
  toggleButton() {
    const b = h("button", { type: "button", class: "btn icon-btn sound-toggle", "aria-label": t("Без звука") });
    b.addEventListener("click", () => this.setMuted(!this.muted));
    this.toggles.add(b);
    this.paint(b);
    return b;
  }

  paint(b) {
    if (!b.isConnected && b.dataset.painted) this.toggles.delete(b);
    b.dataset.painted = "1";
    b.innerHTML = this.muted ? ICON_MUTED : ICON_ON;
    b.setAttribute("aria-pressed", String(this.muted));
    b.title = this.muted ? t("Звук выключен") : t("Звук включён");
  }
}

export const sounds = new SoundBoard();

/** Low-time warning: once per turn when the viewer's own running clock drops under `limitMs`. */
export class LowTime {
  constructor(limitMs = 10000) {
    this.limitMs = limitMs;
    this.warnedAt = null; // version of the turn already warned about
  }

  /** Call often (every clock tick): `remaining` is the own clock's ms (null without a clock). */
  check(running, remaining, version) {
    if (!running || remaining == null || remaining >= this.limitMs || remaining <= 0) return false;
    if (this.warnedAt === version) return false;
    this.warnedAt = version;
    sounds.play("lowtime");
    return true;
  }
}

/** The end's sound when a game in play just ended: "win" for the winner, "end" for anyone else; else null. */
export function endSound(prevGame, nextGame, seat) {
  if (prevGame?.status !== "play" || nextGame?.status !== "over") return null;
  return seat && nextGame.result?.winner === seat ? "win" : "end";
}

/**
 * A game's sounds: its `voices` on the sound board (as `sounds.define`), and `soundsFor(prev, next, seat)` — which of
 * them a new snapshot ({game, view}) calls for against the previous one (nothing on the first): `onPly(prevView,
 * nextView)` names the sound of the plies made since (null: none), then the end's.
 * @returns {(prev: {game: object, view: object}|null, next: {game: object, view: object}, seat: string|null) => string[]}
 */
export function gameSounds(voices, onPly) {
  sounds.define(voices);
  return (prev, next, seat) => {
    if (!prev?.view || !next?.view) return [];
    const out = [];
    const made = next.view.ply > prev.view.ply ? onPly(prev.view, next.view) : null;
    if (made) out.push(made);
    const end = endSound(prev.game, next.game, seat);
    if (end) out.push(end);
    return out;
  };
}
