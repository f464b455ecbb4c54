// Home page: the game picker drives both new-game forms (the chosen game's room options, levels and setup time);
// in each form the custom time fields are active only with «своё», and a room option that does not apply (salvo
// outside the Hasbro rules…) is greyed out, and so is a choice allowed only under other options' values (2–3 mines
// off the 10×10 board).

const picker = document.getElementById("pick-game");
const forms = [...document.querySelectorAll("form.new-game")];

/** Show the parts of the page for `key` (`data-for-game`), disable the others' fields so they are not sent. */
function pickGame(key, { initial = false } = {}) {
  const radio = picker?.querySelector(`input[name="pick_game"][value="${key}"]`);
  for (const el of document.querySelectorAll("[data-for-game]")) {
    const on = el.dataset.forGame === key;
    el.hidden = !on;
    if (el.tagName === "FIELDSET") el.disabled = !on;
    // the games' level lists share one radio group (ai_level): the shown list starts at its first level, or the
    // form sent none (the last list's default unchecked the first's)
    if (on && el.tagName === "FIELDSET" && !el.querySelector('input[name="ai_level"]:checked')) {
      const first = el.querySelector('input[name="ai_level"]');
      if (first) first.checked = true;
    }
  }
  // parts that some games do without (`data-not-for-games`: keys, space-separated), e.g. the setup time of a game
  // whose start is fixed
  for (const el of document.querySelectorAll("[data-not-for-games]")) {
    const off = el.dataset.notForGames.split(" ").includes(key);
    el.hidden = off;
    if (el.tagName === "FIELDSET") el.disabled = off;
  }
  for (const field of document.querySelectorAll("[data-game-field]")) field.value = key;
  const aiForm = document.getElementById("new-ai-game");
  if (aiForm && radio) aiForm.hidden = radio.dataset.levels === "0";
  if (!initial && radio) {
    for (const form of forms) {
      const minutes = form.querySelector(`input[name="setup_minutes"][value="${radio.dataset.setupMinutes}"]`);
      if (minutes) minutes.checked = true;
    }
    const url = new URL(location.href);
    url.searchParams.set("game", key);
    history.replaceState(null, "", url);
  }
  for (const form of forms) sync(form);
}

/** A form's dependent fields: custom time, and room options that apply only under some values of others. */
function sync(form) {
  const custom = form.querySelector("[data-custom-time]");
  const on = form.elements.time_control.value === "custom";
  custom.hidden = !on;
  for (const input of custom.querySelectorAll("input")) input.disabled = !on;
  const days = form.querySelector("[data-days-per-move]"); // correspondence: the days per move (issue 19)
  if (days) {
    const post = form.elements.time_control.value === "correspondence";
    days.hidden = !post;
    for (const input of days.querySelectorAll("input")) input.disabled = !post;
  }
  for (const label of form.querySelectorAll("[data-applies]")) {
    const box = label.closest("fieldset");
    if (box?.disabled) continue;
    const applies = JSON.parse(label.dataset.applies || "{}");
    const ok = Object.entries(applies).every(([name, values]) => {
      const checked = box.querySelector(`input[name="opt_${name}"]:checked`);
      return checked && values.map(String).includes(checked.value);
    });
    const input = label.querySelector("input");
    input.disabled = !ok;
    label.classList.toggle("inactive", !ok);
  }
  // a choice allowed only under some values of other options (2–3 mines on the larger boards): disabled otherwise,
  // and a selection it made invalid goes back to the option's default (its first choice)
  for (const label of form.querySelectorAll("[data-choice-applies]")) {
    const box = label.closest("fieldset");
    if (box?.disabled) continue;
    const when = JSON.parse(label.dataset.choiceApplies || "{}");
    const ok = Object.entries(when).every(([name, values]) => {
      const checked = box.querySelector(`input[name="opt_${name}"]:checked`);
      return !checked || values.includes(checked.value);
    });
    const input = label.querySelector("input");
    input.disabled = !ok;
    label.classList.toggle("inactive", !ok);
    if (!ok && input.checked) {
      const first = box.querySelector(`input[name="${input.name}"]`);
      if (first && first !== input) first.checked = true;
    }
  }
}

for (const form of forms) {
  form.addEventListener("change", () => sync(form));
}
if (picker) {
  picker.addEventListener("change", (ev) => {
    if (ev.target.name === "pick_game") pickGame(ev.target.value);
  });
  const chosen = picker.querySelector('input[name="pick_game"]:checked');
  pickGame(chosen ? chosen.value : "admiral", { initial: true });
} else {
  for (const form of forms) sync(form);
}

// The lobby's long lists fold (QA: 10+ games in «Сейчас играют» pushed «Играть с другом» 2576 px down a phone): the
// first entries stay (3 on a phone, 8 wider; the CSS hides the rest of a `.folded` list) and «Показать все (N)»
// opens the whole list. lobby.js fills the lists; this only watches them.
const NARROW = window.matchMedia("(max-width: 560px)");

function fold(list, button) {
  let open = false;
  const paint = () => {
    const n = list.children.length;
    list.classList.toggle("folded", !open);
    button.hidden = n <= (NARROW.matches ? 3 : 8);
    button.setAttribute("aria-expanded", String(open));
    button.querySelector("[data-fold-count]").textContent = String(n);
    button.querySelector("[data-fold-more]").hidden = open;
    button.querySelector("[data-fold-less]").hidden = !open;
  };
  button.addEventListener("click", () => {
    open = !open;
    paint();
    if (!open) list.scrollIntoView({ block: "nearest" });
  });
  new MutationObserver(paint).observe(list, { childList: true });
  NARROW.addEventListener("change", paint);
  paint();
}

for (const list of document.querySelectorAll("[data-fold]")) {
  const button = list.nextElementSibling;
  if (button?.matches("[data-fold-toggle]")) fold(list, button);
}
