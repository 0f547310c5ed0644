// The installable app's page side (issue 41): the service worker's registration, and a banner that
// says "Offline" while the network is gone (docs/protocol.md, "The installable app").
//
// Offline is either the browser saying so (navigator.onLine, the offline/online events) or a
// request of this page that found no server (a fetch that failed for the network: the browser
// may still believe it is online, a server behind a dead line). The first answer from the server
// (a fetch's response, or reached() from the table's socket) clears the second.

import { t } from "./i18n.js";

let failed = false;      // a fetch found no server since the last answer
let shown = null;        // what the banner last said: true offline, false not
let banner = null;
const listeners = [];

export function offline() {
  return !navigator.onLine || failed;
}

// The server answered (the table's socket opened).
export function reached() {
  if (failed) { failed = false; update(); }
}

// f(offline) on every change after the page started; the table redraws its connection line,
// and back online tries its socket at once.
export function onNetwork(f) {
  listeners.push(f);
}

function update() {
  const off = offline();
  if (banner) {
    // (the live region stays in the page, empty and without a box when online: its text comes
    // and goes, and a screen reader says it when it comes)
    banner.replaceChildren(...(off ? [strong(t("net.offline")), document.createTextNode(` ${t("net.offline.more")}`)] : []));
  }
  if (off === shown) return;
  const first = shown === null;  // (the page drew itself as it found the network: no news)
  shown = off;
  if (!first) for (const f of listeners) f(off);
}

function strong(text) {
  const el = document.createElement("strong");
  el.textContent = text;
  return el;
}

// Every request of the page passes here: a network failure (a TypeError; an abort is not one)
// says offline, any answer says the server is there. One place, so that a new page's requests
// (the account's, a profile's) need nothing of their own.
function watchFetch() {
  const native = window.fetch.bind(window);
  window.fetch = async (...args) => {
    try {
      const response = await native(...args);
      reached();
      return response;
    } catch (e) {
      if (e instanceof TypeError) { failed = true; update(); }
      throw e;
    }
  };
}

export function startNetwork() {
  banner = document.createElement("div");
  banner.className = "net-banner";
  banner.setAttribute("role", "status");
  document.body.append(banner);
  // The banner lies over the page's foot: a table (one screen high) gives it that room, so that
  // the hand's last row stays in sight (issue 57). --net-banner is the room it takes, or 0.
  new ResizeObserver(() => {
    const room = banner.offsetHeight ? banner.offsetHeight + 16 : 0;
    document.documentElement.style.setProperty("--net-banner", `${room}px`);
  }).observe(banner);
  window.addEventListener("offline", update);
  window.addEventListener("online", () => { failed = false; update(); });
  // The page's language changes by setLang(), which sets <html lang>: the banner follows.
  new MutationObserver(() => { if (shown) update(); }).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  watchFetch();
  update();
  registerWorker();
}

// The service worker (/sw.js, from the site's root so that its scope is every page) keeps the
// static files: the pages open at once, and with no network at all. Registered after the page has
// loaded, never awaited: the page does not wait for it, nor fail without it (an old browser, a
// private window that refuses it).
function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* the page works without it */ });
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
