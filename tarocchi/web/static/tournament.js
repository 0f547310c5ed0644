// A tournament's page, /tournament/<id> (issue 59; the server's side is
// tarocchi/server/tournaments.py: GET /api/tournaments/<id>, POST and DELETE .../join): who
// plays, the standings as they move, the tables now with their watch links, the podium at the
// end, and the asker's own seat when their table is ready. Asked again every few seconds while
// the tournament is not over. Every text is set with textContent (dom.js h's ``text``).

import { t, lang, reason, addMessages, REASONS } from "./i18n.js";
import { h } from "./dom.js";
import { accountName, pageTop, when } from "./account.js";
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
      P.status = res.status;
      P.body = await res.json().catch(() => ({}));
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
  await load();
}
