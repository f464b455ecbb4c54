// The installable web app (issue 19): register the service worker /sw.js (scope "/") on every page. Without
// service workers (an old browser, a private window that forbids them) the site works as before.

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // not fatal: the site only loses its offline page
    });
  });
}
