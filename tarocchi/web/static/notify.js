// Notifications (issue 41; the server side is tarocchi/server/notify.py, the routes
// docs/protocol.md "Notifications"). A signed-in player switches them on for this browser: the
// browser subscribes with the site's VAPID key (GET /api/push/key) and the subscription goes to
// the server (POST /api/push), which then tells this browser of their turn, a room's start, a
// match's end and time running out, when none of their pages of that table is in sight. The
// service worker (/sw.js) shows each message and opens the table at the seat on a click.

const READY_MS = 5000;  // the service worker registered by the page: ready within this, or none

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
  throw new Error(data.error || res.statusText);
}

// Switch notifications on for this browser (the browser asks the player first): throws an
// Error("denied") if the player says no, or with the server's words.
export async function enableNotifications(lang) {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
  const reg = await registration();
  if (!reg) throw new Error("no service worker");
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
