// «Обучение»: one lesson of «Военно-морская игра» on the game's own play screen (play.js: the map, the selected
// ship's orders, the die, the log) against a scripted opponent. The coach, the lesson's requests and the pacing of a
// step's views are the house's (core/lesson.js). Beyond a game's screen, a lesson rings the points its step is about
// (`spot`) and offers the selected ship's refused orders as grey circles (`tries`, from the server): tapping one sends
// it, and the coach shows the rules' reason for the refusal.

import { startLesson } from "../../core/lesson.js";
import { loadManifest } from "./manifest.js";
import { PlayScreen } from "./play.js";

startLesson({
  loadManifest,
  mount: (root, _data, ctx) => new PlayScreen(root, ctx),
  show(screen, { game, view, spot, done, data }) {
    screen.closed = done;
    screen.spot = spot || [];
    if (data) {
      screen.tries = data.tries || [];
      screen.busy = false; // a try the rules refused on purpose leaves the same position: nothing else ends the wait
    } else screen.tries = [];
    screen.update(game, view);
  },
});
