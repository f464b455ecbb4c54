// Browser notifications (issue 19), opt-in, for any page and any game: «Ваш ход», an opponent's draw or rematch
// offer, a challenge accepted. Pages (and core/attention.js, core/offers.js) announce such a moment with
//   window.dispatchEvent(new CustomEvent("admiral:notify", { detail: { kind, title, body, url } }))
// and this module turns it into a system notification — only when the player switched them on here (a click on a
// bell or the profile's switch, which is when the browser asks for the permission), the browser granted it, and
// the page is hidden (another tab, a locked phone). The visible page is never notified: it shows the moment itself.
// A click on the notification focuses the tab (or opens `url`).

import { h } from "./dom.js";
import { t } from "./t.js";

const STORE_KEY = "admiral.notify";
const ICON = "/static/icons/admiral-192.png";
const toggles = new Set();

/** Whether this browser can show notifications at all. */
export function supported() {
  return typeof window !== "undefined" && "Notification" in window;
}

function wanted() {
  try {
    return localStorage.getItem(STORE_KEY) === "on";
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch {
    /* private mode: not remembered */
  }
}

/** "on" (switched on and permitted), "off", "denied" (the browser refuses) or "unsupported". */
export function state() {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return wanted() && Notification.permission === "granted" ? "on" : "off";
}

/** Switch notifications on (asks the browser's permission; call from a click) or off. Resolves to `state()`. */
export async function setEnabled(on) {
  if (!supported()) return state();
  if (on && Notification.permission === "default") {
    try {
      await Notification.requestPermission();
    } catch {
      /* an old callback-only browser: the permission stays as it was */
    }
  }
  remember(on && Notification.permission === "granted");
  repaint();
  return state();
}

function openUrl(url) {
  window.focus();
  if (url) {
    const target = new URL(url, location.href);
    if (target.href !== location.href) location.assign(target.href);
  }
}

/**
 * Show `detail` ({kind, title, body, url}) as a notification if notifications are on and the page is hidden.
 * Returns whether one was shown. `kind` is the tag: a newer notice of the same kind and page replaces the older.
 */
export function notify(detail) {
  if (!detail || state() !== "on" || document.visibilityState !== "hidden") return false;
  const title = detail.title || t("Адмирал");
  const options = { body: detail.body || "", icon: ICON, badge: ICON, tag: `${detail.kind || "notice"}:${detail.url || location.pathname}`, data: { url: detail.url || location.href } };
  try {
    const n = new Notification(title, options);
    n.onclick = () => {
      openUrl(detail.url);
      n.close();
    };
  } catch {
    // a phone's browser shows notifications only through the service worker (sw.js handles the click)
    navigator.serviceWorker?.ready.then((reg) => reg.showNotification(title, options)).catch(() => {});
  }
  return true;
}

window.addEventListener("admiral:notify", (event) => notify(event.detail));

const BELL = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M12 3a5 5 0 0 0-5 5v3.5L5 15v1h14v-1l-2-3.5V8a5 5 0 0 0-5-5zM10 18a2 2 0 0 0 4 0" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>`;
const SLASH = `<path d="M4 4l16 16" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`;

function words(s) {
  if (s === "on") return t("Уведомления включены: сообщим о вашем ходе, когда вкладка скрыта");
  if (s === "denied") return t("Уведомления запрещены в настройках браузера для этого сайта");
  if (s === "unsupported") return t("Этот браузер не умеет показывать уведомления");
  return t("Уведомлять о моём ходе, когда вкладка скрыта");
}

function paint(el) {
  const s = state();
  el.dataset.state = s;
  if (el.matches("input[type=checkbox]")) {
    el.checked = s === "on";
    el.disabled = s === "denied" || s === "unsupported";
    const note = el.closest("[data-notify-switch]")?.querySelector("[data-notify-note]");
    if (note) note.textContent = s === "denied" || s === "unsupported" ? words(s) : "";
    return;
  }
  el.innerHTML = BELL + (s === "on" ? "" : SLASH) + "</svg>";
  el.setAttribute("aria-pressed", String(s === "on"));
  el.setAttribute("aria-label", t("Уведомления"));
  el.title = words(s);
  el.disabled = s === "unsupported";
}

function repaint() {
  for (const el of toggles) {
    if (!el.isConnected && el.dataset.painted) toggles.delete(el);
    else paint(el);
  }
}

function wire(el) {
  if (toggles.has(el)) return el;
  toggles.add(el);
  el.dataset.painted = "1";
  const on = () => (el.matches("input[type=checkbox]") ? el.checked : state() !== "on");
  el.addEventListener(el.matches("input") ? "change" : "click", () => setEnabled(on()));
  paint(el);
  return el;
}

/** A bell button for a game's bar: a click switches notifications on (asking the permission) or off. */
export function bellButton() {
  return wire(h("button", { type: "button", class: "btn icon-btn notify-toggle" }));
}

// Controls in the page's HTML (the profile's switch): <input type="checkbox" data-notify-toggle>.
for (const el of document.querySelectorAll("[data-notify-toggle]")) wire(el);
document.addEventListener("visibilitychange", repaint); // the permission may have changed in the browser's settings
