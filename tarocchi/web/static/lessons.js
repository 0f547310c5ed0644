// Learn to play (issue 42): the lobby's "Learn to play" and the guide beside a lesson's table.
//
// A lesson is a computer table the server deals from the lesson's deck and whose script it
// plays (tarocchi/server/lessons.py); its page is the ordinary table at /t/<token>?lesson=<game>/<n>,
// with this guide: what to do and why, step by step. The rules refuse a wrong card as at any
// table (the status line says why) and the guide adds what to look at (the step's "look");
// a card the rules allow but the step does not teach is held back here, never sent (the step's
// "wrong"), so that the deal stays the lesson's. Where the lesson is is read from the deal
// itself (the view's actions): a reload, or a second window, finds the same step.
// Progress is kept in this browser (localStorage "tarocchi.lessons.<game>") and, signed in, on
// the account (GET/POST /api/me/lessons): what either knows, both know.
//
// app.js calls: lobbySection(), suggestion(game) on the lobby; table(ctx, shell) after each
// render of the table; and setup(rerender) once.

import { t, lang, addMessages } from "./i18n.js";
import { cardName } from "./cards.js";
import { h, patch, asset } from "./dom.js";
import { keptSeats } from "./seats.js";
import { accountName } from "./account.js";
import messages from "./lessons.i18n.js";

addMessages(messages);
document.head.append(h("link", { rel: "stylesheet", href: asset("/static/lessons.css") }));

const PERSON = 0;
const param = new URLSearchParams(location.search).get("lesson");
const current = /^([a-z]+)\/(\d+)$/.exec(param || "");
const L = {
  available: null,   // GET /api/lessons: game -> lesson ids
  data: {},          // game -> its lesson file
  rerender: () => {},
  intro: true,       // the lesson's introduction shows until "Start"
  note: null,        // {text, at}: what the guide adds after a press (at: the step it belongs to)
  quiz: 0,           // the quiz question shown
  quizNote: null,
  el: null,          // the guide, built once
  busy: false,
};

// --- progress --------------------------------------------------------------------------

function doneIds(game) {
  try {
    const list = JSON.parse(localStorage.getItem(`tarocchi.lessons.${game}`) || "[]");
    return Array.isArray(list) ? list : [];
  } catch { return []; }
}

function keep(game, ids) {
  try { localStorage.setItem(`tarocchi.lessons.${game}`, JSON.stringify(ids)); } catch { /* private mode */ }
}

function tellAccount(game, id) {
  if (!accountName()) return;
  fetch("/api/me/lessons", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ game, lesson: String(id) }) }).catch(() => {});
}

function markDone(game, id) {
  const list = doneIds(game);
  if (list.includes(id)) return;
  keep(game, [...list, id]);
  tellAccount(game, id);
}

// Signed in: the account's lessons done join this browser's, and this browser's the account's.
async function syncWithAccount() {
  if (!accountName()) return;
  try {
    const res = await fetch("/api/me/lessons");
    if (!res.ok) return;
    const { done } = await res.json();
    const games = new Set([...Object.keys(done || {}), ...Object.keys(L.available || {})]);
    for (const game of games) {
      const here = doneIds(game), there = done?.[game] || [];
      for (const id of here) if (!there.includes(id)) tellAccount(game, id);
      const more = there.filter((id) => !here.includes(id));
      if (more.length) keep(game, [...here, ...more]);
    }
    L.rerender?.();
  } catch { /* away: the next visit */ }
}

// --- data --------------------------------------------------------------------------------

export function setup(rerender) {
  L.rerender = rerender;
  fetch("/api/lessons").then((r) => (r.ok ? r.json() : null)).then((body) => {
    L.available = body?.games || {};
    rerender();
    syncWithAccount();
  }).catch(() => { L.available = {}; });
  if (current) loadGame(current[1]);
}

function loadGame(game) {
  if (!L.data[game]) {
    L.data[game] = null;
    fetch(asset(`/static/lessons/${game}.json`)).then((r) => r.json()).then((d) => { L.data[game] = d; L.rerender(); })
      .catch(() => { delete L.data[game]; });
  }
}

// A lesson text in the page's language; [[KC]] names the card ("King of Cups", "Re di Coppe");
// {card} names the move the note answers (issue 57): the card pressed, or the word said.
function say(game, key, move = null) {
  const texts = L.data[game]?.texts || {};
  const text = texts[lang()]?.[key] ?? texts.en?.[key] ?? key;
  return text.replace(/\[\[([^\]]+)\]\]/g, (_, code) => cardName(code))
    .replace(/\{card\}/g, () => (move ? moveName(move) : ""));
}

// "KC" -> "King of Cups"; "chiamo 20" and "restituisco 5C" -> the card's name; a word as it is.
function moveName(action) {
  if (isCard(action)) return cardName(action);
  const named = /^(?:chiamo|restituisco) (\S+)$/.exec(action);
  return named ? cardName(named[1]) : action;
}

// The note for a move the rules allow but the step does not teach: the one written for that
// move, else the step's note for any other ("*"), else the guide's general one.
function wrongNote(game, step, action) {
  const notes = step.wrong || [];
  const w = notes.find((x) => Array.isArray(x.actions) && x.actions.includes(action)) || notes.find((x) => x.actions === "*");
  return w ? say(game, w.note, action) : t("learn.other");
}

export async function start(game, n) {
  if (L.busy) return;
  L.busy = true;
  try {
    const res = await fetch(`/api/lessons/${game}/${n}`, { method: "POST" });
    const body = await res.json();
    if (body.link) location.assign(body.link);
  } finally { L.busy = false; }
}

// --- the lobby ---------------------------------------------------------------------------

function nextLesson(game) {
  const ids = L.available?.[game] || [];
  const done = doneIds(game);
  const i = ids.findIndex((id) => !done.includes(id));
  return i < 0 ? 1 : i + 1;
}

// "Learn to play": a button per game that has lessons, with how many are done.
export function lobbySection(games, gameTitle) {
  const with_ = games.filter((g) => L.available?.[g.name]?.length);
  if (!with_.length) return null;
  return h("section", { class: "panel lobby-card lobby-learn", id: "learn" },
    h("h2", { text: t("learn.title") }),
    h("p", { text: t("learn.help") }),
    h("ul", { class: "learn-games" }, with_.map((g) => {
      const ids = L.available[g.name];
      const done = doneIds(g.name).filter((id) => ids.includes(id)).length;
      return h("li", {},
        h("button", { type: "button", class: "learn-start", "data-game": g.name, "data-focus": `learn-${g.name}`,
          onclick: () => start(g.name, nextLesson(g.name)) }, t("learn.button", { game: gameTitle(g) })),
        h("span", { class: "learn-progress", text: t("learn.progress", { n: done, m: ids.length }) }));
    })));
}

// A first visit to a game: it has lessons, none done, and this browser never sat at its table.
export function suggestion(game, title) {
  if (!L.available?.[game]?.length || doneIds(game).length) return null;
  if (keptSeats().some((s) => s.game === game)) return null;
  return h("p", { class: "learn-suggest" }, t("learn.suggest", { game: title }), " ",
    h("button", { type: "button", class: "link-button", "data-focus": `suggest-${game}`,
      onclick: () => start(game, nextLesson(game)) }, t("learn.suggest.go")));
}

// --- the table ---------------------------------------------------------------------------

function lessonNow() {
  if (!current) return null;
  const data = L.data[current[1]];
  const n = Number(current[2]);
  if (!data || !data.lessons[n - 1]) return null;
  return { game: current[1], n, data, one: data.lessons[n - 1] };
}

// Where the deal is in the script: the person's entry that comes next (a step, or a move the
// table makes for them to reach the lesson's position). The frames carry no list of actions,
// but the table says how many the seat has made (``acted``): the person's k-th action is the
// script's k-th entry of the person's seat, and the table plays the computers' moves between
// them at once. A next deal has left the lesson.
function position(ctx, one) {
  const acted = ctx.state?.acted ?? 0;
  const mine = one.script.filter((e) => !Array.isArray(e) || e[0] === PERSON);
  const entry = acted < mine.length ? mine[acted] : null;
  return { acted, entry, off: ctx.table?.deal_number > 1, over: acted >= mine.length };
}

function complete(ctx, one, pos) {
  if (!pos.over || pos.off) return false;
  const needsCount = one.free || (one.quiz || []).some((q) => "points" in q);
  return !needsCount || ctx.view?.phase === "done";
}

// A deal thrown in before its play (every seat passed, a monte): nothing of the game was
// played, so a whole-deal lesson is not done (issue 57).
function thrownIn(ctx) {
  const c = ctx.view?.count;
  return !!(c && (c.abandoned || c.thrown_in));
}

function steps(one) { return one.script.filter((e) => !Array.isArray(e)); }

function guideBody(ctx) {
  const got = lessonNow();
  if (!got) return [h("h2", { id: "guide-title", text: t("learn.title") }), h("p", { class: "guide-text", tabindex: "0", text: t("learn.loading") })];
  const { game, n, data, one } = got;
  const total = data.lessons.length;
  const title = `${t("learn.lesson", { n, m: total })}: ${say(game, `${one.id}.title`)}`;
  const head = h("h2", { id: "guide-title", text: title });
  const pos = position(ctx, one);
  const v = ctx.view;
  if (pos.off) {
    return [head, h("p", { class: "guide-text", tabindex: "0", text: t("learn.off") }),
      h("div", { class: "guide-buttons" }, h("button", { type: "button", class: "primary", "data-focus": "guide-again", onclick: () => start(game, n) }, t("learn.again")))];
  }
  // The introduction, until "Start" or the person's first move of the lesson (a reload mid-lesson skips it).
  const first = one.script.findIndex((e) => !Array.isArray(e));
  const moved = pos.acted > (first < 0 ? one.script : one.script.slice(0, first)).filter((e) => e[0] === PERSON).length;
  if (L.intro && !moved) {
    return [head, h("p", { class: "guide-text", tabindex: "0", text: say(game, `${one.id}.intro`) }),
      h("div", { class: "guide-buttons" }, h("button", { type: "button", class: "primary", id: "guide-start", "data-focus": "guide-start",
        onclick: () => { L.intro = false; L.rerender(); } }, t("learn.start")))];
  }
  if (complete(ctx, one, pos)) {
    const quiz = one.quiz || [];
    if (L.quiz < quiz.length) {
      const q = quiz[L.quiz];
      return [head, h("p", { class: "guide-text", tabindex: "0", text: say(game, q.ask) }),
        h("div", { class: "guide-buttons quiz", role: "group", "aria-label": say(game, q.ask) }, q.options.map((o) => h("button", {
          type: "button", class: "quiz-option", "data-value": o, "data-focus": `quiz-${L.quiz}-${o}`,
          onclick: () => {
            if (o === q.answer) { L.quiz += 1; L.quizNote = t("learn.right"); } else L.quizNote = `${t("learn.notquite")} ${say(game, q.why)}`;
            L.rerender();
          } }, String(o)))),
        L.quizNote ? h("p", { class: "guide-note", tabindex: "0", text: L.quizNote }) : null];
    }
    if (one.free && thrownIn(ctx)) {
      return [head, h("p", { class: "guide-text", tabindex: "0", id: "guide-thrown", text: t("learn.thrown") }),
        h("div", { class: "guide-buttons" },
          h("button", { type: "button", class: "primary", id: "guide-again", "data-focus": "guide-again", onclick: () => start(game, n) }, t("learn.dealagain")),
          h("a", { class: "button", href: "/", "data-focus": "guide-lobby" }, t("learn.lobby")))];
    }
    markDone(game, one.id);
    // "Every lesson" only when every one is done; else the first one left (issue 57).
    const done = doneIds(game);
    const left = data.lessons.findIndex((x) => !done.includes(x.id));
    const following = n < total ? n + 1 : left + 1;
    return [head, h("p", { class: "guide-text done", tabindex: "0", text: say(game, `${one.id}.done`) }),
      h("p", { class: "guide-note", tabindex: "0", text: left < 0 ? t("learn.alldone") : t("learn.complete") }),
      h("div", { class: "guide-buttons" },
        left < 0 && n >= total ? h("a", { class: "button primary", href: "/", "data-focus": "guide-lobby", id: "guide-lobby" }, t("learn.lobby"))
          : h("button", { type: "button", class: "primary", id: "guide-next", "data-focus": "guide-next", onclick: () => start(game, following) }, t("learn.next")),
        left < 0 && n >= total ? null : h("a", { class: "button", href: "/", "data-focus": "guide-lobby", id: "guide-lobby" }, t("learn.lobby")))];
  }
  const all = steps(one);
  const index = pos.entry && !Array.isArray(pos.entry) ? all.indexOf(pos.entry) : -1;
  let text;
  if (one.free) {
    const mine = ctx.myTurn;
    text = mine ? say(game, `${one.id}.${v.phase}`) : t("learn.watch");
  } else if (index >= 0 && ctx.myTurn) {
    text = say(game, pos.entry.text);
  } else {
    text = t("learn.watch");
  }
  const note = L.note && L.note.at === pos.acted ? L.note.text : "";
  const words = index >= 0 ? (pos.entry.forbid || []).filter((f) => !isCard(f.action)) : [];
  return [head,
    all.length > 1 && index >= 0 ? h("p", { class: "guide-step", text: t("learn.step", { n: index + 1, m: all.length }) }) : null,
    h("p", { class: "guide-text", tabindex: "0", text }),
    words.length && !note ? h("p", { class: "guide-note", tabindex: "0", text: words.map((f) => say(game, f.look, f.action)).join(" ") }) : null,
    note ? h("p", { class: "guide-note", tabindex: "0", text: note }) : null];
}

function isCard(action) { return !/\s/.test(action) && !/^[a-z]/.test(action); }

// The guide: on a wide screen at the top of the column beside the table, on a small one
// above the trick.
export function table(ctx, shell) {
  if (!current || !shell) return;
  if (!L.el) {
    L.el = h("section", { class: "guide", id: "guide", "aria-labelledby": "guide-title" });
    L.live = h("div", { class: "guide-body", "aria-live": "polite" });
    L.el.append(L.live);
    document.addEventListener("click", onPress, true);
  }
  L.ctx = ctx;
  const wide = window.matchMedia("(min-width: 1100px)").matches;
  const where = wide ? shell.side : shell.board;
  const before = wide ? shell.side.firstChild : shell.center;
  if (L.el.parentElement !== where || (before && L.el.nextSibling !== before && before !== L.el)) where.insertBefore(L.el, before);
  shell.page.classList.add("lesson");
  patch(L.live, guideBody(ctx));
}

// A press on a card, a word or the discard's confirm: held back (never sent) when the rules
// allow it but the step teaches another; the rules' own refusal (a dimmed card) goes on as at
// any table, and the guide adds what to look at.
function onPress(e) {
  const ctx = L.ctx;
  const got = lessonNow();
  if (!got || !ctx?.view || !ctx.myTurn) return;
  const pos = position(ctx, got.one);
  if (pos.off || pos.over || Array.isArray(pos.entry) || !pos.entry) return;
  const step = pos.entry;
  const card = e.target.closest?.(".hand .card[data-card]");
  const word = e.target.closest?.(".actions button[data-action]");
  const confirm = e.target.closest?.("#confirm-discard");
  const called = e.target.closest?.(".call-picker button[data-card]");  // Calabresella's chiamo (C10)
  let action = null;
  if (card) {
    const code = card.dataset.card;
    if (card.getAttribute("aria-disabled") === "true") {
      const f = (step.forbid || []).find((x) => x.action === code || x.action.split(" ").includes(code));
      L.note = { text: f ? say(got.game, f.look, code) : t("learn.refused"), at: pos.acted };
      setTimeout(L.rerender, 0);
      return;  // the table shows the rules' reason
    }
    if (ctx.view.phase !== "play") return;  // (a discard's pick: checked at its confirm)
    action = code;
  } else if (word) {
    action = word.dataset.action;
  } else if (confirm) {
    // A pick confirmed: a discard, a lay (scarto) or a give-back (restituisco); its cards decide.
    const picked = [...document.querySelectorAll(".hand .card[aria-pressed='true']")].map((c) => c.dataset.card);
    action = `discard ${picked.join(" ")}`;
  } else if (called) {
    if (called.disabled) return;
    action = `chiamo ${called.dataset.card}`;
  } else return;
  if (step.do === "any" || step.do.includes(action) || (confirm && sameDiscard(step.do, action))) { L.note = null; return; }
  e.stopImmediatePropagation();
  e.preventDefault();
  L.note = { text: wrongNote(got.game, step, action), at: pos.acted };
  L.rerender();
}

function sameDiscard(list, action) {
  const cards = (a) => a.split(" ").slice(1).sort().join(" ");
  return list.some((a) => /^(discard|scarto|restituisco) /.test(a) && cards(a) === cards(action));
}
