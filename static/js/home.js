// Home page: in each new-game form the custom time fields are active only with «своё».

for (const form of document.querySelectorAll("form.new-game")) {
  const custom = form.querySelector("[data-custom-time]");
  const sync = () => {
    const on = form.elements.time_control.value === "custom";
    custom.hidden = !on;
    for (const input of custom.querySelectorAll("input")) input.disabled = !on;
  };
  form.addEventListener("change", sync);
  sync();
}
