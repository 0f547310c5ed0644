// A player's games, /@/<name>/games (issue 58; the server's side is tarocchi/server/archive.py:
// GET /api/players/<name>/games and /figures, POST /api/me/settings). The archive of finished
// matches with its filters (kept in the page's address, so a link or Back shows the same), each
// rated match linked to its deals' replay; the figures per game: deals, contracts taken and made
// by kind, the average per deal, the best and worst match, and the rating over time drawn as a
// line (an inline SVG, with the same numbers in a table for a screen reader). The player's own
// page has the switch that makes the archive private.

import { t, lang, addMessages } from "./i18n.js";
import { h, asset } from "./dom.js";
import { accountName, pageTop, when } from "./account.js";
import { gameTitle, place } from "./players.js";
import messages from "./archive.i18n.js";

addMessages(messages);
document.head.append(h("link", { rel: "stylesheet", href: asset("/static/archive.css") }));

const GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"];  // the lobby's order
const FILTERS = ["game", "seats", "rated", "result", "opponent", "from", "to"];
const FORMER = "a former player";  // a deleted account's name in the matches it played (the store's)
const SVG = "http://www.w3.org/2000/svg";

const A = { root: null, name: "", status: null, error: null, list: null, figures: null, filters: {}, note: null, busy: false };

function number(x) {
  return new Intl.NumberFormat(lang() === "it" ? "it-IT" : "en-GB", { maximumFractionDigits: 2 }).format(x);
}

async function getJson(path, options) {
  try {
    const res = await fetch(path, options);
    return { status: res.status, body: await res.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

function mine() {
  return Boolean(accountName()) && accountName().toLowerCase() === String(A.list?.name || A.name).toLowerCase();
}

function query(extra = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...A.filters, ...extra })) if (v !== "" && v !== undefined && v !== null) q.set(k, v);
  return q.toString();
}

// --- the figures -------------------------------------------------------------------------------

function kindText(c) {
  const key = `arch.kind.${String(c.contract).replace(/ /g, "_")}`;
  return t(`arch.role.${c.role}`, { kind: key in messages.en ? t(key) : String(c.contract) });
}

function matchLine(m) {
  const text = t("arch.match.line", { date: when(m.at, false), points: m.points, place: place(m.place) });
  return m.replay ? h("a", { href: m.replay, "data-focus": `fig-${m.table}-${m.match}` }, text) : h("span", { text });
}

// The rating over time: a line through each rated match's rating, by date.
function ratingChart(game, curve) {
  const points = curve.points;
  const id = `chart-${game}-${curve.seats}`;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values), high = Math.max(...values);
  const [W, H, pad] = [320, 140, 18];
  const first = points[0].at, last = points[points.length - 1].at;
  const x = (p, i) => (points.length === 1 ? W / 2 : pad + ((last > first ? (p.at - first) / (last - first) : i / (points.length - 1)) * (W - 2 * pad)));
  const y = (v) => (high === low ? H / 2 : H - pad - ((v - low) / (high - low)) * (H - 2 * pad));
  const svg = document.createElementNS(SVG, "svg");
  const set = (el, attrs) => { for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v)); return el; };
  set(svg, { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-labelledby": `${id}-h ${id}-d` });
  const line = set(document.createElementNS(SVG, "polyline"), { points: points.map((p, i) => `${x(p, i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "), class: "chart-line" });
  svg.append(line);
  for (const [v, at] of [[high, pad - 6], [low, H - 4]]) {
    const label = set(document.createElementNS(SVG, "text"), { x: 2, y: at, class: "chart-label" });
    label.textContent = String(v);
    svg.append(label);
    if (high === low) break;
  }
  points.forEach((p, i) => svg.append(set(document.createElementNS(SVG, "circle"), { cx: x(p, i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, class: "chart-dot" })));
  return h("figure", { class: "rating-figure", "data-key": curve.key },
    h("figcaption", { id: `${id}-h`, text: t("arch.rating", { n: curve.seats }) }),
    svg,
    h("p", { id: `${id}-d`, class: "quiet", text: t("arch.rating.desc", { first: values[0], last: values[values.length - 1], n: points.length, low, high }) }),
    h("table", { class: "visually-hidden" },
      h("caption", { text: t("arch.rating.table") }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("arch.rating.date") }), h("th", { scope: "col", text: t("arch.rating.value") }))),
      h("tbody", {}, points.map((p) => h("tr", {}, h("td", { text: when(p.at) }), h("td", { text: String(p.rating) }))))));
}

function gameFigures(g) {
  const contracts = g.contracts || [];
  return h("section", { class: "panel lobby-card game-figures", "data-game": g.game, "aria-labelledby": `fig-${g.game}-h` },
    h("h3", { id: `fig-${g.game}-h`, text: gameTitle(g.game) }),
    h("ul", { class: "figure-lines" },
      h("li", { text: t("arch.matches", { n: g.matches, won: g.won }) }),
      h("li", { text: t("arch.deals", { n: g.deals, played: g.played, thrown: g.thrown }) }),
      g.average === null ? null : h("li", { class: "figure-average", text: t("arch.average", { average: number(g.average) }) }),
      g.declared ? h("li", { text: t("arch.declared", { average: number(g.declared.average) }) }) : null,
      g.announced?.length ? h("li", { text: t("arch.announced", { list: g.announced.map((a) => t("arch.announce", { word: a.announce, said: a.said, made: a.made })).join(", ") }) }) : null),
    contracts.length ? h("table", { class: "contracts" },
      h("caption", { class: "visually-hidden", text: t("arch.contracts.caption", { game: gameTitle(g.game) }) }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("arch.contract") }),
        h("th", { scope: "col", class: "num", text: t("arch.taken") }),
        h("th", { scope: "col", class: "num", text: t("arch.made") }))),
      h("tbody", {}, contracts.map((c) => h("tr", { "data-contract": c.contract, "data-role": c.role },
        h("th", { scope: "row", text: kindText(c) }),
        h("td", { class: "num", text: String(c.taken) }),
        h("td", { class: "num", text: String(c.made) })))))
      : (g.game === "sicilian" || g.game === "calabresella" ? h("p", { class: "quiet", text: t("arch.contracts.none") }) : null),
    h("dl", { class: "best-worst" },
      h("dt", { text: t("arch.best") }), h("dd", {}, matchLine(g.best)),
      h("dt", { text: t("arch.worst") }), h("dd", {}, matchLine(g.worst))),
    (g.ratings || []).map((curve) => ratingChart(g.game, curve)));
}

// --- the filters and the list ------------------------------------------------------------------

function choice(id, key, options) {
  return h("p", { class: "filter" },
    h("label", { for: `f-${id}`, text: t(key) }),
    h("select", { id: `f-${id}`, name: id, "data-focus": `f-${id}` },
      h("option", { value: "", text: t("arch.filter.any") }),
      options.map(([value, text]) => h("option", { value, text, selected: A.filters[id] === value }))));
}

function field(id, key, type) {
  return h("p", { class: "filter" },
    h("label", { for: `f-${id}`, text: t(key) }),
    h("input", { id: `f-${id}`, name: id, type, value: A.filters[id] || "", "data-focus": `f-${id}`, autocomplete: "off" }));
}

function filtersForm() {
  const apply = async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    A.filters = Object.fromEntries(FILTERS.map((k) => [k, String(form.get(k) || "").trim()]).filter(([, v]) => v));
    history.replaceState(null, "", `${location.pathname}${query() ? `?${query()}` : ""}`);
    await loadList();
  };
  const clear = async () => {
    A.filters = {};
    history.replaceState(null, "", location.pathname);
    await loadList();
  };
  return h("form", { class: "panel lobby-card archive-filters", "aria-labelledby": "filters-h", onsubmit: apply },
    h("h2", { id: "filters-h", text: t("arch.filters") }),
    h("div", { class: "filter-grid" },
      choice("game", "arch.filter.game", GAMES.map((g) => [g, gameTitle(g)])),
      choice("seats", "arch.filter.seats", [["3", "3"], ["4", "4"]]),
      choice("rated", "arch.filter.rated", [["true", t("arch.filter.rated.true")], ["false", t("arch.filter.rated.false")]]),
      choice("result", "arch.filter.result", [["won", t("arch.filter.result.won")], ["lost", t("arch.filter.result.lost")]]),
      field("opponent", "arch.filter.opponent", "text"),
      field("from", "arch.filter.from", "date"),
      field("to", "arch.filter.to", "date")),
    h("p", { class: "row" },
      h("button", { type: "submit", class: "primary", id: "filters-apply", "data-focus": "filters-apply" }, t("arch.filter.apply")),
      h("button", { type: "button", id: "filters-clear", "data-focus": "filters-clear", onclick: clear }, t("arch.filter.clear"))));
}

function matchItem(m) {
  const names = m.opponents.map((n) => (n === FORMER ? t("arch.former") : n)).join(", ");
  return h("li", { class: "match" + (m.place === 1 ? " won" : ""), "data-table": m.table, "data-match": m.match },
    h("div", { class: "match-head" },
      h("strong", { text: t("rate.key", { game: gameTitle(m.game), n: m.seats }) }),
      h("span", { class: "quiet", text: t(m.rated ? "arch.rated" : "arch.casual") }),
      h("time", { class: "quiet", datetime: new Date(m.at * 1000).toISOString(), text: when(m.at) })),
    h("p", { class: "match-result", text: t("arch.place", { place: place(m.place), points: m.points }) }),
    names ? h("p", { class: "match-others", text: t("arch.with", { names }) }) : null,
    m.replay ? h("p", {}, h("a", { class: "replay-link", href: m.replay, "data-focus": `replay-${m.table}-${m.match}`,
      "aria-label": t("arch.replay.label", { game: gameTitle(m.game), date: when(m.at) }) }, t("arch.replay")))
      : h("p", { class: "quiet", text: t("arch.replay.none") }));
}

function privacySwitch() {
  const change = async (e) => {
    const wanted = e.target.checked;
    const { status, body } = await getJson("/api/me/settings", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ games_public: wanted }) });
    if (status === 200) {
      A.list.games_public = body.games_public;
      A.note = t(body.games_public ? "arch.private.saved.public" : "arch.private.saved.private");
    } else {
      A.note = t("arch.error", { reason: body.error || t("acct.offline") });
    }
    draw();
  };
  return h("section", { class: "panel lobby-card archive-privacy", "aria-labelledby": "privacy-label" },
    h("p", { class: "row" },
      h("input", { type: "checkbox", id: "games-public", "data-focus": "games-public", checked: A.list.games_public, onchange: change }),
      h("label", { for: "games-public", id: "privacy-label", text: t("arch.private.label") })),
    h("p", { class: "note", text: t("arch.private.help") }),
    A.note ? h("p", { class: "ok-note", role: "status", text: A.note }) : null);
}

function body() {
  if (A.status === null) return [h("h1", { id: "page-h", text: t("arch.title", { name: A.name }) }), h("p", { class: "quiet", role: "status", text: t("arch.loading") })];
  if (A.status !== 200) {
    return [
      h("h1", { id: "page-h", text: t(A.status === 404 ? "arch.missing" : "arch.title", { name: A.name }) }),
      h("p", { class: "missing", role: "alert", text: A.status === 404 ? t("arch.missing.more", { name: A.name }) : t("arch.error", { reason: A.error || t("acct.offline") }) }),
    ];
  }
  const name = A.list.name;
  const games = A.figures?.games || [];
  const matches = A.list.matches || [];
  return [
    h("h1", { id: "page-h", text: t("arch.title", { name }) }),
    h("p", {}, h("a", { href: `/@/${encodeURIComponent(name)}`, "data-focus": "to-profile" }, t("arch.profile", { name }))),
    mine() ? privacySwitch() : null,
    h("section", { class: "archive-figures", "aria-labelledby": "figures-h" },
      h("h2", { id: "figures-h", text: t("arch.figures") }),
      games.length ? h("div", { class: "figures-grid" }, games.map(gameFigures)) : h("p", { class: "quiet", text: t("arch.figures.none") })),
    filtersForm(),
    h("section", { class: "panel lobby-card archive-list", "aria-labelledby": "list-h" },
      h("h2", { id: "list-h", text: t("arch.list") }),
      matches.length ? h("ol", { class: "match-list" }, matches.map(matchItem)) : h("p", { class: "quiet", id: "list-none", text: t("arch.list.none") }),
      A.list.next !== null && A.list.next !== undefined
        ? h("p", {}, h("button", { type: "button", id: "list-more", "data-focus": "list-more", onclick: more }, t("arch.list.more"))) : null),
  ];
}

function draw() {
  const focusKey = document.activeElement?.dataset?.focus;
  document.documentElement.lang = lang();
  document.title = `${t("arch.title", { name: A.list?.name || A.name })} · ${t("app.title")}`;
  A.root.replaceChildren(h("div", { class: "lobby people-page archive-page", "data-state": A.status === null ? "loading" : String(A.status) }, pageTop(draw), body()));
  if (focusKey) A.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
}

function failed(answer) {
  A.status = answer.status;
  A.error = answer.body?.error || null;
}

async function loadList() {
  const answer = await getJson(`/api/players/${encodeURIComponent(A.name)}/games?${query()}`);
  if (answer.status === 200) A.list = answer.body;
  else if (answer.status === 400 && A.list) A.note = t("arch.error", { reason: answer.body.error });
  else failed(answer);
  draw();
}

async function more() {
  const answer = await getJson(`/api/players/${encodeURIComponent(A.name)}/games?${query({ before: A.list.next })}`);
  if (answer.status !== 200) return;
  A.list = { ...answer.body, matches: [...A.list.matches, ...answer.body.matches] };
  draw();
}

export async function archivePage(root, name) {
  Object.assign(A, { root, name, filters: {} });
  const params = new URLSearchParams(location.search);
  for (const k of FILTERS) if (params.get(k)) A.filters[k] = params.get(k);
  draw();
  const path = `/api/players/${encodeURIComponent(name)}`;
  const [list, figures] = await Promise.all([getJson(`${path}/games?${query()}`), getJson(`${path}/figures`)]);
  if (list.status === 400) {  // (an address with a bad filter: the archive without it)
    A.filters = {};
    Object.assign(list, await getJson(`${path}/games`));
  }
  if (list.status !== 200) failed(list);
  else if (figures.status !== 200) failed(figures);
  else Object.assign(A, { status: 200, list: list.body, figures: figures.body });
  draw();
}
