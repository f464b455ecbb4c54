// Home page: the custom time fields are active only with «своё».

const form = document.getElementById("new-game");
if (form) {
  const custom = document.getElementById("custom-time");
  const sync = () => {
    const on = form.elements.time_control.value === "custom";
    custom.hidden = !on;
    for (const input of custom.querySelectorAll("input")) input.disabled = !on;
  };
  form.addEventListener("change", sync);
  sync();
}
