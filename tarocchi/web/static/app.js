// The Tarocchi client: the lobby at "/" and the table at "/t/<token>" (docs/protocol.md).
// The server decides every rule; this page only shows the seat's view and asks.
// User text (chat, names) is always set with textContent, never parsed as HTML.
//
// The core (this file) is the connection, the lobby, the table's layout (the other seats
// around the table, you at the bottom, the trick, the status line, the hand), chat, the lines
// of what happened, the played cards, the score sheet, the panels/drawers and the keyboard.
// Each game's own screens are a module, static/games/<name>.js, loaded by the table's game
// name (a new game adds its module; the core does not change). The page is built once and
// then patched region by region (dom.js patch): the status line is one persistent
// role="status" element whose text changes once per turn or refusal.
//
// A game module default-exports an object; every member but `name` is optional:
//   name        "sicilian": the table's game name
//   prefix      "ren": catalogue keys "<prefix>.<key>" replace the shared "<key>" at its table
//               (the status lines, the panel tabs: "ott.tab.log")
//   messages    {en: {...}, it: {...}}: its own catalogue keys (games/<name>.i18n.js), merged
//               into the shared catalogue when the module loads
//   phaseKey(phase) -> the status key's phase word ("announce" -> "answer"); default phase
//   status(ctx) -> string|null: the status line for the phase, else the core's status.<phase>
//   seatStats(ctx, seat) -> [Node]: the seat's score line (the core adds cards and tricks)
//   seatTags(ctx, seat) -> [Node]: tags beside the seat's name (the core adds dealer, away..)
//   center(ctx) -> Node|null: the middle of the table when no trick is shown (a monte, ...)
//   actions(ctx) -> Node|null: the seat's controls on its turn outside "play" (the hand plays
//               cards); buttons with class "word" (and data-action) get the number keys 1..9;
//               ctx.discard({size, word, fallbackKey}) is the core's pick-N-cards-then-confirm
//               control (it sends "<word> <codes>"; "discard" by default)
//   picks(phase) -> bool: in this phase (besides "discard") a press on a card of the hand
//               picks it for ctx.discard instead of playing it; pickSize(ctx) -> how many
//   banner(ctx) -> Node|null: a line above the status (Renaissance: the Fool's debt)
//   info(ctx) -> [Node]: the "deal" panel's content (contract, monte, ...)
//   log(ctx) -> [string]|null: the announcements of the deal; a "log" panel when not null
//   count(ctx) -> [Node]: the count, itemised (the core adds payments and Next deal)
//   payments(ctx) -> [{label, value}]: the count's payments when not one a seat (Ottocento: sides)
//   winners(ctx, seats) -> string: who won the match (Ottocento: a side), else the core's line
//   totalsLine(ctx) -> string: the match totals after the result, else each seat's
//   sheetColumns(ctx) -> [{seat, label}]: the score sheet's columns (default: every seat)
//   picks(phase) -> bool: the phase picks cards of the hand (then the game's confirm button);
//               pickSize(ctx) -> how many
//   cardChoice(ctx, code) -> choice|null|undefined: a hand card's choice when the phase's
//               choices are not the cards themselves (undefined: the choice named by the card);
//               in "play" a press sends the choice's action (Ottocento: "7C volo")
//   playedTag(ctx, i, lastTrick) -> Node|null: a label on the i-th card of the trick shown
//               (lastTrick: the view's last_trick when that is the one shown, else null)
//   eventLine(ctx, event) -> string|null|undefined: a line for an event (undefined: the
//               core's line for the shared events: dealt, play, trick, count, abandoned)
//   actionWords(ctx, action) -> string|undefined: an action in a player's words where the
//               notation is the engine's (a hint, a review); undefined: its cards by name
//   totalsKey   "table.jochi": the key of a seat's running total ({n}, with a ".one" form)
// ctx (ctxFor below) gives the view, the table, `me`, the catalogue (t, tn, gt, tSeat), the
// cards (cardSvg, miniCard, ...), whoLabel, act(action), choice(action), why(choice), the
// discard selection, and confirmKey(label): the attributes that give a game's confirm button
// the C key (aria-keyshortcuts and its tooltip).

import { t, tn, has, lang, setLang, reason, seatName, addMessages } from "./i18n.js";
import { cardSvg, cardLabel, cardName, cardInfo, miniCard, setDecks, useDeck, hasDeck, deck, suitName } from "./cards.js";
import { h, patch, attr, text, signed } from "./dom.js";
import { seatLine, eventText } from "./lines.js";
import * as lobbyUi from "./lobby.js";  // public tables, Play now, the turn clock
import { rememberSeat, askTables } from "./seats.js";
import { accountName, accountLink, accountPage, fetchMe, holdSeat, signedInNote, syncSeats, bellSlot, startSocial } from "./account.js";  // issue 40
import { startNetwork, onNetwork, offline, reached } from "./offline.js";  // the service worker, the offline banner
import * as lessons from "./lessons.js";  // Learn to play: the lobby's lessons, a lesson table's guide (issue 42)
// Modules loaded where their page shows them (issue 60; the server preloads them with that page,
// tarocchi/server/assets.py PAGE_MODULES): a table's hints and replay links (hint.js, replay.js),
// the lobby's, a profile's and a leaderboard's boards (players.js), a replay (replay.js), a
// tournament's page (tournament.js), the moderators' page (mod.js); the Report dialog (report.js)
// when a Report button is pressed; and, signed in, the bell, the lobby's challenges and friends
// (social.js: account.js startSocial).
let hint = null;
let replay = null;
let players = null;
let social = null;  // signed in: the bell, the lobby's challenges and friends (social.js, issue 58)
let gamesLoaded = Promise.resolve();  // GET /api/games, at a table: its socket's messages wait for it

const root = document.getElementById("app");
// A seat's table /t/<token>, a spectator's /w/<token> (it watches: no hand, no action, the
// chat read-only), a finished deal's replay /r/<token>/<deal> (replay.js).
const pathMatch = /^\/([tw])\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
const replayMatch = /^\/r\/([A-Za-z0-9_.-]+)\/(\d+)\/?$/.exec(location.pathname);
const token = pathMatch?.[2] || null;
// Accounts, profiles and leaderboards (issue 40): /account, /@/<name>, /leaderboard/<game>.
const accountMatch = /^\/account\/?$/.test(location.pathname);
const profileMatch = /^\/@\/([^/]+)\/?$/.exec(location.pathname);
const gamesMatch = /^\/@\/([^/]+)\/games\/?$/.exec(location.pathname);  // a player's games (issue 58)
const boardMatch = /^\/leaderboard\/([^/]+)\/?$/.exec(location.pathname);
// The daily deal's page (issue 59): /daily/<game> (daily.js).
const dailyMatch = /^\/daily\/([^/]+)\/?$/.exec(location.pathname);
// A tournament's page (issue 59, tournament.js): /tournament/<id>.
const tournamentMatch = /^\/tournament\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
const tournamentsMatch = /^\/tournaments\/?$/.test(location.pathname);  // their list and the form to make one
const modMatch = /^\/mod\/?$/.test(location.pathname);  // the moderators' page (issue 58: mod.js)
const watching = pathMatch?.[1] === "w";
const RETRY_MS = [300, 600, 1200, 2500, 5000, 8000];
const CHAT_MAX = 1000;     // chat lines a page keeps (a hello sends the latest 100; more on request)
const CLOSE_REPLACED = 4409;  // this seat was opened in another window: do not take it back by itself
const CLOSE_TOO_MANY = 4429;  // over a budget: wait before trying again
const CLOSE_BAD_LINK = 4404;
const CLOSE_BROKEN = 4410;  // the table could not be restored: it stays alone, the site goes on
const HOLD_MS = 1600;      // the deal's last trick stays on the table this long before the count
// An act refused for answering a turn that is over (the clock's computer played it): the reason
// stays up this long, though the table moves on at once (the next seat plays).
const LATE_NOTE_MS = 5000;
const LATE_REASONS = new Set(["too_late", "moved_on"]);
const NAME_MAX = 24;
// Keys of their own for the buttons a turn ends with, far from a keyboard's Tab order (the
// discard's Confirm sat 15 Shift+Tabs from the last card picked, Next deal 21 Tabs away). A
// game's confirm button (a lay, a give-back, a declaration) takes C by the same attribute.
const CONFIRM_KEY = "C";
const NEXT_KEY = "N";

const state = {
  table: null,
  view: null,
  version: 0,
  acted: 0,          // this seat's actions the server has applied (from each state)
  events: [],        // recent public events, formatted at render time (language can change)
  chat: [],          // {version, seat, name, text}, oldest first
  chatMore: false,   // older lines are in the store: "Earlier messages" asks for them
  selected: new Set(), // cards chosen for the discard
  note: null,        // {text, version, until?}: a refusal or the reason of a dimmed card (shown at that version, or until then)
  conn: "connecting",
  badLink: null,     // the reason a link opens nothing (a 4404 close)
  pending: null,     // the act sent and not yet answered: resent after a reconnect
  panel: null,       // the open side panel: "info", "log", "played", "sheet", "chat"
  showLast: false,   // the last trick on demand
  hold: null,        // {deal, until}: the deal's last trick shown before the count
  nameDone: false,   // the name asked for on the table was given, or put off
  sound: false,
  confirm: false,   // a card is played on a second press (kept in the browser; for phones' mis-taps)
  armed: null,      // the card pressed once, waiting for the second press, with confirm on
  unread: 0,         // chat lines come while the chat drawer is closed
  muted: new Set(),  // the seats whose chat lines this browser hides at this table (issue 58)
  chatOff: false,    // no chat at all for me, at every table (kept in the browser; issue 58)
  game: null,        // the game module of this table
  lobby: { games: [], game: "sicilian", roomGame: "sicilian", seats: 3, roomSeats: 3, level: null, room: null, error: "", busy: false },
  games: null,       // GET /api/games, once loaded: the decks are drawn from it
};

function store(key, value) {
  try { if (value === undefined) return localStorage.getItem(key); localStorage.setItem(key, value); } catch { /* private mode */ }
  return null;
}
state.sound = store("tarocchi.sound") === "on";
state.confirm = store("tarocchi.confirm") === "on";
state.chatOff = store("tarocchi.chat") === "off";

// A seat's chat muted at one table, and the chat off (issue 58): the reader's own view only
// (the server still sends the lines; they are left out of the page, so no screen reader hears
// them). The muted seats are kept by table in this browser, for the latest MUTED_TABLES tables.
const MUTED_STORED = "tarocchi.muted";
const MUTED_TABLES = 50;

function mutedTables() {
  try { const kept = JSON.parse(store(MUTED_STORED) || "{}"); return kept && typeof kept === "object" ? kept : {}; } catch { return {}; }
}

function loadMuted(tableId) {
  const seats = mutedTables()[tableId];
  state.muted = new Set(Array.isArray(seats) ? seats.filter(Number.isInteger) : []);
}

function toggleMute(seat) {
  if (state.muted.has(seat)) state.muted.delete(seat); else state.muted.add(seat);
  const kept = mutedTables();
  delete kept[state.table.id];  // (the latest last: the oldest tables go first)
  if (state.muted.size) kept[state.table.id] = [...state.muted];
  const ids = Object.keys(kept);
  for (const old of ids.slice(0, Math.max(0, ids.length - MUTED_TABLES))) delete kept[old];
  store(MUTED_STORED, JSON.stringify(kept));
  render();
}

function chatShown(line) {
  return !state.chatOff && !(line.seat !== me() && state.muted.has(line.seat));
}

function myName() { return (store("tarocchi.name") || "").slice(0, NAME_MAX); }

// The game of this table ("sicilian" for a table from before there were others).
function gameName() { return state.table?.game || "sicilian"; }
function game() { return state.game || {}; }
function me() { return state.table?.you ?? 0; }

function nameOf(seat) {
  const raw = state.table?.names?.[seat] ?? `#${seat}`;
  if (watching && raw === "you") return t("name.human");  // (a computer table's human is not the spectator; no host there)
  return seatName(raw);
}

function whoLabel(seat) {
  const mine = seat === state.table?.you && state.table?.names?.[seat] !== "you";
  return mine ? `${nameOf(seat)} (${t("name.you")})` : nameOf(seat);
}

// A key for this table's game when the game words it its own way ("ren.status.discard").
function gt(key, params) {
  const p = game().prefix;
  const own = p ? `${p}.${key}` : null;
  return t(own && has(own) ? own : key, params);
}

// A line about a seat: the seat that reads it gets its own form ("ev.you.play": "You play
// ..."), the others the third person ("ev.play": "{name} plays ..."); lines.js, the replay's too.
function tSeat(key, seat, params = {}) {
  return seatLine({ you: state.table?.you, prefix: game().prefix, whoLabel }, key, seat, params);
}

function why(c) {
  if (!c) return "";
  // After a trump lead "follow the suit" means "play a trump" (Sicilian R13, Calabresella,
  // Ottocento B19 say the first; Renaissance A10 the second): one wording in every game.
  if ((c.reason_id === "follow_suit" || c.reason === "follow the suit") && trumpLed()) return reason("play a trump", "play_trump");
  return reason(c.reason, c.reason_id);
}

function trumpLed() {
  const trick = state.view?.phase === "play" ? state.view.trick || [] : [];
  const lead = trick[0] && cardInfo(trick[0].card).kind === "fool" ? trick[1] : trick[0];
  return !!lead && cardInfo(lead.card).kind === "trump";
}
function choiceOf(action) { return (state.view?.choices || []).find((c) => c.action === action); }
function myTurn() {
  const v = state.view;
  // (Not when the view says the table answers for this seat: it has no choice, Sicilian R12.)
  // (Nor while a computer plays the seat: a seat taken at a Play now table is yours after this deal.)
  return !!v && v.turn === state.table?.you && v.phase !== "done" && state.table?.status === "playing" && !v.automatic
    && !state.table?.bots?.[state.table.you];
}

// The table as the page shows it: while the deal's last trick is held, the totals before it.
function shownTable() {
  const T = state.table;
  if (!T || !holding() || !state.hold.totals) return T;
  return { ...T, totals: state.hold.totals, ready: T.ready.map(() => false), status: "playing" };
}

function ctxFor() {
  return {
    view: state.view, table: shownTable(), me: me(), state,
    t, tn, gt, has, tSeat, reason, h, signed, whoLabel, nameOf,
    cardSvg, cardLabel, cardName, cardInfo, miniCard, suitName, deck,
    act, send, choice: choiceOf, why, myTurn: myTurn(), selected: state.selected, gameModule: game(),
    dimmedReasons, discard: discardControl, render, confirmKey: (label) => keyAttrs(CONFIRM_KEY, label),
  };
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
    // (after a pause, or at once when the network comes back)
    await new Promise((done) => {
      const again = () => { clearTimeout(timer); window.removeEventListener("online", again); done(); };
      const timer = setTimeout(again, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      window.addEventListener("online", again);
    });
  }
}

// The game module of a table (static/games/<name>.js), with its catalogue.
const modules = {};
async function loadModule(name) {
  if (!modules[name]) {
    // (its catalogue asked for beside it, not after it is read: one round trip, not two; issue 60)
    import(`./games/${name}.i18n.js`).catch(() => {});
    modules[name] = import(`./games/${name}.js`).then((m) => {
      const mod = m.default || {};
      if (mod.messages) addMessages(mod.messages);
      return mod;
    }).catch(() => ({ name }));
  }
  return modules[name];
}

function gameInfo(name) {
  return state.lobby.games.find((g) => g.name === name) || null;
}

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
  const all = state.games.games;
  L.games = all.filter((g) => g.name === state.games.default).concat(all.filter((g) => g.name !== state.games.default));
  const first = L.games[0].name;
  pickGame("computer", first);
  pickGame("room", first);
  lobbyUi.setup(L.games, gameTitle);
  renderLobby();
  const poll = lobbyUi.startPolling();
  // Signed in: this browser's seats become the account's, and the account's come here ("Your
  // tables" on every device); the header says who is signed in (or that nobody is any more).
  const known = accountName();
  fetchMe().then(async (me) => {
    if (accountName() !== known) renderLobby();
    if (me) startSocial(renderLobby, me).then((m) => { social = m; if (m) renderLobby(); });
    if (me && await syncSeats()) poll();
  });
}

async function post(path, body) {
  state.lobby.busy = true; state.lobby.error = ""; renderLobby();
  try {
    return await lobbyUi.postJson(path, body);
  } catch (e) {
    state.lobby.error = lobbyUi.errorText(e);
    return null;
  } finally {
    state.lobby.busy = false; renderLobby();
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

function helpLink(name, cls = "help-link") {
  const g = state.games?.games.find((x) => x.name === name);
  return h("a", { class: cls, href: `/static/help/${name}.${lang()}.html`, target: "_blank", rel: "noopener",
    "aria-label": g ? `${t("help.rules")}: ${gameTitle(g)}` : null }, t("help.rules"));
}

function gamePicker(name, value, onpick) {
  const games = state.lobby.games;
  if (!games.length) return null;
  return h("fieldset", { class: "game-pick" },
    h("legend", { text: t("lobby.game") }),
    games.map((g) => h("div", { class: "game-row" },
      h("label", { class: "pill game" + (value === g.name ? " on" : "") },
        h("input", { type: "radio", name, value: g.name, checked: value === g.name, "data-focus": `${name}-${g.name}`, onchange: () => onpick(g.name) }),
        h("span", { class: "game-title", text: gameTitle(g) }),
        has(`game.${g.name}.about`) ? h("small", { text: t(`game.${g.name}.about`) }) : null),
      helpLink(g.name))));
}

// The level's name; the game's strongest level (the last the server lists) says so.
function levelName(level, levels = []) {
  const key = `level.${level}`;
  const base = has(key) ? t(key) : level;
  return levels.length > 1 && level === levels[levels.length - 1] ? t("level.strongest", { name: base }) : base;
}

function absolute(link) { return new URL(link, location.origin).href; }

// The links copied on this page: their buttons keep saying so when a region is drawn again
// (a computer's move redraws the panel that holds them, sometimes while the copy is under way).
const copied = new Set();

async function copyLink(url, button) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const area = h("textarea", { class: "offscreen" }); area.value = url;
    document.body.append(area); area.select(); document.execCommand("copy"); area.remove();
  }
  copied.add(url);
  const live = button.isConnected ? button : document.querySelector(`button[data-focus="${button.dataset.focus}"]`);
  for (const b of new Set([button, live].filter(Boolean))) {
    b.textContent = t("lobby.copied");
    b.classList.add("done");
  }
}

// A button that copies a link; "Copied" once it has, on every drawing after.
function copyButton(url, attrs, ...label) {
  const done = copied.has(url);
  return h("button", { type: "button", ...attrs, class: done ? "copy done" : "copy", onclick: (e) => copyLink(url, e.currentTarget) },
    done ? t("lobby.copied") : label);
}

function linkRow(link, seat, names) {
  const url = absolute(link);
  const name = seatName(names[seat]);
  return h("li", { class: "link-row" },
    h("label", { class: "link-name", for: `link-${seat}`, text: t("lobby.room.link", { name }) }),
    h("input", { class: "link-url", id: `link-${seat}`, readonly: true, value: url, onfocus: (e) => e.target.select() }),
    copyButton(url, { "data-focus": `copy-${seat}`, "aria-label": t("lobby.copy.label", { name }) }, t("lobby.copy")));
}

// The host's links, as they are now: a seat handed to a stranger from the lobby has a new link,
// the stranger's alone, so its old one opens nothing: the host is told who took the seat instead
// (the server says which of this browser's links still open a seat: POST /api/my-tables).
const linkLife = { at: 0, pending: false, gone: new Set() };
const LINKS_EVERY_MS = 4000;  // how often the waiting host's page asks again (a claim changes no state)
function liveLinkRow(link, seat, T) {
  if (!linkLife.pending && Date.now() - linkLife.at > LINKS_EVERY_MS) askLinks();
  if (!linkLife.gone.has(link)) return linkRow(link, seat, T.names);
  const who = T.joined?.[seat] ? t("table.taken.by", { name: whoLabel(seat) }) : t("table.taken.open");
  return h("li", { class: "link-row taken", "data-seat": seat },
    h("span", { class: "link-name", text: t("lobby.room.link", { name: seatName(ROOM_SEAT_NAMES[seat]) }) }),
    h("span", { class: "quiet", text: who }));
}
async function askLinks() {
  let links = null;
  try { links = JSON.parse(store(`tarocchi.links.${location.pathname}`) || "null"); } catch { /* none */ }
  if (!links) return;
  linkLife.pending = true;
  const answers = await askTables(links.slice(1));
  linkLife.pending = false;
  linkLife.at = Date.now();
  if (answers) linkLife.gone = new Set(answers.filter((a) => a.gone).map((a) => a.link));
  render();
  // Asked again while the host waits: a seat is handed out from the lobby with no event here.
  setTimeout(() => { if (state.table?.status === "waiting") render(); }, LINKS_EVERY_MS + 50);
}
const ROOM_SEAT_NAMES = ["host", "guest 1", "guest 2", "guest 3"];

function roomLinks(links) {
  const names = ["host", "guest 1", "guest 2", "guest 3"];
  return h("div", { class: "room-links" },
    h("p", { class: "host-link" },
      h("a", { class: "button primary", href: links[0], "data-focus": "open-host" },
        `${t("lobby.room.open")} (${seatName("host")})`)),
    h("ul", {}, links.slice(1).map((link, i) => linkRow(link, i + 1, names))),
    h("p", { class: "note", text: t("lobby.room.note") }));
}

// The player's name, typed once and kept in the browser; sent with every hello.
function nameForm(onsaved, id = "my-name", labelKey = "name.label") {
  const input = h("input", { type: "text", id, maxlength: NAME_MAX, autocomplete: "nickname", "data-focus": id,
    placeholder: t("name.placeholder") });
  input.value = accountName() || myName();  // (signed in: the account's name, as the hello says)
  return h("form", { class: "name-form", onsubmit: (e) => {
    e.preventDefault();
    const name = input.value.replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s+/g, " ").trim().slice(0, NAME_MAX);
    store("tarocchi.name", name);
    input.value = name;
    if (onsaved) onsaved(name);
    const done = e.currentTarget.querySelector(".saved");
    if (done) done.textContent = name ? t("name.saved") : "";
  } },
  h("label", { for: id, text: t(labelKey) }),
  h("span", { class: "name-row" }, input, h("button", { type: "submit", "data-focus": "name-save" }, t("name.save"))),
  h("span", { class: "saved quiet", role: "status" }));
}

function lobbyPage() {
  const L = state.lobby;
  const cg = gameInfo(L.game);
  const rg = gameInfo(L.roomGame);
  const levels = cg ? cg.levels : [];
  const computer = h("section", { class: "panel lobby-card" },
    h("h2", { text: t("lobby.computer.title") }),
    h("p", { text: t("lobby.computer.help") }),
    gamePicker("computer-game", L.game, (name) => { pickGame("computer", name); renderLobby(); }),
    cg ? lessons.suggestion(L.game, gameTitle(cg)) : null,
    seatsPicker("computer-seats", L.seats, (n) => { L.seats = n; renderLobby(); }, cg ? cg.seats : [3, 4]),
    h("label", { class: "level" }, h("span", { text: t("lobby.level") }),
      h("select", { "data-focus": "level", id: "level", onchange: (e) => { L.level = e.target.value; } },
        levels.map((lv) => h("option", { value: lv, selected: lv === L.level }, levelName(lv, levels))))),
    h("button", { type: "button", class: "primary", id: "sit-down", "data-focus": "sit", disabled: L.busy,
      onclick: async () => {
        const body = { game: L.game, seats: L.seats };
        if (L.level) body.level = L.level;
        const data = await post("/api/computer", body);
        if (data?.link) location.assign(data.link);
      } }, t("lobby.sit")));
  const room = h("section", { class: "panel lobby-card" },
    h("h2", { text: t("lobby.room.title") }),
    h("p", { text: t("lobby.room.help") }),
    gamePicker("room-game", L.roomGame, (name) => { pickGame("room", name); L.room = null; renderLobby(); }),
    seatsPicker("room-seats", L.roomSeats, (n) => { L.roomSeats = n; renderLobby(); }, rg ? rg.seats : [3, 4]),
    lobbyUi.roomOptions(L, renderLobby),
    lobbyUi.roomHintsOption(!!L.roomHints, (on) => { L.roomHints = on; }),
    h("button", { type: "button", class: "primary", id: "create-room", "data-focus": "create", disabled: L.busy,
      onclick: async () => {
        const data = await post("/api/rooms", { game: L.roomGame, seats: L.roomSeats, ...lobbyUi.roomSettings(L), hints: !!L.roomHints });
        if (data?.links) {
          L.room = data.links;
          store(`tarocchi.links.${data.links[0]}`, JSON.stringify(data.links));
          renderLobby();
        }
      } }, t("lobby.room.create")),
    L.room ? roomLinks(L.room) : null);
  const people = social ? social.lobbySections() : {};  // (signed in: challenges and friends, issue 58)
  return h("div", { class: "lobby" },
    h("header", { class: "topbar" }, h("h1", { text: t("app.title") }), accountLink(), bellSlot(), langButton(renderLobby)),
    h("p", { class: "tagline", text: t("app.tagline") }),
    h("section", { class: "panel lobby-name" }, accountName() ? signedInNote() : nameForm()),
    L.error ? h("p", { class: "error", role: "alert", text: L.error }) : null,
    people.challenges,  // (above the rest while there are some: a challenge lapses in minutes)
    // ("Your tables" first: a player coming back finds their seat at once; Learn to play after Play now)
    h("div", { class: "lobby-grid" }, lobbyUi.sections(), lobbyUi.dailySection(L.games, gameTitle),
      lessons.lobbySection(L.games, gameTitle), computer, room),
    L.games.length && players ? players.boardsNav(L.games, gameTitle) : null,
    h("p", { class: "tournaments-link" }, h("a", { class: "button", href: "/tournaments", "data-focus": "tournaments" },
      t("lobby.tournaments"))));  // (issue 59: tournament.js)

}

function renderLobby() {
  const focusKey = document.activeElement?.dataset?.focus;
  document.documentElement.lang = lang();
  document.title = t("app.title");
  root.replaceChildren(lobbyPage());
  if (social) root.querySelector(".lobby-grid")?.append(social.lobbySections().friends);  // (the players followed: last of the cards)
  if (focusKey) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
}

function langButton(after) {
  return h("button", {
    class: "lang", type: "button", "data-focus": "lang", lang: lang() === "en" ? "it" : "en",
    "aria-label": t("lang.switch.label"),
    onclick: () => { setLang(lang() === "en" ? "it" : "en"); after(); },
  }, t("lang.switch"));
}

// --- the connection -------------------------------------------------------------------

let socket = null;
let retries = 0;
let retryTimer = null;  // the next try after a drop: the network's return tries at once instead
let actCounter = 0;

function connect() {
  retryTimer = null;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${token}`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    reached();
    const hello = { type: "hello", since: state.version, lang: lang() };
    // (signed in, the seat takes the account's name: POST /api/me/seats names it so too)
    const name = accountName() || myName();
    if (name && !watching) hello.name = name;
    ws.send(JSON.stringify(hello));
    // Out of sight (a tab behind others, a phone's screen off): the server may then notify this
    // seat's player of their turn (issue 41); in sight it does not.
    if (!watching && document.hidden) ws.send(JSON.stringify({ type: "visible", visible: false }));
    if (state.pending) ws.send(JSON.stringify(state.pending.message)); // the server ignores a repeated id
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    gamesLoaded.then(() => onMessage(msg));  // (in order, once the decks are here)
  };
  ws.onclose = (e) => {
    if (socket !== ws) return;
    if (e.code === CLOSE_BAD_LINK) { state.badLink = e.reason || "unknown link"; state.conn = "closed"; render(); return; }
    if (e.code === CLOSE_BROKEN) { state.badLink = "broken"; state.conn = "closed"; render(); return; }
    if (e.code === CLOSE_REPLACED) { state.conn = "replaced"; render(); return; }
    state.conn = "lost"; render();
    let wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)];
    if (e.code === CLOSE_TOO_MANY) wait = Math.max(wait, 5000);
    retries += 1;
    retryTimer = setTimeout(connect, wait);
  };
}

// The network is back: a socket waiting to try again tries now, not after its back-off.
function reconnectNow() {
  if (retryTimer === null) return;
  clearTimeout(retryTimer);
  retries = 0;
  connect();
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

document.addEventListener("visibilitychange", () => { if (socket && !watching) send({ type: "visible", visible: !document.hidden }); });

function act(action) {
  if (state.pending) return; // one action at a time; the answer clears it
  const id = `${Date.now().toString(36)}-${++actCounter}`;
  if (state.note?.until) state.note = null;  // a late act's reason: this act is the answer to it
  // version: the state this act answers; the server refuses it if that turn is over meanwhile
  // (a card that left at the deadline must not land on the next turn, unseen).
  const message = { type: "act", action, id, version: state.version };
  state.pending = { id, message, acted: state.acted, deal: state.table?.deal_number };
  send(state.pending.message);
  render();  // (the status line: out of reach, it says the move waits: issue 57)
}

function onMessage(msg) {
  if (hint.onAdvice(msg, render)) return;  // a hint or a review (hint.js)
  if (msg.type === "state") {
    if (typeof msg.now === "number") lobbyUi.serverTime(msg.now);  // the turn clock's reference
    const before = state.view;
    const prevTotals = state.table?.totals;
    const newDeal = state.table && msg.table && msg.table.deal_number !== state.table.deal_number;
    state.conn = "ok";
    retries = 0;
    // The lobby's "Your tables", a replay's way back and its "you" find this seat again (seats.js).
    // (a lesson's table is not one to come back to: never kept, nor the account's: issue 57)
    if (!watching && token && msg.table && !msg.table.lesson && (state.table?.id !== msg.table.id || state.table?.you !== msg.table.you)) {
      rememberSeat(`/t/${token}`, msg.table.id, msg.table.game, msg.table.watch?.replace(/^\/w\//, "") ?? null, msg.table.you);
      holdSeat(`/t/${token}`);  // signed in: the seat is the account's too ("Your tables" on every device)
    }
    if (msg.table && state.table?.id !== msg.table.id) loadMuted(msg.table.id);
    state.table = msg.table;
    state.view = msg.view;
    if (typeof msg.version === "number") {
      if (msg.version !== state.version) state.showLast = false;
      state.version = msg.version;
    }
    state.acted = msg.acted?.[msg.table?.you] ?? 0;
    if (newDeal) { state.events = []; state.selected.clear(); state.hold = null; }
    // The deal's last trick: held on the table a moment before the count.
    const v = state.view;
    if (v?.phase === "done" && before && before.phase === "play" && v.last_trick && v.count && !newDeal) {
      // (the seats keep their totals until the count shows: the trick first, then the score)
      state.hold = { deal: msg.table.deal_number, until: Date.now() + HOLD_MS, totals: prevTotals };
      setTimeout(() => { if (state.hold && Date.now() >= state.hold.until) { state.hold = null; render(); } }, HOLD_MS + 20);
    }
    if (Array.isArray(msg.events) && msg.events.length) state.events = state.events.concat(msg.events).slice(-40);
    if (state.pending) {
      if (state.acted > state.pending.acted || msg.table?.deal_number !== state.pending.deal) state.pending = null;
    }
    // The cards picked belong to one picking step of this seat (a discard, a lay, a give-back):
    // a new step, or no step of ours, starts from none.
    const step = state.view && state.view.turn === state.table?.you && (state.view.phase === "discard" || game().picks?.(state.view.phase))
      ? `${msg.table?.deal_number}:${state.view.phase}:${state.view.hand?.length}` : null;
    if (step === null || step !== state.pickStep) state.selected.clear();
    state.pickStep = step;
    if (state.armed && !(myTurn() && state.view.phase === "play" && state.view.hand.includes(state.armed))) state.armed = null;
    const name = gameName();
    if (!state.game || state.game.name !== name) {
      loadModule(name).then((mod) => { state.game = mod; render(); });
    }
    if (!useDeck(name)) loadGames().then(() => { useDeck(gameName()); render(); });
    render();
  } else if (msg.type === "refused") {
    if (state.pending && (!msg.id || msg.id === state.pending.id)) state.pending = null;
    const why = reason(msg.reason, msg.reason_id);
    if (LATE_REASONS.has(msg.reason_id)) {
      // Not a rule broken: said as it is ("Too late: ..."), and kept up a moment.
      state.note = { text: t("status.late", { reason: why.charAt(0).toUpperCase() + why.slice(1) }),
        version: state.version, until: Date.now() + LATE_NOTE_MS };
      setTimeout(render, LATE_NOTE_MS + 20);
    } else {
      state.note = { text: t("status.refused", { reason: why }), version: state.version };
    }
    render();
  } else if (msg.type === "chat") {
    addChat([msg]);
    if (drawerMode() && state.panel !== "chat" && chatShown(msg)) state.unread += 1;
    render();
  } else if (msg.type === "history") {
    const lines = Array.isArray(msg.lines) ? msg.lines : [];
    if ("before" in msg) {
      state.chatMore = !!msg.more;
    } else if (msg.more && lines.length) {
      state.chat = state.chat.filter((c) => c.version > lines[lines.length - 1].version);
      state.chatMore = true;
    }
    addChat(lines);
    render();
  } else if (msg.type === "error") {
    state.note = { text: reason(msg.reason, msg.reason_id), version: state.version };
    if (state.badLink === null && /could not be restored/.test(msg.reason || "")) state.badLink = "broken";
    if (state.badLink === null && /link|seat/.test(msg.reason || "") && !state.table) state.badLink = msg.reason;
    render();
  }
}

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

// --- the table: status --------------------------------------------------------------------

function statusText() {
  const v = state.view;
  const T = state.table;
  if (T?.status === "waiting") {
    return t("table.waiting.count", { n: (T.joined || []).filter(Boolean).length, m: T.seats });
  }
  if (!v || !T) return t("conn.connecting");
  if (v.phase === "done" || T.status !== "playing") {
    if (holding()) return tSeat("center.last", v.last_trick.winner);
    return T.status === "over" ? `${t("status.over")} ${winnersLine()}` : t("status.done");
  }
  // The table out of reach (issue 57): a move waits here (state.pending, sent again when the
  // socket opens), and the line says so rather than "your turn" to a tap that seems to do nothing.
  if (!watching && (connShown() === "offline" || state.conn === "lost")) {
    if (state.pending) return t("status.offline.waits");
    if (myTurn()) return t("status.offline.turn");
  }
  const phase = game().phaseKey ? game().phaseKey(v.phase) : v.phase;
  if (v.automatic && v.turn === T.you) {  // the table answers for this seat: the game says why
    const own = game().status?.(ctxFor());
    if (own) return own;
  }
  if (myTurn()) {
    const own = game().status?.(ctxFor());
    if (own) return own;
    const base = gt(`status.${phase}`);
    if (v.phase === "play") {
      const whys = dimmedReasons();
      if (whys.length) return `${base} ${t("status.dimmed", { reasons: whys.join("; ") })}`;
    }
    return base;
  }
  return gt(`status.wait.${phase}`, { name: whoLabel(v.turn) });
}

function dimmedReasons() {
  return [...new Set((state.view?.choices || []).filter((c) => c.reason).map(why))];
}

function holding() {
  const H = state.hold;
  return !!H && H.deal === state.table?.deal_number && Date.now() < H.until && !!state.view?.last_trick;
}

// --- seats ------------------------------------------------------------------------------

function seatPanel(seat) {
  const v = state.view;
  const T = shownTable();
  const ctx = ctxFor();
  const classes = ["seat"];
  if (v && v.turn === seat && v.phase !== "done") classes.push("turn");
  if (seat === T.you) classes.push("me");
  const tags = [];
  if (v && v.dealer === seat) tags.push(h("span", { class: "tag dealer", title: t("table.dealer") },
    h("span", { "aria-hidden": "true", text: t("table.dealer.mark") }), h("span", { class: "visually-hidden", text: t("table.dealer") })));
  if (v && game().seatTags) tags.push(...(game().seatTags(ctx, seat) || []));
  if (T.standin?.[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.standin") }));
  else if (T.bots?.[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.bot") }));
  else if (T.joined && !T.joined[seat]) tags.push(h("span", { class: "tag quiet", text: t("table.notjoined") }));
  else if (T.connected && !T.connected[seat]) tags.push(h("span", { class: "tag quiet away", text: t("table.away") }));
  if (T.status === "between" && T.ready?.[seat]) tags.push(h("span", { class: "tag ready", text: t("count.ready") }));
  if (T.status === "over" && T.rematch?.[seat]) tags.push(h("span", { class: "tag ready", text: t("rematch.yes") }));
  const cards = v?.hand_counts?.[seat] ?? 0;
  const tricks = v?.tricks?.[seat] ?? 0;
  const captured = v?.captured?.[seat] ?? [];
  const fool = v && typeof v.fool === "number" && v.fool === seat && v.phase !== "done";
  const total = T.totals?.[seat] ?? 0;
  const stats = game().seatStats ? game().seatStats(ctx, seat)
    : [h("span", { class: "stat total", "data-total": total, text: tn(game().totalsKey || "table.total", total, { n: signed(total) }) })];
  return h("section", { class: classes.join(" "), "data-seat": seat, "aria-label": whoLabel(seat) },
    h("div", { class: "seat-head" },
      h("strong", { class: "seat-name", text: whoLabel(seat) }), ...tags),
    h("div", { class: "seat-stats" },
      stats,
      v ? h("span", { class: "stat cards", text: tn("table.cards", cards) }) : null,
      v ? h("span", { class: "stat tricks", text: tn("table.tricks", tricks) }) : null),
    captured.length || fool ? h("div", { class: "captured", role: "group", "aria-label": t("table.captured") },
      fool ? h("span", { class: "fool-beside", title: t("table.fool") }, miniCard("F", "face-up")) : null,
      captured.map((c) => miniCard(c))) : null,
    T.takeover?.[seat] && seat !== T.you ? h("button", {
      type: "button", class: "takeover", "data-focus": `takeover-${seat}`,
      "aria-label": t("table.takeover.label", { name: whoLabel(seat) }),
      onclick: () => send({ type: "takeover", seat }),
    }, t("table.takeover")) : null);
}

function otherSeats() {
  const n = state.table.seats;
  const my = me();
  return Array.from({ length: n - 1 }, (_, i) => (my + 1 + i) % n); // the others in play order
}

// --- the middle of the table --------------------------------------------------------------

function playedCard(seat, code, extra = "", i = 0, lt = null) {
  return h("figure", { class: `played ${extra}`.trim(), "data-seat": seat, "data-card": code },
    h("div", { class: "card-box", role: "img", "aria-label": cardLabel(code) }, cardSvg(code)),
    game().playedTag?.(ctxFor(), i, lt),
    playedBy(seat));
}

// Under a played card: the name, cut with an ellipsis where it is long, and "(you)" in full
// beside it (a phone's narrow trick: issue 57); the whole label on hover.
function playedBy(seat) {
  const mine = whoLabel(seat) !== nameOf(seat);
  return h("figcaption", { title: whoLabel(seat) },
    h("span", { class: "by-name", text: nameOf(seat) }),
    mine ? h("span", { class: "by-role", text: `(${t("name.you")})` }) : null);
}

function lastTrick(lt, extraNote = null) {
  return h("section", { class: "center trick last", "aria-label": t("center.lasttrick") },
    h("p", { class: "center-note", text: tSeat("center.last", lt.winner) }),
    h("div", { class: "trick-cards" }, lt.cards.map((p, i) => playedCard(p.seat, p.card, p.seat === lt.winner ? "winner" : "", i, lt))),
    extraNote);
}

function centerArea() {
  const v = state.view;
  if (!v) return null;
  if (v.phase === "done" && v.count) {
    if (holding()) {
      return lastTrick(v.last_trick, h("button", { type: "button", class: "skip", "data-focus": "skip",
        onclick: () => { state.hold = null; render(); } }, t("center.tocount")));
    }
    return countPanel();
  }
  if (state.showLast && v.last_trick && v.phase === "play") {
    return lastTrick(v.last_trick);
  }
  if (v.phase === "play" && v.trick.length) {
    return h("section", { class: "center trick", "aria-label": t("center.trick") },
      v.trick.map((p, i) => playedCard(p.seat, p.card, "", i)));
  }
  if (v.phase === "play" && v.last_trick) return lastTrick(v.last_trick);
  const own = game().center?.(ctxFor());
  if (own) return own;
  const note = v.phase === "play" && v.leader !== null && v.leader !== undefined ? tSeat("center.lead", v.leader) : t("center.empty");
  return h("section", { class: "center empty" }, h("p", { class: "center-note", text: note }));
}

function eventLine(e) {
  return eventText(ctxFor(), game(), e);  // (lines.js: the replay's steps say it alike)
}

function linesArea() {
  const lines = state.events.map(eventLine).filter(Boolean).slice(-3);
  return h("ol", {}, lines.map((line, i) => h("li", { class: i === lines.length - 1 ? "latest" : "", text: line })));
}

// --- the seat's own controls -------------------------------------------------------------

// Pick `size` cards of the hand (clicks on the cards), then confirm: "discard <codes>".
function discardControl({ size = 3, word = "discard", fallbackKey = "discard.fallback" } = {}) {
  const v = state.view;
  const n = state.selected.size;
  const whys = dimmedReasons();
  return h("section", { class: "actions discard", "aria-label": t("discard.title") },
    h("span", { class: "discard-count", text: t("discard.count", { n, size }) }),
    whys.length ? h("span", { class: "why discard-why", text: t("discard.off", { reasons: whys.join("; ") }) }) : null,
    v.choices.some((c) => !c.reason && cardInfo(c.action).kind === "trump")
      ? h("span", { class: "why discard-fallback", text: gt(fallbackKey) }) : null,
    h("button", { type: "button", class: "primary", id: "confirm-discard", "data-focus": "confirm", disabled: n !== size,
      ...keyAttrs(CONFIRM_KEY, t("discard.confirm")),
      onclick: () => act(`${word} ${[...state.selected].join(" ")}`) }, t("discard.confirm")));
}

function actionsArea() {
  const v = state.view;
  const T = state.table;
  if (!v || !T || watching) return null;  // (a spectator only watches)
  if (v.phase === "done" || T.status === "between" || T.status === "over") {
    if (holding() || !v.count) return null;
    return nextControls();
  }
  if (!myTurn()) return null;
  if (v.phase === "play") return state.armed ? confirmControl() : null;
  const own = game().actions?.(ctxFor());
  if (!own) return null;
  // The number keys pick the speaking buttons: each shows its key.
  let k = 0;
  for (const b of own.querySelectorAll("button.word")) {
    k += 1;
    if (k > 9) break;
    b.dataset.key = String(k);
    b.prepend(h("kbd", { class: "key", "aria-hidden": "true", text: String(k) }));
  }
  return own;
}

// A button's own key: said to a screen reader and in its tooltip ("Next deal (N)").
function keyAttrs(key, label) {
  return { "aria-keyshortcuts": key, title: `${label} (${key})` };
}

function nextControls() {
  const T = state.table;
  if (T.status === "over") {
    const said = T.rematch?.[T.you];
    const waiting = (T.rematch || []).map((yes, s) => (yes ? null : s)).filter((s) => s !== null && s !== T.you);
    return h("div", { class: "next" },
      h("button", { type: "button", class: "primary", id: "play-again", "data-focus": "again", disabled: !!said,
        onclick: () => send({ type: "rematch" }) }, t("result.again")),
      said && waiting.length ? h("span", { class: "quiet-on-felt", text: t("rematch.waiting", { names: waiting.map(whoLabel).join(", ") }) }) : null,
      h("a", { class: "button", href: "/", "data-focus": "lobby" }, t("conn.lobby")));
  }
  const ready = T.ready?.[T.you];
  return h("div", { class: "next" },
    h("button", { type: "button", class: "primary", id: "next-deal", "data-focus": "next", disabled: !!ready,
      ...keyAttrs(NEXT_KEY, t("count.next")), onclick: () => send({ type: "next" }) }, t("count.next")),
    ready ? h("span", { class: "quiet-on-felt", text: t("count.waitnext") }) : null);
}

// A hand card's choice now: the game's (Calabresella's give-back and lays name whole actions),
// else the choice that is the card itself.
function cardChoice(code) {
  const v = state.view;
  const own = game().cardChoice?.(ctxFor(), code);
  return own !== undefined ? own : v.choices.find((c) => c.action === code);
}

function onCardPress(code) {
  const v = state.view;
  const choice = cardChoice(code);
  if (!myTurn() || !choice) {
    state.note = { text: t("status.cardwhy", { card: cardName(code), reason: reason("it is not your turn", "not_your_turn") }), version: state.version };
    render();
    return;
  }
  if (choice.reason) {
    state.note = { text: t("status.cardwhy", { card: cardName(code), reason: why(choice) }), version: state.version };
    render();
    return;
  }
  if (v.phase === "play") {
    // With confirm on, the first press only chooses the card; the second (or Play, or Enter) plays it.
    if (state.confirm && state.armed !== code) {
      state.armed = code;
      state.note = null;
      render();
      return;
    }
    playArmed(code);
    return;
  }
  if (v.phase === "discard" || game().picks?.(v.phase)) {
    const size = game().pickSize?.(ctxFor()) ?? 3;
    if (state.selected.has(code)) state.selected.delete(code);
    else if (state.selected.size < size) state.selected.add(code);
    state.note = null;
    render();
  }
}

function capitalised(line) { return line.charAt(0).toUpperCase() + line.slice(1); }

// Play the card chosen (its choice now: a signal toggled since is sent with it).
function playArmed(code = state.armed) {
  const choice = code && cardChoice(code);
  state.armed = null;
  if (!choice || choice.reason || !myTurn()) { render(); return; }
  act(choice.action);
  render();
}

// With confirm on, a card chosen: the button that plays it.
function confirmControl() {
  const code = state.armed;
  return h("section", { class: "actions confirm-play", "aria-label": t("confirm.title") },
    h("button", { type: "button", class: "primary", id: "confirm-play", "data-focus": "confirm-play", onclick: () => playArmed() },
      t("confirm.play", { card: cardName(code) })));
}

// The option (the deal panel): a card is played on a second press. Off by default.
function confirmOption() {
  return h("label", { class: "confirm-option" },
    h("input", { type: "checkbox", id: "confirm-cards", "data-focus": "confirm-cards", checked: state.confirm,
      onchange: (e) => { state.confirm = e.target.checked; state.armed = null; store("tarocchi.confirm", state.confirm ? "on" : "off"); render(); } }),
    h("span", { text: t("confirm.option") }));
}

function handCards() {
  const v = state.view;
  if (!v) return [];
  const choices = new Map(myTurn() ? v.hand.map((code) => [code, cardChoice(code)]).filter(([, c]) => c?.reason).map(([code, c]) => [code, why(c)]) : []);
  const discarding = myTurn() && (v.phase === "discard" || !!game().picks?.(v.phase));
  const confirming = myTurn() && v.phase === "play" && state.confirm;
  const extra = new Set(v.extra || []);
  return v.hand.map((code) => {
    const whyNot = choices.get(code) || "";
    const selected = state.selected.has(code) || (confirming && state.armed === code);
    const isExtra = extra.has(code);
    // The label starts with what the card shows (its name), then what is known about it.
    let label = cardLabel(code);
    if (whyNot) label += `; ${t("card.dimmed", { reason: whyNot })}`;
    if (isExtra) label += `; ${t("card.extra")}`;
    if (selected) label += `; ${t(confirming ? "card.armed" : "card.selected")}`;
    return h("button", {
      type: "button", class: "card" + (whyNot ? " dimmed" : "") + (cardInfo(code).kind === "fool" ? " apart" : "") + (selected ? " selected" : "") + (isExtra ? " extra" : ""),
      "data-card": code, "data-focus": `card-${code}`,
      "aria-disabled": whyNot ? "true" : null, "aria-pressed": discarding || confirming ? String(selected) : null,
      title: whyNot || cardName(code),
      onclick: () => onCardPress(code),
    }, cardSvg(code), isExtra ? h("span", { class: "extra-mark", "aria-hidden": "true", text: t("card.extra.mark") }) : null,
    h("span", { class: "card-label visually-hidden", text: label }));
  });
}

// The hand in one to three rows: cards overlap as much as needed to fit the width.
function fitHand() {
  const hand = shell?.hand;
  if (!hand) return;
  const n = hand.children.length;
  if (!n) return;
  const cardW = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 60;
  // The room there is, not the room the hand took at the last size: a hand as wide as its
  // row keeps its parent wide after the screen has become narrower.
  hand.style.removeProperty("--row-w");
  const W = hand.parentElement.clientWidth - 28;  // (the row's padding and slack, --row-w below: rows as planned, issue 57)
  let step = cardW + 4;
  let perRow = n;
  for (let rows = 1; rows <= 3; rows++) {
    perRow = Math.ceil(n / rows);
    step = Math.min(cardW + 4, perRow > 1 ? (W - cardW) / (perRow - 1) : cardW + 4);
    if (step >= cardW * (drawerMode() ? 0.52 : 0.85)) break;  // a wide screen: rows before overlap
  }
  step = Math.max(24, Math.floor(step));
  hand.style.setProperty("--step", `${step}px`);
  hand.style.setProperty("--overhang", `${Math.max(0, cardW - step)}px`);
  // Rows of even length: the hand is as wide as its longest row.
  hand.style.setProperty("--row-w", `${Math.ceil(perRow * step + Math.max(0, cardW - step) + 24)}px`);
  // More than one row: each row covers the foot of the one above (the corner chips show).
  const rows = Math.ceil(n / perRow);
  // (a wide screen has the height for whole rows)
  hand.style.setProperty("--vlap", rows > 1 && drawerMode() ? `${-Math.round(cardW * 1.6 * 0.42)}px` : "0px");
}

// --- panels ---------------------------------------------------------------------------------

function playedPanel() {
  const v = state.view;
  if (!v) return [];
  const by = new Map();
  (v.played || []).forEach((cards, seat) => cards.forEach((c) => by.set(c, seat)));
  const n = state.table.seats;
  const mark = (seat) => String(((seat - me() + n) % n) || n); // the seats numbered from your left, you last
  const row = (title, codes) => h("div", { class: "played-row" },
    h("span", { class: "row-title", text: title }),
    h("span", { class: "row-cards" }, codes.map((c) => {
      const seat = by.get(c);
      const chip = miniCard(c, seat === undefined ? "unplayed" : "was-played");
      const about = seat === undefined ? t("played.not") : t("played.by", { name: whoLabel(seat) });
      chip.title = `${cardName(c)}: ${about}`;
      chip.setAttribute("aria-label", `${cardLabel(c)}: ${about}`);
      if (seat !== undefined) chip.append(h("span", { class: "by", "aria-hidden": "true", text: mark(seat) }));
      return chip;
    })));
  const order = [...otherSeats(), me()];
  return [
    h("h2", { text: t("played.title") }),
    h("ul", { class: "legend" },
      h("li", {}, h("span", { class: "mini sample unplayed-sample", "aria-hidden": "true" }, h("b", { text: "K" })), h("span", { text: t("played.legend.out") })),
      h("li", {}, h("span", { class: "mini sample was-played", "aria-hidden": "true" }, h("b", { text: "K" }), h("span", { class: "by", text: "1" })), h("span", { text: t("played.legend.in") })),
      order.map((s) => h("li", { class: "who" }, h("span", { class: "by-key", "aria-hidden": "true", text: mark(s) }), h("span", { text: whoLabel(s) })))),
    (deck()?.groups || []).map((g) => row(g.name === "trumps" ? t("played.trumps") : g.name === "fool" ? gt("played.fool") : suitName(g.suit), g.cards)),
  ];
}

// The score sheet: deal by deal, each column's payment and running total. The columns are
// the seats, or what the game scores (Ottocento: the two sides, whose partners score alike).
function sheetPanel() {
  const T = state.table;
  if (!T) return [];
  const sheet = T.sheet || [];
  const columns = game().sheetColumns?.(ctxFor())
    || Array.from({ length: T.seats }, (_, s) => ({ seat: s, label: whoLabel(s) }));
  const run = columns.map(() => 0);
  const rows = sheet.map((pays, i) => {
    columns.forEach((col, j) => { run[j] += pays[col.seat] ?? 0; });
    return h("tr", {}, h("th", { scope: "row", text: String(i + 1) }),
      columns.map((col, j) => h("td", { class: "num" }, h("span", { class: "pay", text: signed(pays[col.seat] ?? 0) }), " ", h("b", { class: "run", text: signed(run[j]) }))));
  });
  return [
    h("h2", { text: t("sheet.title") }),
    sheet.length ? h("table", { class: `sheet-table cols-${columns.length}` },
      h("caption", { class: "note", text: t("sheet.caption") }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "deal-col", text: t("sheet.deal") }), columns.map((col) => h("th", { scope: "col", class: "num", text: col.label })))),
      h("tbody", {}, rows),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("sheet.total") }), columns.map((col, j) => h("td", { class: "num" }, h("b", { text: signed(T.totals?.[col.seat] ?? run[j]) }))))))
      : h("p", { class: "quiet", text: t("sheet.empty") }),
    T.target ? h("p", { class: "note", text: t("sheet.target", { n: T.target }) }) : null,
    replay.lookBack(T, token, render),
  ];
}

function ratedTag(T) {
  const rated = T.rated && T.kind === "room";
  return h("span", { class: `rated-tag ${rated ? "rated" : "casual"}`, text: t(rated ? "table.rated" : "table.casual") });
}

function infoPanelContent() {
  const v = state.view;
  const body = v && game().info ? game().info(ctxFor()) : [];
  return [h("h2", { text: t("info.title") }), h("p", { class: "quiet game-line", text: tableGameTitle() }, " ", ratedTag(state.table), " · ", helpLink(gameName())), lobbyUi.dailyNote(state.table), lobbyUi.tournamentNote(state.table), body,
    watching ? null : hint.hintsNote(ctxFor()), watching ? null : confirmOption(), watching ? null : replay.watchRow(state.table, copyButton)];
}

function logPanelContent() {
  const items = state.view && game().log ? game().log(ctxFor()) : null;
  if (!items) return null;
  return [h("h2", { text: t("log.title") }),
    items.length ? h("ol", {}, items.map((line) => h("li", { text: line }))) : h("p", { class: "quiet", text: t("log.empty") })];
}

function chatLines() {
  return state.chat.filter(chatShown).map((c) => h("li", { "data-v": c.version, "data-seat": c.seat },
    h("b", { text: `${seatName(c.name ?? state.table?.names?.[c.seat] ?? "")}: ` }),
    h("span", { class: "chat-text", text: c.text })));
}

// The count in the middle of the table: the payments (and at a match's end who won) first,
// where they are seen without scrolling; the game's itemised count below them.
function countPanel() {
  const v = state.view;
  const T = state.table;
  const c = v.count;
  const parts = [h("h2", { text: t("count.title") })];
  if (T.status === "over") {
    parts.push(h("div", { class: "result" },
      h("h2", { text: t("result.title") }),
      h("p", { class: "winners", text: winnersLine() }),
      h("p", { class: "result-totals", text: `${gt("result.totals")}: ` + totalsLine() }),
      ratingChanges(T)));
  }
  parts.push(h("h3", { text: gt("count.payments") }));
  // (by seat, or as the game scores: Ottocento's two sides)
  const rows = game().payments?.(ctxFor())
    || (c.payments || c.scores || []).map((p, seat) => ({ label: whoLabel(seat), value: p }));
  parts.push(h("ul", { class: "payments" }, rows.map(({ label, value: p }) => h("li", { class: p > 0 ? "plus" : p < 0 ? "minus" : "" },
    h("span", { text: label }), h("b", { text: p > 0 ? `+${p}` : String(p) })))));
  const detail = game().count ? game().count(ctxFor()) : [];
  if (detail.length) parts.push(h("section", { class: "count-detail", "aria-label": t("count.detail") }, detail));
  parts.push(replay.replayLast(T, token));  // (replay.js: once the finished deal is listed)
  if (!watching) parts.push(hint.reviewSection(ctxFor(), replay.lastReplayHref(T, token)));  // (each decision opens its step)
  return h("section", { class: "center count", tabindex: "0", "aria-label": t("count.title") }, parts);
}

// How each player's rating moved at a rated match's end (issue 56), as the server recorded it
// (GET /api/matches/<T.result>, asked once a match); a room's match not rated says so.
const results = new Map();  // a finished match's reference -> its record (null: asked, not come)
function ratingChanges(T) {
  if (!T.result || T.kind !== "room") return null;
  if (!results.has(T.result)) {
    const ref = T.result;
    results.set(ref, null);
    fetch(`/api/matches/${encodeURIComponent(ref)}`).then((r) => (r.ok ? r.json() : null))
      .then((data) => { if (data) { results.set(ref, data); render(); } }).catch(() => { results.delete(ref); });
    return null;
  }
  const r = results.get(T.result);
  if (!r) return null;
  if (!r.rated) return h("p", { class: "result-rated casual", text: t("result.casual") });
  return h("div", { class: "rating-changes" },
    h("h3", { text: t("result.ratings") }),
    h("ul", {}, r.players.filter((p) => p.rating_after !== null).map((p) => {
      const delta = p.rating_after - p.rating_before;
      return h("li", { class: delta > 0 ? "plus" : delta < 0 ? "minus" : "" },
        h("span", { text: p.name }),
        h("b", { text: t("result.rating", { from: p.rating_before, to: p.rating_after, delta: delta > 0 ? `+${delta}` : String(delta) }) }));
    })));
}

// Who won the match: the game says it its own way (Ottocento: a side), else by seats.
function winnersLine() {
  const T = state.table;
  const own = game().winners?.(ctxFor(), T.winners || []);
  if (own) return own;
  const winners = T.winners || [];
  const mine = winners.includes(T.you);
  const others = winners.filter((s) => s !== T.you).map(whoLabel).join(", ");
  const line = mine ? (winners.length > 1 ? t("result.you.winners", { names: others }) : t("result.you.winner"))
    : t(winners.length > 1 ? "result.winners" : "result.winner", { names: others });
  return line.charAt(0).toUpperCase() + line.slice(1);  // "Computer 1 wins.": a sentence
}

function totalsLine() {
  const T = state.table;
  const own = game().totalsLine?.(ctxFor());
  return own || T.totals.map((x, s) => `${whoLabel(s)} ${signed(x)}`).join(" · ");
}

function waitingRoom() {
  const T = state.table;
  const joined = (T.joined || []).filter(Boolean).length;
  let links = null;
  try { links = JSON.parse(store(`tarocchi.links.${location.pathname}`) || "null"); } catch { /* none */ }
  // (focusable: on a phone it scrolls, and a guest's has nothing else a keyboard reaches)
  return h("section", { class: "center waiting", tabindex: "0", "aria-label": t("table.waiting") },
    h("h2", { text: t("table.waiting") }),
    // (the host's one action, under the title: the links below it fill a desktop's centre)
    T.you === 0 && T.early_start && joined === 3 ? h("button", { type: "button", class: "primary", id: "start-three", "data-focus": "start", onclick: () => send({ type: "start" }) }, t("table.start3")) : null,
    lobbyUi.waitingExtras(T, send),  // (first: Play now's countdown in sight on a phone)
    // Who is here now, as the seat boxes say it: here, away (joined, the page closed), not yet.
    h("ul", { class: "joined" }, T.names.map((n, s) => {
      const where = !T.joined?.[s] ? "out" : T.connected?.[s] ? "in" : "away";
      return h("li", { class: where, "data-seat": s },
        h("span", { text: whoLabel(s) }), h("small", { text: t({ in: "table.joined", away: "table.away", out: "table.notjoined" }[where]) }));
    })),
    T.you === 0 && links ? h("div", { class: "links-to-send" }, h("h3", { text: t("table.links") }), h("ul", {}, links.slice(1).map((l, i) => liveLinkRow(l, i + 1, T)))) : null,
    T.kind === "room" ? hint.hintsNote({ table: T }) : null,
    // The server says whether this room may start with three (R17; not a game played by four only, B5).
    // (Not at a Play now table: computers take its empty seats, as its countdown says.)
    T.early_start === false && T.seats === 4 && !T.quick ? h("p", { id: "wait-four", text: t("table.waitfour", { game: tableGameTitle() }) }) : null);
}

// Which words a link that opens nothing gets: left out (R17), a broken table, or unknown.
function badLinkKind() {
  if (state.badLink === "broken") return "conn.broken";
  return /three seats/.test(state.badLink) ? "conn.leftout" : "conn.badlink";
}

function tableGameTitle(short = false) {
  const g = state.games?.games.find((x) => x.name === gameName());
  if (short && has(`game.${gameName()}.short`)) return t(`game.${gameName()}.short`);
  return g ? gameTitle(g) : gameName();
}

// --- the page shell, built once, patched per region -------------------------------------------

let shell = null;
let lastStatus = { key: null, note: null };
let lastTurnAlert = null;

const TABS = ["info", "log", "played", "sheet", "chat"];

function drawerMode() { return window.matchMedia("(max-width: 1099px)").matches; }

function buildShell() {
  const s = {};
  s.page = h("div", { class: "table-page" });
  s.top = h("header", { class: "topbar" });
  s.status = h("p", { class: "status", id: "status", role: "status", "aria-live": "polite", "aria-atomic": "true" },
    h("span", { class: "status-turn" }), h("span", { class: "status-note" }));
  s.others = h("div", { class: "seats others" });
  s.center = h("div", { class: "center-slot" });
  s.banner = h("div", { class: "banner-slot" });
  s.ask = h("div", { class: "ask-slot" });
  s.lines = h("section", { class: "lines" });
  s.actions = h("div", { class: "actions-slot" });
  s.mine = h("div", { class: "seats mine" });
  s.tools = h("div", { class: "tools" });
  s.clock = h("div", { class: "clock-slot" });
  s.hand = h("section", { class: "hand" });
  s.board = h("div", { class: "board" }, s.others, s.center, s.banner, s.ask, s.lines, s.status, s.actions,
    h("div", { class: "me-row" }, s.mine, s.clock, s.tools), s.hand);
  s.tabs = h("nav", { class: "panel-tabs" });
  s.panels = {};
  for (const name of TABS) {
    s.panels[name] = h("section", { class: `panel tab-panel ${name === "log" ? "log-panel" : name === "played" ? "played-panel" : name}`, id: `panel-${name}`, "data-tab": name, tabindex: "0" });
  }
  // Chat: the lines are a region; the form is built once (what is typed stays).
  s.chatHead = h("div", { class: "chat-head" });
  s.chatEarlier = h("div", { class: "chat-earlier-slot" });
  s.chatList = h("ol", { class: "chat-lines", tabindex: "0" });
  s.chatInput = h("input", { type: "text", maxlength: 300, id: "chat-input", "data-focus": "chat-input", autocomplete: "off" });
  s.chatSend = h("button", { type: "submit", "data-focus": "chat-send" });
  s.chatForm = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const value = s.chatInput.value.trim();
    if (!value) return;
    send({ type: "chat", text: value.slice(0, 300) });
    s.chatInput.value = "";
  } }, s.chatInput, s.chatSend);
  s.chatName = h("div", { class: "chat-name" });
  // The other seats' mute and Report buttons and the chat off box (issue 58): built once, so
  // that it stays open while the table changes.
  s.chatPeople = h("details", { class: "chat-people" });
  s.chatHidden = h("div", { class: "chat-hidden-slot" });
  s.panels.chat.append(s.chatHead, s.chatPeople, s.chatEarlier, s.chatList, s.chatHidden, s.chatForm, s.chatName);
  s.side = h("aside", { class: "side" }, TABS.map((n) => s.panels[n]));
  s.layout = h("div", { class: "layout" }, s.board, s.side);
  s.page.append(s.top, s.tabs, s.layout);
  root.replaceChildren(s.page);
  return s;
}

function topbar() {
  const T = state.table;
  const dealNo = T && T.deal_number ? (T.deals_in_match ? t("table.deal", { n: T.deal_number, m: T.deals_in_match }) : t("table.deal.target", { n: T.deal_number, target: T.target })) : null;
  return [
    // (the game's name stays on a phone too, under the title: a guest sees what he was invited to)
    h("div", { class: "title-block" },
      h("h1", { class: "home-h" }, h("a", { class: "home", href: "/", text: t("app.title") })),
      T ? h("span", { class: "game-name" }, h("span", { class: "long", text: tableGameTitle() }),
        h("span", { class: "short", text: tableGameTitle(true) })) : null,
      // Rated or casual, in sight at every table (issue 56; a phone's top bar has no room for
      // it: its Info drawer and waiting room say it). A computer table is never rated.
      T ? ratedTag(T) : null),
    // (the deal and a spectator's badge one block: a phone stacks them beside the title)
    dealNo || (watching && T) ? h("span", { class: "deal-block" },
      dealNo ? h("span", { class: "deal-no", text: dealNo }) : null,
      watching && T ? h("span", { class: "tag watching", text: t("watch.badge") }) : null) : null,
    state.badLink ? null : h("span", { class: `conn ${connShown()}` },
      h("span", { class: "dot", "aria-hidden": "true" }), h("span", { class: "conn-text", text: t(`conn.${connShown()}`) })),
    state.conn === "replaced" ? h("button", { type: "button", class: "reconnect", "data-focus": "reconnect",
      onclick: () => { state.conn = "connecting"; render(); connect(); } }, t("conn.usehere")) : null,
    T ? h("a", { class: "help-link button", href: `/static/help/${gameName()}.${lang()}.html`, target: "_blank", rel: "noopener", text: t("help.rules") }) : null,
    // (no sound for a spectator: it says a turn of one's own, and a spectator has none)
    T && !watching ? h("button", { type: "button", class: "sound", "data-focus": "sound", "aria-pressed": String(state.sound), "aria-label": t("sound.label"),
      title: t("sound.label"),
      onclick: () => { state.sound = !state.sound; store("tarocchi.sound", state.sound ? "on" : "off"); if (state.sound) beep(); render(); } }, "♪") : null,
    bellSlot(),
    langButton(render),
  ];
}

// The connection's line says "Offline" while the network is gone, as the page's banner does
// (offline.js), rather than "reconnecting" over and over; a seat replaced or closed says so still.
function connShown() {
  return offline() && state.conn !== "replaced" && state.conn !== "closed" ? "offline" : state.conn;
}

function tabsBar() {
  const has = { log: !!(state.view && game().log && game().log(ctxFor())) };
  return TABS.filter((n) => n !== "log" || has.log).map((n) => h("button", {
    type: "button", class: `tab tab-${n}` + (state.panel === n ? " open" : ""), "data-focus": `tab-${n}`,
    "aria-expanded": String(state.panel === n), "aria-controls": `panel-${n}`,
    onclick: () => openPanel(state.panel === n && drawerMode() ? null : n),
  }, gt(`tab.${n}`), n === "chat" && state.unread ? h("span", { class: "unread", text: ` ${state.unread}` }) : null));
}

function openPanel(name) {
  const was = state.panel;
  state.panel = name;
  if (name === "chat") state.unread = 0;
  render();
  if (name && drawerMode()) shell?.panels[name]?.focus({ preventScroll: true });
  else if (!name && was) shell?.tabs.querySelector(`.tab-${was}`)?.focus({ preventScroll: true });
}

function render() {
  if (!token) return renderLobby();
  if (!hint || !replay) return;  // (the table's modules not here yet: drawn when they come, issue 60)
  document.documentElement.lang = lang();
  if (!shell) shell = buildShell();
  const s = shell;
  const T = state.table;
  const v = state.view;
  if (state.panel === null && !drawerMode()) state.panel = "info";
  if (state.panel === "chat" && !drawerMode()) state.panel = "info";
  patch(s.top, topbar());
  const phase = v?.phase || "none";
  s.page.className = `table-page phase-${phase} game-${gameName()}` + (state.badLink ? " bad-link" : "") + (T ? "" : " no-table");
  attr(s.page, "data-version", state.version);
  attr(s.page, "data-status", T?.status ?? null);
  attr(s.page, "data-game", T ? gameName() : null);
  attr(s.page, "data-drawer", drawerMode() && state.panel ? state.panel : null);
  // (until the game's module and deck are here, the seat's turn is not shown as theirs)
  const ready = !!(T && state.game && hasDeck(gameName()));
  attr(s.page, "data-ready", ready ? "" : null);
  if (state.badLink) {
    // A seat link that opens nothing (unknown, or left out when a room started with three).
    patch(s.center, h("section", { class: "center bad" },
      h("p", { class: "error", role: "alert", text: t(badLinkKind()) }),
      h("p", { class: "quiet-on-felt", text: t(`${badLinkKind()}.more`) }),
      h("a", { class: "button primary", href: "/" }, t("conn.lobby"))));
    for (const el of [s.others, s.banner, s.ask, s.lines, s.actions, s.mine, s.clock, s.tools, s.hand, s.tabs]) patch(el, []);
    s.status.hidden = true;
    s.side.hidden = true;
    document.title = t("app.title");
    return;
  }
  const playing = ready && T.status !== "waiting" && v;
  // (the hint lies over the other seats while it shows: it never moves the hand or the buttons)
  patch(s.others, T ? [otherSeats().map(seatPanel), playing ? hint.hintBox(ctxFor()) : null] : []);
  patch(s.mine, T ? [seatPanel(me())] : []);
  patch(s.clock, playing ? lobbyUi.turnClock(T, whoLabel) : []);
  patch(s.center, !T ? [] : T.status === "waiting" || !v ? waitingRoom() : ready ? centerArea() : []);
  // (a daily deal's table, between its deals and at the end: which deal, and the way to the day's result;
  // a tournament's: the way back to its page)
  patch(s.banner, playing ? [game().banner ? game().banner(ctxFor()) : null,
    T.status === "between" || T.status === "over" ? lobbyUi.dailyNote(T, "daily-note") : null,
    T.status === "between" || T.status === "over" ? lobbyUi.tournamentNote(T, "tournament-note") : null] : []);
  patch(s.ask, playing && askName() ? tableNameForm() : []);
  patch(s.lines, playing ? linesArea() : []);
  attr(s.lines, "aria-label", t("lines.title"));
  patch(s.actions, playing ? actionsArea() : T && T.status === "waiting" && !watching ? h("div", { class: "waiting-name" }, nameForm(sendName)) : []);
  patch(s.tools, [playing && v.phase === "play" && v.last_trick ? h("button", { type: "button", class: "last-trick", id: "last-trick", "data-focus": "last-trick",
    "aria-pressed": String(state.showLast), "aria-keyshortcuts": "L", onclick: () => { state.showLast = !state.showLast; render(); } }, t("tools.last")) : null,
  playing && !watching ? hint.hintButton(ctxFor()) : null]);
  const handChanged = patch(s.hand, playing ? handCards() : []);
  attr(s.hand, "aria-label", t("hand.title"));
  s.hand.className = "hand" + (myTurn() && (v?.phase === "discard" || game().picks?.(v?.phase)) ? " discarding" : "");
  if (handChanged) fitHand();
  // The status line: one element; its text changes only when the turn or a refusal does.
  s.status.hidden = false;
  // (until the game's module and deck are here, the page is still connecting)
  const turnText = T && !ready ? t("conn.connecting") : statusText();
  const note = state.note && (state.note.version === state.version || Date.now() < (state.note.until ?? 0))
    ? state.note.text : state.armed ? capitalised(t("status.armed", { card: cardName(state.armed) })) : "";
  s.status.classList.toggle("yours", ready && myTurn());
  if (turnText !== lastStatus.key || note !== lastStatus.note) {
    text(s.status.firstChild, turnText);
    text(s.status.lastChild, note);
    lastStatus = { key: turnText, note };
  }
  // Side panels (drawers on small screens).
  s.side.hidden = false;
  patch(s.tabs, T ? tabsBar() : []);
  attr(s.tabs, "aria-label", t("tab.label"));
  for (const name of TABS) {
    const el = s.panels[name];
    el.classList.toggle("open", state.panel === name);
    attr(el, "aria-label", gt(`tab.${name}`));
  }
  patch(s.panels.info, playing ? infoPanelContent() : [h("h2", { text: t("info.title") }), T ? h("p", { class: "quiet", text: tableGameTitle() }) : null,
    T && !watching ? replay.watchRow(T, copyButton) : null]);
  const logBody = playing ? logPanelContent() : null;
  s.panels.log.classList.toggle("log", !!logBody);
  patch(s.panels.log, logBody || []);
  if (logBody) { const ol = s.panels.log.querySelector("ol"); if (ol) { ol.tabIndex = 0; ol.setAttribute("aria-label", t("log.title")); ol.scrollTop = ol.scrollHeight; } }
  patch(s.panels.played, playing ? playedPanel() : []);
  patch(s.panels.sheet, T ? sheetPanel() : []);
  patch(s.chatHead, [h("h2", { text: t("chat.title") }), drawerMode() ? h("button", { type: "button", class: "close", "data-focus": "close-chat", onclick: () => openPanel(null) }, t("tab.close")) : null]);
  // (built again only when what it shows changes: it is drawn at every state of the table)
  const peopleKey = T ? JSON.stringify([T.id, T.you, T.names, T.bots, T.joined, [...state.muted], state.chatOff, lang(), !!accountName()]) : "";
  if (s.chatPeople.__key !== peopleKey) {
    s.chatPeople.__key = peopleKey;
    patch(s.chatPeople, T ? chatPeople() : []);
    s.chatPeople.hidden = !T;
  }
  patch(s.chatEarlier, state.chatMore && state.chat.length && !state.chatOff
    ? h("button", { type: "button", class: "chat-earlier", "data-focus": "chat-earlier",
      onclick: () => send({ type: "history", before: state.chat[0].version }) }, t("chat.earlier")) : []);
  const atBottom = s.chatList.scrollHeight - s.chatList.scrollTop - s.chatList.clientHeight < 30;
  if (patch(s.chatList, chatLines()) && atBottom) s.chatList.scrollTop = s.chatList.scrollHeight;
  attr(s.chatList, "aria-label", t("chat.lines"));
  attr(s.chatList, "hidden", state.chatOff ? "" : null);
  const hidden = state.chatOff || !state.muted.size ? 0 : state.chat.filter((c) => !chatShown(c)).length;
  patch(s.chatHidden, state.chatOff ? h("p", { class: "note chat-off-note", text: t("chat.off.note") })
    : hidden ? h("p", { class: "note chat-hidden", text: tn("chat.hidden", hidden) }) : []);
  attr(s.chatInput, "placeholder", t("chat.placeholder"));
  attr(s.chatInput, "aria-label", t("chat.label"));
  text(s.chatSend, t("chat.send"));
  // A spectator reads the chat; so does one who came for a computer's seat mid-deal, until the
  // deal that is theirs (the server refuses their lines meanwhile).
  const waitsForDeal = !watching && !!T?.arrived?.[T.you];
  s.chatForm.hidden = watching || waitsForDeal || state.chatOff;
  patch(s.chatName, watching ? h("p", { class: "note", text: t("watch.chat") }) : waitsForDeal ? h("p", { class: "note", text: t("chat.next_deal") }) : T && T.kind === "room" ? h("details", { class: "rename" }, h("summary", { text: t("name.change") }), nameForm(sendName, "my-name-chat")) : []);
  // Close buttons for the drawers.
  for (const name of ["info", "log", "played", "sheet"]) {
    const el = s.panels[name];
    let close = el.querySelector(":scope > .close");
    if (drawerMode() && !close && el.firstChild) {
      close = h("button", { type: "button", class: "close", "data-focus": `close-${name}`, onclick: () => openPanel(null) }, t("tab.close"));
      el.prepend(close);
      el.__sig = null;
    }
  }
  if (ready) turnAlert();
  if (ready) lessons.table(ctxFor(), s);
}

// The chat panel's Players and chat (issue 58): each other person's seat, to mute its lines
// here or, signed in at a seat, to report its player (report.js, loaded when asked); and the
// chat off for me.
function chatPeople() {
  const T = state.table;
  const reporting = !watching && !!accountName();
  const seats = T.names.map((_, seat) => seat).filter((seat) => seat !== me() && !T.bots?.[seat] && T.joined?.[seat]);
  return [
    h("summary", { "data-focus": "chat-people", text: t("chat.people") }),
    seats.length ? h("ul", { class: "chat-seats" }, seats.map((seat) => {
      const name = seatName(T.names[seat]);
      return h("li", { class: "chat-seat", "data-seat": seat },
        h("span", { class: "chat-seat-name", text: name }),
        h("button", { type: "button", class: "mute", "data-focus": `mute-${seat}`, "aria-pressed": String(state.muted.has(seat)),
          "aria-label": t("chat.mute.label", { name }), onclick: () => toggleMute(seat) }, t("chat.mute")),
        reporting ? h("button", { type: "button", class: "report", "data-focus": `report-${seat}`, "aria-label": t("chat.report.label", { name }),
          onclick: (e) => {
            const opener = e.currentTarget;
            import("./report.js").then((m) => m.openReport({ name: T.names[seat], table: T.id, opener }));
          } }, t("chat.report")) : null);
    })) : null,
    h("label", { class: "chat-off", for: "chat-off" },
      h("input", { type: "checkbox", id: "chat-off", "data-focus": "chat-off", checked: state.chatOff,
        onchange: (e) => { state.chatOff = e.currentTarget.checked; store("tarocchi.chat", state.chatOff ? "off" : "on"); state.unread = 0; render(); } }),
      " ", t("chat.off")),
  ];
}

// A guest who came last to a room never saw the waiting room's name field (the deal started
// at once): while his seat still has the name the room gave it, the table asks for one.
function askName() {
  const T = state.table;
  return !watching && T.kind === "room" && !state.nameDone && /^(host|guest \d|player \d)$/.test(T.names?.[T.you] || "");
}

function tableNameForm() {
  return h("div", { class: "table-name" },
    nameForm((name) => { sendName(name); if (name) { state.nameDone = true; render(); } }, "my-name-table", "name.ask"),
    h("button", { type: "button", class: "later", "data-focus": "name-later", onclick: () => { state.nameDone = true; render(); } }, t("name.later")));
}

function sendName(name) {
  if (name) send({ type: "name", name });
}

// The tab's title and an optional sound say when it is your turn.
function turnAlert() {
  const mine = myTurn();
  document.title = mine ? `● ${t("title.turn")} · ${t("app.title")}` : watching ? `${t("watch.badge")} · ${t("app.title")}` : t("app.title");
  const key = mine ? `${state.table.deal_number}:${state.view.trick?.length}:${state.version}` : null;
  if (mine && lastTurnAlert === null && state.sound) beep();
  lastTurnAlert = key;
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.08, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    o.connect(g).connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.26);
  } catch { /* no sound */ }
}

// --- the keyboard ---------------------------------------------------------------------------

function onKey(e) {
  if (!token || e.altKey || e.ctrlKey || e.metaKey) return;
  // (a modal dialog open, the Report's: its keys are its own, Escape closes it alone)
  if (document.querySelector("dialog[open]")) return;
  const el = document.activeElement;
  const typing = el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT");
  if (e.key === "Escape") {
    if (state.armed) { state.armed = null; render(); return; }
    if (state.showLast) { state.showLast = false; render(); return; }
    if (drawerMode() && state.panel) { openPanel(null); return; }
  }
  if (typing) return;
  // A card chosen with confirm on: Enter plays it (on a card or a button, Enter presses that).
  if (e.key === "Enter" && state.armed && !(el && (el.tagName === "BUTTON" || el.tagName === "A"))) {
    e.preventDefault();
    playArmed();
    return;
  }
  if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && el?.classList?.contains("card")) {
    const cards = [...shell.hand.querySelectorAll(".card")];
    const i = cards.indexOf(el);
    const next = cards[i + (e.key === "ArrowRight" ? 1 : -1)];
    if (next) { next.focus(); e.preventDefault(); }
    return;
  }
  if ((e.key === "ArrowUp" || e.key === "ArrowDown") && !el?.classList?.contains("card") && myTurn()) {
    const first = shell?.hand.querySelector(".card:not([aria-disabled='true'])") || shell?.hand.querySelector(".card");
    if (first && e.key === "ArrowDown") { first.focus(); e.preventDefault(); }
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const b = shell?.actions.querySelector(`button[data-key="${e.key}"]`);
    if (b) {
      e.preventDefault();
      if (b.disabled) {
        const c = choiceOf(b.dataset.action);
        if (c?.reason) { state.note = { text: t("status.cardwhy", { card: b.dataset.action, reason: why(c) }), version: state.version }; render(); }
      } else b.click();
    }
    return;
  }
  if (hint?.hintKey(ctxFor(), e.key)) return;
  // C and N: the button of the actions that carries the key (a C before the cards are all
  // picked does nothing: the count beside it says how many).
  const upper = e.key.toUpperCase();
  if (upper === CONFIRM_KEY || upper === NEXT_KEY) {
    const b = shell?.actions.querySelector(`button[aria-keyshortcuts="${upper}"]`);
    if (b) { e.preventDefault(); if (!b.disabled) b.click(); }
    return;
  }
  if ((e.key === "l" || e.key === "L") && state.view?.phase === "play" && state.view.last_trick) {
    state.showLast = !state.showLast;
    render();
  }
}

// --- start ----------------------------------------------------------------------------

setLang(lang());
// (the lobby's Learn to play and a lesson table's guide: on those two pages alone, never drawn
// over an account, profile, leaderboard or replay page)
const lobbyHere = !accountMatch && !profileMatch && !gamesMatch && !boardMatch && !replayMatch && !dailyMatch && !tournamentMatch && !tournamentsMatch && !modMatch && !token;
if (token || lobbyHere) lessons.setup(() => (token ? render() : renderLobby()));
if (accountMatch) {
  accountPage(root);
} else if (profileMatch) {
  import("./players.js").then((m) => m.profilePage(root, decodeURIComponent(profileMatch[1])));
} else if (gamesMatch) {
  import("./archive.js").then((m) => m.archivePage(root, decodeURIComponent(gamesMatch[1])));
} else if (boardMatch) {
  import("./players.js").then((m) => m.leaderboardPage(root, decodeURIComponent(boardMatch[1])));
} else if (dailyMatch) {
  import("./daily.js").then((m) => m.dailyPage(root, decodeURIComponent(dailyMatch[1])));
} else if (tournamentsMatch) {
  import("./tournament.js").then((m) => m.tournamentsPage(root));
} else if (tournamentMatch) {
  import("./tournament.js").then((m) => m.tournamentPage(root, tournamentMatch[1]));
} else if (modMatch) {
  import("./mod.js").then((m) => m.modPage(root));
} else if (replayMatch) {
  import("./replay.js").then((m) => m.replayPage(root, replayMatch[1], Number(replayMatch[2]), loadGames));
} else if (token) {
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => { if (shell) { fitHand(); render(); } });
  // A wide screen shows a panel beside the table; become narrow (a tablet turned upright, a
  // window made smaller) and that panel would be a drawer over the table: close it instead.
  window.matchMedia("(max-width: 1099px)").addEventListener("change", (e) => {
    if (e.matches && shell) { state.panel = null; render(); }
  });
  // The games' decks, the table's own modules and the socket at once, not one after another
  // (issue 60): the modules are preloaded with the page; a message waits for the decks.
  gamesLoaded = loadGames();
  Promise.all([import("./hint.js"), import("./replay.js")]).then(([hintModule, replayModule]) => {
    hint = hintModule;
    replay = replayModule;
    render();
    connect();
    onNetwork((off) => { if (!off) reconnectNow(); render(); });
    startSocial(render);
  });
} else {
  renderLobby();
  loadLobby();
  import("./players.js").then((m) => { players = m; renderLobby(); });
}
startNetwork();
