// The lobby's public tables, Play now and the turn clock (issue 22; the server side is
// tarocchi/server/lobby.py, the routes and fields docs/protocol.md).
//
// The lobby page (app.js lobbyPage) shows publicSection() and playNowSection(): they are
// built once and patched in place when the listing comes (every few seconds), so that
// polling never rebuilds the rest of the lobby (a name being typed stays). The table page
// shows waitingExtras() in the waiting room and turnClock() beside the player's seat; one
// ticker counts every [data-deadline] element down, without a render.

import { t, tn, lang, addMessages, reason, seatName } from "./i18n.js";
import { h, patch, asset } from "./dom.js";
import { keptSeats, forgetSeats, askTables } from "./seats.js";
import { accountName } from "./account.js";
import messages from "./lobby.i18n.js";

addMessages(messages);
document.head.append(h("link", { rel: "stylesheet", href: asset("/static/lobby.css") }));

const ROOM_NAMES = ["host", "guest 1", "guest 2", "guest 3"];
const QUICK_NAMES = ["player 1", "player 2", "player 3", "player 4"];  // a Play now table has no host
const POLL_MS = 5000;
const CLOCKS = [15, 30, 60, 120];  // the turn clocks a host may pick (the server takes 5..600 s)
const DAYS = [1, 2, 3, 7];  // a table by correspondence: days a move (issue 41; signed-in players)
const LOW = 5;  // seconds: the clock turns red

const pub = {
  tables: null,      // GET /api/public's tables, once loaded
  playing: {},       // people at the site's tables now, by game
  mine: null,        // this browser's seats as the server says them now (POST /api/my-tables)
  fill: 20,          // seconds a Play now table waits for people (the server says)
  error: "",
  signIn: false,     // the error asks to sign in first: a link to do it goes with it
  errorAt: null,     // where the last refusal is shown: the table whose seat was pressed, or null (Play now)
  busy: false,
  games: [],         // the lobby's games, in its order
  gameTitle: (g) => g.title,
  list: null,        // the sections, built once
  now: null,
  pause: null,       // signed in and paused from rated tables (issue 56): {until, leaves}
};

// When the time the server gives ends, as the reader's clock and language say it.
function clockTime(seconds) {
  return new Intl.DateTimeFormat(lang() === "it" ? "it-IT" : "en-GB", { dateStyle: "short", timeStyle: "short" })
    .format(new Date(seconds * 1000));
}

function gameOf(name) { return pub.games.find((g) => g.name === name) || { name, title: name }; }

// --- the lobby page ----------------------------------------------------------------------

export function setup(games, gameTitle) {
  pub.games = games;
  pub.gameTitle = gameTitle;
  // A leaver's pause from rated tables is said to that player alone, with its end (issue 56).
  if (accountName()) {
    fetch("/api/me/pause").then((r) => (r.ok ? r.json() : null))
      .then((p) => { if (p?.until) { pub.pause = p; refresh(); } }).catch(() => {});
  }
}

export function startPolling() {
  const poll = async () => {
    if (document.hidden) return;
    try {
      const res = await fetch("/api/public");
      if (!res.ok) return;  // (over the budget: the next poll)
      const body = await res.json();
      pub.tables = Array.isArray(body.tables) ? body.tables : [];
      if (typeof body.fill_seconds === "number") pub.fill = body.fill_seconds;
      if (body.playing && typeof body.playing === "object") pub.playing = body.playing;
      await askMine();
      refresh();
    } catch { /* the server is away a moment */ }
  };
  poll();
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
  return poll;
}

// POST a JSON body; the answer's JSON, or an Error with the server's words (the lobby's too),
// its status, or ``unreachable`` where no server answered (issue 57: fetch's own TypeError,
// "Failed to fetch" in the browser's language, is never shown, nor blamed on the server).
export async function postJson(path, body) {
  let res;
  try {
    res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw Object.assign(new Error("unreachable"), { unreachable: true, status: 0 });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw Object.assign(new Error(data.error || res.statusText), {
      status: res.status, unreachable: GATEWAY.has(res.status) && !data.error,
      until: typeof data.until === "number" ? data.until : null,  // (a pause from rated tables: its end, issue 56)
    });
  }
  return data;
}

const GATEWAY = new Set([502, 503, 504]);  // a proxy's answer for a server that is not there

// What a failed postJson says, in the page's language.
export function errorText(e) {
  return e?.unreachable ? t("lobby.unreachable") : t("lobby.error", { reason: reason(e?.message) });
}

// "Your tables": the seats this browser holds (seats.js), as they are now; a link that opens
// nothing any more, or whose match is over, is forgotten.
async function askMine() {
  const kept = keptSeats();
  if (!kept.length) { pub.mine = []; return; }
  // (the rows' countdowns are the server's deadlines: its clock, as a table's frame gives it)
  const answers = await askTables(kept.map((s) => s.link), serverTime);
  if (!answers) return;  // (over the budget, or away: the next poll)
  forgetSeats(answers.filter((a) => a.gone || a.status === "over").map((a) => a.link));
  pub.mine = answers.filter((a) => !a.gone && a.status !== "over")
    .sort((a, b) => Number(b.yours) - Number(a.yours));  // where it is your turn, first
}

// ``at``: the table whose seat button was pressed (its refusal is shown in its row, where the
// eye is: on a phone the Play now card is out of sight by then), or null for Play now.
async function post(path, body, at = null) {
  pub.busy = true; pub.error = ""; pub.signIn = false; pub.errorAt = at; refresh();
  try {
    return await postJson(path, body);
  } catch (e) {
    pub.error = errorText(e);
    pub.signIn = e.status === 401;  // (a table by correspondence: signed-in players only)
    if (e.until) {  // a leaver's pause (issue 56): said with its end, by the Play now card or in the row pressed
      pub.pause = { until: e.until };
      pub.error = at === null ? "" : t("pub.paused", { time: clockTime(e.until) });
    }
    return null;
  } finally {
    pub.busy = false; refresh();
  }
}

async function playNow(game) {
  const data = await post("/api/play-now", { game });
  if (data?.link) location.assign(data.link);
}

async function takeSeat(table, seat) {
  const data = await post(`/api/public/${encodeURIComponent(table)}/seat`, { seat }, table);
  if (data?.link) { location.assign(data.link + (data.taken ? "?taken=1" : "")); return; }
  // (none left: the list as it is now)
  const res = await fetch("/api/public").catch(() => null);
  if (res?.ok) { pub.tables = (await res.json()).tables || []; refresh(); }
}

function waited(seconds) {
  return seconds < 60 ? t("pub.seconds", { n: seconds }) : t("pub.minutes", { n: Math.floor(seconds / 60) });
}

function refusal() {
  return h("p", { class: "error", role: "alert" }, pub.error,
    pub.signIn ? [" ", h("a", { href: "/account", id: "error-sign-in" }, t("pub.take.signin"))] : null);
}

function tableRow(row) {
  const g = gameOf(row.game);
  const title = pub.gameTitle(g);
  // The people seated, and which of them are away now (the server keeps who is here: issue 38).
  const seated = row.names.map((n, s) => (n === null ? null : row.present && !row.present[s]
    ? t("pub.list.away", { name: seatName(n) }) : seatName(n))).filter((n) => n !== null);
  const facts = [
    tn("pub.list.free", row.free.length, { m: row.seats }),
    seated.length ? t("pub.list.names", { names: seated.join(", ") }) : t("pub.list.nobody"),
    t("pub.list.waited", { time: waited(row.waiting) }),
    row.correspondence ? tn("pub.list.days", row.correspondence) : row.clock ? t("pub.list.clock", { n: row.clock }) : null,
  ].filter(Boolean);
  return h("li", { class: "public-table", "data-table": row.table, "data-game": row.game },
    h("div", { class: "public-head" }, h("strong", { text: title }),
      h("span", { class: `rated-tag ${row.rated === false ? "casual" : "rated"}`, text: t(row.rated === false ? "pub.list.casual" : "pub.list.rated") }),
      h("span", { class: "quiet", text: facts.join(" · ") })),
    pub.error && pub.errorAt === row.table ? refusal() : null,
    h("div", { class: "public-seats" }, row.correspondence && !accountName()
      ? h("a", { class: "button sign-in-first", href: "/account", "data-focus": `signin-${row.table}` }, t("pub.take.signin"))
      : row.free.map((seat) => {
        const name = seatName((row.quick ? QUICK_NAMES : ROOM_NAMES)[seat]);
        return h("button", { type: "button", class: "take-seat", "data-seat": seat, "data-focus": `take-${row.table}-${seat}`,
          "aria-label": t("pub.take.label", { name, game: title }), disabled: pub.busy,
          onclick: () => takeSeat(row.table, seat) }, t("pub.take", { name }));
      }), row.watch ? h("a", { class: "button watch-public", href: row.watch, "data-focus": `watch-${row.table}`,
      "aria-label": t("pub.watch.label", { game: title }) }, t("pub.watch")) : null));
}

function listBody() {
  return [
    h("h2", { text: t("pub.list.title") }),
    h("p", { text: t("pub.list.help") }),
    // (the table whose seat was refused is gone from the list: its refusal heads the list)
    pub.error && pub.errorAt !== null && !pub.tables?.some((r) => r.table === pub.errorAt) ? refusal() : null,
    pub.tables === null ? h("p", { class: "quiet", text: t("pub.list.loading") })
      : pub.tables.length ? h("ul", { class: "public-tables" }, pub.tables.map(tableRow))
        : h("p", { class: "quiet", id: "no-public", text: t("pub.list.none") }),
  ];
}

function nowBody() {
  return [
    h("h2", { text: t("pub.now.title") }),
    h("p", { text: t("pub.now.help", { n: pub.fill }) }),
    pub.error && pub.errorAt === null ? refusal() : null,
    pub.pause && pub.pause.until * 1000 > Date.now()
      ? h("p", { class: "error pause-note", id: "pause-note", role: "alert", text: t("pub.paused", { time: clockTime(pub.pause.until) }) }) : null,
    h("div", { class: "play-now" }, pub.games.map((g) => h("span", { class: "play-now-game" },
      h("button", {
        type: "button", class: "primary", id: `play-now-${g.name}`, "data-focus": `play-now-${g.name}`, disabled: pub.busy,
        onclick: () => playNow(g.name) }, t("pub.now.button", { game: pub.gameTitle(g) })),
      // How many people are at a table of this game now, on the whole site (the server counts).
      h("small", { class: "playing-now", id: `playing-${g.name}`, text: tn("pub.playing", pub.playing[g.name] || 0) })))),
  ];
}

// One of this browser's tables: the game, who sits there, whose turn it is, and the way back.
function mineRow(row) {
  const title = pub.gameTitle(gameOf(row.game));
  const names = (row.names || []).map((n, s) => (s === row.seat ? t("pub.mine.you") : seatName(n))).join(", ");
  const turn = row.yours ? t("pub.mine.yours")
    : row.status === "waiting" ? t("pub.mine.waiting")
      : row.status === "between" ? t("pub.mine.between")
        : row.turn !== null && row.turn !== undefined ? t("pub.mine.turn", { name: seatName(row.names[row.turn]) })
          : t("pub.mine.playing");
  // (one box a table: its words, then its button, so that a narrow screen never puts a button
  // between two tables' words: issue 57; a clock's time left as every countdown says it)
  return h("li", { class: "my-table" + (row.yours ? " yours" : ""), "data-table": row.table },
    h("span", { class: "mine-what" }, h("strong", { text: title }), " ", h("span", { class: "mine-turn", text: turn }),
      h("span", { class: "quiet", text: ` · ${names}` }),
      row.deadline ? [" ", countdown("span", "mine-clock", "pub.mine.left", row.deadline)] : null),
    h("a", { class: "button", href: row.link, "data-focus": `mine-${row.table}`,
      "aria-label": t("pub.mine.label", { game: title, turn }) }, t("pub.mine.back")));
}

function mineBody() {
  if (!pub.mine?.length) return [];
  return [h("h2", { text: t("pub.mine.title") }), h("ul", { class: "my-tables" }, pub.mine.map(mineRow))];
}

function refresh() {
  if (!pub.list) return;
  patch(pub.mineSection, mineBody());
  pub.mineSection.hidden = !pub.mine?.length;
  patch(pub.now, nowBody());
  patch(pub.list, listBody());
}

// The sections, the same elements at every render of the lobby (their content patched).
export function sections() {
  if (!pub.list) {
    pub.mineSection = h("section", { class: "panel lobby-card lobby-mine", id: "your-tables", hidden: true });
    pub.now = h("section", { class: "panel lobby-card lobby-now", id: "play-now" });
    pub.list = h("section", { class: "panel lobby-card lobby-public", id: "public-tables" });
  }
  refresh();
  return [pub.mineSection, pub.now, pub.list];
}

// The daily deal (issue 59): a link per game to its page, /daily/<game> (daily.js).
export function dailySection(games, gameTitle) {
  if (!games.length) return null;
  return h("section", { class: "panel lobby-card lobby-daily", id: "daily", "aria-labelledby": "daily-h" },
    h("h2", { id: "daily-h", text: t("pub.daily.title") }),
    h("p", { text: t("pub.daily.help") }),
    h("ul", { class: "daily-games" }, games.map((g) => h("li", {},
      h("a", { class: "button", href: `/daily/${encodeURIComponent(g.name)}`, id: `daily-link-${g.name}`, "data-focus": `daily-${g.name}` },
        t("pub.daily.button", { game: gameTitle(g) }))))));
}

// A daily deal's table (issue 59): which of the day's deals this is, and the way to the day's
// page (its result, once the deals are played). Null at any other table. ``id``: the one on the
// felt has one (the Info panel's is its copy).
export function dailyNote(table, id = null) {
  const daily = table?.daily;
  if (!daily) return null;
  const n = Math.min(table.deal_number, daily.deals);
  return h("p", { class: "daily-note", id },
    h("span", { text: t("pub.daily.table", { n, m: daily.deals }) }), " ",
    h("a", { href: `/daily/${encodeURIComponent(daily.game)}`, id: id && `${id}-back` }, t("pub.daily.back")));
}

// A tournament's table (issue 59; its seats alone are told which): the way back to the
// tournament's page, its standings and the next round.
export function tournamentNote(table, id = null) {
  const tour = table?.tournament;
  if (!tour || typeof tour.id !== "string") return null;
  return h("p", { class: "daily-note tournament-note", id },
    h("a", { href: `/tournament/${encodeURIComponent(tour.id)}`, id: id && `${id}-back` },
      tour.round ? t("pub.tournament.table", { n: tour.round }) : t("pub.tournament.plain")));
}

// The room card's two settings: listed in the lobby, and the turn clock.
export function roomOptions(L, rerender) {
  return [
    h("label", { class: "pill room-public" },
      h("input", { type: "checkbox", id: "room-public", "data-focus": "room-public", checked: !!L.roomPublic,
        onchange: (e) => { L.roomPublic = e.target.checked; rerender(); } }),
      h("span", { text: t("pub.room.public") })),
    // Rated (issue 40): the match counts for the players' ratings when every seat is an account;
    // as the room is public until the host says otherwise.
    h("label", { class: "pill room-rated" },
      h("input", { type: "checkbox", id: "room-rated", "data-focus": "room-rated", checked: roomRated(L),
        onchange: (e) => { L.roomRated = e.target.checked; rerender(); } }),
      h("span", { text: t("pub.room.rated") })),
    L.roomDays ? null : h("label", { class: "level room-clock" }, h("span", { text: t("pub.room.clock") }),
      h("select", { id: "room-clock", "data-focus": "room-clock", onchange: (e) => { L.roomClock = Number(e.target.value) || null; } },
        h("option", { value: "", selected: !L.roomClock }, t("pub.room.clock.none")),
        CLOCKS.map((n) => h("option", { value: n, selected: L.roomClock === n }, t("pub.room.clock.n", { n }))))),
    // By correspondence (issue 41): a move a day or more, for signed-in players (the server says so too).
    accountName() ? h("label", { class: "level room-days" }, h("span", { text: t("pub.room.days") }),
      h("select", { id: "room-days", "data-focus": "room-days", onchange: (e) => { L.roomDays = Number(e.target.value) || null; rerender(); } },
        h("option", { value: "", selected: !L.roomDays }, t("pub.room.days.none")),
        DAYS.map((n) => h("option", { value: n, selected: L.roomDays === n }, tn("pub.room.days.n", n))))) : null];
}

function roomRated(L) { return L.roomRated ?? !!L.roomPublic; }

// A room's "Allow hints" box (issue 21; here, not in hint.js, which only a table loads: issue 60).
export function roomHintsOption(checked, onchange) {
  return h("label", { class: "room-hints" },
    h("input", { type: "checkbox", id: "room-hints", "data-focus": "room-hints", checked, onchange: (e) => onchange(e.target.checked) }),
    h("span", { text: t("pub.room.hints") }));
}

export function roomSettings(L) {
  const out = { rated: roomRated(L) };
  if (L.roomPublic) out.public = true;
  if (L.roomDays && accountName()) out.correspondence = L.roomDays;
  else if (L.roomClock) out.clock = L.roomClock;
  return out;
}

// --- the table page ------------------------------------------------------------------------

// The server's clock less this browser's, from the last state frame's `now`: the deadlines are
// the server's, and a phone's own clock may be minutes off.
let skew = 0;
export function serverTime(now) { skew = now - Date.now() / 1000; }

function left(deadline) { return Math.max(0, Math.ceil(deadline - Date.now() / 1000 - skew)); }

// Seconds as every countdown says them (one format, issue 57): "25" under two minutes (the key
// adds " s"); up to a day "h min"; beyond, "d h" (a table by correspondence: issue 41). Each
// rounds up to what it shows, as the seconds do: a day's clock reads "24 h 0 min" at its start
// on every seat, whichever second each page drew it.
export function span(n) {
  if (n < 120) return String(n);
  if (n <= 86400) {
    const m = Math.ceil(n / 60);
    return m < 60 ? t("pub.dur.m", { m }) : t("pub.dur.hm", { h: Math.floor(m / 60), m: m % 60 });
  }
  const hours = Math.ceil(n / 3600);
  return t("pub.dur.dh", { d: Math.floor(hours / 24), h: hours % 24 });
}

function say(key, n, name) { return t(n < 120 ? key : key + ".long", { n: span(n), name }); }

// A countdown to ``deadline``; with ``then`` (the turn's own time over, the time bank runs:
// issue 41) it goes on to ``then`` under ``thenKey``.
function countdown(tag, cls, key, deadline, name = "", then = null, thenKey = null) {
  const n = left(deadline);
  const attrs = { class: cls + (n <= LOW && !then ? " low" : ""), role: "timer", "data-deadline": deadline, "data-key": key,
    "data-name": name, text: say(key, n, name) };
  if (then && then > deadline) Object.assign(attrs, { "data-then": then, "data-then-key": thenKey });
  return h(tag, attrs);
}

function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    let n = left(Number(el.dataset.deadline));
    if (n === 0 && el.dataset.then) {  // the turn's own time is over: the bank counts now
      el.dataset.deadline = el.dataset.then;
      el.dataset.key = el.dataset.thenKey;
      delete el.dataset.then;
      delete el.dataset.thenKey;
      el.classList.add("bank");
      n = left(Number(el.dataset.deadline));
    }
    const want = say(el.dataset.key, n, el.dataset.name);
    if (el.textContent !== want) el.textContent = want;
    el.classList.toggle("low", n <= LOW && !el.dataset.then);
  }
}
setInterval(tick, 250);

// In the waiting room: a Play now table's countdown to its computers; the host's switch
// that lists the room in the lobby; the word that another took the seat first.
export function waitingExtras(T, send) {
  const out = [];
  if (new URLSearchParams(location.search).has("taken")) out.push(h("p", { class: "taken-note", role: "note", text: t("pub.taken") }));
  if (T.quick && T.fill_at) {
    out.push(left(T.fill_at) > 0 ? countdown("p", "fill-clock", "pub.wait.fill", T.fill_at)
      : h("p", { class: "fill-clock", text: t("pub.wait.filling") }));
  } else if (T.kind === "room" && T.you === 0) {
    out.push(h("button", { type: "button", class: "make-public", id: "make-public", "data-focus": "make-public",
      "aria-pressed": String(!!T.public), onclick: () => send({ type: "public", public: !T.public }) },
    t(T.public ? "pub.wait.unlist" : "pub.wait.list")));
  }
  if (T.public && !T.quick) out.push(h("p", { class: "listed-note", text: t("pub.wait.listed") }));
  // Rated or casual (issue 56), and why it matters: a rated room's match counts only if every seat is an account's.
  if (T.kind === "room") out.push(h("p", { class: `rated-note ${T.rated ? "rated" : "casual"}`, text: t(T.rated ? "pub.wait.rated" : "pub.wait.casual") }));
  return out;
}

// Beside the player's seat: whose turn the clock runs for and how long is left (every seat
// of the table sees it), or that a computer keeps this seat until the deal ends.
export function turnClock(T, whoLabel) {
  if (T.arrived?.[T.you]) return h("span", { class: "turn-clock arrived", title: t("pub.arrived.title"), text: t("pub.arrived") });
  const c = T.clock;
  if (!c || !c.deadline || !c.seats?.length || (T.status !== "playing" && T.status !== "between")) return null;
  if (T.status === "between") {
    // (a watcher, you null, sees it too: issue 57)
    return c.seats.includes(T.you) || T.you === null ? countdown("span", "turn-clock", "pub.clock.next", c.deadline) : null;
  }
  const seat = c.seats[0];
  // With a time bank: the turn's own time to ``base``, then the seat's bank to ``deadline``.
  const bank = c.bank && c.base && c.deadline > c.base;
  const first = bank && left(c.base) > 0 ? c.base : c.deadline;
  const then = bank && first === c.base ? c.deadline : null;
  const banked = bank && first === c.deadline ? " bank" : "";
  return h("span", { class: "clock-box", "aria-label": t("pub.clock.label"), role: "group" },
    seat === T.you ? countdown("span", "turn-clock mine" + banked, banked ? "pub.clock.bank.you" : "pub.clock.you", first, "", then, "pub.clock.bank.you")
      : countdown("span", "turn-clock" + banked, banked ? "pub.clock.bank.seat" : "pub.clock.seat", first, whoLabel(seat), then, "pub.clock.bank.seat"),
    bank && c.bank[seat] > 0 && first === c.base
      ? h("span", { class: "bank-left", text: t("pub.clock.bank.left", { n: span(Math.round(c.bank[seat])) }) }) : null);
}
