// The Tarocchi client: the lobby at "/" and the table at "/t/<token>" (docs/protocol.md).
// The server decides every rule; this page only shows the seat's view and asks.
// User text (chat, names) is always set with textContent, never parsed as HTML.

import { t, has, lang, setLang, reason, seatName } from "./i18n.js";
import { cardSvg, cardLabel, cardName, cardInfo, miniCard, setDecks, useDeck, hasDeck, deck, suitName } from "./cards.js";

const root = document.getElementById("app");
const token = (/^\/t\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname) || [])[1] || null;
const MAX_LINES = 4;
const RETRY_MS = [300, 600, 1200, 2500, 5000, 8000];
const CHAT_MAX = 1000;     // chat lines a page keeps (a hello sends the latest 100; more on request)
const CLOSE_REPLACED = 4409;  // this seat was opened in another window: do not take it back by itself
const CLOSE_TOO_MANY = 4429;  // over a budget: wait before trying again

const state = {
  table: null,
  view: null,
  version: 0,
  acted: 0,          // this seat's actions the server has applied (from each state)
  events: [],        // recent public events, formatted at render time (language can change)
  chat: [],          // {version, seat, name, text}, oldest first
  chatMore: false,   // older lines are in the store: "Earlier messages" asks for them
  chatDraft: "",
  selected: new Set(), // cards chosen for the discard
  note: null,        // {text, version}: a refusal or the reason of a dimmed card
  conn: "connecting",
  badLink: false,
  pending: null,     // the act sent and not yet answered: resent after a reconnect
  // The lobby: the games the server offers (GET /api/games), and what is picked for each card.
  lobby: { games: [], game: "sicilian", roomGame: "sicilian", seats: 3, roomSeats: 3, level: null, room: null, error: "", busy: false },
  games: null,       // GET /api/games, once loaded: the decks are drawn from it
};

// The game of this table ("sicilian" for a table from before there were others).
function gameName() { return state.table?.game || "sicilian"; }
function sicilian() { return gameName() === "sicilian"; }

// --- small DOM helpers ----------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function nameOf(seat) {
  const names = state.table?.names;
  const raw = names?.[seat] ?? `#${seat}`;
  return seatName(raw);
}

function whoLabel(seat) {
  const mine = seat === state.table?.you && state.table?.names?.[seat] !== "you";
  return mine ? `${nameOf(seat)} (${t("name.you")})` : nameOf(seat);
}

// Re-render keeps keyboard focus on the element with the same data-focus key.
function render() {
  const focusKey = document.activeElement?.dataset?.focus;
  document.documentElement.lang = lang();
  document.title = t("app.title");
  root.replaceChildren(token ? tablePage() : lobbyPage());
  if (focusKey) {
    const again = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

function langButton() {
  return h("button", {
    class: "lang", type: "button", "data-focus": "lang", lang: lang() === "en" ? "it" : "en",
    "aria-label": t("lang.switch.label"),
    onclick: () => { setLang(lang() === "en" ? "it" : "en"); render(); },
  }, t("lang.switch"));
}

// --- the lobby ------------------------------------------------------------------------

// GET /api/games: every game with its seats, levels and deck. The table page needs it before
// it can draw a card; the lobby offers the games from it.
async function loadGames() {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch("/api/games");
      if (res.ok) {
        const body = await res.json();
        if (Array.isArray(body.games) && body.games.length) {
          state.games = body;
          setDecks(body.games);
          return true;
        }
      }
    } catch { /* the server is not there yet: try again */ }
    await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
  }
}

function gameInfo(name) {
  return state.lobby.games.find((g) => g.name === name) || null;
}

// Pick a game on one card of the lobby: its seats and (for the computer) its default level.
function pickGame(card, name) {
  const L = state.lobby;
  const g = gameInfo(name);
  if (card === "computer") {
    L.game = name;
    if (g && !g.seats.includes(L.seats)) L.seats = g.seats[0];
    if (g) L.level = g.levels.includes(g.default_level) ? g.default_level : g.levels[0];
  } else {
    L.roomGame = name;
    if (g && !g.seats.includes(L.roomSeats)) L.roomSeats = g.seats[0];
  }
}

async function loadLobby() {
  await loadGames();
  const L = state.lobby;
  // The default game (Sicilian) first, then the others as the server lists them.
  const all = state.games.games;
  L.games = all.filter((g) => g.name === state.games.default).concat(all.filter((g) => g.name !== state.games.default));
  const first = L.games[0].name;
  pickGame("computer", first);
  pickGame("room", first);
  render();
}

async function post(path, body) {
  state.lobby.busy = true; state.lobby.error = ""; render();
  try {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  } catch (e) {
    state.lobby.error = t("lobby.error", { reason: reason(e.message) });
    return null;
  } finally {
    state.lobby.busy = false; render();
  }
}

function seatsPicker(name, value, onpick, allowed = [3, 4]) {
  return h("fieldset", { class: "seats-pick" },
    h("legend", { text: t("lobby.seats") }),
    allowed.map((n) => h("label", { class: "pill" },
      h("input", { type: "radio", name, value: n, checked: value === n, "data-focus": `${name}-${n}`, onchange: () => onpick(n) }),
      h("span", { text: t("lobby.seats.n", { n }) }))));
}

function gameTitle(g) {
  const key = `game.${g.name}`;
  return has(key) ? t(key) : g.title;
}

// The games as a choice (Sicilian first, as the server lists them), each with a line about it.
function gamePicker(name, value, onpick) {
  const games = state.lobby.games;
  if (!games.length) return null;
  return h("fieldset", { class: "game-pick" },
    h("legend", { text: t("lobby.game") }),
    games.map((g) => h("label", { class: "pill game" + (value === g.name ? " on" : "") },
      h("input", { type: "radio", name, value: g.name, checked: value === g.name, "data-focus": `${name}-${g.name}`, onchange: () => onpick(g.name) }),
      h("span", { class: "game-title", text: gameTitle(g) }),
      has(`game.${g.name}.about`) ? h("small", { text: t(`game.${g.name}.about`) }) : null)));
}

function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? level : text;
}

function absolute(link) { return new URL(link, location.origin).href; }

async function copyLink(url, button) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const area = h("textarea", { class: "offscreen" }); area.value = url;
    document.body.append(area); area.select(); document.execCommand("copy"); area.remove();
  }
  button.textContent = t("lobby.copied");
  button.classList.add("done");
}

function linkRow(link, seat, names) {
  const url = absolute(link);
  const name = seatName(names[seat]);
  return h("li", { class: "link-row" },
    h("span", { class: "link-name", text: t("lobby.room.link", { name }) }),
    h("input", { class: "link-url", readonly: true, value: url, "aria-label": t("lobby.room.link", { name }), onfocus: (e) => e.target.select() }),
    h("button", { type: "button", class: "copy", "data-focus": `copy-${seat}`, "aria-label": t("lobby.copy.label", { name }),
      onclick: (e) => copyLink(url, e.currentTarget) }, t("lobby.copy")));
}

function roomLinks(links) {
  const names = ["host", "guest 1", "guest 2", "guest 3"];
  return h("div", { class: "room-links" },
    h("p", { class: "host-link" },
      h("a", { class: "button primary", href: links[0], "data-focus": "open-host" },
        `${t("lobby.room.open")} (${seatName("host")})`)),
    h("ul", {}, links.slice(1).map((link, i) => linkRow(link, i + 1, names))),
    h("p", { class: "note", text: t("lobby.room.note") }));
}

function lobbyPage() {
  const L = state.lobby;
  const cg = gameInfo(L.game);
  const rg = gameInfo(L.roomGame);
  const levels = cg ? cg.levels : [];
  const computer = h("section", { class: "panel lobby-card" },
    h("h2", { text: t("lobby.computer.title") }),
    h("p", { text: t("lobby.computer.help") }),
    gamePicker("computer-game", L.game, (name) => { pickGame("computer", name); render(); }),
    seatsPicker("computer-seats", L.seats, (n) => { L.seats = n; render(); }, cg ? cg.seats : [3, 4]),
    h("label", { class: "level" }, h("span", { text: t("lobby.level") }),
      h("select", { "data-focus": "level", onchange: (e) => { L.level = e.target.value; } },
        levels.map((lv) => h("option", { value: lv, selected: lv === L.level }, levelName(lv))))),
    h("button", { type: "button", class: "primary", id: "sit-down", "data-focus": "sit", disabled: L.busy,
      onclick: async () => {
        const body = { game: L.game, seats: L.seats };
        if (L.level) body.level = L.level;  // none yet: the server's default level
        const data = await post("/api/computer", body);
        if (data?.link) location.assign(data.link);
      } }, t("lobby.sit")));
  const room = h("section", { class: "panel lobby-card" },
    h("h2", { text: t("lobby.room.title") }),
    h("p", { text: t("lobby.room.help") }),
    gamePicker("room-game", L.roomGame, (name) => { pickGame("room", name); L.room = null; render(); }),
    seatsPicker("room-seats", L.roomSeats, (n) => { L.roomSeats = n; render(); }, rg ? rg.seats : [3, 4]),
    h("button", { type: "button", class: "primary", id: "create-room", "data-focus": "create", disabled: L.busy,
      onclick: async () => {
        const data = await post("/api/rooms", { game: L.roomGame, seats: L.roomSeats });
        if (data?.links) {
          L.room = data.links;
          // The host can see the guests' links again from the table while the room waits.
          try { localStorage.setItem(`tarocchi.links.${data.links[0]}`, JSON.stringify(data.links)); } catch { /* private mode */ }
          render();
        }
      } }, t("lobby.room.create")),
    L.room ? roomLinks(L.room) : null);
  return h("div", { class: "lobby" },
    h("header", { class: "topbar" }, h("h1", { text: t("app.title") }), langButton()),
    h("p", { class: "tagline", text: t("app.tagline") }),
    L.error ? h("p", { class: "error", role: "alert", text: L.error }) : null,
    h("div", { class: "lobby-grid" }, computer, room));
}

// --- the connection -------------------------------------------------------------------

let socket = null;
let retries = 0;
let actCounter = 0;

function connect() {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${token}`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    // (retries start again from the first state, not here: a socket that opens and is closed
    // at once, whatever the reason, must not be reopened at the shortest wait forever)
    // A reconnect asks only for what it missed; a fresh page (version 0) gets the chat and
    // the events from the start, so a reload comes back exactly where it was.
    ws.send(JSON.stringify({ type: "hello", since: state.version, lang: lang() }));
    if (state.pending) ws.send(JSON.stringify(state.pending.message)); // the server ignores a repeated id
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  };
  ws.onclose = (e) => {
    if (socket !== ws) return;
    if (e.code === 4404) { state.badLink = true; render(); return; }
    if (e.code === CLOSE_REPLACED) { state.conn = "replaced"; render(); return; }
    state.conn = "lost"; render();
    let wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    if (e.code === CLOSE_TOO_MANY) wait = Math.max(wait, 5000);
    retries += 1;
    setTimeout(connect, wait);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  if (state.pending) return; // one action at a time; the answer clears it
  const id = `${Date.now().toString(36)}-${++actCounter}`;
  // Answered by a state in which the server applied one more action of this seat (acted).
  state.pending = { id, message: { type: "act", action, id }, acted: state.acted, deal: state.table?.deal_number };
  send(state.pending.message);
}

function onMessage(msg) {
  if (msg.type === "state") {
    const newDeal = state.table && msg.table && msg.table.deal_number !== state.table.deal_number;
    state.conn = "ok";
    retries = 0;
    state.table = msg.table;
    state.view = msg.view;
    if (!useDeck(gameName())) { loadGames().then(() => { useDeck(gameName()); render(); }); }
    if (typeof msg.version === "number") state.version = msg.version;
    state.acted = msg.acted?.[msg.table?.you] ?? 0;
    if (newDeal) { state.events = []; state.selected.clear(); }
    if (Array.isArray(msg.events) && msg.events.length) state.events = state.events.concat(msg.events).slice(-MAX_LINES * 4);
    if (state.pending) {
      if (state.acted > state.pending.acted || msg.table?.deal_number !== state.pending.deal) state.pending = null;
    }
    if (state.view?.phase !== "discard" || state.view?.turn !== state.table?.you) state.selected.clear();
    render();
  } else if (msg.type === "refused") {
    if (state.pending && (!msg.id || msg.id === state.pending.id)) state.pending = null;
    state.note = { text: t("status.refused", { reason: reason(msg.reason, msg.reason_id) }), version: state.version };
    render();
  } else if (msg.type === "chat") {
    addChat([msg]);
    render();
  } else if (msg.type === "history") {
    const lines = Array.isArray(msg.lines) ? msg.lines : [];
    if ("before" in msg) {
      // The answer to "Earlier messages": older lines, and whether there are older still.
      state.chatMore = !!msg.more;
    } else if (msg.more && lines.length) {
      // A hello's latest lines with lines missing before them: what this page had is older
      // than the gap, so it is dropped, and the gap is what "Earlier messages" fetches.
      state.chat = state.chat.filter((c) => c.version > lines[lines.length - 1].version);
      state.chatMore = true;
    }
    addChat(lines);
    render();
  } else if (msg.type === "error") {
    state.note = { text: reason(msg.reason, msg.reason_id), version: state.version };
    render();
  }
}

// Chat lines in version order, each once, the latest CHAT_MAX of them.
function addChat(lines) {
  const have = new Set(state.chat.map((c) => c.version));
  for (const m of lines) {
    if (typeof m.version !== "number" || have.has(m.version)) continue;
    have.add(m.version);
    state.chat.push({ version: m.version, seat: m.seat, name: m.name, text: String(m.text ?? "") });
  }
  state.chat.sort((a, b) => a.version - b.version);
  state.chat = state.chat.slice(-CHAT_MAX);
}

// --- the table ------------------------------------------------------------------------

function myTurn() {
  const v = state.view;
  return !!v && v.turn === state.table?.you && v.phase !== "done";
}

// A choice's or an event's reason in the page's language: by its id when it has one.
function why(c) { return c ? reason(c.reason, c.reason_id) : ""; }

// A key for this table's game when the game words it its own way ("ren.status.discard").
const PREFIX = { renaissance: "ren" };
function gt(key, params) {
  const own = PREFIX[gameName()] ? `${PREFIX[gameName()]}.${key}` : null;
  return t(own && has(own) ? own : key, params);
}

function statusText() {
  const v = state.view;
  const T = state.table;
  if (T?.status === "waiting") return t("table.waiting");
  if (!v || !T) return t("conn.connecting");
  if (v.phase === "done") return t("status.done");
  if (myTurn()) {
    const base = gt(`status.${v.phase === "announce" ? "answer" : v.phase}`);
    // (a Renaissance discard says its reasons beside the cards: actionsArea)
    if (v.phase === "play" || (v.phase === "discard" && sicilian())) {
      const whys = dimmedReasons();
      if (whys.length) return `${base} ${t("status.dimmed", { reasons: whys.join("; ") })}`;
    }
    return base;
  }
  return gt(`status.wait.${v.phase === "announce" ? "answer" : v.phase}`, { name: whoLabel(v.turn) });
}

function dimmedReasons() {
  return [...new Set(state.view.choices.filter((c) => c.reason).map(why))];
}

function seatPanel(seat) {
  const v = state.view;
  const T = state.table;
  const classes = ["seat"];
  if (v && v.turn === seat && v.phase !== "done") classes.push("turn");
  if (seat === T.you) classes.push("me");
  const tags = [];
  if (v && v.dealer === seat) tags.push(h("span", { class: "tag dealer", title: t("table.dealer"), "aria-label": t("table.dealer") }, t("table.dealer.mark")));
  if (v && v.bidder === seat) tags.push(h("span", { class: "tag bidder", text: v.contract === "solo" ? "vado solo" : "chiamo" }));
  if (v && v.partner === seat && v.partner !== null) tags.push(h("span", { class: "tag partner", text: t("table.partner") }));
  if (T.standin?.[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.standin") }));
  else if (T.bots?.[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.bot") }));
  else if (T.joined && !T.joined[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.notjoined") }));
  else if (T.connected && !T.connected[seat]) tags.push(h("span", { class: "tag quiet away", text: t("table.away") }));
  if ((T.status === "between" || T.status === "over") && T.ready?.[seat]) tags.push(h("span", { class: "tag ready", text: t("count.ready") }));
  const cards = v?.hand_counts?.[seat] ?? 0;
  const tricks = v?.tricks?.[seat] ?? 0;
  const captured = v?.captured?.[seat] ?? [];
  const fool = v && typeof v.fool === "number" && v.fool === seat && v.phase !== "done";
  const total = T.totals?.[seat] ?? 0;
  const pile = v?.pile_sizes?.[seat];
  return h("section", { class: classes.join(" "), "data-seat": seat, "aria-label": whoLabel(seat) },
    h("div", { class: "seat-head" },
      h("strong", { class: "seat-name", text: whoLabel(seat) }), ...tags),
    h("div", { class: "seat-stats" },
      sicilian() ? h("span", { class: "stat jochi", text: t("table.jochi", { n: total }) })
        : h("span", { class: "stat total", "data-total": total, text: t("table.total", { n: signed(total) }) }),
      v ? h("span", { class: "stat", text: cards === 1 ? t("table.cards.one") : t("table.cards", { n: cards }) }) : null,
      v ? h("span", { class: "stat", text: tricks === 1 ? t("table.tricks.one") : t("table.tricks", { n: tricks }) }) : null,
      v && pile !== undefined ? h("span", { class: "stat pile", text: t("table.pile", { n: pile }) }) : null),
    captured.length || fool ? h("div", { class: "captured", "aria-label": t("table.captured") },
      fool ? h("span", { class: "fool-beside", title: t("table.fool") }, miniCard("F", "face-up")) : null,
      captured.map((c) => miniCard(c))) : null,
    // A room seat away for the room's time may be handed to the computer by the others.
    T.takeover?.[seat] && seat !== T.you ? h("button", {
      type: "button", class: "takeover", "data-focus": `takeover-${seat}`,
      "aria-label": t("table.takeover.label", { name: whoLabel(seat) }),
      onclick: () => send({ type: "takeover", seat }),
    }, t("table.takeover")) : null);
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function seatOrder() {
  const n = state.table.seats;
  const me = state.table.you ?? 0;
  return Array.from({ length: n }, (_, i) => (me + 1 + i) % n); // the others in play order, you last
}

function playedCard(seat, code, extra = "") {
  return h("figure", { class: `played ${extra}`.trim(), "data-seat": seat, "data-card": code },
    h("div", { class: "card-box", role: "img", "aria-label": cardLabel(code) }, cardSvg(code)),
    h("figcaption", { text: whoLabel(seat) }));
}

function centerArea() {
  const v = state.view;
  if (v.phase === "done" && v.count) return countPanel();
  if (v.phase === "play" && v.trick.length) {
    return h("section", { class: "center trick", "aria-label": t("center.trick") },
      v.trick.map((p) => playedCard(p.seat, p.card)));
  }
  if (v.phase === "play" && v.last_trick) {
    return h("section", { class: "center trick last", "aria-label": t("center.trick") },
      h("p", { class: "center-note", text: tSeat("center.last", v.last_trick.winner) }),
      h("div", { class: "trick-cards" }, v.last_trick.cards.map((p) => playedCard(p.seat, p.card, p.seat === v.last_trick.winner ? "winner" : ""))));
  }
  if (v.monte && (v.phase === "discard" || v.phase === "announce")) {
    return h("section", { class: "center monte", "aria-label": t("info.monte") },
      h("p", { class: "center-note", text: t("info.monte") }),
      h("div", { class: "trick-cards" }, v.monte.map((c) => h("div", { class: "card-box", role: "img", "aria-label": cardLabel(c) }, cardSvg(c)))));
  }
  if (v.extra && v.phase === "discard") {
    return h("section", { class: "center monte extra", "aria-label": t("ren.extra") },
      h("p", { class: "center-note", text: t("ren.extra") }),
      h("div", { class: "trick-cards" }, v.extra.map((c) => h("div", { class: "card-box", role: "img", "aria-label": cardLabel(c) }, cardSvg(c)))));
  }
  if (!sicilian() && v.phase === "discard") {
    return h("section", { class: "center empty" }, h("p", { class: "center-note", text: t("ren.center.discard", { name: whoLabel(v.dealer) }) }));
  }
  const note = v.phase === "play" && v.leader !== null ? t("center.lead", { name: whoLabel(v.leader) }) : t("center.empty");
  return h("section", { class: "center empty" }, h("p", { class: "center-note", text: note }));
}

// The line for an event; the seat's own lines say "you" ("You play the Fool.").
function tSeat(key, seat, params = {}) {
  const yours = key.replace(/^(ev|center)\./, "$1.you.");
  if (seat === state.table?.you && has(yours)) return t(yours, params);
  return t(key, { name: whoLabel(seat), ...params });
}

function eventLine(e) {
  const name = (s) => whoLabel(s);
  switch (e.type) {
    case "dealt": return t("ev.dealt", { n: e.cards });
    case "look": return tSeat("ev.look", e.seat);
    case "bid": return t("ev.bid", { name: name(e.seat), word: e.bid });
    case "contract":
      if (e.contract === "solo") return tSeat(e.stata ? "ev.contract.stata" : "ev.contract.solo", e.seat);
      if (e.contract === "chiamo") return tSeat("ev.contract.chiamo", e.seat, { card: e.called });
      return tSeat("ev.contract.forced", e.seat);
    case "monte": return e.cards ? t("ev.monte", { cards: e.cards.map(cardName).join(", ") }) : tSeat("ev.monte.unseen", e.seat);
    case "discard": return tSeat("ev.discard", e.seat);
    case "call": return t("ev.call", { name: name(e.seat), card: e.called });
    case "announce": return tSeat(`ev.announce.${e.announce}`, e.seat);
    case "play": return tSeat("ev.play", e.seat, { card: cardName(e.card) });
    case "partner": return tSeat("ev.partner", e.seat);
    case "trick": return tSeat("ev.trick", e.winner);
    case "count": return t("ev.count");
    case "abandoned": return t("ev.abandoned", { reason: reason(e.reason) });
    default: return null; // table events of the server: not a line above the cards
  }
}

// The Fool played into another seat's trick (A13, A14): who owes whom a card, while owed.
function foolText(f) {
  const me = state.table?.you;
  const p = { name: whoLabel(f.seat), to: whoLabel(f.owes) };
  if (f.owed) {
    if (f.seat === me) return t("ren.fool.you.owes", p);
    if (f.owes === me) return t("ren.fool.owes.you", p);
    return t("ren.fool.owes", p);
  }
  if (f.seat === me) return t("ren.fool.you.paid", p);
  if (f.owes === me) return t("ren.fool.paid.you", p);
  return t("ren.fool.paid", p);
}

function foolLine() {
  const f = state.view.fool;
  if (!f || typeof f !== "object" || state.view.phase === "done") return null;
  return h("p", { class: "fool-line" + (f.owed ? " owed" : "") }, miniCard("F"), h("span", { text: foolText(f) }));
}

function linesArea() {
  const lines = state.events.map(eventLine).filter(Boolean).slice(-MAX_LINES);
  return h("section", { class: "lines", "aria-label": t("lines.title") },
    h("ol", { "aria-live": "polite" }, lines.map((line, i) => h("li", { class: i === lines.length - 1 ? "latest" : "", text: line }))));
}

function choiceOf(action) {
  return state.view.choices.find((c) => c.action === action);
}

function actionsArea() {
  const v = state.view;
  if (!myTurn()) return null;
  if (v.phase === "speak") {
    return h("section", { class: "actions speak", "aria-label": t("speak.title") },
      h("h2", { class: "visually-hidden", text: t("speak.title") }),
      h("div", { class: "bid-buttons" }, v.choices.map((c) => h("div", { class: "bid" + (c.reason ? " refused" : "") },
        h("button", { type: "button", class: "word", "data-action": c.action, "data-focus": `bid-${c.action}`, disabled: !!c.reason,
          "aria-describedby": c.reason ? `why-${c.action.replace(" ", "-")}` : null,
          onclick: () => act(c.action) },
          h("span", { class: "word-main", text: c.action }),
          h("small", { text: t(`hint.${c.action}`) })),
        c.reason ? h("span", { class: "why", id: `why-${c.action.replace(" ", "-")}`, text: reason(c.reason) }) : null))));
  }
  if (v.phase === "discard") {
    const n = state.selected.size;
    const whys = dimmedReasons();
    return h("section", { class: "actions discard", "aria-label": t("discard.title") },
      h("span", { class: "discard-count", text: t("discard.count", { n }) }),
      whys.length ? h("span", { class: "why discard-why", text: t("discard.off", { reasons: whys.join("; ") }) }) : null,
      // Short of cards that may go (A7, R11): some trumps are switched on to fill the discard.
      v.choices.some((c) => !c.reason && cardInfo(c.action).kind === "trump")
        ? h("span", { class: "why discard-fallback", text: gt("discard.fallback") }) : null,
      h("button", { type: "button", class: "primary", id: "confirm-discard", "data-focus": "confirm", disabled: n !== 3,
        onclick: () => act(`discard ${[...state.selected].join(" ")}`) }, t("discard.confirm")));
  }
  if (v.phase === "announce") {
    const word = v.choices.find((c) => c.action !== "no")?.action ?? "rivanto";
    const yes = choiceOf(word);
    return h("section", { class: "actions ask", role: "group", "aria-label": t(`ask.${word}`) },
      h("p", { class: "question", text: t(`ask.${word}`) }),
      h("div", { class: "bid-buttons" },
        h("div", { class: "bid" + (yes?.reason ? " refused" : "") },
          h("button", { type: "button", class: "word", "data-action": word, "data-focus": "ask-yes", disabled: !!yes?.reason,
            "aria-describedby": yes?.reason ? "why-yes" : null, onclick: () => act(word) },
            h("span", { class: "word-main", text: t("ask.yes", { word: word === "scommessa" ? "Scommessa" : "Rivanto" }) })),
          yes?.reason ? h("span", { class: "why", id: "why-yes", text: reason(yes.reason) }) : null),
        h("div", { class: "bid" },
          h("button", { type: "button", class: "word", "data-action": "no", "data-focus": "ask-no", onclick: () => act("no") },
            h("span", { class: "word-main", text: t("ask.no") })))));
  }
  return null;
}

function onCardPress(code) {
  const v = state.view;
  const choice = v.choices.find((c) => c.action === code);
  if (!myTurn() || !choice) {
    state.note = { text: t("status.cardwhy", { card: cardName(code), reason: reason("it is not your turn") }), version: state.version };
    render();
    return;
  }
  if (choice.reason) {
    state.note = { text: t("status.cardwhy", { card: cardName(code), reason: why(choice) }), version: state.version };
    render();
    return;
  }
  if (v.phase === "play") { act(code); return; }
  if (v.phase === "discard") {
    if (state.selected.has(code)) state.selected.delete(code);
    else if (state.selected.size < 3) state.selected.add(code);
    state.note = null;
    render();
  }
}

function handArea() {
  const v = state.view;
  const choices = new Map((myTurn() ? v.choices : []).filter((c) => c.reason).map((c) => [c.action, why(c)]));
  const discarding = myTurn() && v.phase === "discard";
  const extra = new Set(v.extra || []);  // the dealer's three extra cards: the dealer's view only
  return h("section", { class: "hand" + (discarding ? " discarding" : ""), "aria-label": "hand" },
    v.hand.map((code) => {
      const why = choices.get(code) || "";
      const selected = state.selected.has(code);
      let label = cardLabel(code);
      const isExtra = extra.has(code);
      if (why) label += `; ${t("card.dimmed", { reason: why })}`;
      if (isExtra) label += `; ${t("card.extra")}`;
      if (selected) label += `; ${t("card.selected")}`;
      return h("button", {
        type: "button", class: "card" + (why ? " dimmed" : "") + (cardInfo(code).kind === "fool" ? " apart" : "") + (selected ? " selected" : "") + (isExtra ? " extra" : ""),
        "data-card": code, "data-focus": `card-${code}`, "aria-label": label, "data-extra": isExtra ? t("card.extra.mark") : null,
        "aria-disabled": why ? "true" : null, "aria-pressed": discarding ? String(selected) : null,
        title: why || cardName(code),
        onclick: () => onCardPress(code),
      }, cardSvg(code));
    }));
}

// The deal at a Renaissance table: the dealer, the dealer's own extra cards and discard, the
// Fool's debt, and how a deal is scored (A7, A13-A15).
function renInfoPanel() {
  const v = state.view;
  const rows = [h("dt", { text: t("table.dealer") }), h("dd", { class: "dealer-name", text: whoLabel(v.dealer) })];
  if (v.extra) rows.push(h("dt", { text: t("ren.info.extra") }), h("dd", { class: "extra-cards" }, v.extra.map((c) => miniCard(c))));
  if (v.discard && v.phase !== "done") rows.push(h("dt", { text: t("info.discard") }), h("dd", { class: "discard-cards" }, v.discard.map((c) => miniCard(c))));
  if (v.fool && typeof v.fool === "object" && v.phase !== "done") rows.push(h("dt", { text: t("played.fool") }), h("dd", { text: foolText(v.fool) }));
  return h("section", { class: "panel info", "aria-label": t("info.title") },
    h("h2", { text: t("info.title") }),
    h("dl", {}, rows),
    h("p", { class: "note", text: t("ren.info.scoring") }));
}

function infoPanel() {
  if (!sicilian()) return renInfoPanel();
  const v = state.view;
  const rows = [];
  const contract = v.bidder === null ? t("info.contract.none")
    : v.contract === "solo" ? t("info.contract.solo", { name: whoLabel(v.bidder) })
      : t(v.contract === "forced" ? "info.contract.forced" : "info.contract.chiamo", { name: whoLabel(v.bidder), card: v.called ?? "?" });
  rows.push(h("dt", { text: t("info.contract") }), h("dd", { class: "contract", text: contract }));
  if (v.stata) rows.push(h("dt", { text: "stata" }), h("dd", { text: t("info.stata") }));
  if (v.called) {
    rows.push(h("dt", { text: t("info.called") }), h("dd", {}, miniCard(v.called)));
    if (v.partner !== null && v.partner !== undefined) rows.push(h("dt", { text: "" }), h("dd", { text: t("info.partner", { name: whoLabel(v.partner) }) }));
    else if (v.phase === "done" && v.count && v.count.alone) rows.push(h("dt", { text: "" }), h("dd", { text: t("info.partner.alone", { name: whoLabel(v.bidder) }) }));
  }
  if (v.monte) rows.push(h("dt", { text: t("info.monte") }), h("dd", { class: "monte-cards" }, v.monte.map((c) => miniCard(c))));
  if (v.discard && v.phase !== "done") rows.push(h("dt", { text: t("info.discard") }), h("dd", {}, v.discard.map((c) => miniCard(c))));
  if (v.scommessa) rows.push(h("dt", { text: "Scommessa" }), h("dd", { text: t("info.scommessa", { name: whoLabel(v.bidder) }) }));
  if (v.rivanto !== null && v.rivanto !== undefined) rows.push(h("dt", { text: "Rivanto" }), h("dd", { text: t("info.rivanto", { name: whoLabel(v.rivanto) }) }));
  return h("section", { class: "panel info", "aria-label": t("info.title") },
    h("h2", { text: t("info.title") }),
    v.i_am_partner && v.partner === null ? h("p", { class: "secret", text: t("info.i_am_partner") }) : null,
    h("dl", {}, rows));
}

function announcementsLog() {
  const v = state.view;
  const items = v.bids.map((b) => t("log.bid", { name: whoLabel(b.seat), word: b.bid, cards: b.cards }));
  if (v.contract === "forced") items.push(t("ev.contract.forced", { name: whoLabel(v.bidder) }));
  if (v.called && v.contract) items.push(t("ev.call", { name: whoLabel(v.bidder), card: v.called }));
  for (const a of v.announcements || []) items.push(t(`ev.announce.${a.announce}`, { name: whoLabel(a.seat) }));
  return h("section", { class: "panel log", "aria-label": t("log.title") },
    h("h2", { text: t("log.title") }),
    items.length ? h("ol", {}, items.map((text) => h("li", { text }))) : h("p", { class: "quiet", text: t("log.empty") }));
}

function playedPanel() {
  const v = state.view;
  const by = new Map();
  (v.played || []).forEach((cards, seat) => cards.forEach((c) => by.set(c, seat)));
  const row = (title, codes) => h("div", { class: "played-row" },
    h("span", { class: "row-title", text: title }),
    h("span", { class: "row-cards" }, codes.map((c) => {
      const seat = by.get(c);
      const chip = miniCard(c, seat === undefined ? "unplayed" : "was-played");
      chip.title = `${cardName(c)}: ${seat === undefined ? t("played.not") : t("played.by", { name: whoLabel(seat) })}`;
      chip.setAttribute("aria-label", chip.title);
      return chip;
    })));
  // One row per group of the deck, in hand order: trumps, each suit, the Fool.
  return h("section", { class: "panel played-panel", "aria-label": t("played.title") },
    h("h2", { text: t("played.title") }),
    (deck()?.groups || []).map((g) => row(g.name === "trumps" ? t("played.trumps") : g.name === "fool" ? t("played.fool") : suitName(g.suit), g.cards)));
}

function chatPanel() {
  const list = h("ol", { class: "chat-lines", "aria-live": "polite" },
    state.chat.map((c) => h("li", {},
      h("b", { text: `${seatName(c.name ?? state.table?.names?.[c.seat] ?? "")}: ` }),
      h("span", { class: "chat-text", text: c.text }))));
  const input = h("input", {
    type: "text", maxlength: 300, id: "chat-input", "data-focus": "chat-input", autocomplete: "off",
    placeholder: t("chat.placeholder"), "aria-label": t("chat.label"),
    oninput: (e) => { state.chatDraft = e.target.value; },
  });
  input.value = state.chatDraft;
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = state.chatDraft.trim();
    if (!text) return;
    send({ type: "chat", text: text.slice(0, 300) });
    state.chatDraft = "";
    render();
  } }, input, h("button", { type: "submit", "data-focus": "chat-send" }, t("chat.send")));
  queueMicrotask(() => { list.scrollTop = list.scrollHeight; });
  const earlier = state.chatMore && state.chat.length
    ? h("button", { type: "button", class: "chat-earlier", "data-focus": "chat-earlier",
        onclick: () => send({ type: "history", before: state.chat[0].version }) }, t("chat.earlier"))
    : null;
  return h("section", { class: "panel chat", "aria-label": t("chat.title") }, h("h2", { text: t("chat.title") }), earlier, list, form);
}

// The Renaissance count (A13-A15): each pile itemised, the discard face up, where the Fool's
// card went, and each seat's score.
function renCountParts(c) {
  const parts = [];
  const sum = (k) => c.piles.reduce((a, p) => a + p[k], 0);
  const rows = [];
  c.piles.forEach((p, seat) => {
    rows.push(h("tr", { class: "pile-row", "data-seat": seat },
      h("th", { scope: "row", text: whoLabel(seat) }),
      h("td", { class: "num ones", text: String(p.ones) }),
      h("td", { class: "num threes", text: String(p.threes) }),
      h("td", { class: "num points", text: String(p.points) }),
      h("td", { class: "num score" }, h("span", { class: "formula", text: `${p.points} − 26 = ` }), h("b", { text: signed(p.score) }))));
    rows.push(h("tr", { class: "pile-cards-row", "data-seat": seat },
      h("td", { colspan: 5 }, h("span", { class: "pile-cards", "aria-label": `${whoLabel(seat)}: ${t("ren.count.counting")}` },
        h("small", { text: `${t("ren.count.counting")}:` }),
        p.counting.length ? p.counting.map((x) => miniCard(x)) : h("small", { class: "none", text: t("ren.count.none") })))));
  });
  parts.push(h("table", { class: "piles-table" },
    h("thead", {}, h("tr", {},
      h("th", { text: t("ren.count.seat") }),
      h("th", { class: "num", text: t("ren.count.ones") }), h("th", { class: "num", text: t("ren.count.threes") }),
      h("th", { class: "num", text: t("ren.count.points") }), h("th", { class: "num", text: t("ren.count.score") }))),
    h("tbody", {}, rows),
    h("tfoot", {}, h("tr", {},
      h("th", { text: t("ren.count.all", { n: sum("threes") * 3 }) }),
      h("td", { class: "num", text: String(sum("ones")) }), h("td", { class: "num", text: String(sum("threes")) }),
      h("td", { class: "num", text: String(sum("points")) }), h("td", { class: "num", text: signed(sum("score")) })))));
  parts.push(h("p", { class: "note how", text: t("ren.count.how") }));
  parts.push(h("div", { class: "count-discard ren-discard" },
    h("span", { class: "caption", text: `${state.view.dealer === state.table?.you ? t("ren.count.you.discard") : t("ren.count.discard", { name: whoLabel(state.view.dealer) })}: ` }),
    (c.discard || []).map((x) => h("div", { class: "card-box", role: "img", "aria-label": cardLabel(x) }, cardSvg(x)))));
  const f = c.fool;
  if (f && f.seat >= 0) {
    const p = { name: whoLabel(f.seat), to: whoLabel(f.trick_winner), card: f.paid ? cardName(f.paid) : "" };
    const me = state.table?.you;
    const how = f.surrendered ? "surrendered" : "paid";
    const key = f.seat === me ? `ren.count.fool.you.${how}` : f.trick_winner === me ? `ren.count.fool.${how}.you` : `ren.count.fool.${how}`;
    parts.push(h("p", { class: "count-fool" }, miniCard("F"), h("span", { text: t(key, p) }), f.paid && !f.surrendered ? miniCard(f.paid) : null));
  }
  return parts;
}

function countPanel() {
  const v = state.view;
  const T = state.table;
  const c = v.count;
  const parts = [h("h2", { text: t("count.title") })];
  if (!sicilian()) {
    parts.push(...renCountParts(c));
  } else if (c.abandoned) {
    parts.push(h("p", { text: t("count.abandoned", { reason: reason(c.reason) }) }));
    if (c.prendo !== null && c.prendo !== undefined && c.pago?.length) {
      for (const p of c.pago) parts.push(h("p", { text: t("count.pago", { name: whoLabel(p), prendo: whoLabel(c.prendo) }) }));
    } else parts.push(h("p", { text: t("count.nopay") }));
  } else {
    const sideName = (side) => `${t(`count.side.${side}`)} (${(c.sides[side] || []).map(whoLabel).join(", ")})`;
    parts.push(h("table", { class: "jochi-table" },
      h("thead", {}, h("tr", {}, h("th", { text: t("count.jocu") }), h("th", { text: t("count.side") }), h("th", { class: "num", text: t("count.jochi") }))),
      h("tbody", {}, c.jochi.map((j) => h("tr", { class: `side-${j.side}` },
        h("td", { text: t(`jocu.${j.name}`, { card: j.card ? cardName(j.card) : "" }) }),
        h("td", { text: t(`count.side.${j.side}`) }),
        h("td", { class: "num", text: String(j.value) })))),
      h("tfoot", {},
        ["bidder", "others"].map((side) => h("tr", {},
          h("th", { text: `${t("count.total")}: ${sideName(side)}` }),
          h("td", { text: `${t("count.points")}: ${c.card_points[side]}` }),
          h("td", { class: "num", text: String(c.totals?.[side] ?? "") }))))));
    parts.push(h("p", { class: "net" },
      `${t("count.net")}: `, h("b", { text: String(c.net) }), " · ",
      `${t("count.stake")} `, h("b", { text: t(c.stake === 2 ? "count.stake.stata" : "count.stake.one") })));
    parts.push(h("div", { class: "count-discard" }, h("span", { text: `${t("count.discard")}: ` }), (c.discard || []).map((x) => miniCard(x))));
  }
  parts.push(h("h3", { text: gt("count.payments") }));
  parts.push(h("ul", { class: "payments" }, (c.payments || c.scores).map((p, seat) => h("li", { class: p > 0 ? "plus" : p < 0 ? "minus" : "" },
    h("span", { text: whoLabel(seat) }), h("b", { text: p > 0 ? `+${p}` : String(p) })))));
  if (T.status === "over") {
    const winners = T.winners || [];
    const names = winners.map(whoLabel).join(", ");
    parts.push(h("div", { class: "result", role: "status" },
      h("h2", { text: t("result.title") }),
      h("p", { class: "winners", text: t(winners.length > 1 ? "result.winners" : "result.winner", { names }) }),
      h("p", { text: `${gt("result.totals")}: ` + T.totals.map((x, s) => `${whoLabel(s)} ${x > 0 ? "+" + x : x}`).join(" · ") }),
      h("a", { class: "button primary", href: "/", "data-focus": "again" }, t("result.again"))));
  } else {
    const ready = T.ready?.[T.you];
    parts.push(h("div", { class: "next" },
      h("button", { type: "button", class: "primary", id: "next-deal", "data-focus": "next", disabled: !!ready,
        onclick: () => send({ type: "next" }) }, t("count.next")),
      ready ? h("span", { class: "quiet", text: t("count.waitnext") }) : null));
  }
  return h("section", { class: "center count", "aria-label": t("count.title") }, parts);
}

function waitingRoom() {
  const T = state.table;
  const joined = (T.joined || []).filter(Boolean).length;
  let links = null;
  try { links = JSON.parse(localStorage.getItem(`tarocchi.links.${location.pathname}`) || "null"); } catch { /* none */ }
  return h("section", { class: "center waiting" },
    h("ul", { class: "joined" }, T.names.map((n, s) => h("li", { class: T.joined?.[s] ? "in" : "out" },
      h("span", { text: whoLabel(s) }), h("small", { text: T.joined?.[s] ? t("table.joined") : t("table.notjoined") })))),
    T.you === 0 && links ? h("div", {}, h("h3", { text: t("table.links") }), h("ul", {}, links.slice(1).map((l, i) => linkRow(l, i + 1, T.names)))) : null,
    T.you === 0 && T.seats === 4 && joined === 3 ? h("button", { type: "button", class: "primary", id: "start-three", "data-focus": "start", onclick: () => send({ type: "start" }) }, t("table.start3")) : null);
}

function tableGameTitle() {
  const g = state.games?.games.find((x) => x.name === gameName());
  return g ? gameTitle(g) : gameName();
}

function tablePage() {
  const T = state.table;
  const v = state.view;
  const top = h("header", { class: "topbar" },
    h("a", { class: "home", href: "/", text: t("app.title") }),
    T ? h("span", { class: "game-name", text: tableGameTitle() }) : null,
    T && T.deal_number ? h("span", { class: "deal-no", text: t("table.deal", { n: T.deal_number, m: T.deals_in_match }) }) : null,
    h("span", { class: `conn ${state.conn}`, role: "status", text: t(`conn.${state.conn}`) }),
    state.conn === "replaced" ? h("button", { type: "button", class: "reconnect", "data-focus": "reconnect",
      onclick: () => { state.conn = "connecting"; render(); connect(); } }, t("conn.usehere")) : null,
    langButton());
  if (state.badLink) {
    return h("div", { class: "table-page" }, top,
      h("p", { class: "error", role: "alert", text: t("conn.badlink") }),
      state.note ? h("p", { class: "quiet", text: state.note.text }) : null,
      h("a", { class: "button", href: "/" }, t("conn.lobby")));
  }
  if (!T) return h("div", { class: "table-page" }, top, h("p", { class: "status", text: t("conn.connecting") }));
  const note = state.note && state.note.version === state.version ? state.note.text : "";
  const status = h("p", { class: "status" + (myTurn() ? " yours" : ""), id: "status", role: "status", "aria-live": "polite" },
    h("span", { class: "status-turn", text: statusText() }),
    note ? h("span", { class: "status-note", text: note }) : null);
  const seats = h("div", { class: "seats" }, seatOrder().map(seatPanel));
  if (T.status === "waiting" || !v || !hasDeck(gameName())) {
    return h("div", { class: "table-page", "data-version": state.version, "data-status": T.status }, top,
      h("div", { class: "board" }, seats, status, waitingRoom()), h("div", { class: "side" }, chatPanel()));
  }
  const main = h("div", { class: "board" }, seats, centerArea(), foolLine(), linesArea(), status, actionsArea(), handArea());
  const side = h("aside", { class: "side" }, infoPanel(), sicilian() ? announcementsLog() : null, playedPanel(), chatPanel());
  return h("div", { class: `table-page phase-${v.phase} game-${gameName()}`, "data-version": state.version, "data-status": T.status, "data-game": gameName() },
    top, h("div", { class: "layout" }, main, side));
}

// --- start ----------------------------------------------------------------------------

setLang(lang());
render();
if (token) loadGames().then(connect);  // the deck is drawn from the games' description
else loadLobby();
