// Looking back at a table (issue 22, docs/protocol.md "Watching and looking back"): the watch
// link a seat shares, the finished deals to replay and the records to download (the sheet
// panel's "Look back" section), and the replay page, /r/<token>/<deal>: one finished deal
// step by step with every hand face up, stepped with buttons or the arrow keys. The server
// decides what is shown: it answers only for deals that reached their count
// (GET /api/replay/<token>/<deal>), and builds every step from the engine's replay of the
// deal's record.

import { t, tn, has, lang, setLang, seatName, addMessages, reason } from "./i18n.js";
import { cardSvg, cardName, cardLabel, cardInfo, miniCard, useDeck, deck } from "./cards.js";
import { seatAt, seatByWatch } from "./seats.js";
import { h, patch, text, signed } from "./dom.js";
import { seatLine, eventText } from "./lines.js";
import { bellSlot, startSocial } from "./account.js";  // (signed in: the bell, issue 58)

const en = {
  "watch.badge": "Watching",
  "watch.title": "Watch link",
  "watch.note": "Anyone with this link watches the table: the cards played, the announcements and the count, never a hand.",
  "watch.copy.label": "Copy the watch link",
  "watch.chat": "Spectators read the chat; only the seats write in it.",
  "watch.label": "Link for spectators",
  "back.title": "Look back",
  "back.none": "A deal can be replayed once it is over.",
  "back.deal": "Deal {n}",
  "back.deal.match": "Match {m}, deal {n}",
  "back.replay.label": "Replay deal {n}",
  "back.download": "Download the records (JSON lines)",
  "back.replay.this": "Replay this deal",
  "replay.title": "Replay: deal {n} of {m}",
  "replay.step": "Step {i} of {n}",
  "replay.dealt": "The cards are dealt; {name} deals.",
  "replay.first": "Start",
  "replay.prev": "Back",
  "replay.next": "Forward",
  "replay.last": "Count",
  "replay.keys": "Arrow keys step; Home and End go to the deal and to the count.",
  "replay.steps": "Stepping through the deal",
  "replay.hand": "Hand of {name}",
  "replay.hands": "The hands",
  "replay.trick": "The trick",
  "replay.payments": "Payments",
  "replay.table": "Back to the table",
  "replay.prevdeal": "Previous deal",
  "replay.nextdeal": "Next deal",
  "replay.loading": "Loading the replay...",
  "replay.error": "This replay cannot be shown: {reason}",
  "replay.dealer": "dealer",
  "replay.empty": "no cards",
  "replay.pile.discard": "Discard",
  "replay.pile.monte": "Monte",
  "replay.pile.monte_face_up": "Monte face up",
  "replay.pile.extra": "Extra cards",
  "replay.pile.laid": "Laid down",
  "replay.pile.taken": "Taken",
};
const it = {
  "watch.badge": "Spettatore",
  "watch.title": "Link per gli spettatori",
  "watch.note": "Chi ha questo link guarda il tavolo: le carte giocate, le dichiarazioni e il conto, mai una mano.",
  "watch.copy.label": "Copia il link per gli spettatori",
  "watch.chat": "Gli spettatori leggono la chat; ci scrivono solo i giocatori.",
  "watch.label": "Link per gli spettatori",
  "back.title": "Rivedi",
  "back.none": "Una smazzata si può rivedere quando è finita.",
  "back.deal": "Smazzata {n}",
  "back.deal.match": "Partita {m}, smazzata {n}",
  "back.replay.label": "Rivedi la smazzata {n}",
  "back.download": "Scarica le registrazioni (JSON lines)",
  "back.replay.this": "Rivedi questa smazzata",
  "replay.title": "Replay: smazzata {n} di {m}",
  "replay.step": "Passo {i} di {n}",
  "replay.dealt": "Le carte sono distribuite; distribuisce {name}.",
  "replay.first": "Inizio",
  "replay.prev": "Indietro",
  "replay.next": "Avanti",
  "replay.last": "Conto",
  "replay.keys": "Le frecce avanzano e tornano indietro; Home e Fine vanno alla smazzata e al conto.",
  "replay.steps": "Passo dopo passo nella smazzata",
  "replay.hand": "Mano di {name}",
  "replay.hands": "Le mani",
  "replay.trick": "La presa",
  "replay.payments": "Pagamenti",
  "replay.table": "Torna al tavolo",
  "replay.prevdeal": "Smazzata precedente",
  "replay.nextdeal": "Smazzata seguente",
  "replay.loading": "Carico il replay...",
  "replay.error": "Questo replay non si può mostrare: {reason}",
  "replay.dealer": "mazziere",
  "replay.empty": "nessuna carta",
  "replay.pile.discard": "Scarto",
  "replay.pile.monte": "Monte",
  "replay.pile.monte_face_up": "Monte scoperto",
  "replay.pile.extra": "Carte in più",
  "replay.pile.laid": "Carte posate",
  "replay.pile.taken": "Prese dal monte",
};
addMessages({ en, it });

// --- the table page: the watch link, the deals to replay, the download -----------------------

const past = { key: null, loaded: null, deals: null };

// The finished deals, asked again whenever the table's sheet or deal changes.
function keyOf(T, token) { return `${token}:${(T.sheet || []).length}:${T.deal_number}:${T.status}`; }
function deals(T, token, rerender) {
  const key = keyOf(T, token);
  if (past.key !== key) {
    past.key = key;
    fetch(`/api/deals/${token}`).then((r) => (r.ok ? r.json() : null)).then((body) => {
      if (past.key !== key || !body) return;
      past.deals = body.deals || [];
      past.loaded = key;
      rerender();
    }).catch(() => { /* the next change asks again */ });
  }
  return past.deals;
}

function watchToken(T) { return T?.watch ? T.watch.replace(/^\/w\//, "") : null; }

// The watch link with a copy button (the info panel of a seat's page); ``copyButton`` draws
// the button, as for the room's links.
export function watchRow(T, copyButton) {
  if (!T?.watch) return null;
  const url = new URL(T.watch, location.origin).href;
  return h("div", { class: "watch-link" },
    h("label", { class: "link-name", for: "watch-url", text: t("watch.title") }),
    h("span", { class: "name-row" },
      h("input", { class: "link-url", id: "watch-url", readonly: true, value: url, onfocus: (e) => e.target.select() }),
      copyButton(url, { id: "copy-watch", "data-focus": "copy-watch", title: t("watch.copy.label") },
        t("lobby.copy"), h("span", { class: "visually-hidden", text: ` ${t("watch.title")}` }))),
    h("p", { class: "note", text: t("watch.note") }));
}

// "Look back": a replay link per finished deal, and the records to download (the sheet panel).
export function lookBack(T, token, rerender) {
  if (!T || !token) return null;
  const list = deals(T, token, rerender) || [];
  const watch = watchToken(T) || token;
  const matches = new Set(list.map((d) => d.match)).size;
  return h("section", { class: "look-back", "aria-labelledby": "look-back-title" },
    h("h3", { id: "look-back-title", text: t("back.title") }),
    list.length ? h("ol", { class: "replays" }, list.map((d) => h("li", {},
      h("a", { href: `/r/${watch}/${d.number}`, "data-focus": `replay-${d.number}`, "aria-label": t("back.replay.label", { n: d.number }) },
        matches > 1 ? t("back.deal.match", { m: d.match, n: d.deal }) : t("back.deal", { n: d.deal })))))
      : h("p", { class: "quiet", text: t("back.none") }),
    // The watch token, never the seat's: a shared or saved download link opens no seat (issue 37).
    watchToken(T) ? h("p", {}, h("a", { class: "button download", id: "download-records", href: `/api/records/${watchToken(T)}`, download: "", "data-focus": "download" },
      t("back.download"))) : null);
}

// The replay of the latest finished deal (the one just counted), once the list has it; null before.
export function lastReplayHref(T, token) {
  // (only from the list asked for after this deal ended: an older one ends with the deal before)
  const last = past.loaded === keyOf(T, token) ? past.deals?.[past.deals.length - 1] : null;
  if (!last || (T.sheet || []).length === 0) return null;
  return `/r/${watchToken(T) || token}/${last.number}`;
}

// "Replay this deal" under a count.
export function replayLast(T, token) {
  const href = lastReplayHref(T, token);
  if (!href) return null;
  return h("p", { class: "replay-last" }, h("a", { href, id: "replay-this", "data-focus": "replay-this" },
    t("back.replay.this")));
}

// --- the replay page ------------------------------------------------------------------------

const R = { data: null, step: 0, error: null, shell: null, token: null, number: 0, you: null, mod: null };

// A seat's name as the table shows it: this browser's own seat "you" (or "Bice (you)"); a
// computer table's human, whose table calls them "you", is "player" to anyone else.
function nameOf(seat) {
  const raw = R.data?.names?.[seat] ?? `#${seat}`;
  if (raw === "you") return seat === R.you ? t("name.you") : t("name.human");
  return seat === R.you ? `${seatName(raw)} (${t("name.you")})` : seatName(raw);
}

// What a game's lines read of the deal so far (Sicilian names a No by the bidder's question).
function viewAt(step) {
  const D = R.data;
  const s = D.steps[step];
  let bidder = null;
  for (const past of D.steps.slice(0, step + 1)) {
    for (const e of past.events || []) if (e.type === "contract") bidder = e.seat;
  }
  return { phase: s.phase, turn: s.turn, dealer: D.dealer, bidder, trick: s.trick, last_trick: s.last_trick };
}

// The context a game module's lines are written against (app.js ctxFor), for a step.
function ctxAt(step) {
  const c = { view: viewAt(step), table: { you: R.you, seats: R.data.seats }, me: R.you,
    t, tn, has, reason, h, signed, cardName, cardLabel, cardInfo, cardSvg, miniCard, deck, whoLabel: nameOf, nameOf };
  c.tSeat = (key, seat, params) => seatLine({ you: R.you, prefix: R.mod?.prefix, whoLabel: nameOf }, key, seat, params);
  return c;
}

// A step in the table's own words (its events' lines: "Bice: no Scommessa."); an action that
// made no line is said as it is, its cards by name.
function stepWords(step) {
  const s = R.data.steps[step];
  const c = ctxAt(step);
  const lines = (s.events || []).map((e) => eventText(c, R.mod, e)).filter(Boolean);
  return lines.length ? lines.join(" ") : `${nameOf(s.seat)}: ${actionWords(s.action)}`;
}

// An action in words: its card codes by name (the game's own words stay as they are).
function actionWords(action) {
  const codes = new Set((deck()?.groups || []).flatMap((g) => g.cards));
  return String(action).split(/([\s,:]+)/).map((w) => (codes.has(w) ? cardName(w) : w)).join("");
}

function stepLine() {
  const D = R.data;
  const s = D.steps[R.step];
  const where = t("replay.step", { i: R.step, n: D.steps.length - 1 });
  if (s.seat === null) return `${where}: ${t("replay.dealt", { name: nameOf(D.dealer) })}`;
  return `${where}: ${stepWords(R.step)}`;
}

// The trick this step's card completed (it is gathered at once: the step shows it whole).
function gathered(s) {
  return (s.events || []).some((e) => e.type === "trick") && !(s.trick || []).length ? s.last_trick : null;
}

function pile(key, cards, seat) {
  const label = t(`replay.pile.${key}`) === `replay.pile.${key}` ? key : t(`replay.pile.${key}`);
  return h("p", { class: "replay-pile", "data-pile": key, "data-seat": seat ?? null },
    h("span", { class: "pile-name", text: `${label}: ` }), cards.map((c) => miniCard(c)));
}

function seatBox(seat) {
  const D = R.data;
  const s = D.steps[R.step];
  const hand = s.hands[seat] || [];
  const turn = s.turn === seat && R.step < D.steps.length - 1;
  return h("section", { class: "seat replay-seat" + (turn ? " turn" : ""), "data-seat": seat, "aria-labelledby": `replay-seat-${seat}` },
    h("div", { class: "seat-head" },
      h("h2", { class: "seat-name", id: `replay-seat-${seat}`, text: nameOf(seat) }),
      D.dealer === seat ? h("span", { class: "tag dealer", text: t("replay.dealer") }) : null),
    h("p", { class: "replay-hand", "data-seat": seat, title: t("replay.hand", { name: nameOf(seat) }) },
      hand.length ? hand.map((c) => miniCard(c)) : h("span", { class: "quiet", text: t("replay.empty") })),
    Object.entries(s.seen?.[seat] || {}).map(([key, cards]) => pile(key, cards, seat)));
}

function centerBox() {
  const D = R.data;
  const s = D.steps[R.step];
  const shown = Object.entries(s.shown || {}).filter(([key]) => key !== "trick");
  if (R.step === D.steps.length - 1) {  // the count: the payments, and what the count turned up (a discard)
    const pays = D.payments || [];
    return h("section", { class: "center count replay-count", tabindex: "0", "aria-labelledby": "replay-count-title" },
      h("h2", { id: "replay-count-title", text: t("replay.payments") }),
      h("ul", { class: "payments" }, pays.map((p, seat) => h("li", { class: p > 0 ? "plus" : p < 0 ? "minus" : "" },
        h("span", { text: nameOf(seat) }), h("b", { text: signed(p) })))),
      shown.map(([key, cards]) => pile(key, cards, null)));
  }
  const took = gathered(s);
  const cards = took ? took.cards : s.trick || [];
  // No card on the table (the auction, a discard, declarations): the latest actions, in words.
  const from = Math.max(1, R.step - 5);
  const recent = cards.length ? [] : D.steps.slice(from, R.step + 1);
  return h("section", { class: "center trick replay-trick", "aria-label": t("replay.trick") },
    recent.length ? h("ol", { class: "replay-recent", start: String(from) },
      recent.map((r, i) => h("li", { text: stepWords(from + i) }))) : null,
    h("div", { class: "trick-cards" }, cards.map((p) => h("figure", { class: "played" + (took && p.seat === took.winner ? " winner" : ""), "data-seat": p.seat, "data-card": p.card },
      h("div", { class: "card-box", role: "img", "aria-label": cardLabel(p.card) }, cardSvg(p.card)),
      h("figcaption", { text: nameOf(p.seat) })))),
    shown.map(([key, cards]) => pile(key, cards, null)));
}

function go(step) {
  if (!R.data) return;
  R.step = Math.max(0, Math.min(R.data.steps.length - 1, step));
  history.replaceState(null, "", `#${R.step}`);
  renderReplay();
}

function buildReplayShell(root) {
  const s = {};
  s.top = h("header", { class: "topbar" });
  s.seats = h("div", { class: "replay-seats", tabindex: "0", role: "group" });  // (it may scroll: reachable by keyboard)
  s.center = h("div", { class: "center-slot" });
  s.status = h("p", { class: "status", id: "status", role: "status", "aria-live": "polite" });
  const button = (id, key, onclick, keys) => h("button", { type: "button", id, "data-focus": id, "aria-keyshortcuts": keys, onclick });
  s.first = button("replay-first", "replay.first", () => go(0), "Home");
  s.prev = button("replay-prev", "replay.prev", () => go(R.step - 1), "ArrowLeft");
  s.next = button("replay-next", "replay.next", () => go(R.step + 1), "ArrowRight");
  s.last = button("replay-last", "replay.last", () => go(R.data.steps.length - 1), "End");
  s.nav = h("nav", { class: "replay-nav actions" }, s.first, s.prev, s.next, s.last);
  s.links = h("p", { class: "replay-links" });
  s.actions = h("div", { class: "actions-slot" }, s.nav, s.links);
  s.board = h("div", { class: "board replay-board" }, s.seats, s.center, s.status, s.actions);
  s.page = h("div", { class: "table-page replay-page" }, s.top, s.board);
  root.replaceChildren(s.page);
  return s;
}

function replayTop() {
  const D = R.data;
  return [
    h("div", { class: "title-block" },
      h("h1", { class: "home-h" }, h("a", { class: "home", href: "/", text: t("app.title") })),
      D ? h("span", { class: "game-name", text: t(`game.${D.game}`) }) : null),
    D ? h("span", { class: "deal-no", text: t("replay.title", { n: D.number, m: D.of }) }) : null,
    bellSlot(),
    h("button", { class: "lang", type: "button", "data-focus": "lang", lang: lang() === "en" ? "it" : "en", "aria-label": t("lang.switch.label"),
      onclick: () => { setLang(lang() === "en" ? "it" : "en"); renderReplay(); } }, t("lang.switch")),
  ];
}

function renderReplay() {
  const s = R.shell;
  const D = R.data;
  document.documentElement.lang = lang();
  document.title = D ? `${t("replay.title", { n: D.number, m: D.of })} · ${t("app.title")}` : t("app.title");
  patch(s.top, replayTop());
  s.page.dataset.step = String(R.step);
  if (!D) {
    patch(s.seats, []);
    patch(s.center, R.error ? h("p", { class: "error", role: "alert", text: t("replay.error", { reason: reason(R.error) }) }) : []);
    text(s.status, R.error ? "" : t("replay.loading"));
    s.nav.hidden = true;
    return;
  }
  s.nav.hidden = false;
  s.nav.setAttribute("aria-label", t("replay.steps"));
  s.nav.title = t("replay.keys");
  for (const [b, key] of [[s.first, "replay.first"], [s.prev, "replay.prev"], [s.next, "replay.next"], [s.last, "replay.last"]]) text(b, t(key));
  const end = D.steps.length - 1;
  s.first.disabled = s.prev.disabled = R.step === 0;
  s.next.disabled = s.last.disabled = R.step === end;
  s.seats.setAttribute("aria-label", t("replay.hands"));
  patch(s.seats, Array.from({ length: D.seats }, (_, seat) => seatBox(seat)));
  patch(s.center, centerBox());
  text(s.status, stepLine());
  patch(s.links, [
    D.number > 1 ? h("a", { href: `/r/${R.token}/${D.number - 1}`, "data-focus": "prev-deal" }, t("replay.prevdeal")) : null,
    D.number < D.of ? h("a", { href: `/r/${R.token}/${D.number + 1}`, "data-focus": "next-deal" }, t("replay.nextdeal")) : null,
    // Back to this browser's seat at the table if it has one (seats.js), else to watch it; a
    // finished match's link (<table>.<match>, a profile's) opens its deals alone: no table to watch.
    seatAt(D.table) || !R.token.includes(".")
      ? h("a", { href: seatAt(D.table) || `/w/${R.token}`, "data-focus": "to-table" }, t("replay.table")) : null,
    h("a", { href: `/api/records/${R.token}`, download: "", "data-focus": "replay-download" }, t("back.download")),
  ]);
}

function onReplayKey(e) {
  if (!R.data || e.altKey || e.ctrlKey || e.metaKey) return;
  const el = document.activeElement;
  if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT")) return;
  const to = { ArrowLeft: R.step - 1, ArrowRight: R.step + 1, Home: 0, End: R.data.steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
}

// The replay page: ``loadGames`` brings the decks (the cards are drawn from them).
export async function replayPage(root, token, number, loadGames) {
  R.token = token;
  R.number = number;
  R.you = seatByWatch(token);
  R.shell = buildReplayShell(root);
  document.addEventListener("keydown", onReplayKey);
  renderReplay();
  startSocial(renderReplay);
  await loadGames();
  try {
    const res = await fetch(`/api/replay/${token}/${number}`);
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.error || res.statusText);
    useDeck(body.game);
    // The game's module: its lines and its words (the table's, for the same events).
    R.mod = await import(`./games/${body.game}.js`).then((m) => {
      if (m.default?.messages) addMessages(m.default.messages);
      return m.default;
    }).catch(() => null);
    R.data = body;
    const from = Number((location.hash || "").slice(1));
    R.step = Number.isInteger(from) && from >= 0 && from < body.steps.length ? from : 0;
  } catch (e) {
    R.error = e.message;
  }
  renderReplay();
}
