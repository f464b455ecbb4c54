// Tiny DOM helpers.

import { t } from "./t.js";

/** h("button", {class: "btn", onclick: f}, "Текст") → element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "html") el.innerHTML = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let toastTimer = null;

/** A short message at the top of the page. */
export function toast(text, ms = 4000) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}

/** Hide the toast if it still says `text` (news that no longer holds: an offer taken back). */
export function dismissToast(text) {
  const el = document.getElementById("toast");
  if (el && !el.hidden && el.textContent === text) el.hidden = true;
}

/**
 * A modal <dialog> with a title, a body and buttons; resolves with the chosen value (null when cancelled).
 * `note`: an extra highlighted line (a lesson's instruction).
 */
export function choose({ title, intro, note = null, options, cancel = t("Отмена"), onHover = null, className = "" }) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { class: `choice-dialog ${className}`, "aria-labelledby": "dlg-title" });
    const done = (value) => {
      if (onHover) onHover(null);
      dlg.close();
      dlg.remove();
      resolve(value);
    };
    const list = h("div", { class: "choice-list" });
    for (const opt of options) {
      const b = h(
        "button",
        { type: "button", class: `btn choice ${opt.class || ""}`, onclick: () => done(opt.value) },
        opt.label,
      );
      if (opt.detail) b.append(h("span", { class: "choice-detail" }, opt.detail));
      if (onHover) {
        b.addEventListener("mouseenter", () => onHover(opt.value));
        b.addEventListener("focus", () => onHover(opt.value));
        b.addEventListener("mouseleave", () => onHover(null));
      }
      list.append(b);
    }
    dlg.append(h("h2", { id: "dlg-title" }, title));
    if (intro) dlg.append(h("p", { class: "muted dialog-intro" }, intro));
    if (note) dlg.append(h("p", { class: "dialog-note" }, note));
    dlg.append(list);
    if (cancel) dlg.append(h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "btn", onclick: () => done(null) }, cancel)));
    dlg.addEventListener("cancel", (e) => {
      e.preventDefault();
      if (cancel) done(null);
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}
