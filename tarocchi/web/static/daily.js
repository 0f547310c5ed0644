// The daily deal's page, /daily/<game> (issue 59; the server's side is tarocchi/server/daily.py:
// GET /api/daily/<game> says today's public facts, the standings and the person's own status,
// POST /api/daily/<game> gives a table of today's deals). Loaded on that page alone (assets.py
// PAGE_MODULES). Nothing here names a card: the server says none, and the share text is built
// from the day, the game and the person's percentage, rank, deals and streak.

import { t, tn, has, lang, reason, addMessages, REASONS } from "./i18n.js";
import { h } from "./dom.js";
import { accountName, pageTop } from "./account.js";
import messages from "./daily.i18n.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian

const GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"];  // the lobby's order

function gameTitle(name) { return has(`game.${name}`) ? t(`game.${name}`) : name; }

// The day (UTC, 2026-12-07) as the reader's language writes it: 7 Dec 2026, 7 dic 2026.
function dayText(day) {
  return new Intl.DateTimeFormat(lang() === "it" ? "it-IT" : "en-GB", { dateStyle: "medium", timeZone: "UTC" })
    .format(new Date(`${day}T00:00:00Z`));
}

function percentText(x) {
  return new Intl.NumberFormat(lang() === "it" ? "it-IT" : "en-GB", { maximumFractionDigits: 1 }).format(x) + "%";
}

async function call(method, path) {
  try {
    const res = await fetch(path, { method, headers: { Accept: "application/json" } });
    return { status: res.status, body: await res.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

// The result to share, a few lines: the day and game, the percentage, deals and rank, the
// streak, the page's address. No card.
export function shareText(facts) {
  const me = facts.me;
  const result = me.result;
  const lines = [t("daily.share.head", { game: gameTitle(facts.game), date: dayText(facts.day) })];
  lines.push(result ? t("daily.share.score", { percent: percentText(result.percent), n: me.deals, m: facts.deals,
    rank: result.rank, of: facts.compared })
    : t("daily.share.deals", { n: me.deals, m: facts.deals }));
  if (me.streak) lines.push(t("daily.share.streak", { n: me.streak }));
  lines.push(`${location.origin}/daily/${encodeURIComponent(facts.game)}`);
  return lines.join("\n");
}

function standingsTable(facts) {
  const rows = facts.standings || [];
  if (!rows.length) return h("p", { class: "quiet", id: "daily-empty", text: t("daily.standings.empty") });
  const me = (accountName() || "").toLowerCase();
  // (scrolls sideways on a narrow phone with long names: reached by the keyboard too)
  return h("div", { class: "board-scroll", tabindex: "0", role: "region", "aria-label": t("daily.standings.caption") },
    h("table", { class: "board-table daily-standings" },
      h("caption", { class: "visually-hidden", text: t("daily.standings.caption") }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", class: "rank", text: t("daily.rank") }),
        h("th", { scope: "col", text: t("daily.player") }),
        h("th", { scope: "col", class: "num", text: t("daily.percent") }),
        h("th", { scope: "col", class: "num", text: t("daily.deals") }))),
      h("tbody", {}, rows.map((r) => {
        const you = me && r.name.toLowerCase() === me;
        return h("tr", { class: you ? "you" : "", "data-name": r.name },
          h("td", { class: "rank", text: String(r.rank) }),
          h("th", { scope: "row", class: "who" }, r.name, you ? h("span", { class: "quiet", text: ` (${t("daily.you")})` }) : null),
          h("td", { class: "num", text: percentText(r.percent) }),
          h("td", { class: "num", text: String(r.deals) }));
      }))));
}

function shareBox(D) {
  const text = shareText(D.facts);
  const copy = async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(text);
      done = true;
    } catch {
      const area = document.getElementById("daily-share-text");
      area?.select();
      try { done = document.execCommand("copy"); } catch { done = false; }
    }
    D.copied = done ? "daily.copied" : "daily.copy.failed";
    D.draw();
  };
  return h("section", { class: "panel lobby-card daily-share", "aria-labelledby": "daily-share-h" },
    h("h2", { id: "daily-share-h", text: t("daily.share.title") }),
    h("p", { class: "note", text: t("daily.share.help") }),
    h("label", { for: "daily-share-text", class: "visually-hidden", text: t("daily.share.label") }),
    h("textarea", { id: "daily-share-text", class: "daily-share-text", readonly: true, rows: String(text.split("\n").length),
      spellcheck: "false" }, text),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "daily-copy", "data-focus": "daily-copy", onclick: copy }, t("daily.copy")),
      h("span", { role: "status", class: "quiet", id: "daily-copied", text: D.copied ? t(D.copied) : "" })));
}

function statusCard(D) {
  const facts = D.facts;
  const me = facts.me;
  const play = async () => {
    D.busy = true;
    D.error = "";
    D.draw();
    const answer = await call("POST", `/api/daily/${encodeURIComponent(D.game)}`);
    D.busy = false;
    if (answer.status === 200 && answer.body.link) {
      location.assign(answer.body.link);
      return;
    }
    if (answer.status === 409) {  // finished meanwhile (another tab): its result
      await load(D);
      return;
    }
    D.error = reason(answer.body.error) || t("acct.offline");
    D.draw();
  };
  const finished = me?.finished;
  const button = finished ? null
    : h("button", { type: "button", class: "primary", id: "daily-play", "data-focus": "daily-play", disabled: D.busy, onclick: play },
      t(me?.played ? "daily.carry" : me ? "daily.play" : "daily.play.unranked"));
  return h("section", { class: "panel lobby-card daily-status", "aria-labelledby": "page-h" },
    h("p", { text: t("daily.help", { n: facts.deals, game: gameTitle(facts.game) }) }),
    h("p", { class: "note", text: t("daily.one") }),
    me ? null : h("p", {}, t("daily.signin"), " ", h("a", { href: "/account", id: "daily-sign-in" }, t("acct.link.signin"))),
    h("p", { id: "daily-played", text: t("daily.played", { n: facts.played }) }),
    me?.played ? h("p", { id: "daily-progress", text: t("daily.progress", { n: me.deals, m: facts.deals }) }) : null,
    finished ? h("p", { id: "daily-done", text: t("daily.done") }) : null,
    me?.streak ? h("p", { id: "daily-streak", text: tn("daily.streak", me.streak) }) : null,
    D.error ? h("p", { class: "error", role: "alert", text: D.error }) : null,
    button);
}

function resultCard(D) {
  const { facts } = D;
  const result = facts.me.result;
  return h("section", { class: "panel lobby-card daily-result", "aria-labelledby": "daily-result-h" },
    h("h2", { id: "daily-result-h", text: t("daily.result.title") }),
    h("p", { id: "daily-result", class: "daily-result-line",
      text: result ? t("daily.result", { percent: percentText(result.percent), rank: result.rank, of: facts.compared })
        : t("daily.result.none") }));
}

function body(D) {
  const title = t("daily.title", { game: gameTitle(D.game) });
  if (D.status === null) return [h("h1", { id: "page-h", text: title }), h("p", { class: "quiet", role: "status", text: t("rate.loading") })];
  if (D.status !== 200) {
    return [
      h("h1", { id: "page-h", text: t(D.status === 404 ? "daily.missing" : "rate.error.title") }),
      h("p", { class: "missing", role: "alert", text: D.status === 404 ? t("daily.missing.more", { name: D.game })
        : t("rate.error", { reason: reason(D.facts?.error) || t("acct.offline") }) }),
      h("p", {}, h("a", { class: "button primary", href: "/", "data-focus": "to-lobby" }, t("acct.lobby"))),
    ];
  }
  const { facts } = D;
  const me = facts.me;
  return [
    h("h1", { id: "page-h", text: title }),
    h("p", { class: "tagline", id: "daily-date", text: t("daily.date", { date: dayText(facts.day) }) }),
    h("div", { class: "lobby-grid" },
      statusCard(D),
      me?.played ? resultCard(D) : null,
      me?.finished ? shareBox(D) : null,
      h("section", { class: "panel lobby-card board-card", "aria-labelledby": "daily-standings-h" },
        h("h2", { id: "daily-standings-h", text: t("daily.standings") }),
        standingsTable(facts))),
    h("nav", { class: "panel boards-nav", "aria-labelledby": "daily-others-h" },
      h("h2", { id: "daily-others-h", class: "boards-nav-h", text: t("daily.others") }),
      h("ul", {}, GAMES.filter((g) => g !== facts.game).map((g) => h("li", {},
        h("a", { class: "button", href: `/daily/${encodeURIComponent(g)}`, "data-focus": `daily-${g}` }, gameTitle(g)))))),
  ];
}

async function load(D) {
  const answer = await call("GET", `/api/daily/${encodeURIComponent(D.game)}`);
  D.status = answer.status;
  D.facts = answer.body;
  D.draw();
}

export function dailyPage(root, game) {
  const D = { game, status: null, facts: null, busy: false, error: "", copied: "" };
  D.draw = () => {
    const focusKey = document.activeElement?.dataset?.focus;
    document.documentElement.lang = lang();
    document.title = `${t("daily.title", { game: gameTitle(game) })} · ${t("app.title")}`;
    root.replaceChildren(h("div", { class: "lobby people-page daily-page" }, pageTop(D.draw), body(D)));
    if (focusKey) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  };
  D.draw();
  load(D);
}
