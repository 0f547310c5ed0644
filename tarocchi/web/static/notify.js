// Notifications (issue 41; the server side is tarocchi/server/notify.py, the routes
// docs/protocol.md "Notifications"). A signed-in player switches them on for this browser: the
// browser subscribes with the site's VAPID key (GET /api/push/key) and the subscription goes to
// the server (POST /api/push), which then tells this browser of their turn, a room's start, a
// match's end and time running out, when none of their pages of that table is in sight. The
// service worker (/sw.js) shows each message and opens the table at the seat on a click.

const READY_MS = 5000;  // the service worker registered by the page: ready within this, or none
// The browser's push service may never answer (a profile without one: issue 57): switching on
// gives up after this, with words of its own, rather than waiting for ever.
export const SUBSCRIBE_MS = 10000;

// Why switching on failed, as the page says it (account.js): "denied" (the player or the
// browser refuses), "slow" (no answer in SUBSCRIBE_MS), "unreachable" (no server), "failed"
// (the browser's own error: its English words are never shown); a server's refusal keeps its words.
export class NotifyError extends Error {
  constructor(code, message = code) { super(message); this.code = code; }
}

function inTime(promise) {
  return Promise.race([promise, new Promise((_, late) => setTimeout(() => late(new NotifyError("slow")), SUBSCRIBE_MS))]);
}

// A browser's own failure, as one of NotifyError's codes.
function browserError(e) {
  if (e instanceof NotifyError) return e;
  if (e instanceof TypeError) return new NotifyError("unreachable");  // (fetch found no server)
  // "Registration failed - permission denied" (Chromium) and its kin
  if (e?.name === "NotAllowedError" || /permission/i.test(e?.message || "")) return new NotifyError("denied");
  return new NotifyError("failed");
}

export function notificationsOffered() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// The page's service worker, once active; null if there is none in time.
async function registration() {
  const none = new Promise((resolve) => setTimeout(() => resolve(null), READY_MS));
  return Promise.race([navigator.serviceWorker.ready, none]);
}

function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// This browser's subscription, if it has one.
export async function currentSubscription() {
  if (!notificationsOffered()) return null;
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

async function answer(res) {
  if (res.ok) return;
  const data = await res.json().catch(() => ({}));
  throw new NotifyError("server", data.error || res.statusText);
}

// Switch notifications on for this browser (the browser asks the player first): throws a
// NotifyError ("denied" if the player says no; "server" with the server's words).
export async function enableNotifications(lang) {
  try {
    await inTime(subscribe(lang));
  } catch (e) {
    throw browserError(e);
  }
}

async function subscribe(lang) {
  if ((await Notification.requestPermission()) !== "granted") throw new NotifyError("denied");
  const reg = await registration();
  if (!reg) throw new NotifyError("failed");
  const res = await fetch("/api/push/key");
  await answer(res);
  const { key } = await res.json();
  const fresh = () => reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const send = (sub) => {
    const { endpoint, keys } = sub.toJSON();
    return fetch("/api/push", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth }, lang }) });
  };
  const sub = (await reg.pushManager.getSubscription()) || await fresh();
  let sent = await send(sub);
  if (sent.status === 409) {
    // This browser's subscription is another account's (signed in here before; issue 55): it is
    // never handed over, so this browser gets a new one (the old endpoint stops working).
    await sub.unsubscribe();
    sent = await send(await fresh());
  }
  await answer(sent);
}

export async function disableNotifications() {
  const sub = await currentSubscription();
  if (!sub) return;
  await answer(await fetch("/api/push", { method: "DELETE", headers: { "content-type": "application/json" },
    body: JSON.stringify({ endpoint: sub.endpoint }) }));
  await sub.unsubscribe();
}
