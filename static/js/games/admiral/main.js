// Entry point of «Адмирал»'s game page: the house's entry (core/entry.js) with the game's manifest (manifest.js)
// and its screens (setup, then play/result/replay).

import { startGameEntry } from "../../core/entry.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";

startGameEntry({
  loadManifest,
  setup: (root, { seat, send, countdown }) => new SetupScreen(root, { side: seat, send, countdown }),
  play: (root, { gameId, seat, send, countdown }) => new PlayScreen(root, { gameId, seat, send, countdown }),
});
