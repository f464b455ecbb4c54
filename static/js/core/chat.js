// The chat between a game's two players, for any game (issue 19; docs/protocol.md "Chat"). A play screen makes one
// ChatPanel and places its `el`: beside the board on a laptop (always open), under the board on a phone (a strip
// that opens and closes, with the count of unread messages). The server decides everything (who may write, free
// text or phrases only, the length, the rate, the blocks); the panel only shows what the seat's snapshot and the
// `chat` messages give, and every text goes in as text (textContent through h()), never as HTML.

import { setUnreadChat } from "./attention.js";
import { h, toast } from "./dom.js";
import { t } from "./t.js";

/** The quick phrases' texts by key (the server stores the key: each reader sees their own language). */
export function phraseText(key) {
  switch (key) {
    case "gl":
      return t("Удачи!");
    case "gg":
      return t("Хорошая партия");
    case "thanks":
      return t("Спасибо");
    case "rematch":
      return t("Реванш?");
    default:
      return key;
  }
}

let segmenter = null;

/** The number of characters of `text` as the user sees them (grapheme clusters, as the server counts them). */
export function visibleLength(text) {
  if (segmenter === null) {
    segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : false;
  }
  if (!segmenter) return Array.from(text).length;
  let n = 0;
  for (const _ of segmenter.segment(text)) n += 1;
  return n;
}

export class ChatPanel {
  /**
   * @param {{send: (msg: object) => boolean, seat: string|null}} opts  `send`: the game socket's; `seat`: the
   *        viewer's side (a spectator gets no chat: the panel stays hidden)
   */
  constructor({ send, seat }) {
    this.send = send;
    this.seat = seat;
    this.state = null; // the snapshot's `chat`: {phrases, free_text, text_max, blocked, messages}
    this.names = {};
    this.seen = new Set(); // ids of messages shown
    this.unread = 0;
    this.open = true;
    this.collapsible = false;

    this.countEl = h("span", { class: "chat-unread", hidden: true, "aria-label": t("Непрочитанные сообщения") });
    this.toggle = h("button", { type: "button", class: "chat-toggle", "aria-expanded": "true", onclick: () => this.setOpen(!this.open, true) }, h("span", { class: "chat-title" }, t("Чат")), " ", this.countEl);
    this.logEl = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("Сообщения") });
    this.emptyEl = h("p", { class: "chat-empty muted" }, t("Сообщений пока нет."));
    this.phrasesEl = h("div", { class: "chat-phrases" });
    this.input = h("input", { type: "text", class: "chat-input", autocomplete: "off", "aria-label": t("Сообщение сопернику"), placeholder: t("Сообщение…") });
    this.counter = h("span", { class: "chat-counter", "aria-live": "off" });
    this.sendBtn = h("button", { type: "submit", class: "btn chat-send" }, t("Отправить"));
    this.form = h("form", { class: "chat-form" }, this.input, this.counter, this.sendBtn);
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.sendText();
    });
    this.input.addEventListener("input", () => this.paintCounter());
    this.guestEl = h("p", { class: "chat-guest muted" }, t("Свой текст можно писать, только когда оба игрока — зарегистрированные командиры. Быстрые фразы доступны всем."));
    this.blockBtn = h("button", { type: "button", class: "btn chat-block", onclick: () => this.toggleBlock() });
    this.blockedEl = h("p", { class: "chat-blocked muted", hidden: true }, t("Сообщения соперника скрыты. Он об этом не знает."));
    this.body = h("div", { class: "chat-body" }, this.logEl, this.emptyEl, this.blockedEl, this.phrasesEl, this.form, this.guestEl, h("div", { class: "chat-tools" }, this.blockBtn));
    this.el = h("section", { class: "chat", hidden: true, "aria-label": t("Чат с соперником") }, this.toggle, this.body);

    this.onVisible = () => {
      if (!document.hidden && this.open) this.markRead();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  /**
   * Whether the panel is a strip that opens and closes (a phone: it starts closed) or always open (a laptop).
   * @param {boolean} on
   */
  setCollapsible(on) {
    if (this.collapsible === on) return;
    this.collapsible = on;
    this.el.classList.toggle("collapsible", on);
    this.setOpen(!on);
  }

  /** Open or close the strip (`reveal`: the player asked, so bring the opened panel into sight). */
  setOpen(open, reveal = false) {
    this.open = open || !this.collapsible;
    this.body.hidden = !this.open;
    this.el.classList.toggle("open", this.open);
    this.toggle.setAttribute("aria-expanded", String(this.open));
    if (this.open && !document.hidden) this.markRead();
    if (this.open) this.scrollDown(); // a closed log had no height to scroll: the newest line comes into sight
    if (this.open && reveal && this.collapsible) requestAnimationFrame(() => this.el.scrollIntoView({ block: "nearest" }));
  }

  /**
   * A snapshot: the seat's `chat` (null: no chat here — a spectator, a game against the AI, a free seat) and the
   * snapshot's `game` (the players' names).
   */
  set(chat, game) {
    // a copy: receive() appends to it (`messages: null`, the state alone, keeps the messages shown)
    this.state = chat ? { ...chat, messages: [...(chat.messages ?? this.state?.messages ?? [])] } : null;
    this.el.hidden = !this.state;
    if (!this.state) return;
    for (const side of ["south", "north"]) this.names[side] = game?.players?.[side]?.name || null;
    const fresh = this.state.messages.filter((m) => !this.seen.has(m.id));
    const firstFill = this.seen.size === 0;
    this.logEl.replaceChildren(...this.state.messages.map((m) => this.line(m)));
    this.seen = new Set(this.state.messages.map((m) => m.id));
    if (!firstFill) this.count(fresh.filter((m) => m.side !== this.seat).length);
    this.paint();
    this.scrollDown();
  }

  /** A `chat` message from the server (the writer's own included). */
  receive(message) {
    if (!this.state || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    this.state.messages.push(message);
    this.logEl.append(this.line(message));
    if (message.side !== this.seat) this.count(1);
    this.paint();
    this.scrollDown();
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisible);
    setUnreadChat(0);
  }

  // --- inside ------------------------------------------------------------------------------

  line(m) {
    const mine = m.side === this.seat;
    const who = mine ? t("Вы") : this.names[m.side] || t("Соперник");
    const body = m.kind === "phrase" ? phraseText(m.body) : m.body;
    return h("li", { class: `chat-line ${mine ? "mine" : "theirs"} chat-${m.kind}`, dataset: { id: String(m.id) } }, h("span", { class: "chat-who" }, who, ": "), h("span", { class: "chat-text" }, body));
  }

  count(n) {
    if (!n) return;
    if (this.open && !document.hidden) return;
    this.unread += n;
    this.paintUnread();
  }

  markRead() {
    this.unread = 0;
    this.paintUnread();
  }

  paintUnread() {
    this.countEl.hidden = !this.unread;
    this.el.classList.toggle("unread", this.unread > 0); // a closed strip with news stays in sight (the CSS)
    this.countEl.textContent = this.unread ? String(this.unread) : "";
    setUnreadChat(document.hidden ? this.unread : 0);
  }

  paint() {
    const s = this.state;
    this.emptyEl.hidden = s.messages.length > 0;
    this.phrasesEl.replaceChildren(
      ...s.phrases.map((key) => h("button", { type: "button", class: "btn chat-phrase", dataset: { phrase: key }, onclick: () => this.sendPhrase(key) }, phraseText(key))),
    );
    this.form.hidden = !s.free_text;
    this.guestEl.hidden = s.free_text;
    this.blockBtn.textContent = s.blocked ? t("Показывать сообщения соперника") : t("Скрыть сообщения соперника");
    this.blockBtn.setAttribute("aria-pressed", String(!!s.blocked));
    this.blockedEl.hidden = !s.blocked;
    this.paintCounter();
  }

  paintCounter() {
    const max = this.state?.text_max || 200;
    const n = visibleLength(this.input.value.trim());
    this.counter.textContent = `${n}/${max}`;
    this.counter.classList.toggle("over", n > max);
    this.sendBtn.disabled = n === 0 || n > max;
  }

  scrollDown() {
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  sendPhrase(key) {
    if (!this.send({ type: "chat", phrase: key })) toast(t("Нет связи с сервером"));
  }

  sendText() {
    const text = this.input.value.trim();
    const max = this.state?.text_max || 200;
    const n = visibleLength(text);
    if (!n || n > max) return;
    if (!this.send({ type: "chat", text })) {
      toast(t("Нет связи с сервером"));
      return;
    }
    this.input.value = "";
    this.paintCounter();
  }

  toggleBlock() {
    if (!this.state) return;
    if (!this.send({ type: "chat.block", blocked: !this.state.blocked })) toast(t("Нет связи с сервером"));
  }
}
