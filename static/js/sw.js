// The service worker of «Адмирал» (issue 19), served as /sw.js (scope "/") by admiral.web.routes.install, which
// fills in VERSION (a hash of the app and its static files) and PRECACHE (every /static/ file and "/offline").
//
// - /static/: cache-first from the cache of this VERSION (a deploy installs a new worker and drops older caches);
// - page navigations: network-first; with no network, the precached offline page («Нет сети…»), never a stored
//   copy of a page (a page's body depends on the cookies: who is logged in, the form token);
// - everything else (game state, /api/, the sockets, the catalogs' scripts): the network, untouched, never cached.

const VERSION = "__VERSION__";
const PRECACHE = [] /* __PRECACHE__ */;
const CACHE = `admiral-static-${VERSION}`;
const OFFLINE = "/offline";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("admiral-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function staticFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") cache.put(request, response.clone());
  return response;
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const offline = await caches.match(OFFLINE, { cacheName: CACHE });
    return offline || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  }
  // anything else goes to the network as if there were no worker
});

// A notification shown through the worker (a phone's browser: static/js/core/notify.js): a click focuses the
// site's tab on that page, or opens it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((wins) => {
      const same = wins.find((w) => w.url === url);
      if (same) return same.focus();
      return self.clients.openWindow(url);
    }),
  );
});
