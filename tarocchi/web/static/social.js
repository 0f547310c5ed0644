// Friends, challenges and the bell in the browser (issue 58; the server's side is
// tarocchi/server/social.py, the routes docs/protocol.md "Friends, challenges and the bell").
//
// Loaded for a signed-in player alone (account.js startSocial, once GET /api/me says so): a
// signed-out visitor's page asks for none of this, and the first visit weighs no more (issue 60).
//
// - The bell (bellNode): one button in every page's top bar, its accessible name saying how many
//   items are unread, opening a panel of them (Escape or the button closes it, focus goes back to
//   the button); opening it marks them read up to the newest (POST /api/me/bell/read), on every
//   device. Its count is asked for again when the page is shown and every minute while it is,
//   never while it is hidden.
// - The lobby's sections (lobbySections): challenges to and from the player (Accept, Decline,
//   Cancel, who accepted, "Go to your seat" once the room is made), and the players it follows,
//   a friend's online dot and Watch link. Asked for again when shown, often while one is pending.
// - A profile's buttons (profileActions): Follow, Block (confirmed; the blocked is never told)
//   and Challenge, a small form posting POST /api/challenges, the server's refusal said as it is.
//
// Each region is built once and patched (dom.js patch): a poll never rebuilds what is typed.

import { t, tn, has, lang, reason, addMessages, REASONS } from "./i18n.js";
import { h, patch, asset } from "./dom.js";
import { accountName, call, when } from "./account.js";
import messages from "./social.i18n.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian
document.head.append(h("link", { rel: "stylesheet", href: asset("/static/social.css") }));

const BELL_MS = 60_000;       // the bell's count, asked again while the page is shown
const PENDING_MS = 5_000;     // the lobby's challenges while one is pending (an answer is awaited)
const QUIET_MS = 60_000;      // the lobby's challenges and friends otherwise
const SHOWN_ACCEPTED = 24 * 3600;  // an accepted challenge's "Go to your seat" stays this long
const CLOCKS = [15, 30, 60, 120];  // as the lobby's room form offers them (lobby.js)
const DAYS = [1, 2, 3, 7];
const GAMES = [{ name: "sicilian", seats: [3, 4] }, { name: "renaissance", seats: [3] },
  { name: "calabresella", seats: [3] }, { name: "ottocento", seats: [4] }];  // until GET /api/games answers

function gameTitle(name) { return has(`game.${name}`) ? t(`game.${name}`) : String(name); }

function capital(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }

// The server's refusal in the reader's words (an unknown name's answer names it after a colon).
function refusal(e) {
  const text = String(e?.message || "");
  const m = /^(no player has that name): (.+)$/.exec(text);
  const said = m ? `${reason(m[1])}: ${m[2]}` : reason(text);
  return capital(said).replace(/([^.!?])$/, "$1.");
}

// Every few seconds while the page is shown, at once when it is shown again; never while hidden.
function whileShown(work, every) {
  let timer = null;
  const tick = async () => {
    clearTimeout(timer);
    if (!document.hidden) await work().catch(() => {});
    timer = setTimeout(tick, every());
  };
  document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
  tick();
  return tick;
}

// --- the bell ---------------------------------------------------------------------------------

const B = {
  items: [],
  unread: 0,
  fresh: new Set(),  // the items unread when the panel was opened: marked new while it is open
  open: false,
  loaded: false,     // GET /api/me/bell answered once: until then no bell is shown
  ready: null,       // what runs then (the page drawn again with it)
  gone: false,       // the session ended (a 401): no bell
  node: null, button: null, count: null, panel: null, list: null,
  poll: null,
  heard: new Set(),  // the lobby's refresh, run when the bell brings something new
};

const BELL_ICON = "M12 2a1.5 1.5 0 0 0-1.5 1.5v.6A6 6 0 0 0 6 10v4.2L4.3 17a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 14.2V10a6 6 0 0 0-4.5-5.9v-.6A1.5 1.5 0 0 0 12 2zm-2.5 18a2.5 2.5 0 0 0 5 0z";

function buildBell() {
  B.count = h("span", { class: "bell-count", "aria-hidden": "true" });
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("aria-hidden", "true");
  icon.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", BELL_ICON);
  icon.append(path);
  B.button = h("button", { type: "button", class: "bell-button", id: "bell-button", "aria-controls": "bell-panel",
    "aria-expanded": "false", onclick: () => (B.open ? closeBell() : openBell()) }, icon, B.count);
  B.heading = h("h2", { id: "bell-h", tabindex: "-1" });
  B.close = h("button", { type: "button", class: "link-button bell-close", id: "bell-close", onclick: () => closeBell() });
  B.list = h("div", { class: "bell-list" });
  B.panel = h("div", { class: "bell-panel", id: "bell-panel", role: "dialog", "aria-labelledby": "bell-h", hidden: true },
    h("div", { class: "bell-head" }, B.heading, B.close), B.list);
  B.node = h("div", { class: "bell", onkeydown: (e) => {
    if (e.key === "Escape" && B.open) { e.preventDefault(); e.stopPropagation(); closeBell(); }
  } }, B.button, B.panel);
  // A press elsewhere closes it (focus stays where the press put it).
  document.addEventListener("pointerdown", (e) => { if (B.open && !B.node.contains(e.target)) closeBell(false); });
  drawBell();
}

export function bellNode() {
  if (B.gone || !B.loaded || !accountName()) return null;
  if (!B.node) buildBell();
  if (B.drawnIn !== lang()) drawBell();  // (a language switch draws the page again; a table's every frame does too)
  return B.node;
}

function itemText(item) {
  const d = item.data && typeof item.data === "object" ? item.data : {};
  const game = gameTitle(d.game);
  switch (item.kind) {
    case "challenge": return { text: t("soc.bell.challenge", { from: d.from, game }), link: "/#challenges", label: t("soc.bell.answer") };
    case "challenge_accepted": return { text: t("soc.bell.accepted", { names: (d.by || []).join(", ") }), link: "/#challenges", label: t("soc.bell.challenges") };
    case "challenge_declined": return { text: t("soc.bell.declined", { name: d.by }) };
    case "rated": {
      const [g, seats] = String(d.key || "").split("/");
      const before = d.rating_before, after = d.rating_after;
      const delta = typeof before === "number" && typeof after === "number" ? after - before : null;
      return {
        text: delta === null ? t("soc.bell.rated.plain", { game: gameTitle(g), n: seats })
          : t("soc.bell.rated", { game: gameTitle(g), n: seats, from: before, to: after, delta: delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "0" }),
        link: d.table && d.match ? `/r/${encodeURIComponent(d.table)}.${Number(d.match)}/1` : null,
        label: t("soc.bell.replay"),
      };
    }
    case "warning": return { text: t("soc.bell.warning", { text: String(d.text ?? "") }) };
    case "turn": return { text: t("soc.bell.turn", { game }), link: d.link, label: t("soc.bell.play") };
    case "started": return { text: t("soc.bell.started", { game }), link: d.link, label: t("soc.seat.go") };
    case "tournament": {  // (issue 59: a table ready, with the seat's link; the start; the end and the rank)
      const page = `/tournament/${encodeURIComponent(String(d.tournament ?? ""))}`;
      if (d.link) return { text: t("soc.bell.tournament.table", { round: d.round }), link: d.link, label: t("soc.bell.play") };
      if (d.finished) return { text: t("soc.bell.tournament.finished", { rank: d.rank }), link: page, label: t("soc.bell.tournament") };
      return { text: t("soc.bell.tournament.started"), link: page, label: t("soc.bell.tournament") };
    }
    default: return { text: t("soc.bell.other") };
  }
}

// Only the site's own pages are linked ("/..."), whatever an item carries.
function ownLink(link) { return typeof link === "string" && /^\/(?!\/)/.test(link) ? link : null; }

function drawBell() {
  if (!B.node) return;
  B.drawnIn = lang();
  B.button.setAttribute("aria-label", tn("soc.bell.label", B.unread));
  B.button.title = t("soc.bell.title");
  B.button.classList.toggle("has-unread", B.unread > 0);
  B.count.textContent = B.unread ? String(Math.min(B.unread, 99)) + (B.unread > 99 ? "+" : "") : "";
  B.heading.textContent = t("soc.bell.title");
  B.close.textContent = t("soc.close");
  patch(B.list, B.items.length ? h("ul", { class: "bell-items" }, B.items.map((item) => {
    const { text, link, label } = itemText(item);
    const href = ownLink(link);
    const isNew = B.fresh.has(item.id) || !item.read;
    return h("li", { class: `bell-item kind-${String(item.kind).replace(/[^a-z_]/g, "")}` + (isNew ? " new" : ""), "data-kind": item.kind },
      isNew ? h("span", { class: "visually-hidden", text: `${t("soc.bell.new")}: ` }) : null,
      h("span", { class: "bell-text", text }),
      h("span", { class: "bell-when quiet", text: when(item.at) }),
      href ? h("a", { href, class: "bell-link", "data-focus": `bell-${item.id}` }, label) : null);
  })) : h("p", { class: "quiet bell-empty", text: t("soc.bell.empty") }));
}

async function askBell() {
  try {
    const body = await call("GET", "/api/me/bell");
    const newer = (body.items?.[0]?.id ?? null) !== (B.items[0]?.id ?? null);
    B.items = Array.isArray(body.items) ? body.items : [];
    B.unread = B.open ? 0 : Number(body.unread) || 0;
    drawBell();
    if (!B.loaded) { B.loaded = true; B.ready?.(); }
    if (newer) for (const heard of B.heard) heard();
  } catch (e) {
    if (e.status === 401) { B.gone = true; B.node?.remove(); }
  }
}

// ``ready``: runs once the bell has its first answer (bellNode() gives it from then on).
export function startBell(ready) {
  B.ready = ready;
  B.poll ??= whileShown(askBell, () => BELL_MS);
}

async function openBell() {
  B.open = true;
  B.fresh = new Set(B.items.filter((i) => !i.read).map((i) => i.id));
  const newest = B.items[0];
  B.unread = 0;
  for (const item of B.items) item.read = true;
  // (under the button, whatever the top bar's height; its bottom inside the screen)
  const top = Math.round(Math.max(0, B.button.getBoundingClientRect().bottom) + 6);
  B.panel.style.top = `${top}px`;
  B.panel.style.maxHeight = `calc(100dvh - ${top + 8}px)`;
  B.panel.hidden = false;
  B.button.setAttribute("aria-expanded", "true");
  drawBell();
  B.heading.focus();
  if (newest && B.fresh.size) await call("POST", "/api/me/bell/read", { upto: newest.id }).catch(() => {});
}

function closeBell(focus = true) {
  B.open = false;
  B.fresh = new Set();
  B.panel.hidden = true;
  B.button.setAttribute("aria-expanded", "false");
  drawBell();
  if (focus) B.button.focus();
}

// --- the lobby: challenges and friends -----------------------------------------------------------

const L = {
  challenges: null,  // GET /api/me/challenges, once it answers
  following: null,   // GET /api/me/friends
  friendsAt: 0,      // when it answered (Date.now())
  busy: null,        // the challenge whose answer is on its way
  error: "",
  errorAt: null,
  node: null,
  poll: null,
};

function pace(c) {
  if (c.correspondence) return tn("soc.days", c.correspondence);
  return c.clock ? t("soc.clock", { n: c.clock }) : t("soc.noclock");
}

function challengeWhat(c) {
  // (rated unsaid: as a room is, rated when its seats are listed in the lobby: lobby.py new_room)
  return [gameTitle(c.game), t("lobby.seats.n", { n: c.seats }), t(c.rated ?? !!c.open ? "soc.rated" : "soc.casual"), pace(c),
    c.open ? t("soc.open") : null].filter(Boolean).join(" · ");
}

function live(c) {
  if (c.status === "pending" || c.status === "seating") return true;
  return c.status === "accepted" && !!c.link && Date.now() / 1000 - (c.created || 0) < SHOWN_ACCEPTED;
}

async function answer(c, what) {
  L.busy = c.id;
  L.error = "";
  drawLobby();
  try {
    const data = await call("POST", `/api/challenges/${encodeURIComponent(c.id)}/${what}`);
    if (data.link) c.link = data.link;
    await askLobby();
  } catch (e) {
    L.error = refusal(e);
    L.errorAt = c.id;
    await askLobby().catch(() => {});
  } finally {
    L.busy = null;
    drawLobby();
    // (the challenge answered is gone, its section too maybe: the keyboard's place is kept near)
    if (document.activeElement === document.body || !document.activeElement) {
      (L.node.hidden ? L.friends.querySelector("h2") : L.node.querySelector("button, a"))?.focus();
    }
  }
}

function challengeItem(c) {
  const me = (accountName() || "").toLowerCase();
  const mine = c.to.find((x) => String(x.name).toLowerCase() === me);
  const busy = L.busy === c.id;
  const accepted = c.to.filter((x) => x.accepted).map((x) => x.name);
  const button = (what, cls = "") => h("button", { type: "button", class: `challenge-${what} ${cls}`.trim(), "data-focus": `${what}-${c.id}`,
    "aria-disabled": busy ? "true" : null, onclick: () => { if (!busy) answer(c, what); } }, t(`soc.${what}`));
  let line, actions = null;
  if (c.mine) {
    line = t("soc.to", { names: c.to.map((x) => x.name).join(", ") });
  } else {
    line = t("soc.from", { name: c.from });
  }
  if (c.link) {
    actions = h("a", { class: "button primary go-seat", href: c.link, "data-focus": `go-${c.id}` }, t("soc.seat.go"));
  } else if (c.mine) {
    actions = button("cancel");
  } else if (mine && !mine.accepted) {
    actions = [button("accept", "primary"), button("decline")];
  }
  return h("li", { class: `challenge ${c.mine ? "outgoing" : "incoming"} status-${c.status}`, "data-challenge": c.id },
    h("p", { class: "challenge-who" }, h("strong", { text: line })),
    h("p", { class: "challenge-what", text: challengeWhat(c) }),
    accepted.length && c.status !== "accepted" ? h("p", { class: "quiet challenge-accepted", text: t("soc.accepted.by", { names: accepted.join(", ") }) }) : null,
    mine?.accepted && !c.link ? h("p", { class: "quiet", text: t("soc.waiting") }) : null,
    actions ? h("div", { class: "challenge-actions" }, actions) : null,
    L.error && L.errorAt === c.id ? h("p", { class: "error", role: "alert", text: L.error }) : null);
}

function friendItem(f) {
  const watch = f.friend && ownLink(f.table);
  return h("li", { class: "friend" + (f.friend ? " mutual" : "") + (f.online ? " online" : ""), "data-name": f.name },
    f.friend ? h("span", { class: "dot" + (f.online ? " on" : ""), "aria-hidden": "true" }) : null,
    h("a", { href: `/@/${encodeURIComponent(f.name)}`, "data-focus": `friend-${f.name}` }, f.name),
    h("span", { class: "quiet friend-state", text: f.friend ? t(f.online ? "soc.online" : "soc.offline") : t("soc.following") }),
    watch ? h("a", { class: "button watch-friend", href: watch, "data-focus": `watch-${f.name}`,
      "aria-label": t("soc.watch.label", { name: f.name }) }, t("soc.watch")) : null);
}

function drawLobby() {
  if (!L.node) return;
  const shown = (L.challenges || []).filter(live);
  const incoming = shown.filter((c) => !c.mine);
  const outgoing = shown.filter((c) => c.mine);
  const friends = (L.following || []).slice().sort((a, b) => (b.friend - a.friend) || (!!b.online - !!a.online) || a.name.localeCompare(b.name));
  // (the challenges high in the lobby, and only while there are some: one lapses in minutes)
  L.node.hidden = !shown.length;
  patch(L.node, [
    h("h2", { id: "challenges-h", text: t("soc.title") }),
    incoming.length ? [h("h3", { text: t("soc.incoming") }), h("ul", { class: "challenges incoming-list" }, incoming.map(challengeItem))] : null,
    outgoing.length ? [h("h3", { text: t("soc.outgoing") }), h("ul", { class: "challenges outgoing-list" }, outgoing.map(challengeItem))] : null,
  ]);
  patch(L.friends, [
    h("h2", { id: "friends-h", tabindex: "-1", text: t("soc.friends") }),
    L.following === null ? h("p", { class: "quiet", text: t("soc.loading") }) : null,
    friends.length ? h("ul", { class: "friends", "aria-labelledby": "friends-h" }, friends.map(friendItem))
      : L.following ? h("p", { class: "quiet", text: t("soc.friends.none") }) : null,
  ]);
}

async function askLobby() {
  // (the friends at the quiet pace alone: where they are is looked up on every process of a site)
  const friendsDue = Date.now() - L.friendsAt >= QUIET_MS - 1000;
  const [challenges, friends] = await Promise.all([call("GET", "/api/me/challenges"), friendsDue ? call("GET", "/api/me/friends") : null]);
  L.challenges = Array.isArray(challenges.challenges) ? challenges.challenges : [];
  if (friends) {
    L.following = Array.isArray(friends.following) ? friends.following : [];
    L.friendsAt = Date.now();
  }
  drawLobby();
  if (!L.scrolled && location.hash === "#challenges" && !L.node.hidden) L.node.scrollIntoView();  // (the bell's link)
  L.scrolled = true;
}

// The lobby's two sections, built once (the lobby draws them again with the rest of the page):
// the challenges (high: hidden while there are none) and the players followed.
export function lobbySections() {
  if (!accountName()) return { challenges: null, friends: null };
  if (!L.node) {
    L.node = h("section", { class: "panel lobby-card social-card", id: "challenges", "aria-labelledby": "challenges-h", hidden: true });
    L.friends = h("section", { class: "panel lobby-card social-card", id: "friends", "aria-labelledby": "friends-h" });
    drawLobby();
    const pending = () => (L.challenges || []).some((c) => c.status === "pending" || c.status === "seating");
    L.poll = whileShown(askLobby, () => (pending() ? PENDING_MS : QUIET_MS));
    B.heard.add(() => L.poll());  // (a challenge or its answer came to the bell: the list now)
  } else {
    drawLobby();  // (the language may have changed)
  }
  return { challenges: L.node, friends: L.friends };
}

// --- a profile's buttons: follow, block, challenge ---------------------------------------------------

export function profileActions(name, redraw) {
  const P = { name, following: null, blocked: null, busy: false, error: "", done: "", confirmBlock: false,
    form: null, games: GAMES, node: h("section", { class: "panel lobby-card social-actions", id: "social-actions", "aria-labelledby": "social-h" }) };
  const draw = () => { drawProfile(P); };
  P.draw = draw;
  P.change = async (method, path, after) => {
    if (P.busy) return;
    P.busy = true; P.error = ""; P.done = ""; draw();
    try {
      await call(method, path, { name });
      after();
    } catch (e) {
      P.error = refusal(e);
    } finally {
      P.busy = false; draw();
    }
  };
  Promise.all([call("GET", "/api/me/friends"), call("GET", "/api/me/blocks")]).then(([f, b]) => {
    P.following = (f.following || []).find((x) => same(P, x.name)) || false;
    P.blocked = (b.blocked || []).some((x) => same(P, x));
    draw();
    redraw?.();
  }).catch((e) => { P.error = refusal(e); draw(); });
  draw();
  return P.node;
}

function same(P, name) { return String(name).toLowerCase() === P.name.toLowerCase(); }

function drawProfile(P) {
  if (P.form) {  // (what is typed in the form's names stays through a drawing)
    for (let i = 0; i < P.form.others.length; i++) {
      const typed = P.node.querySelector(`#challenge-other-${i}`);
      if (typed) P.form.others[i] = typed.value;
    }
  }
  const busy = P.busy ? "true" : null;
  const act = (id, key, onclick, extra = {}) => h("button", { type: "button", id, "data-focus": id, "aria-disabled": busy,
    onclick: () => { if (!P.busy) onclick(); }, ...extra }, t(key, { name: P.name }));
  const known = P.following !== null;
  patch(P.node, [
    h("h2", { id: "social-h", class: "visually-hidden", text: t("soc.actions", { name: P.name }) }),
    known ? h("div", { class: "social-buttons" },
      P.following
        ? act("unfollow", "soc.unfollow", () => P.change("DELETE", "/api/me/friends", () => { P.following = false; P.done = t("soc.unfollowed", { name: P.name }); }))
        : act("follow", "soc.follow", () => P.change("POST", "/api/me/friends", () => {
          P.following = { friend: false };
          P.done = t("soc.followed", { name: P.name });
          // (followed back already: friends now, which the list says)
          call("GET", "/api/me/friends").then((f) => { P.following = (f.following || []).find((x) => same(P, x.name)) || P.following; P.draw(); }).catch(() => {});
        })),
      P.blocked
        ? act("unblock", "soc.unblock", () => P.change("DELETE", "/api/me/blocks", () => { P.blocked = false; P.done = t("soc.unblocked", { name: P.name }); }))
        : act("block", "soc.block", () => { P.confirmBlock = true; P.draw(); P.node.querySelector("#block-yes")?.focus(); },
          { "aria-expanded": String(P.confirmBlock), "aria-controls": "block-confirm" }),
      P.blocked ? null : act("challenge", "soc.challenge", () => {
        P.form = P.form ? null : { game: "sicilian", seats: 3, others: ["", ""], rated: false, pace: "", open: false };
        P.draw();
        if (P.form) { loadGames(P); P.node.querySelector("#challenge-game")?.focus(); }
      }, { "aria-expanded": String(!!P.form), "aria-controls": "challenge-form" })) : h("p", { class: "quiet", text: t("soc.loading") }),
    P.following?.friend ? h("p", { class: "quiet", id: "friend-note", text: t("soc.mutual", { name: P.name }) }) : null,
    P.confirmBlock && !P.blocked ? h("div", { class: "block-confirm", id: "block-confirm", role: "group", "aria-labelledby": "block-q" },
      h("p", { id: "block-q", text: t("soc.block.confirm", { name: P.name }) }),
      h("div", { class: "social-buttons" },
        act("block-yes", "soc.block.yes", () => { P.confirmBlock = false; P.form = null; P.change("POST", "/api/me/blocks", () => { P.blocked = true; P.done = t("soc.blocked", { name: P.name }); }); }, { class: "danger" }),
        act("block-no", "soc.block.no", () => { P.confirmBlock = false; P.draw(); P.node.querySelector("#block")?.focus(); }))) : null,
    P.form && !P.blocked ? challengeForm(P) : null,
    h("p", { class: "social-error", id: "social-error", role: "alert" }, P.error ? h("span", { class: "error", text: P.error }) : null),
    h("p", { class: "social-done", id: "social-done", role: "status" }, P.done ? h("span", { class: "ok-note", text: P.done }) : null),
  ]);
}

async function loadGames(P) {
  try {
    const body = await call("GET", "/api/games");
    if (Array.isArray(body.games) && body.games.length) {
      P.games = body.games.map((g) => ({ name: g.name, seats: g.seats }));
      P.draw();
    }
  } catch { /* the list it had */ }
}

function challengeForm(P) {
  const F = P.form;
  const game = P.games.find((g) => g.name === F.game) || P.games[0];
  if (!game.seats.includes(F.seats)) F.seats = game.seats[0];
  const keep = () => {  // what is typed, into F, before a drawing
    for (let i = 0; i < F.seats - 2; i++) F.others[i] = P.node.querySelector(`#challenge-other-${i}`)?.value ?? F.others[i];
  };
  return h("form", { class: "challenge-form acct-form", id: "challenge-form", "aria-labelledby": "challenge-h", novalidate: true,
    onsubmit: async (e) => {
      e.preventDefault();
      keep();
      const to = [P.name, ...F.others.slice(0, F.seats - 2).map((x) => x.trim()).filter(Boolean)];
      const body = { to, game: F.game, seats: F.seats, rated: F.rated, open: F.open };
      if (F.pace.startsWith("c")) body.clock = Number(F.pace.slice(1));
      if (F.pace.startsWith("d")) body.correspondence = Number(F.pace.slice(1));
      if (P.busy) return;
      P.busy = true; P.error = ""; P.done = ""; P.draw();
      try {
        await call("POST", "/api/challenges", body);
        P.form = null;
        P.done = t("soc.sent", { names: to.join(", ") });
      } catch (err) {
        P.error = refusal(err);
      } finally {
        P.busy = false; P.draw();
        P.node.querySelector(P.form ? "#challenge-send" : "#challenge")?.focus();
      }
    } },
  h("h3", { id: "challenge-h", text: t("soc.challenge.title", { name: P.name }) }),
  h("label", { class: "level" }, h("span", { text: t("soc.form.game") }),
    h("select", { id: "challenge-game", "data-focus": "challenge-game", onchange: (e) => { keep(); F.game = e.target.value; P.draw(); } },
      P.games.map((g) => h("option", { value: g.name, selected: g.name === F.game }, gameTitle(g.name))))),
  game.seats.length > 1 ? h("fieldset", { class: "seats-pick" }, h("legend", { text: t("lobby.seats") }),
    game.seats.map((n) => h("label", { class: "pill" },
      h("input", { type: "radio", name: "challenge-seats", value: n, checked: F.seats === n, "data-focus": `challenge-seats-${n}`,
        onchange: () => { keep(); F.seats = n; P.draw(); } }),
      h("span", { text: t("lobby.seats.n", { n }) })))) : h("p", { text: t("lobby.seats.n", { n: F.seats }) }),
  Array.from({ length: F.seats - 2 }, (_, i) => h("label", { class: "field" },
    h("span", { text: t("soc.form.other", { n: i + 3 }) }),  // (seat 1 the challenger's, 2 this player's)
    h("input", { type: "text", id: `challenge-other-${i}`, "data-focus": `challenge-other-${i}`, value: F.others[i] || "",
      maxlength: 40, autocomplete: "off", spellcheck: "false" }))),
  h("p", { class: "note", text: t("soc.form.others.help") }),
  h("label", { class: "pill" }, h("input", { type: "checkbox", id: "challenge-rated", "data-focus": "challenge-rated", checked: F.rated,
    onchange: (e) => { F.rated = e.target.checked; } }), h("span", { text: t("soc.form.rated") })),
  h("label", { class: "level" }, h("span", { text: t("soc.form.pace") }),
    h("select", { id: "challenge-pace", "data-focus": "challenge-pace", onchange: (e) => { F.pace = e.target.value; } },
      h("option", { value: "", selected: !F.pace }, t("soc.noclock")),
      CLOCKS.map((n) => h("option", { value: `c${n}`, selected: F.pace === `c${n}` }, t("soc.clock", { n }))),
      DAYS.map((n) => h("option", { value: `d${n}`, selected: F.pace === `d${n}` }, tn("soc.days", n))))),
  h("label", { class: "pill" }, h("input", { type: "checkbox", id: "challenge-open", "data-focus": "challenge-open", checked: F.open,
    onchange: (e) => { F.open = e.target.checked; } }), h("span", { text: t("soc.form.open") })),
  h("div", { class: "social-buttons" },
    h("button", { type: "submit", class: "primary", id: "challenge-send", "data-focus": "challenge-send", "aria-disabled": P.busy ? "true" : null },
      t(P.busy ? "acct.busy" : "soc.form.send")),
    h("button", { type: "button", id: "challenge-cancel", "data-focus": "challenge-cancel",
      onclick: () => { P.form = null; P.draw(); P.node.querySelector("#challenge")?.focus(); } }, t("soc.form.cancel"))));
}
