// Calabresella's own screens (the game module interface is at the top of app.js; the rules
// are CALABRESELLA.md C1-C22): the auction (C8, C9), the card picker for chiamo and the card
// given back (C10), the monte turned up where C10-C12 say, the lays (C13) and scegliete's
// takes (C12) as select-then-confirm, the challenger, contract and stake on every screen, and
// the count with both piles, the monte, the 55 line, cappotto or stramazzo (C14-C20).
// Its words are the "cal." keys (prefix); the game's own words stay Italian.

import messages from "./calabresella.i18n.js";

const LAY_FORBIDDEN = ["you may not lay a trump, the Fool or a King", "lay_forbidden"];
const TAKE = new Set();  // the face-up monte cards picked in scegliete (C12), until sent
let takeAt = -1;         // the version the picks belong to

function isSet(x) { return x !== null && x !== undefined; }

// Every screen: who challenges, in what contract, for what stake (C18).
function contractText(c) {
  const v = c.view;
  if (!isSet(v.challenger)) return c.t(v.bid ? "cal.contract.bid" : "cal.contract.none", { word: v.bid || "" });
  return c.tSeat("cal.contract.is", v.challenger, { contract: c.t(`cal.contract.${v.contract}`), stake: v.stake, half: v.stake / 2 });
}

// The monte in the middle of the table, as chips: it shares the space with the called card.
function cardRow(c, codes, cls = "") {
  return c.h("div", { class: `monte-chips ${cls}`.trim() }, codes.map((x) => c.miniCard(x)));
}

// The cards of a lay of one or two (C11, C12): the choices are whole actions; a card is
// allowed if some allowed lay holds it.
function layable(v) {
  const ok = new Set();
  for (const ch of v.choices || []) if (!ch.reason && ch.action.startsWith("scarto ")) ch.action.slice(7).split(" ").forEach((x) => ok.add(x));
  return ok;
}

function speakButtons(c) {
  const { view: v, h, t } = c;
  return h("section", { class: "actions speak cal-speak", "aria-label": t("cal.speak.title") },
    h("div", { class: "bid-buttons" }, v.choices.map((ch) => {
      const id = `why-${ch.action.replace(/ /g, "-")}`;
      return h("div", { class: "bid" + (ch.reason ? " refused" : "") },
        h("button", { type: "button", class: "word", "data-action": ch.action, "data-focus": `bid-${ch.action}`, disabled: !!ch.reason,
          title: t(`cal.tip.${ch.action}`), "aria-describedby": ch.reason ? id : null, onclick: () => c.act(ch.action) },
          h("span", { class: "word-main", text: ch.action }),
          h("small", { text: t(`cal.hint.${ch.action}`) })),
        ch.reason ? h("span", { class: "why", id, text: c.why(ch) }) : null);
    })));
}

// Chiamo: any of the 63 cards the caller does not hold (C10), in the deck's order, the
// caller's own switched off; one compact flow of chips, so that it fits beside the hand.
function callPicker(c) {
  const { view: v, h, t } = c;
  const by = new Map(v.choices.map((ch) => [ch.action.slice("chiamo ".length), ch]));
  const codes = (c.deck()?.groups || []).flatMap((g) => g.cards);
  return h("section", { class: "actions call", "aria-label": t("cal.call.title") },
    h("div", { class: "call-picker" }, codes.map((code, i) => {
      const ch = by.get(code);
      const off = !ch || !!ch.reason;
      const prev = codes[i - 1];
      const gap = prev !== undefined && c.cardInfo(prev).suit !== c.cardInfo(code).suit;
      return h("button", { type: "button", class: "call-card" + (off ? " own" : "") + (gap ? " new-group" : ""), "data-card": code,
        "data-focus": `call-${code}`, disabled: off, title: off ? c.why(ch) || t("cal.call.own") : c.cardName(code),
        onclick: () => c.act(`chiamo ${code}`) }, c.miniCard(code));
    })));
}

// The card given back (C10) or the cards laid (C11, C12): picked on the hand, then confirmed.
function pickConfirm(c, { size, word, titleKey }) {
  const { h, t, selected } = c;
  const n = selected.size;
  return h("section", { class: "actions discard", "aria-label": t(titleKey), "data-size": size },
    h("span", { class: "discard-count", text: t("discard.count", { n, size }) }),
    h("button", { type: "button", class: "primary", id: "confirm-discard", "data-focus": "confirm", disabled: n !== size,
      ...c.confirmKey(t(`${titleKey}.confirm`)), onclick: () => c.act(`${word} ${[...selected].join(" ")}`) }, t(`${titleKey}.confirm`)));
}

// Scegliete: take none to three of the face-up cards (C12), then lay as many.
function takePicker(c) {
  const { view: v, h, t } = c;
  if (takeAt !== c.state.version) { TAKE.clear(); takeAt = c.state.version; }
  const up = v.monte_face_up || [];
  return h("section", { class: "actions take", "aria-label": t("cal.take.title") },
    up.length ? null : h("p", { class: "question", text: t("cal.take.none") }),  // (else the status line asks)
    h("div", { class: "take-cards" }, up.map((code) => h("button", {
      type: "button", class: "take-card" + (TAKE.has(code) ? " selected" : ""), "data-card": code, "data-focus": `take-${code}`,
      "aria-pressed": String(TAKE.has(code)),
      onclick: () => { if (TAKE.has(code)) TAKE.delete(code); else TAKE.add(code); c.render(); },
    }, c.miniCard(code), c.h("span", { class: "take-name", text: c.cardName(code) })))),
    h("div", { class: "bid-buttons" },
      h("button", { type: "button", class: "primary", id: "confirm-take", "data-focus": "take", disabled: !TAKE.size,
        ...c.confirmKey(t("cal.take.confirm", { n: TAKE.size })), onclick: () => c.act(`prendo ${[...TAKE].join(" ")}`) }, t("cal.take.confirm", { n: TAKE.size })),
      h("button", { type: "button", class: "word", "data-action": "passo", "data-focus": "take-none",
        onclick: () => c.act("passo") }, h("span", { class: "word-main", text: "passo" }), h("small", { text: t("cal.take.pass") }))));
}

// Who called the card and who gives it: "You called ..." when the caller reads it (C10).
function calledLine(c) {
  const v = c.view;
  const p = { card: c.cardName(v.called), caller: c.whoLabel(v.challenger), name: c.whoLabel(v.giver) };
  if (v.challenger === c.me) return c.t("cal.called.caller.you", p);
  return c.tSeat("cal.called.by", v.giver, p);
}

function sideLabel(c, side) {
  const k = c.view.count;
  const seats = [0, 1, 2].filter((s) => (side === 0) === (s === k.challenger));
  return `${c.t(side === 0 ? "cal.count.challenger" : "cal.count.opponents")} (${seats.map(c.whoLabel).join(", ")})`;
}

export default {
  name: "calabresella",
  prefix: "cal",
  messages,
  totalsKey: "cal.total",

  seatStats(c, seat) {
    const total = c.table.totals?.[seat] ?? 0;
    return [c.h("span", { class: "stat total", "data-total": total, title: c.t("cal.total.title", { target: c.table.target ?? 21 }), text: c.t("cal.total", { n: c.signed(total) }) })];
  },

  seatTags(c, seat) {
    const v = c.view;
    const tags = [];
    if (v.challenger === seat) tags.push(c.h("span", { class: "tag bidder", text: c.t(`cal.contract.${v.contract}`) }));
    if (isSet(v.giver) && v.giver === seat) tags.push(c.h("span", { class: "tag partner", text: c.t("cal.giver") }));
    return tags;
  },

  picks(phase) { return phase === "give" || phase === "lay"; },
  pickSize(c) { return c.view.phase === "give" ? 1 : (c.view.lay || 1); },

  // A hand card's choice where the phase's choices are not card codes.
  cardChoice(c, code) {
    const v = c.view;
    if (v.phase === "give") return v.choices.find((ch) => ch.action === `restituisco ${code}`) || null;
    if (v.phase === "lay") {
      return layable(v).has(code) ? { action: code, reason: null } : { action: code, reason: LAY_FORBIDDEN[0], reason_id: LAY_FORBIDDEN[1] };
    }
    return undefined;  // the core's: the choices are the cards
  },

  status(c) {
    const v = c.view;
    if (v.phase === "lay" || v.phase === "discard") return c.t("cal.status.lay", { n: v.lay });
    return null;
  },

  center(c) {
    const { view: v, h, t } = c;
    if (v.phase === "call" && v.turn === c.me) return h("section", { class: "center empty call" });
    const parts = [];
    if (isSet(v.called)) {
      parts.push(h("p", { class: "center-note called-line", "data-card": v.called },
        c.miniCard(v.called),
        h("span", { text: isSet(v.giver) ? calledLine(c)
          : t("cal.called.monte", { card: c.cardName(v.called) }) })));
      if (isSet(v.given_back)) parts.push(h("p", { class: "center-note" }, c.miniCard(v.given_back),
        h("span", { text: t("cal.given.back", { card: c.cardName(v.given_back), name: c.whoLabel(v.giver) }) })));
    }
    const mine = v.taken?.[c.me];
    if (v.monte && v.phase !== "play" && !(v.phase === "take" && v.turn === c.me)) {  // the take picker shows them
      parts.push(h("p", { class: "center-note", text: t(v.contract === "solissimo scegliete" ? "cal.monte.faceup" : "cal.monte.up") }));
      parts.push(cardRow(c, v.monte_face_up && v.phase === "take" ? v.monte_face_up : v.monte, "monte"));
    } else if (v.contract === "solissimo dividete" && mine && mine.length && v.phase !== "play") {
      parts.push(h("p", { class: "center-note", text: t("cal.monte.yours") }), cardRow(c, mine, "monte"));
    } else if (v.contract === "solissimo" && v.phase !== "play") {
      parts.push(h("p", { class: "center-note", text: t("cal.monte.unseen") }));
    }
    if (!parts.length) return null;
    return h("section", { class: "center monte", "aria-label": t("info.monte") }, parts);
  },

  actions(c) {
    const v = c.view;
    if (v.phase === "speak") return speakButtons(c);
    if (v.phase === "call") return callPicker(c);
    if (v.phase === "give") return pickConfirm(c, { size: 1, word: "restituisco", titleKey: "cal.give" });
    if (v.phase === "discard") return c.discard({ size: 3, word: "scarto", fallbackKey: "cal.lay.fallback" });
    if (v.phase === "lay") return pickConfirm(c, { size: v.lay || 1, word: "scarto", titleKey: "cal.lay" });
    if (v.phase === "take") return takePicker(c);
    return null;
  },

  banner(c) {
    const v = c.view;
    // (Not while the caller picks or an opponent takes: the picker needs the room, and the
    // line above says it.)
    if (v.phase === "done" || !isSet(v.challenger) || ((v.phase === "call" || v.phase === "take") && v.turn === c.me)) return null;
    return c.h("p", { class: "contract-line" }, c.h("span", { text: contractText(c) }));
  },

  info(c) {
    const { view: v, h, t, miniCard } = c;
    const rows = [h("dt", { text: t("info.contract") }), h("dd", { class: "contract", text: contractText(c) })];
    if (isSet(v.called)) {
      rows.push(h("dt", { text: t("cal.info.called") }), h("dd", {}, miniCard(v.called),
        h("span", { text: isSet(v.giver) ? ` ${c.whoLabel(v.giver)}` : ` ${t("cal.info.in.monte")}` })));
    }
    if (isSet(v.given_back)) rows.push(h("dt", { text: t("cal.info.given") }), h("dd", {}, miniCard(v.given_back)));
    if (v.monte) rows.push(h("dt", { text: t("info.monte") }), h("dd", { class: "monte-cards" }, v.monte.map((x) => miniCard(x))));
    const mine = v.taken?.[c.me];
    if (mine && mine.length) rows.push(h("dt", { text: t("cal.info.taken") }), h("dd", {}, mine.map((x) => miniCard(x))));
    const laid = v.laid?.[c.me];
    if (laid && laid.length && v.phase !== "done") rows.push(h("dt", { text: t("cal.info.laid") }), h("dd", {}, laid.map((x) => miniCard(x))));
    return [h("dl", {}, rows), h("p", { class: "note", text: t("cal.info.scoring") })];
  },

  log(c) {
    return (c.view.auction || []).map((a) => c.tSeat("cal.log.bid", a.seat, { word: a.bid }));
  },

  eventLine(c, e) {
    switch (e.type) {
      case "bid": return c.tSeat("cal.ev.bid", e.seat, { word: e.bid });
      case "thrown_in": return c.t("cal.ev.thrown_in");
      case "contract": return c.tSeat("cal.ev.contract", e.seat, { contract: c.t(`cal.contract.${e.contract}`), stake: e.stake });
      case "divided": return c.t("cal.ev.divided", { first: c.whoLabel(e.seats[0]), second: c.whoLabel(e.seats[1]) });
      case "monte": return c.t("cal.ev.monte", { cards: e.cards.map(c.cardName).join(", ") });
      case "call": return c.tSeat("cal.ev.call", e.seat, { card: c.cardName(e.called) });
      case "give": return c.tSeat("cal.ev.give", e.seat, { card: c.cardName(e.card), to: c.whoLabel(e.to) });
      case "take": return e.cards.length ? c.tSeat("cal.ev.take", e.seat, { cards: e.cards.map(c.cardName).join(", ") }) : c.tSeat("cal.ev.take.none", e.seat);
      case "lay": return c.tSeat(e.cards === 1 ? "cal.ev.lay.one" : "cal.ev.lay", e.seat, { n: e.cards });
      default: return undefined;
    }
  },

  count(c) {
    const { view: v, h, t, miniCard } = c;
    const k = v.count;
    if (k.thrown_in) return [h("p", { text: t("cal.count.thrown_in") })];
    const parts = [];
    parts.push(h("p", { class: "count-contract", text: contractText(c) }));
    parts.push(h("table", { class: "piles-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("cal.count.side") }),
        h("th", { scope: "col", class: "num", text: t("cal.count.tricks") }),
        h("th", { scope: "col", class: "num", text: t("cal.count.blanks") }),
        h("th", { scope: "col", class: "num", text: t("cal.count.points") }))),
      h("tbody", {}, k.sides.map((s, side) => [
        h("tr", { class: "pile-row", "data-side": side },
          h("th", { scope: "row", text: sideLabel(c, side) }),
          h("td", { class: "num", text: String(s.tricks) }),
          h("td", { class: "num", text: String(s.blanks) }),
          h("td", { class: "num points" }, h("b", { text: String(s.points) }))),
        h("tr", { class: "pile-cards-row" }, h("td", { colspan: 4 },
          h("span", { class: "pile-cards", role: "group", "aria-label": `${sideLabel(c, side)}: ${t("cal.count.counting")}` },
            h("small", { text: `${t("cal.count.counting")}:` }),
            s.counting.length ? s.counting.map((x) => miniCard(x)) : h("small", { class: "none", text: t("cal.count.nothing") })))),
      ])),
      h("tfoot", {}, h("tr", {},
        h("th", { scope: "row", text: t("cal.count.all") }),
        h("td", { class: "num", text: String(k.sides[0].tricks + k.sides[1].tricks) }),
        h("td", { class: "num", text: String(k.sides[0].blanks + k.sides[1].blanks) }),
        h("td", { class: "num", text: String(k.total) })))));
    parts.push(h("div", { class: "count-discard" },
      h("span", { class: "caption", text: `${t(`cal.count.monte.${k.monte_to}`)}: ` }),
      (k.monte || []).map((x) => miniCard(x))));
    const pts = k.sides[0].points;
    parts.push(h("p", { class: "line " + (k.won ? "made" : "missed") },
      h("b", { text: t(k.won ? "cal.count.made" : "cal.count.missed", { points: pts, line: k.line, total: k.total }) })));
    if (k.stramazzo >= 0) parts.push(h("p", { class: "bonus", text: t(`cal.count.stramazzo.${k.stramazzo}`) }));
    else if (k.cappotto >= 0) parts.push(h("p", { class: "bonus", text: t(`cal.count.cappotto.${k.cappotto}`) }));
    parts.push(h("p", { class: "note how", text: t("cal.count.stake", { stake: k.stake, m: k.multiplier, win: k.stake * k.multiplier, half: (k.stake * k.multiplier) / 2 }) }));
    return parts;
  },
};
