// Hints and the review of a deal (issue 21; the server's side is tarocchi/server/advice.py,
// the messages are in docs/protocol.md). The server asks its strongest computer player, from
// this seat's view alone: a hint gives its best actions for the turn in front of the seat, with
// each one's mean score over the worlds it sampled; a review, after the count, each of the
// seat's decisions against its own. This module keeps what came and draws it; app.js places
// it (the Hint button beside "Last trick", the hint over the other seats, the review in the count).

import { t, tn, has, addMessages, REASON_IDS } from "./i18n.js";
import { cardName, deck } from "./cards.js";
import { h } from "./dom.js";

const MESSAGES = {
  en: {
    "advice.hint": "Hint",
    "advice.hint.label": "Hint: the computer's best choices for your turn",
    "advice.thinking": "Thinking…",
    "advice.hint.hide": "Hide the hint",
    "advice.hint.title": "The computer's choice",
    "advice.hint.best": "The computer would choose {action}.",
    "advice.hint.scored": "{action}: {score} on average",
    "advice.hint.unscored": "{action} (by its rules, without an estimate)",
    "advice.hint.worlds": "Scores are the mean over the deals it imagined from what you can see.",
    "advice.hint.worlds.ottocento": "Scores are your side's points less the other side's: the mean over the deals it imagined from what you can see.",
    "advice.hint.unsure": "It keeps to its usual choice unless the search is sure another is better.",
    "advice.hints.on": "Hints are allowed at this table.",
    "advice.hints.off": "The host did not allow hints at this table.",
    "advice.hints.off.here": "Hints are not given at this table.",
    "advice.review": "Review my decisions",
    "advice.review.title": "Your decisions against the computer's",
    "advice.review.working": "The computer is looking at your decisions: {n} of {m}…",
    "advice.review.starting": "The computer is looking at your decisions…",
    "advice.review.none": "You had no choice to make in this deal.",
    "advice.review.same": "{when}: you chose {played}, as the computer would.",
    "advice.review.diff": "{when}: you chose {played}; the computer would choose {best}, about {cost} better.",
    "advice.review.even": "{when}: you chose {played}; the computer would choose {best}, worth about the same.",
    "advice.review.unknown": "{when}: you chose {played}; the computer would choose {best} (no estimate).",
    "advice.review.summary": "{same} of {all} decisions as the computer's; the others cost about {cost} in all.",
    "advice.review.list": "Your decisions",
    "advice.when.play": "Trick {n}",
    "advice.when.speak": "Bidding",
    "advice.when.discard": "Discard",
    "advice.when.announce": "Answer",
    "advice.when.monte": "A monte",
    "advice.when.declare": "Declarations",
    "advice.when.call": "Call",
    "advice.when.take": "Monte",
    "advice.when.lay": "Lay",
    "advice.when.give": "Give back",
    "advice.discard": "discard {cards}",
    "advice.unit.sicilian": "{n} jochi",
    "advice.unit.sicilian.one": "{n} jocu",
    "advice.unit.renaissance": "{n} points",
    "advice.unit.renaissance.one": "{n} point",
    "advice.unit.calabresella": "{n} points",
    "advice.unit.calabresella.one": "{n} point",
    "advice.unit.ottocento": "{n} points",
    "advice.unit.ottocento.one": "{n} point",
    "advice.unit": "{n}",
  },
  it: {
    "advice.hint": "Consiglio",
    "advice.hint.label": "Consiglio: le scelte migliori del computer per il tuo turno",
    "advice.thinking": "Ci penso…",
    "advice.hint.hide": "Nascondi il suggerimento",
    "advice.hint.title": "La scelta del computer",
    "advice.hint.best": "Il computer sceglierebbe {action}.",
    "advice.hint.scored": "{action}: {score} in media",
    "advice.hint.unscored": "{action} (secondo le sue regole, senza stima)",
    "advice.hint.worlds": "Le stime sono la media sulle smazzate che ha immaginato da ciò che vedi.",
    "advice.hint.worlds.ottocento": "Le stime sono i punti della tua coppia meno quelli dell'altra: la media sulle smazzate che ha immaginato da ciò che vedi.",
    "advice.hint.unsure": "Resta sulla sua scelta abituale se la ricerca non è sicura che un'altra sia migliore.",
    "advice.hints.on": "A questo tavolo i suggerimenti sono ammessi.",
    "advice.hints.off": "L'ospite non ha ammesso suggerimenti a questo tavolo.",
    "advice.hints.off.here": "A questo tavolo non si danno suggerimenti.",
    "advice.review": "Rivedi le mie scelte",
    "advice.review.title": "Le tue scelte e quelle del computer",
    "advice.review.working": "Il computer sta esaminando le tue scelte: {n} di {m}…",
    "advice.review.starting": "Il computer sta esaminando le tue scelte…",
    "advice.review.none": "In questa smazzata non hai avuto scelte da fare.",
    "advice.review.same": "{when}: hai scelto {played}, come il computer.",
    "advice.review.diff": "{when}: hai scelto {played}; il computer sceglierebbe {best}, circa {cost} meglio.",
    "advice.review.even": "{when}: hai scelto {played}; il computer sceglierebbe {best}, più o meno uguale.",
    "advice.review.unknown": "{when}: hai scelto {played}; il computer sceglierebbe {best} (senza stima).",
    "advice.review.summary": "{same} scelte su {all} come il computer; le altre costano circa {cost} in tutto.",
    "advice.review.list": "Le tue scelte",
    "advice.when.play": "Presa {n}",
    "advice.when.speak": "Licitazione",
    "advice.when.discard": "Scarto",
    "advice.when.announce": "Risposta",
    "advice.when.monte": "A monte",
    "advice.when.declare": "Dichiarazioni",
    "advice.when.call": "Chiamata",
    "advice.when.take": "Monte",
    "advice.when.lay": "Scarto",
    "advice.when.give": "Restituzione",
    "advice.discard": "scarto {cards}",
    "advice.unit.sicilian": "{n} jochi",
    "advice.unit.sicilian.one": "{n} jocu",
    "advice.unit.renaissance": "{n} punti",
    "advice.unit.renaissance.one": "{n} punto",
    "advice.unit.calabresella": "{n} punti",
    "advice.unit.calabresella.one": "{n} punto",
    "advice.unit.ottocento": "{n} punti",
    "advice.unit.ottocento.one": "{n} punto",
    "advice.unit": "{n}",
  },
};
addMessages(MESSAGES);
// The server's refusals (tarocchi/server/advice.py), translated by their ids.
Object.assign(REASON_IDS.it, {
  hints_off: "l'ospite non ha ammesso suggerimenti a questo tavolo",
  hints_off_here: "a questo tavolo non si danno suggerimenti",
  hint_not_now: "un suggerimento è per il tuo turno",
  hint_pending: "il computer sta ancora pensando al tuo ultimo suggerimento",
  review_not_now: "una smazzata si rivede dopo il conteggio",
  too_many_advice: "troppe richieste di suggerimenti e revisioni: aspetta un poco",
  too_many_advice_here: "troppe richieste di suggerimenti e revisioni da questo indirizzo: aspetta un poco",
  advice_busy: "il computer è occupato con i suggerimenti di altri giocatori: riprova tra un momento",
  advice_busy_here: "troppi suggerimenti e revisioni in corso da questo indirizzo: riprova quando uno è finito",
  no_advice: "il computer non è riuscito a calcolarlo; riprova",
});
const OURS = new Set(["hints_off", "hints_off_here", "hint_not_now", "hint_pending", "review_not_now", "too_many_advice",
  "too_many_advice_here", "advice_busy", "advice_busy_here", "no_advice"]);

// What came from the server: the latest hint, the latest review, and what is being asked.
const advice = { hint: null, asking: false, hidden: false, review: null, reviewAsked: 0, acted: 0 };

// A server message: true if it was one of ours (app.js reads the others).
export function onAdvice(msg, render) {
  if (msg.type === "state") {
    advice.acted = (msg.acted || []).reduce((a, b) => a + b, 0);
    return false;
  }
  if (msg.type === "refused" && OURS.has(msg.reason_id)) {
    advice.asking = false;  // (app.js shows the reason)
    advice.reviewAsked = 0;
    return false;
  }
  if (msg.type === "hint") {
    advice.hint = msg;
    advice.asking = false;
    advice.hidden = false;
    render();
    return true;
  }
  if (msg.type === "review") {
    if (!advice.review || msg.deal >= advice.review.deal) advice.review = msg;
    render();
    return true;
  }
  return false;
}

// An action in players' words: every card code in it by the card's name ("7C volo": "Seven
// of Cups volo"), a discard as "discard" and its cards, the cards of a lay or a take as a list
// ("scarto QC 5S": "scarto Queen of Cups, Five of Swords"); the game's own words stay as they are.
export function actionWords(action) {
  const info = deck()?.info || {};
  const named = (text) => text.replace(/[^\s,:]+/g, (tok) => (info[tok] ? cardName(tok) : tok));
  const m = /^discard (.+)$/.exec(action);
  if (m) return t("advice.discard", { cards: m[1].split(" ").map((c) => (info[c] ? cardName(c) : c)).join(", ") });
  let out = "";
  let afterCard = false;
  for (const word of String(action).split(" ")) {
    const card = Boolean(info[word]);
    if (out) out += card && afterCard ? ", " : " ";
    out += named(word);
    afterCard = card;
  }
  return out;
}

// The game's own words for an action (a game module's actionWords: Ottocento's declarations),
// else its cards by name.
function words(c, action) {
  return c.gameModule?.actionWords?.(c, action) ?? actionWords(action);
}

// A score in the game's unit, to a tenth, signed as rounded (never "−0.0").
function amount(c, n) {
  const key = `advice.unit.${c.table?.game}`;
  const tenths = Math.round(n * 10) / 10;
  const shown = `${tenths > 0 ? "+" : tenths < 0 ? "−" : ""}${Math.abs(tenths).toFixed(1)}`;
  return tn(has(key) ? key : "advice.unit", Math.abs(tenths), { n: shown });
}

function hintFits(c) {
  const H = advice.hint;
  return !!H && H.deal === c.table?.deal_number && H.acted === advice.acted;
}

// The Hint button, for the seat's own turn where the table allows hints: it asks, and once
// this turn's hint is here it shows and hides it (no second question).
export function hintButton(c) {
  if (!c.table?.hints || !c.myTurn || c.view?.phase === "done") return null;
  const here = hintFits(c);
  return h("button", {
    type: "button", class: "hint-button", id: "hint-button", "data-focus": "hint", "aria-keyshortcuts": "H",
    "aria-label": t("advice.hint.label"), title: t("advice.hint.label"), disabled: advice.asking,
    "aria-busy": advice.asking ? "true" : null, "aria-pressed": here ? String(!advice.hidden) : null,
    onclick: () => ask(c),
  }, h("span", { class: "hint-text", text: advice.asking ? t("advice.thinking") : t("advice.hint") }),
  // (a phone shows a "?" alone: the row beside the seat has no width to spare)
  h("span", { class: "hint-glyph", "aria-hidden": "true", text: advice.asking ? "…" : "?" }));
}

function ask(c) {
  if (advice.asking || !c.myTurn || !c.table?.hints) return;
  if (hintFits(c)) advice.hidden = !advice.hidden;
  else {
    advice.asking = true;
    c.send({ type: "hint" });
  }
  c.render();
}

// The "H" key asks for a hint, as the button does.
export function hintKey(c, key) {
  if (key !== "h" && key !== "H") return false;
  if (!c.table?.hints || !c.myTurn) return false;
  ask(c);
  return true;
}

// The hint, while the turn it was asked for lasts (over the other seats: "Hide" or the Hint
// button puts it away, the Hint button shows it again).
export function hintBox(c) {
  if (!hintFits(c) || !c.myTurn || advice.hidden) return null;
  const actions = advice.hint.actions || [];
  if (!actions.length) return null;
  const line = (a) => (a.score === null || a.score === undefined
    ? t("advice.hint.unscored", { action: words(c, a.action) })
    : t("advice.hint.scored", { action: words(c, a.action), score: amount(c, a.score) }));
  const scored = actions.some((a) => a.score !== null && a.score !== undefined);
  // (the Sicilian search and the expert keep their usual choice without a sure gain: its mean
  // may be lower than another's)
  const unsure = actions.some((a) => a.score > (actions[0].score ?? Infinity));
  return h("section", { class: "hint-box", "aria-label": t("advice.hint.title") },
    h("button", { type: "button", class: "hint-close", "data-focus": "hint-close", "aria-label": t("advice.hint.hide"),
      title: t("advice.hint.hide"), onclick: () => { advice.hidden = true; c.render(); } }, "×"),
    h("p", { class: "hint-best", text: t("advice.hint.best", { action: words(c, actions[0].action) }) }),
    h("ol", { class: "hint-list" }, actions.map((a) => h("li", { "data-action": a.action, text: line(a) }))),
    scored ? h("p", { class: "hint-note", text: t(unsure ? "advice.hint.unsure" : worldsKey(c)) }) : null);
}

// What the scores are: the game's own words where its unit needs them (Ottocento: a side's lead).
function worldsKey(c) {
  const own = `advice.hint.worlds.${c.table?.game}`;
  return has(own) ? own : "advice.hint.worlds";
}

// Whether the table allows hints, for the deal panel (every seat sees the host's choice; a Play
// now table has no host, and gives none).
export function hintsNote(c) {
  if (!c.table) return null;
  const hosted = c.table.kind === "room" && !c.table.quick;
  const key = c.table.hints ? "advice.hints.on" : hosted ? "advice.hints.off" : "advice.hints.off.here";
  return h("p", { class: "quiet hints-note", text: t(key) });
}

// The room card's choice (the lobby): whether the seats may ask for hints.
function when(item) {
  const key = `advice.when.${item.phase}`;
  if (item.phase === "play") return t(key, { n: item.trick ?? "?" });
  return has(key) ? t(key) : item.phase;
}

// How a decision compares: "same" (the computer's), "even" (another, worth about the same),
// "unknown" (another, no estimate) or "differs" (another, worse by its reckoning).
function verdict(item) {
  if (item.same) return "same";
  if (item.cost === null || item.cost === undefined) return "unknown";
  return Math.round(item.cost * 10) / 10 <= 0 ? "even" : "differs";
}

function itemLine(c, item) {
  const params = { when: when(item), played: words(c, item.played), best: words(c, item.best) };
  const how = verdict(item);
  if (how === "same") return t("advice.review.same", params);
  if (how === "unknown") return t("advice.review.unknown", params);
  if (how === "even") return t("advice.review.even", params);
  return t("advice.review.diff", { ...params, cost: amount(c, item.cost).replace(/^\+/, "") });
}

// The review in the count: a button, then the seat's decisions as they are worked out, each a
// link to its step of the deal's replay (``replayHref``, once the deal is listed: step n is
// the position after action n of the record, so decision ``index`` is step index + 1). Only
// where the table allows hints (the server refuses a review elsewhere, as it refuses a hint).
export function reviewSection(c, replayHref = null) {
  const T = c.table;
  if (!T || !T.hints || !c.view || c.view.phase !== "done" || T.bots?.[T.you]) return null;
  const R = advice.review && advice.review.deal === T.deal_number ? advice.review : null;
  if (!R) {
    const asked = advice.reviewAsked === T.deal_number;
    return h("section", { class: "review", "aria-label": t("advice.review.title") },
      h("button", { type: "button", class: "review-button", id: "review-button", "data-focus": "review", disabled: asked,
        onclick: () => { advice.reviewAsked = T.deal_number; c.send({ type: "review" }); c.render(); } },
      asked ? t("advice.review.starting") : t("advice.review")));
  }
  const items = R.items || [];
  const differ = items.filter((i) => !i.same);
  const cost = differ.reduce((a, i) => a + (i.cost > 0 ? i.cost : 0), 0);
  const progress = R.done ? null
    : R.decisions === null || R.decisions === undefined ? t("advice.review.starting")
      : t("advice.review.working", { n: items.length, m: R.decisions });
  return h("section", { class: "review", "aria-label": t("advice.review.title"), "data-done": R.done ? "true" : "false" },
    h("h3", { text: t("advice.review.title") }),
    progress ? h("p", { class: "review-progress", role: "status", text: progress }) : null,
    R.done && !items.length ? h("p", { class: "quiet", text: t("advice.review.none") }) : null,
    R.done && items.length ? h("p", { class: "review-summary", text: t("advice.review.summary", { same: items.length - differ.length, all: items.length, cost: amount(c, cost).replace(/^\+/, "") }) }) : null,
    items.length ? h("ol", { class: "review-list", "aria-label": t("advice.review.list") },
      items.map((i) => h("li", { class: verdict(i) === "unknown" ? "differs" : verdict(i), "data-index": i.index, "data-cost": i.cost ?? "" },
        replayHref ? h("a", { href: `${replayHref}#${i.index + 1}`, "data-focus": `review-${i.index}` }, itemLine(c, i)) : itemLine(c, i)))) : null);
}
