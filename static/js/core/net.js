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
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(gameId)}`;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  open() {
    this.closed = false;
    this.refusal = null;
    const ws = new WebSocket(this.url);
    this.ws = ws;
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
