// «Обучение»: one lesson of «Адмирал» on the game's own screens (setup.js, play.js) against a scripted opponent.
// The coach, the lesson's requests and the pacing of a step's views are the house's (core/lesson.js); this file
// brings the screens: the setup lesson on the setup screen, every other lesson on the play screen.

import { startLesson } from "../../core/lesson.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";
import { SetupScreen } from "./setup.js";

const kind = document.getElementById("app").dataset.kind; // play | setup

startLesson({
  loadManifest,
  mount(root, data, ctx) {
    if (kind === "setup") {
      const screen = new SetupScreen(root, ctx);
      screen.spot = data.spot;
      screen.update({ players: { north: ctx.opponent }, clocks: null }, data.setup);
      return screen;
    }
    return new PlayScreen(root, ctx);
  },
  show(screen, { game, view, spot, note, done }) {
    screen.closed = done;
    screen.spot = spot || [];
    screen.note = note;
    screen.update(game, view);
  },
  refused(screen, res) {
    screen.onError({});
    if (kind === "setup" && res.setup) {
      screen.selectedKind = screen.selectedCell = null; // start the step afresh: pick from the arsenal again
      screen.applyState(res.setup, true); // back to the step's own draft
    }
  },
  accepted(screen, res) {
    if (kind !== "setup") return false;
    screen.spot = res.spot;
    screen.onSetupState(res.setup);
    return true;
  },
});
