// Entry point of «Военно-морская игра»'s game page: the house's entry (core/entry.js) with the game's manifest and
// its screens. The start is fixed (NAVAL_GAME.md §2, capability fixed_start): there is nothing to arrange, so the
// «setup» screen only waits — for the friend to take the invite (status «waiting»), or for play to begin (a snapshot
// in status «setup») — showing the own fleet where it starts; then play (with the result and the replay).

import { h } from "../../core/dom.js";
import { startGameEntry } from "../../core/entry.js";
import { t } from "../../core/t.js";
import { NavalBoard } from "./board.js";
import { Position } from "./events.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";

/** The screen before play: a line saying what is awaited, and the map with the own fleet at its start. */
class WaitScreen {
  constructor(root, { manifest, seat }) {
    this.seat = seat;
    this.textEl = h("p", { class: "nv-wait-text", "aria-live": "polite" });
    const boardEl = h("div", { class: "nv-board-box" });
    this.board = new NavalBoard(boardEl, { manifest, bottom: seat || "south", seat, onKey: () => {} });
    root.append(h("section", { class: "card nv-wait" }, h("h2", {}, t("Военно-морская игра")), this.textEl, boardEl));
  }

  update(game, setup) {
    this.textEl.textContent = game.status === "waiting" ? t("Ждём соперника: как только он примет приглашение, партия начнётся.") : t("Партия начинается…");
    const pos = new Position(this.seat && setup?.draft ? { [this.seat]: setup.draft } : {});
    this.board.render({ ships: pos.sides(), mines: [] });
  }

  onSetupState() {}

  onError() {}
}

startGameEntry({
  loadManifest,
  setup: (root, { manifest, seat }) => new WaitScreen(root, { manifest, seat }),
  play: (root, { manifest, gameId, seat, send, countdown }) => {
    window.scrollTo(0, 0);
    return new PlayScreen(root, { manifest, gameId, seat, send, countdown });
  },
});
