// The colour theme (issue 18): light or dark, following the system's prefers-color-scheme unless the player
// chose one with the switch in the top bar (remembered in localStorage). A classic script loaded synchronously
// in <head>, so data-theme is on <html> before the first paint and a dark page never flashes white; the
// Content-Security-Policy allows no inline script. static/css/dark.css styles [data-theme="dark"].
(function () {
  "use strict";
  var KEY = "admiral_theme";
  var CHOICES = ["auto", "light", "dark"];
  var root = document.documentElement;
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var unstored = null; // a choice the storage refused (private mode): it lasts for this page


  /** The stored choice: "light", "dark", or "auto" (none stored: follow the system). */
  function choice() {
    if (unstored) return unstored;
    try {
      var v = localStorage.getItem(KEY);
      return v === "light" || v === "dark" ? v : "auto";
    } catch (e) {
      return "auto";
    }
  }

  /** Sets data-theme ("light" | "dark", what is shown) and data-theme-choice on <html>, and the switch's state. */
  function apply() {
    var c = choice();
    root.setAttribute("data-theme", c === "dark" || (c === "auto" && media && media.matches) ? "dark" : "light");
    root.setAttribute("data-theme-choice", c);
    var buttons = document.querySelectorAll(".theme-switch [data-theme-choice]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", String(buttons[i].getAttribute("data-theme-choice") === c));
    }
  }

  /** Remembers the player's choice ("auto" forgets it) and shows it. */
  function choose(c) {
    unstored = null;
    try {
      if (c === "auto") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, c);
    } catch (e) {
      unstored = c;
    }
    apply();
  }

  apply();
  if (media) {
    if (media.addEventListener) media.addEventListener("change", apply);
    else if (media.addListener) media.addListener(apply);
  }
  window.addEventListener("storage", function (e) {
    if (e.key === KEY || e.key === null) apply(); // another tab switched
  });
  document.addEventListener("DOMContentLoaded", function () {
    var group = document.querySelector(".theme-switch");
    if (!group) return;
    group.hidden = false;
    group.addEventListener("click", function (e) {
      var b = e.target.closest("[data-theme-choice]");
      if (b && CHOICES.indexOf(b.getAttribute("data-theme-choice")) >= 0) choose(b.getAttribute("data-theme-choice"));
    });
    apply();
  });
})();
