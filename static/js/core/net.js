// One WebSocket per tab to /ws/games/{id}, reconnecting with backoff (docs/protocol.md).

import { t } from "./t.js";

const PING_MS = 25000;
/** Refusals at the opening that another try would only repeat (docs/protocol.md "Floods"): no reconnecting. */
const REFUSALS = new Set(["too_many_tabs", "too_many_sockets"]);

export class GameSocket {
  /**
   * @param {string} gameId
   * @param {{onMessage: (msg: object) => void, onStatus: (online: boolean) => void,
   *          onRefused?: (msg: object) => void}} handlers  onRefused: the server refused this tab (too many
   *          tabs or sockets); the socket stays closed until open() is called again
   */
  constructor(gameId, handlers) {
    // delta=1: after a socket's first snapshot, a view may come as a change of the one before (docs/protocol.md).
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(gameId)}?delta=1`;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this.last = null; // {version, view}: the last view this socket was sent, a delta's base (a private copy)
  }

  open() {
    this.closed = false;
    this.refusal = null;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.last = null; // a new socket's first snapshot brings the whole view
    ws.addEventListener("open", () => {
      this.handlers.onStatus(true);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // The backoff starts again only once the server has shown the game: a socket it opens and closes at
      // once (a refusal, a flood) must not make the tab knock twice a second.
      if (msg.type === "snapshot" && !this.rebuild(msg)) {
        ws.close(); // a change of a view this tab does not hold (never expected): a new socket sends it whole
        return;
      }
      if (msg.type === "snapshot") this.retry = 0;
      else if (msg.type === "error" && REFUSALS.has(msg.code)) this.refusal = msg;
      else if (msg.type === "error" && msg.code === "flood") this.retry = Math.max(this.retry, 4);
      this.handlers.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.handlers.onStatus(false);
      if (this.refusal) {
        this.handlers.onRefused?.(this.refusal);
        return;
      }
      if (!this.closed) this.scheduleReconnect();
    });
    ws.addEventListener("error", () => ws.close());
  }

  /**
   * Make a snapshot's `view` whole: a `view_delta` {base, set, append} is applied to the last view (the keys in
   * `set` take their new values, the lists in `append` grow by those items). Keeps a copy of the view for the
   * next delta (the screen may change the object it is handed). False if the delta's base is not the view held.
   */
  rebuild(msg) {
    const delta = msg.view_delta;
    if (delta) {
      const last = this.last;
      if (!last || last.version !== delta.base) return false;
      const view = { ...last.view, ...delta.set };
      for (const [key, items] of Object.entries(delta.append)) view[key] = last.view[key].concat(items);
      msg.view = view;
      delete msg.view_delta;
    }
    this.last = msg.view ? { version: msg.game.version, view: structuredClone(msg.view) } : null;
    return true;
  }

  scheduleReconnect() {
    const delay = Math.min(10000, 500 * 2 ** this.retry) * (0.8 + Math.random() * 0.4);
    this.retry += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** Send a message; false when the socket is not open (the caller shows «Нет связи»). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }
}

/** JSON over fetch: returns the parsed body, throws Error(message) on a non-2xx answer. */
export async function api(method, url, body) {
  const opts = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = data?.error?.message || t("Ошибка {status}", { status: res.status });
    throw new Error(msg);
  }
  return data;
}
