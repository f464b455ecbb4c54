// Entry point of «Морской бой: расширенный»'s game page: the house's entry (core/entry.js) with the variant's
// manifest and its screens (the setup, then play), each drawn on the board the room chose (rules C1).

import { startGameEntry } from "../../core/entry.js";
import { loadManifest } from "./manifest.js";
import { ExtPlayScreen } from "./play.js";
import { ExtSetupScreen } from "./setup.js";

startGameEntry({
  loadManifest,
  setup: (root, { manifest, game, seat, send, countdown }) => {
    const options = game.settings?.options || {};
    return new ExtSetupScreen(root, { manifest: manifest.forOptions(options), side: seat, options, send, countdown });
  },
  play: (root, { manifest, game, gameId, seat, send, countdown }) => {
    window.scrollTo(0, 0); // from «Готов» at the foot of the setup to the top of the grids (a phone)
    return new ExtPlayScreen(root, { manifest: manifest.forOptions(game.settings?.options || {}), gameId, seat, send, countdown });
  },
});
