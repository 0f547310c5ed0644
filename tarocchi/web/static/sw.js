// The service worker (issue 41), served at /sw.js so that its scope is the whole site
// (tarocchi/server/installable.py; docs/protocol.md, "The installable app"). It keeps the client's
// static files, so that the lobby and the table open at once, and with no network at all (the
// page then says "Offline": offline.js). It never keeps an answer of the server's own: the
// tables, the lobby's lists, the accounts (/api/*) and the sockets (/ws/*) always go to it.
//
// self.BUILD = {version, files} is written above this file by the server: the version is a hash
// of the static files' contents, the files what a page may need (the shell "/", the manifest,
// every /static/ script and style, by the hashed name the page gives it: issue 60). A deploy
// that changes a file changes this script's bytes, so the browser installs the new worker (it
// checks /sw.js, never cached, on every page it opens), which keeps the new files under a new
// cache name, takes over at once and drops the old cache: the page
// after the one that found the new worker runs the new files, never the old ones for ever.
//
// Sections: the build, install and activate, requests (fetch), notifications (push,
// notificationclick).

// --- the build ------------------------------------------------------------------------------

const BUILD = self.BUILD || { version: "unbuilt", files: [] };  // (unbuilt: /static/sw.js read as a file)
const PREFIX = "tarocchi-";
const CACHE = `${PREFIX}${BUILD.version}`;
const SHELL = "/";  // index.html: every page of the site (/, /t/<token>, /w/..., /r/..., /account...) is it
const PAGE_WAIT_MS = 4000;  // a page's request that long unanswered (a line that hangs): the kept shell
const GATEWAY = new Set([502, 503, 504]);  // a proxy's answer for a server that is not there

// --- install and activate -------------------------------------------------------------------

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // (a file named by its content's hash, /static/x.js?v=<hash>, may come from the browser's
    // HTTP cache: that name is those bytes, and the page has just fetched most of them (issue 60);
    // the shell and the manifest are revalidated with the server: the cache's copy may be the
    // last deploy's; one file missing fails the install, and the old worker stays)
    await cache.addAll(BUILD.files.map((url) => new Request(url, { cache: url.includes("?v=") ? "default" : "no-cache" })));
    // At once, not when every tab of the old version is closed: a player who keeps one tab and
    // reloads it would otherwise run the old files for ever.
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  // The old versions' caches go. (No clients.claim(): a page that opened without a worker goes
  // on without one; the next page it opens has it.)
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
  })());
});

// --- requests -------------------------------------------------------------------------------

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(kept(request));
  } else if (request.mode === "navigate" && !url.pathname.startsWith("/api/")) {
    event.respondWith(page(request));
  }
  // Anything else (/api/*, /sw.js; sockets never come here): the network, as without a worker.
});

// A static file: the kept copy, or the network's (kept for next time: a file the list missed).
async function kept(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") cache.put(request, response.clone()).catch(() => {});
  return response;
}

// A page: the network's answer (a seat's link the server no longer knows says so), else the kept
// shell (no network, a line that hangs, a proxy without its server), whose script then says
// "Offline" and tries again by itself.
async function page(request) {
  const network = fetch(request);
  network.catch(() => {});  // (answered from the cache meanwhile: its failure is no one's error)
  try {
    const response = await Promise.race([network, new Promise((_, late) => setTimeout(() => late(new Error("slow")), PAGE_WAIT_MS))]);
    if (!GATEWAY.has(response.status)) return response;
  } catch { /* no network, or too slow */ }
  const shell = await caches.match(SHELL, { cacheName: CACHE });
  return shell || network;  // (nothing kept yet: the network's answer or failure, as without a worker)
}

// --- notifications --------------------------------------------------------------------------
// A push carries JSON {title, body, url, tag}: shown as a notification (one tag, one notification:
// a newer one replaces it); a click focuses a window already on its url, or opens one.

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data.text() }; }
  const options = { body: data.body || "", icon: "/static/icons/icon-192.png", data: { url: data.url || "/" } };
  if (data.tag) options.tag = data.tag;
  event.waitUntil(self.registration.showNotification(data.title || "Tarocchi", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;  // only this site's pages
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const there = open.find((c) => { const u = new URL(c.url); return u.pathname === target.pathname && u.search === target.search; });
    if (there) return there.focus();
    return self.clients.openWindow(target.href);
  })());
});
