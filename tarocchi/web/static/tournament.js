// The tournaments' list and the form to make one, /tournaments, and a tournament's page,
// /tournament/<id> (issue 59; the server's side is
// tarocchi/server/tournaments.py: GET /api/tournaments/<id>, POST and DELETE .../join): who
// plays, the standings as they move, the tables now with their watch links, the podium at the
// end, and the asker's own seat when their table is ready. Asked again every few seconds while
// the tournament is not over. Every text is set with textContent (dom.js h's ``text``).

import { t, tn, lang, reason, addMessages, REASONS } from "./i18n.js";
import { h } from "./dom.js";
import { accountName, fetchMe, pageTop, when } from "./account.js";
import { gameTitle } from "./players.js";
import messages from "./tournament.i18n.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian

const EVERY_MS = 3000;  // how often a tournament under way is asked again

function number(x, digits) {
  return new Intl.NumberFormat(lang() === "it" ? "it-IT" : "en-GB", { maximumFractionDigits: digits }).format(x);
}

function facts(D) {
  const base = { seats: D.seats };
  return D.kind === "arena"
    ? t("tour.facts.arena", { ...base, minutes: Math.round((D.ends - D.starts) / 60), time: when(D.ends) })
    : t("tour.facts.rounds", { ...base, round: D.round, rounds: D.rounds });
}

function standingsTable(D) {
  const duplicate = D.kind === "duplicate";
  const heads = duplicate ? ["tour.rank", "tour.player", "tour.percent"]
    : ["tour.rank", "tour.player", "tour.points", "tour.matches", ...(D.kind === "swiss" ? ["tour.buchholz"] : [])];
  return h("table", { class: "board tournament-standings" },
    h("caption", { class: "visually-hidden", text: t("tour.caption") }),
    h("thead", {}, h("tr", {}, heads.map((k) => h("th", { scope: "col", text: t(k) })))),
    h("tbody", {}, D.players.map((p) => h("tr", { "data-number": p.number },
      h("td", { text: String(p.rank) }),
      h("th", { scope: "row" }, h("span", { text: p.name || "—" }), p.present ? null : h("span", { class: "quiet", text: ` ${t("tour.away")}` })),
      ...(duplicate ? [h("td", { text: number(p.percent, 1) })]
        : [h("td", { text: number(p.points, 1) }), h("td", { text: String(p.matches) }),
          ...(D.kind === "swiss" ? [h("td", { text: number(p.buchholz, 1) })] : [])])))));
}

function tablesList(D) {
  const rounds = [...D.rounds].reverse();  // (the latest first: the tables now)
  return rounds.map((r) => h("section", { class: "tournament-round", "aria-labelledby": `round-${r.round}-h` },
    h("h3", { id: `round-${r.round}-h`, text: t("tour.round", { n: r.round }) }),
    h("ul", { class: "tournament-tables" }, r.tables.map((x) => h("li", { "data-table": x.table },
      h("strong", { text: t("tour.table", { n: x.table }) }), " ",
      h("span", { text: x.names.map((n) => n ?? t("tour.computer")).join(", ") }), " ",
      x.done ? h("span", { class: "quiet", text: `(${t("tour.done")})` }) : null,
      x.watch && !x.done ? h("a", { class: "button", href: x.watch, "data-focus": `watch-${r.round}-${x.table}`,
        "aria-label": t("tour.watch.label", { n: x.table, round: r.round }), text: t("tour.watch") }) : null)))));
}

function body(P, join) {
  if (P.status === null) return [h("h1", { id: "page-h", text: t("tour.loading") })];
  if (P.status !== 200) {
    return [h("h1", { id: "page-h", text: t(P.status === 404 ? "tour.missing" : "tour.loading") }),
      h("p", { class: "missing", role: "alert", text: P.status === 404 ? t("tour.missing.more")
        : t("tour.error", { reason: P.body?.error ? reason(P.body.error) : t("tour.offline") }) })];
  }
  const D = P.body;
  const signedIn = !!accountName();
  const status = D.status === "upcoming" ? t("tour.status.upcoming", { time: when(D.starts) }) : t(`tour.status.${D.status}`);
  return [
    h("h1", { id: "page-h", text: t("tour.title", { kind: t(`tour.kind.${D.kind}`), game: gameTitle(D.game) }) }),
    h("p", { class: "tournament-facts" }, h("strong", { text: status }), ` · ${facts(D)} · ${t(D.rated ? "tour.rated" : "tour.unrated")}`),
    D.seat ? h("p", { class: "tournament-seat", role: "status" }, t("tour.seat"), " ",
      h("a", { class: "button primary", href: D.seat, "data-focus": "seat", text: t("tour.seat.go") })) : null,
    D.status === "finished" ? null : h("p", {},
      !signedIn ? h("a", { class: "button", href: "/account", "data-focus": "sign-in", text: t("tour.sign.in") })
        : D.joined ? [h("span", { text: t("tour.joined") }), " ",
          h("button", { type: "button", "data-focus": "leave", onclick: () => join("DELETE"), text: t("tour.leave") })]
          : h("button", { type: "button", class: "primary", "data-focus": "join", onclick: () => join("POST"), text: t("tour.join") })),
    P.error ? h("p", { class: "error", role: "alert", text: reason(P.error) }) : null,
    D.podium && D.podium.length ? h("section", { class: "panel lobby-card", "aria-labelledby": "podium-h" },
      h("h2", { id: "podium-h", text: t("tour.podium") }),
      h("ol", { class: "podium" }, D.podium.map((p) => h("li", { text: `${p.rank}. ${p.name}` })))) : null,
    h("section", { class: "panel lobby-card", "aria-labelledby": "standings-h" },
      h("h2", { id: "standings-h", text: t("tour.standings") }),
      D.players.length ? standingsTable(D) : h("p", { class: "quiet", text: t("tour.standings.none") }),
      h("p", { class: "note", text: t(D.kind === "duplicate" ? "tour.rules.duplicate" : "tour.rules") })),
    h("section", { class: "panel lobby-card", "aria-labelledby": "tables-h" },
      h("h2", { id: "tables-h", text: t("tour.tables") }),
      D.rounds.length ? tablesList(D) : h("p", { class: "quiet", text: t("tour.tables.none") }),
      h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(D.id)}/records`, download: `tournament-${D.id}.jsonl`,
        "data-focus": "records", text: t("tour.records") }))),
  ];
}

export async function tournamentPage(root, id) {
  const P = { status: null, body: null, error: null };
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  const draw = () => {
    const focusKey = document.activeElement?.dataset?.focus;
    document.documentElement.lang = lang();
    document.title = `${P.status === 200 ? t("tour.title", { kind: t(`tour.kind.${P.body.kind}`), game: gameTitle(P.body.game) })
      : t("tour.missing")} · ${t("app.title")}`;
    root.replaceChildren(h("div", { class: "lobby people-page tournament-page" },
      pageTop(draw), body(P, join)));
    if (focusKey) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  };
  async function load() {
    try {
      const res = await fetch(path);
      const body = await res.json().catch(() => ({}));
      // (both at once: a draw between them, fetchMe's, read a 200 with no body yet)
      [P.status, P.body] = [res.status, body];
    } catch {
      P.status = 0;
      P.body = {};
    }
    draw();
    if (P.status === 200 && P.body.status !== "finished") setTimeout(load, EVERY_MS);
  }
  async function join(method) {
    P.error = null;
    try {
      const res = await fetch(`${path}/join`, { method });
      if (!res.ok) P.error = (await res.json().catch(() => ({}))).error || String(res.status);
    } catch {
      P.error = t("tour.offline");
    }
    const res = await fetch(path).catch(() => null);
    if (res && res.ok) P.body = await res.json();
    draw();
  }
  draw();
  fetchMe().then(() => { if (P.status === 200) draw(); });  // (signed in: the join button; the header's name)
  await load();
}

// --- the list and the form, /tournaments ---------------------------------------------------------

const KINDS = ["arena", "swiss", "duplicate"];

function listItem(x) {
  return h("li", { "data-id": x.id },
    h("a", { href: x.link, "data-focus": `tour-${x.id}`,
      text: t("tour.title", { kind: t(`tour.kind.${x.kind}`), game: gameTitle(x.game) }) }),
    h("span", { class: "quiet", text: ` · ${x.status === "upcoming" ? t("tour.status.upcoming", { time: when(x.starts) })
      : t(`tour.status.${x.status}`)} · ${tn("tour.list.players", x.players)}` }));
}

function makeForm(F, games, submit) {
  const game = games.find((g) => g.name === F.game) || games[0];
  const seats = game ? game.seats : [3, 4];
  if (!seats.includes(F.seats)) F.seats = seats[0];
  const select = (id, key, value, options, onchange) => h("p", {},
    h("label", { for: id, text: t(key) }), " ",
    h("select", { id, "data-focus": id, onchange: (e) => onchange(e.target.value) },
      options.map(([v, label]) => h("option", { value: String(v), selected: String(v) === String(value) }, label))));
  const numberField = (id, key, value, min, max, onchange) => h("p", {},
    h("label", { for: id, text: t(key) }), " ",
    h("input", { id, type: "number", min: String(min), max: String(max), value: String(value), "data-focus": id,
      oninput: (e) => onchange(Number(e.target.value)) }));
  const box = (id, key, checked, onchange) => h("p", {},
    h("input", { id, type: "checkbox", checked, "data-focus": id, onchange: (e) => onchange(e.target.checked) }), " ",
    h("label", { for: id, text: t(key) }));
  return h("form", { class: "tournament-make", onsubmit: (e) => { e.preventDefault(); submit(); } },
    select("make-game", "tour.make.game", F.game, games.map((g) => [g.name, gameTitle(g.name)]), (v) => { F.game = v; F.redraw(); }),
    select("make-seats", "tour.make.seats", F.seats, seats.map((n) => [n, String(n)]), (v) => { F.seats = Number(v); }),
    select("make-kind", "tour.make.kind", F.kind, KINDS.map((k) => [k, t(`tour.kind.${k}`)]), (v) => { F.kind = v; F.redraw(); }),
    numberField("make-starts", "tour.make.starts", F.starts, 0, 7 * 24 * 60, (v) => { F.starts = v; }),
    F.kind === "arena" ? numberField("make-minutes", "tour.make.minutes", F.minutes, 1, 240, (v) => { F.minutes = v; })
      : numberField("make-rounds", "tour.make.rounds", F.rounds, 1, 15, (v) => { F.rounds = v; }),
    box("make-rated", "tour.make.rated", F.rated, (v) => { F.rated = v; }),
    box("make-public", "tour.make.public", F.public, (v) => { F.public = v; }),
    F.error ? h("p", { class: "error", role: "alert", text: reason(F.error) }) : null,
    h("button", { type: "submit", class: "primary", "data-focus": "make-go", disabled: F.busy, text: t("tour.make.go") }));
}

export async function tournamentsPage(root) {
  const L = { lists: null, games: [] };
  const F = { game: "sicilian", seats: 3, kind: "arena", starts: 10, minutes: 30, rounds: 4, rated: false, public: true,
    error: null, busy: false, redraw: () => draw() };
  const section = (status) => h("section", { class: "panel lobby-card", "aria-labelledby": `list-${status}-h` },
    h("h2", { id: `list-${status}-h`, text: t(`tour.list.${status}`) }),
    L.lists?.[status]?.length ? h("ul", { class: "tournament-list" }, L.lists[status].map(listItem))
      : h("p", { class: "quiet", text: t(L.lists ? "tour.list.none" : "tour.loading") }));
  async function submit() {
    F.busy = true;
    F.error = null;
    draw();
    const body = { game: F.game, seats: F.seats, kind: F.kind, starts: Math.round(F.starts * 60), rated: F.rated, public: F.public,
      ...(F.kind === "arena" ? { minutes: F.minutes } : { rounds: F.rounds }) };
    try {
      const res = await fetch("/api/tournaments", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await res.json().catch(() => ({}));
      if (res.ok && data.link) { location.assign(data.link); return; }
      F.error = data.error || String(res.status);
    } catch {
      F.error = t("tour.offline");
    }
    F.busy = false;
    draw();
  }
  function draw() {
    const focusKey = document.activeElement?.dataset?.focus;
    document.documentElement.lang = lang();
    document.title = `${t("tour.list.title")} · ${t("app.title")}`;
    root.replaceChildren(h("div", { class: "lobby people-page tournaments-page" }, pageTop(draw),
      h("h1", { id: "page-h", text: t("tour.list.title") }),
      ["running", "upcoming", "finished"].map(section),
      h("section", { class: "panel lobby-card", "aria-labelledby": "make-h" },
        h("h2", { id: "make-h", text: t("tour.make") }),
        h("p", { class: "note", text: t("tour.make.help") }),
        accountName() ? makeForm(F, L.games, submit)
          : h("p", {}, h("a", { class: "button", href: "/account", "data-focus": "sign-in", text: t("tour.make.sign.in") })))));
    if (focusKey) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  }
  draw();
  fetchMe().then(() => draw());  // (signed in: the form)
  const [lists, games] = await Promise.all([
    fetch("/api/tournaments").then((r) => (r.ok ? r.json() : null)).catch(() => null),
    fetch("/api/games").then((r) => (r.ok ? r.json() : { games: [] })).catch(() => ({ games: [] })),
  ]);
  L.lists = lists || { upcoming: [], running: [], finished: [] };
  L.games = games.games || [];
  draw();
}
