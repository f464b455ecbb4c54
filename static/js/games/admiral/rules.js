// The rules page («Правила»): draws the board's own unit icons into the markers the server rendered
// (templates/rules.html), so every picture of a unit is the one the board shows.

import { iconSvg } from "./units.js";

for (const el of document.querySelectorAll(".rules .unit[data-kind]")) {
  if (!el.querySelector("svg")) el.insertAdjacentHTML("afterbegin", iconSvg(el.dataset.kind));
}
