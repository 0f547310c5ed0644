// A player's profile, /@/<name>, and a game's leaderboard, /leaderboard/<game> (issue 40; the
// server's side is tarocchi/server/ratings.py: GET /api/players/<name>, GET
// /api/leaderboard/<game>). A rating is OpenSkill's (mu, sigma) per game and table size; the
// number shown is the server's "rating" (issue 56): 1500 + 40 x its conservative value (mu - 3
// sigma, the one the leaderboards rank by), a newcomer's 1500, never negative; a rating still
// unsure is marked provisional. A match's change is told in that number too.
//
// The lobby's links to the leaderboards are boardsNav() (app.js lobbyPage).

import { t, tn, has, lang, seatName } from "./i18n.js";
import { h } from "./dom.js";
import { accountName, pageTop, when, startSocial } from "./account.js";  // (it brings the catalogue: account.i18n.js)

const LOOKED_UP = 10;  // tables whose deals a profile asks for (to link a rematch's replay)
const GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"];  // the order the lobby shows them in

export function gameTitle(name) {
  const key = `game.${name}`;
  return has(key) ? t(key) : name;
}

function number(x, digits = 1) {
  return new Intl.NumberFormat(lang() === "it" ? "it-IT" : "en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(x);
}



// A change of the shown rating (a whole number): +24, −16, 0.
function signedWhole(x) { return x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0"; }

export function place(n) {
  if (lang() === "it") return `${n}º`;
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

// A name that may break after its . - _ (a narrow column wraps it there, not mid-word).
function breakable(name) {
  return String(name).split(/(?<=[._-])/).flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

function profileHref(name) { return `/@/${encodeURIComponent(name)}`; }

function provisionalTag() {
  return h("span", { class: "tag-provisional", title: t("rate.provisional.title"), text: t("rate.provisional") });
}

// The lobby's links: a leaderboard per game (``games``: [{name}], in the lobby's order).
export function boardsNav(games, title = (g) => gameTitle(g.name)) {
  return h("nav", { class: "panel boards-nav", "aria-labelledby": "boards-nav-h" },
    h("h2", { id: "boards-nav-h", class: "boards-nav-h", text: t("board.nav") }),
    h("ul", {}, games.map((g) => h("li", {},
      h("a", { class: "button", href: `/leaderboard/${encodeURIComponent(g.name)}`, "data-focus": `board-${g.name}`, id: `board-link-${g.name}` },
        title(g))))));
}

async function getJson(path) {
  let res;
  try {
    res = await fetch(path);
  } catch {
    return { status: 0, body: {} };
  }
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

// A page of its own: the top bar and what ``body()`` draws, drawn again on a language switch.
function page(root, kind, title, body) {
  const draw = () => {
    const focusKey = document.activeElement?.dataset?.focus;
    document.documentElement.lang = lang();
    document.title = `${title()} · ${t("app.title")}`;
    root.replaceChildren(h("div", { class: `lobby people-page ${kind}` }, pageTop(draw), body()));
    if (focusKey) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  };
  return draw;
}

function failure(P, what) {
  return [
    h("h1", { id: "page-h", text: t(P.status === 404 ? `${what}.missing` : "rate.error.title") }),
    h("p", { class: "missing", role: "alert", text: P.status === 404 ? t(`${what}.missing.more`, { name: P.name })
      : t("rate.error", { reason: P.body?.error || t("acct.offline") }) }),
    h("p", {}, h("a", { class: "button primary", href: "/", "data-focus": "to-lobby" }, t("acct.lobby"))),
  ];
}

// --- the profile -----------------------------------------------------------------------------

function ratingKeys(ratings) {
  const order = (key) => {
    const [game, seats] = key.split("/");
    const i = GAMES.indexOf(game);
    return [i < 0 ? GAMES.length : i, Number(seats) || 0];
  };
  return Object.keys(ratings || {}).sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1] || a.localeCompare(b);
  });
}

function ratingCard(key, r) {
  const [game, seats] = key.split("/");
  return h("li", { class: "rating-card" + (r.provisional ? " provisional" : ""), "data-key": key },
    h("h3", {}, h("a", { href: `/leaderboard/${encodeURIComponent(game)}#${seats}`, "data-focus": `rating-${key}` },
      t("rate.key", { game: gameTitle(game), n: seats }))),
    h("p", { class: "rating-line" },
      h("span", { class: "rating-value", "data-ordinal": r.ordinal, text: String(r.rating) }),
      r.provisional ? provisionalTag() : null,
      h("span", { class: "quiet", text: tn("rate.matches", r.matches) })),
    h("details", { class: "rating-detail" },
      h("summary", { text: t("rate.detail") }),
      h("p", { text: t("rate.detail.text", { mu: number(r.mu), sigma: number(r.sigma), ordinal: number(r.ordinal), rating: r.rating }) })));
}

const FORMER = "a former player";  // a deleted account's name in the matches it played (the store's)

function playerName(p) {
  if (p.account && !p.you) return h("a", { href: profileHref(p.name), text: p.name });
  if (p.you) return h("span", { text: t("prof.you", { name: p.name }) });
  return h("span", { text: p.name === FORMER ? t("prof.former") : seatName(p.name) });
}

// Where a match is looked back at: a rated match's table has its watch link (an unrated one
// none: a room by link's watch link is its players' to share); its replay opens at the match's
// first deal (deals are numbered over the table's matches: GET /api/deals says where a rematch's
// begin), else the watch page.
function replayOf(m, P) {
  if (m.replay) return { href: m.replay, replay: true };
  const token = typeof m.watch === "string" ? m.watch.replace(/^\/w\//, "") : null;
  if (!token) return null;
  const first = m.match === 1 ? 1 : P.firstDeals[token]?.[m.match];
  return first ? { href: `/r/${token}/${first}`, replay: true } : { href: m.watch, replay: false };
}

async function findFirstDeals(P) {
  const tokens = [...new Set(P.body.matches.filter((m) => !m.replay && m.watch && m.match > 1)
    .map((m) => m.watch.replace(/^\/w\//, "")))].slice(0, LOOKED_UP);
  await Promise.all(tokens.map(async (token) => {
    const { status, body } = await getJson(`/api/deals/${encodeURIComponent(token)}`);
    if (status !== 200 || !Array.isArray(body.deals)) return;
    const first = {};
    for (const d of body.deals) if (!(d.match in first) || d.number < first[d.match]) first[d.match] = d.number;
    P.firstDeals[token] = first;
  }));
}

function matchItem(m, P) {
  const me = m.players.find((p) => p.you) || m.players.find((p) => p.seat === m.seat) || {};
  const others = m.players.filter((p) => p !== me).sort((a, b) => a.place - b.place || a.seat - b.seat);
  const change = m.rated && m.rating_after !== null && m.rating_after !== undefined
    ? t(m.before ? "prof.change" : "prof.change.first",
      { delta: signedWhole(m.rating_after - m.rating_before), from: String(m.rating_before), to: String(m.rating_after) })
    : t("prof.unrated");
  const won = me.place === 1;
  const back = replayOf(m, P);
  return h("li", { class: "match" + (won ? " won" : ""), "data-table": m.table, "data-match": m.match },
    h("div", { class: "match-head" },
      h("strong", { text: t("rate.key", { game: gameTitle(m.game), n: m.seats }) }),
      h("time", { class: "quiet", datetime: new Date(m.ended * 1000).toISOString(), text: when(m.ended) })),
    h("p", { class: "match-result" },
      h("span", { class: "match-place", text: t(won ? "prof.place.won" : "prof.place", { place: place(me.place), total: me.total }) }),
      h("span", { class: "match-change" + (m.rated && m.rating_after ? "" : " quiet"), text: change })),
    others.length ? h("p", { class: "match-others" }, t("prof.with"), " ",
      others.map((p, i) => [i ? ", " : "", playerName(p), ` (${t("prof.other", { place: place(p.place), total: p.total })})`])) : null,
    back ? h("p", {}, h("a", { class: "replay-link", href: back.href, "data-focus": `replay-${m.table}-${m.match}`,
      "aria-label": t(back.replay ? "prof.replay.label" : "prof.watch.label", { game: gameTitle(m.game), date: when(m.ended) }) },
    t(back.replay ? "prof.replay" : "prof.watch"))) : null);
}

// --- Report (issue 58) -------------------------------------------------------------------------
// A signed-in player reports another from the profile: the dialog's module (report.js) comes
// when the button is pressed, never with the page (issue 60).
function reportBlock(D, mine) {
  if (!accountName() || mine) return null;
  return h("p", { class: "report-row" },
    h("button", { type: "button", class: "report-button", id: "report-player", "data-focus": "report-player",
      onclick: (e) => {
        const opener = e.currentTarget;
        import("./report.js").then((m) => m.openReport({ name: D.name, opener }));
      } },
    t("prof.report", { name: D.name })));
}
// --- end of Report ------------------------------------------------------------------------------

function profileBody(P) {
  if (P.status === null) return [h("h1", { id: "page-h", text: P.name }), h("p", { class: "quiet", role: "status", text: t("rate.loading") })];
  if (P.status !== 200) return failure(P, "prof");
  const D = P.body;
  const keys = ratingKeys(D.ratings);
  const matches = Array.isArray(D.matches) ? D.matches : [];
  const mine = accountName() && accountName().toLowerCase() === String(D.name).toLowerCase();
  return [
    h("h1", { id: "page-h", class: "profile-name", text: D.name }),
    mine ? h("p", {}, t("prof.mine"), " ", h("a", { href: "/account", "data-focus": "to-account" }, t("prof.mine.account"))) : null,
    h("p", {}, h("a", { class: "button", id: "games-link", href: `${profileHref(D.name)}/games`, "data-focus": "games-link" }, t("prof.games"))),  // (issue 58)
    // (a leaver's pause from rated tables: said to that player alone, issue 56)
    mine && P.pause?.until ? h("p", { class: "error pause-note", id: "pause-note", role: "note",
      text: t("prof.paused", { time: when(P.pause.until), n: P.pause.leaves }) }) : null,
    mine ? null : socialBlock(P),
    reportBlock(D, mine),
    h("div", { class: "profile-grid" },
      h("section", { class: "panel lobby-card", id: "ratings", "aria-labelledby": "ratings-h" },
        h("h2", { id: "ratings-h", text: t("prof.ratings") }),
        keys.length ? [
          h("p", { class: "note", text: t("rate.explain") }),
          h("ul", { class: "rating-cards" }, keys.map((k) => ratingCard(k, D.ratings[k]))),
        ] : h("p", { class: "quiet", text: t("prof.ratings.none") })),
      h("section", { class: "panel lobby-card", id: "matches", "aria-labelledby": "matches-h" },
        h("h2", { id: "matches-h", text: tn("prof.matches", matches.length) }),
        matches.length ? h("ol", { class: "match-list" }, matches.map((m) => matchItem(m, P))) : h("p", { class: "quiet", text: t("prof.matches.none") }))),
  ];
}

export async function profilePage(root, name) {
  const P = { name, status: null, body: null, firstDeals: {} };
  const draw = page(root, "profile-page", () => (P.status === 200 ? P.body.name : P.status === 404 ? t("prof.missing") : name),
    () => profileBody(P));
  P.draw = draw;
  draw();
  const { status, body } = await getJson(`/api/players/${encodeURIComponent(name)}`);
  P.status = status;
  P.body = body;
  if (status === 200 && !Array.isArray(body.matches)) body.matches = [];
  draw();
  if (status === 200 && accountName() && accountName().toLowerCase() === String(body.name).toLowerCase()) {
    const pause = await getJson("/api/me/pause");
    if (pause.status === 200 && pause.body.until) { P.pause = pause.body; draw(); }
  }
  if (status === 200 && body.matches.some((m) => !m.replay && m.watch && m.match > 1)) {
    await findFirstDeals(P);
    draw();
  }
}

// --- a profile's friends, blocks and challenges (issue 58: social.js draws them) ------------------
// (Kept in this one block: the profile's other buttons are drawn apart from it.)

function socialBlock(P) {
  if (!accountName()) return null;
  if (P.social === undefined) {
    P.social = null;
    startSocial().then((m) => {
      if (!m) return;
      P.social = m.profileActions(P.body.name, P.draw);
      P.draw();
    });
  }
  return P.social;
}

// --- the leaderboard ---------------------------------------------------------------------------

function boardTable(board) {
  const players = board.players || [];
  if (!players.length) return h("p", { class: "quiet empty-board", text: t("board.empty") });
  const me = (accountName() || "").toLowerCase();
  return h("div", { class: "board-scroll" },
    h("table", { class: "board-table" },
      h("caption", { class: "visually-hidden", text: t("board.caption", { n: board.seats }) }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "rank", text: t("board.rank") }),
        h("th", { scope: "col", text: t("board.player") }),
        h("th", { scope: "col", class: "num", text: t("board.rating") }),
        h("th", { scope: "col", class: "num", text: t("board.matches") }))),
      h("tbody", {}, players.map((p) => {
        const you = me && p.name.toLowerCase() === me;
        return h("tr", { class: (p.provisional ? "provisional" : "") + (you ? " you" : ""), "data-name": p.name },
          h("td", { class: "rank", text: String(p.rank) }),
          h("th", { scope: "row", class: "who" }, h("a", { href: profileHref(p.name) }, breakable(p.name)),
            you ? h("span", { class: "quiet", text: ` (${t("name.you")})` }) : null),
          h("td", { class: "num rating" }, h("span", { class: "rating-value", text: String(p.rating) }),
            p.provisional ? [" ", provisionalTag()] : null),
          h("td", { class: "num", text: String(p.matches) }));
      }))));
}

function boardBody(B) {
  if (B.status === null) return [h("h1", { id: "page-h", text: t("board.title", { game: gameTitle(B.name) }) }), h("p", { class: "quiet", role: "status", text: t("rate.loading") })];
  if (B.status !== 200) return failure(B, "board");
  const boards = (B.body.boards || []).slice().sort((a, b) => a.seats - b.seats);
  const shown = boards.find((b) => b.seats === B.seats) || boards[0];
  const select = (seats, focus) => {
    B.seats = seats;
    history.replaceState(null, "", `#${seats}`);
    B.draw();
    if (focus) document.getElementById(`board-tab-${seats}`)?.focus();
  };
  const onKey = (e) => {
    const i = boards.indexOf(shown);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: boards.length - 1 }[e.key];
    if (to === undefined || !boards.length) return;
    e.preventDefault();
    select(boards[(to + boards.length) % boards.length].seats, true);
  };
  const others = (B.games || GAMES).filter((g) => g !== B.body.game);
  return [
    h("h1", { id: "page-h", text: t("board.title", { game: gameTitle(B.body.game) }) }),
    h("p", { class: "tagline", text: t("board.help") }),
    h("section", { class: "panel lobby-card board-card", "aria-labelledby": "page-h" },
      boards.length > 1 ? h("div", { class: "board-tabs", role: "tablist", "aria-label": t("board.tabs"), onkeydown: onKey },
        boards.map((b) => h("button", { type: "button", role: "tab", id: `board-tab-${b.seats}`, "data-focus": `board-tab-${b.seats}`,
          "aria-selected": String(b === shown), "aria-controls": `board-${b.seats}`, tabindex: b === shown ? "0" : "-1",
          onclick: () => select(b.seats, false) }, t("lobby.seats.n", { n: b.seats })))) : null,
      shown ? h("div", { class: "board-panel", id: `board-${shown.seats}`, "data-seats": shown.seats,
        role: boards.length > 1 ? "tabpanel" : null, "aria-labelledby": boards.length > 1 ? `board-tab-${shown.seats}` : null },
      boards.length > 1 ? null : h("h2", { text: t("lobby.seats.n", { n: shown.seats }) }),
      boardTable(shown)) : h("p", { class: "quiet empty-board", text: t("board.empty") }),
      h("p", { class: "note", text: t("rate.explain") })),
    others.length ? h("nav", { class: "panel boards-nav", "aria-labelledby": "other-boards-h" },
      h("h2", { id: "other-boards-h", class: "boards-nav-h", text: t("board.others") }),
      h("ul", {}, others.map((g) => h("li", {}, h("a", { class: "button", href: `/leaderboard/${encodeURIComponent(g)}`, "data-focus": `board-${g}` }, gameTitle(g)))))) : null,
  ];
}

export async function leaderboardPage(root, game) {
  const B = { name: game, status: null, body: null, seats: Number(location.hash.slice(1)) || null, games: null };
  B.draw = page(root, "board-page", () => t("board.title", { game: gameTitle(game) }), () => boardBody(B));
  B.draw();
  const [board, games] = await Promise.all([getJson(`/api/leaderboard/${encodeURIComponent(game)}`), getJson("/api/games")]);
  B.status = board.status;
  B.body = board.body;
  if (Array.isArray(games.body.games)) B.games = games.body.games.map((g) => g.name);
  B.draw();
}
