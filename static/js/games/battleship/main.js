// Entry point of «Морской бой»'s game page: the house's entry (core/entry.js) with the game's manifest and its
// screens: the setup, then play (the result and the replay are part of it).

import { startGameEntry } from "../../core/entry.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";

startGameEntry({
  loadManifest,
  setup: (root, { manifest, game, seat, send, countdown }) => {
    const options = game.settings?.options || {};
    return new SetupScreen(root, { manifest, side: seat, rules: options.rules || "classic", options, send, countdown });
  },
  play: (root, { manifest, gameId, seat, send, countdown }) => {
    window.scrollTo(0, 0); // from «Готов» at the foot of the setup to the top of the grids (a phone)
    return new PlayScreen(root, { manifest, gameId, seat, send, countdown });
  },
});
