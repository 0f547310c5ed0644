// Ottocento's own screens (the game module interface is at the top of app.js; the rules are
// OTTOCENTO.md B1-B27, the view's fields docs/records.md "Ottocento"): the a monte question
// (B7), the dealer's discard of two with the 5-point cards off (B8), the declaration step
// started from the full best declaration, each combination removable and shrinkable, its
// points with the doubling (B9-B18), every declaration face up beside its seat until the
// first lead and then in the log, the signal toggles on the leader's screen and the signal on
// the led card for all (B22), partners and both sides' totals toward 800 (B5, B26), and the
// count with both piles itemised (B21, B24, B25). Its words are the "ott." keys (prefix); the
// game's own words stay Italian.

import messages from "./ottocento.i18n.js";  // (its refusals' Italian: REASON_IDS_IT in i18n.js)

const CRICCHE = new Set(["tarocchi", "kings", "queens", "cavalli", "fanti"]);
const SIGNALS = ["volo", "trionfi", "busso"];

function isSet(x) { return x !== null && x !== undefined; }
function sideOf(seat) { return seat % 2; }
function sideName(c, side) { return c.t(side === 0 ? "ott.side.a" : "ott.side.b"); }
function sideSeats(c, side) { return (c.view?.sides?.[side] || [side, side + 2]).map(c.whoLabel).join(", "); }
function sideLabel(c, side) { return `${sideName(c, side)} (${sideSeats(c, side)})`; }
// A side's total toward 800 (B26); once there, "810, 800 reached", not "810 of 800".
function totalText(c, key, n, target) {
  return c.t(n >= target ? "ott.total.reached" : key, { n, target });
}
function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
function kindName(c, kind) { return c.t(`ott.kind.${kind}`); }
function signalName(c, s) { return c.t(`ott.signal.${s}`); }

// Any card played in this deal yet: the declarations stay beside the seats until the first lead.
function anyPlayed(v) { return (v.trick || []).length > 0 || !!v.last_trick; }
function leading(c) { const v = c.view; return c.myTurn && v.phase === "play" && !(v.trick || []).length && v.options?.signals !== false; }

// --- the signal on the next led card (B22) ----------------------------------------------

let signal = null;      // "volo" | "trionfi" | "busso" | null: the toggle on the leader's screen
let signalAt = null;    // the lead it belongs to

function signalNow(c) {
  const v = c.view;
  const key = `${c.table.deal_number}:${(v.played || []).reduce((n, p) => n + p.length, 0)}`;
  if (signalAt !== key || !leading(c)) { signal = null; signalAt = key; }
  return signal;
}

// --- the declaration being edited (B9): from the full best, combinations dropped or shrunk --

let edit = null;        // {key, rows: [{kind, cards, full, shrinkable, off}]}

function editNow(c) {
  const v = c.view;
  const key = `${c.table.deal_number}:${v.hand.join(",")}`;
  if (!edit || edit.key !== key) {
    const best = (v.choices || [])[0]?.combinations || [];
    edit = { key, rows: best.map((k) => ({ kind: k.kind, cards: [...k.cards], full: k, shrinkable: new Set(k.shrinkable || []), off: false })) };
  }
  return edit;
}

function rowPoints(r) {
  // The points of a combination as the engine gives them for its full size, for fewer cards
  // by the same rule (B10: a cricca of four counts twice three; B11: 10 for 3, 5 a card more).
  const n = r.cards.length;
  if (n === r.full.size) return r.full.points;
  if (CRICCHE.has(r.kind)) return (r.full.size === 4 ? r.full.points / 2 : r.full.points) * (n === 4 ? 2 : 1);
  return 10 + 5 * (n - 3);
}

function editAction(e) {
  const on = e.rows.filter((r) => !r.off && r.cards.length);
  return ["declare", ...on.map((r) => `${r.kind}:${r.cards.join(",")}`)].join(" ");
}

// The total of the edited declaration: the engine's, if it is one of the choices offered;
// else worked out the same way (B18), and the server checks it when it is sent.
function editTotal(c, e) {
  const action = editAction(e);
  const offered = (c.view.choices || []).find((ch) => ch.action === action);
  if (offered) return { points: offered.points, cricche: offered.cricche_doubled, sequences: offered.sequences_doubled, offered: true };
  const on = e.rows.filter((r) => !r.off);
  const cr = on.filter((r) => CRICCHE.has(r.kind));
  const sq = on.filter((r) => !CRICCHE.has(r.kind));
  const sum = (rows) => rows.reduce((n, r) => n + rowPoints(r), 0);
  return { points: sum(cr) * (cr.length >= 3 ? 2 : 1) + sum(sq) * (sq.length >= 3 ? 2 : 1), cricche: cr.length >= 3, sequences: sq.length >= 3, offered: false };
}

function doubledText(c, k) {
  const parts = [];
  if (k.cricche || k.cricche_doubled) parts.push(c.t("ott.doubled.cricche"));
  if (k.sequences || k.sequences_doubled) parts.push(c.t("ott.doubled.sequences"));
  return parts.join(", ");
}

function declareEditor(c) {
  const { view: v, h, t } = c;
  const e = editNow(c);
  if (!e.rows.length) {
    return h("section", { class: "actions declare", "aria-label": t("ott.declare.title") },
      h("p", { class: "question", text: t("ott.declare.nothing.held") }),
      h("div", { class: "bid-buttons" },
        h("button", { type: "button", class: "word", "data-action": "declare", "data-focus": "declare-none", onclick: () => c.act("declare") },
          h("span", { class: "word-main", text: t("ott.declare.none") }))));
  }
  const total = editTotal(c, e);
  const rows = e.rows.map((r, i) => {
    const label = `${kindName(c, r.kind)} ×${r.cards.length}`;
    const chips = r.full.cards.map((code) => {
      const isIn = r.cards.includes(code);
      if (!r.shrinkable.has(code) || r.off) return c.miniCard(code, isIn ? "" : "out");
      const last = isIn && r.cards.length <= 3;
      const tip = t(isIn ? "ott.declare.chip.out" : "ott.declare.chip.in", { card: c.cardName(code), kind: kindName(c, r.kind) });  // a combination holds three cards at least (B10, B11, B16)
      return h("button", {
        type: "button", class: "chip" + (isIn ? "" : " out"), "data-card": code, "data-focus": `chip-${r.kind}-${code}`,
        "aria-pressed": String(isIn), disabled: last, title: tip,
        onclick: () => {
          r.cards = isIn ? r.cards.filter((x) => x !== code) : r.full.cards.filter((x) => x === code || r.cards.includes(x));
          c.render();
        },
      }, c.miniCard(code), h("span", { class: "visually-hidden", text: `: ${tip}` }));
    });
    return h("li", { class: "combo-row" + (r.off ? " off" : ""), "data-kind": r.kind },
      h("span", { class: "combo-name", text: label }),
      h("span", { class: "combo-cards", role: "group", "aria-label": label }, chips),
      h("span", { class: "combo-points", text: r.off ? t("ott.declare.dropped") : t("ott.points", { n: rowPoints(r) }) }),
      h("button", { type: "button", class: "drop", "data-kind": r.kind, "data-focus": `drop-${r.kind}`,
        title: t(r.off ? "ott.declare.putback.label" : "ott.declare.remove.label", { kind: label }),
        onclick: () => { r.off = !r.off; c.render(); } }, t(r.off ? "ott.declare.putback" : "ott.declare.remove"),
      h("span", { class: "visually-hidden", text: ` ${label}` })));
  });
  const some = e.rows.some((r) => !r.off);
  const dbl = doubledText(c, total);
  return h("section", { class: "actions declare", "aria-label": t("ott.declare.title") },
    h("ul", { class: "combo-list" }, rows),
    h("div", { class: "declare-foot" },
      h("span", { class: "declare-total" + (dbl ? "" : " plain"), "data-points": total.points, title: dbl || null,
        text: t("ott.declare.total", { n: total.points }) + (dbl ? ` (${dbl})` : "") }),
      h("button", { type: "button", class: "primary", id: "confirm-declare", "data-focus": "declare", disabled: !some,
        ...c.confirmKey(t("ott.declare.confirm", { n: total.points })), onclick: () => c.act(editAction(e)) }, t("ott.declare.confirm", { n: total.points })),
      h("button", { type: "button", class: "word", "data-action": "declare", "data-focus": "declare-none", onclick: () => c.act("declare") },
        h("span", { class: "word-main", text: t("ott.declare.none") }))));
}

// A declaration as shown beside a seat and in the count: each combination with its cards.
function comboChip(c, k) {
  return c.h("span", { class: "combo", "data-kind": k.kind },
    c.h("span", { class: "combo-name", text: `${kindName(c, k.kind)} ×${k.size ?? k.cards.length}` }),
    k.cards.map((x) => c.miniCard(x)),
    c.h("b", { class: "combo-points", text: String(k.points) }));
}

function declarationText(c, d) {
  if (!d.combinations.length) return c.t("ott.decl.nothing");
  const what = d.combinations.map((k) => `${kindName(c, k.kind)} ×${k.size}`).join(", ");
  const dbl = doubledText(c, d);
  return c.t(dbl ? "ott.decl.line.doubled" : "ott.decl.line", { what, doubled: dbl, n: d.points });
}

function seatDeclaration(c, seat) {
  const d = c.view.declarations?.[seat];
  if (!d) return null;
  const { h, t } = c;
  // Focusable: on a phone a long declaration scrolls in its seat's tile (style.css), and a
  // keyboard must reach it too.
  const scrolls = d.combinations.length ? { tabindex: "0", "data-focus": `declared-${seat}` } : {};
  return h("div", { class: "declared", role: "group", "aria-label": t("ott.decl.label", { name: c.whoLabel(seat) }), ...scrolls },
    d.combinations.length ? d.combinations.map((k) => comboChip(c, k)) : h("small", { class: "nothing", text: t("ott.decl.nothing") }),
    d.combinations.length ? h("b", { class: "declared-total", text: `= ${d.points}` + (doubledText(c, d) ? ` (${doubledText(c, d)})` : "") }) : null);
}

// --- the count ---------------------------------------------------------------------------

function comboList(c, list) {
  return list.length ? c.h("span", { class: "combo-line" }, list.map((k) => comboChip(c, k)))
    : c.h("small", { class: "none", text: c.t("ott.count.none") });
}

function foolText(c, k) {
  const f = k.fool;
  if (!f || f.seat < 0) return null;
  const mine = sideOf(f.seat);
  const theirs = sideOf(f.trick_winner);
  const who = { name: c.whoLabel(f.seat), winner: c.whoLabel(f.trick_winner), side: sideName(c, mine), other: sideName(c, theirs) };
  if (mine === theirs) return [c.t("ott.count.fool.partner", who)];
  if (f.surrendered) return [c.t("ott.count.fool.over", who)];
  return [c.t("ott.count.fool.paid", who), c.miniCard(f.paid)];
}

function sideBlock(c, k, i) {
  const { h, t } = c;
  const s = k.sides[i];
  const decl = s.seats.map((seat) => `${c.whoLabel(seat)} ${k.declarations[seat].points}`).join(", ");
  const rows = [
    [t("ott.count.declared"), h("span", {}, h("b", { text: String(s.declared) }), ` (${decl})`)],
  ];
  if (!k.thrown_in && !k.at_declarations) {
    const dbl = doubledText(c, s);
    rows.push([t("ott.count.pile"), h("span", { class: "pile-combos" }, comboList(c, s.combinations),
      h("span", { class: "subtotal" }, dbl ? h("small", { class: "doubled", text: dbl }) : null, h("b", { text: `= ${s.combination_points}` })))]);
    rows.push([t("ott.count.cards"), h("span", {}, t("ott.count.cards.line", { n: s.cards.length, tricks: s.tricks, pairs: s.pairs, value: s.card_value }), " = ", h("b", { text: String(s.card_points) }))]);
    rows.push([t("ott.count.last"), h("b", { text: String(s.last_trick) })]);
  }
  return h("section", { class: "ott-side", "data-side": i },
    h("h3", {}, h("span", { text: sideLabel(c, i) }), h("b", { class: "side-score", "data-score": s.score, text: t("ott.count.score", { n: s.score }) })),
    h("dl", {}, rows.map(([dt, dd]) => [h("dt", { text: dt }), h("dd", {}, dd)])),
    h("p", { class: "side-total", text: t("ott.count.total", { before: k.totals_before[i], target: c.view.target ?? 800,
      n: totalText(c, "ott.count.total.n", k.totals[i], c.view.target ?? 800) }) }));
}

export default {
  name: "ottocento",
  prefix: "ott",
  messages,

  seatStats(c, seat) {
    const v = c.view || {};  // (a room still waiting has no view yet)
    const side = sideOf(seat);
    const total = v.totals?.[side] ?? c.table.totals?.[seat] ?? 0;
    const out = [c.h("span", { class: "stat total", "data-total": total, title: sideLabel(c, side), text: totalText(c, "ott.total", total, v.target ?? 800) })];
    // Every declaration face up beside its seat until the first lead (B9); then in the log.
    if (v.phase === "declare" || (v.phase === "play" && !anyPlayed(v))) out.push(seatDeclaration(c, seat));
    return out;
  },

  seatTags(c, seat) {
    const v = c.view;
    const side = sideOf(seat);
    const tags = [c.h("span", { class: `tag team team-${side ? "b" : "a"}`, title: sideLabel(c, side), text: side ? "B" : "A" })];
    if (seat === v.partner) tags.push(c.h("span", { class: "tag partner", text: c.t("table.partner") }));
    return tags;
  },

  // A side wins the match (B26): its name, not its two seats as a shared win.
  winners(c, winners) {
    if (!winners.length) return null;
    const side = sideOf(winners[0]);
    return capital(c.t(side === sideOf(c.me) ? "ott.result.you.winner" : "ott.result.winner", { side: sideLabel(c, side) }));
  },

  totalsLine(c) {
    return [0, 1].map((side) => `${sideName(c, side)} ${c.table.totals?.[side] ?? 0}`).join(" · ");
  },

  // A side's hand score, its two seats alike (B24): one line a side (its seats: the A/B tags).
  payments(c) {
    const k = c.view.count;
    const by = k.payments || k.scores || [];
    return [0, 1].map((side) => ({ label: sideName(c, side), value: by[side] ?? 0 }));
  },

  // Partners always score alike (B24): the sheet has a column for each side.
  sheetColumns(c) {
    return [0, 1].map((side) => ({ seat: side, label: sideLabel(c, side) }));
  },

  pickSize() { return 2; },

  cardChoice(c, code) {
    const v = c.view;
    if (v.phase === "monte" || v.phase === "declare") return { action: code, reason: null };  // the buttons decide
    if (v.phase === "play" && leading(c)) {
      const s = signalNow(c);
      if (s) return v.choices.find((ch) => ch.action === `${code} ${s}`) || null;
    }
    return undefined;
  },

  status(c) {
    const v = c.view;
    if (v.phase !== "play") return null;
    const s = leading(c) ? signalNow(c) : null;
    const base = leading(c) ? (s ? c.t("ott.status.lead.signal", { signal: signalName(c, s) }) : c.t("ott.status.lead")) : c.t("ott.status.play");
    // The cards dimmed now (a refused Volo on the cards of a suit still held, B22; follow suit).
    const whys = new Set();
    for (const code of v.hand) {
      const ch = s ? v.choices.find((x) => x.action === `${code} ${s}`) : v.choices.find((x) => x.action === code);
      if (ch?.reason) whys.add(c.why(ch));
    }
    return whys.size ? `${base} ${c.t("status.dimmed", { reasons: [...whys].join("; ") })}` : base;
  },

  center(c) {
    const { view: v, h, t } = c;
    if (v.phase === "monte") {
      return h("section", { class: "center empty ott-monte" },
        h("p", { class: "center-note", text: t("ott.center.monte") }),
        v.monte.length ? h("ul", { class: "said" }, v.monte.map((m) => h("li", { text: c.tSeat("ott.log.monte", m.seat, { word: m.said }) }))) : null);
    }
    if (v.phase === "discard") return h("section", { class: "center empty" }, h("p", { class: "center-note", text: c.tSeat("ott.center.discard", v.dealer) }));
    if (v.phase === "declare") return h("section", { class: "center empty" }, h("p", { class: "center-note", text: t("ott.center.declare") }));
    return null;
  },

  actions(c) {
    const { view: v, h, t } = c;
    if (v.phase === "monte") {
      return h("section", { class: "actions speak", "aria-label": t("ott.monte.title") },
        h("p", { class: "question", text: t("ott.monte.ask") }),
        h("div", { class: "bid-buttons" }, v.choices.map((ch) => h("div", { class: "bid" },
          h("button", { type: "button", class: "word", "data-action": ch.action, "data-focus": `monte-${ch.action}`, disabled: !!ch.reason,
            onclick: () => c.act(ch.action) },
            h("span", { class: "word-main", text: ch.action }), h("small", { text: t(`ott.hint.${ch.action}`) }))))));
    }
    if (v.phase === "discard") return c.discard({ size: 2, word: "discard", fallbackKey: "ott.discard.note" });
    if (v.phase === "declare") return declareEditor(c);
    return null;
  },

  // The two sides toward 800 (B26), and on the leader's screen the three signals (B22).
  banner(c) {
    const { view: v, h, t } = c;
    if (v.phase === "done") return null;
    const target = v.target ?? 800;
    const strip = h("p", { class: "ott-totals" }, [0, 1].map((side) => h("span", { class: "team-total" + (sideOf(c.me) === side ? " mine" : ""), "data-side": side },
      h("span", { class: "tag team team-" + (side ? "b" : "a"), "aria-hidden": "true", text: side ? "B" : "A" }),
      h("span", { text: ` ${sideSeats(c, side)}: ` }),
      h("b", { text: totalText(c, "ott.banner.total", v.totals?.[side] ?? 0, target) }))));
    if (!leading(c)) return strip;
    const s = signalNow(c);
    // A signal no card of the hand may carry now is off, with the reason (Volo while every
    // suit held has more cards, B22).
    const refused = (w) => {
      const mine = v.choices.filter((ch) => ch.action.endsWith(` ${w}`));
      return mine.length && mine.every((ch) => ch.reason) ? c.why(mine[0]) : null;
    };
    return [strip, h("div", { class: "ott-signals", role: "group", "aria-label": t("ott.signals.title") },
      h("span", { class: "signals-ask", text: t("ott.signals.ask") }),
      SIGNALS.map((w) => h("button", { type: "button", class: "signal" + (s === w ? " on" : ""), "data-signal": w, "data-focus": `signal-${w}`,
        "aria-pressed": String(s === w), disabled: s !== w && !!refused(w), title: refused(w) || t(`ott.signal.${w}.tip`),
        onclick: () => { signal = s === w ? null : w; c.render(); } }, signalName(c, w))))];
  },

  // The signal on the led card, for all (B22).
  playedTag(c, i, last) {
    const s = last ? last.signal : c.view.signal;
    if (i !== 0 || !s) return null;
    return c.h("span", { class: "signal-tag", "data-signal": s, title: c.t(`ott.signal.${s}.tip`), text: signalName(c, s) });
  },

  info(c) {
    const { view: v, h, t, miniCard } = c;
    const rows = [
      h("dt", { text: t("ott.info.sides") }), h("dd", { text: `${sideLabel(c, 0)}; ${sideLabel(c, 1)}` }),
      h("dt", { text: t("ott.info.partner") }), h("dd", { text: c.whoLabel(v.partner) }),
      h("dt", { text: t("ott.info.totals") }), h("dd", { text: t("ott.info.totals.line", { a: v.totals[0], b: v.totals[1], target: v.target ?? 800 }) }),
    ];
    if (v.discard && v.phase !== "done") rows.push(h("dt", { text: t("info.discard") }), h("dd", {}, v.discard.map((x) => miniCard(x))));
    rows.push(h("dt", { text: t("ott.info.signals") }), h("dd", { text: t(v.options?.signals === false ? "ott.info.signals.off" : "ott.info.signals.on") }));
    return [h("dl", {}, rows), h("p", { class: "note", text: t("ott.info.scoring") })];
  },

  log(c) {
    const v = c.view;
    const out = v.monte.map((m) => c.tSeat("ott.log.monte", m.seat, { word: m.said }));
    (v.declarations || []).forEach((d, seat) => {
      if (d) out.push(d.combinations.length ? c.tSeat("ott.log.declare", seat, { what: declarationText(c, d) }) : c.tSeat("ott.log.declare.none", seat));
    });
    for (const s of v.signals || []) out.push(c.tSeat("ott.log.signal", s.seat, { card: c.cardName(s.card), signal: signalName(c, s.signal) }));
    return out;
  },

  // A declaration in a player's words (a hint, a review): "declare Tarocchi ×3, Kings ×4 (35)"
  // as the declare editor names it, not the engine's "declare tarocchi:20,19,M ...".
  actionWords(c, action) {
    const m = /^declare(?: (.+))?$/.exec(action);
    if (!m) return undefined;
    if (!m[1]) return c.t("ott.words.declare.none");
    const what = m[1].split(" ").map((part) => {
      const [kind, cards = ""] = part.split(":");
      return `${kindName(c, kind)} ×${cards.split(",").filter(Boolean).length}`;
    }).join(", ");
    const offered = (c.view?.choices || []).find((ch) => ch.action === action);
    return isSet(offered?.points) ? c.t("ott.words.declare.points", { what, n: offered.points }) : c.t("ott.words.declare", { what });
  },

  eventLine(c, e) {
    switch (e.type) {
      case "monte": return c.tSeat("ott.ev.monte", e.seat, { word: e.said });
      case "thrown_in": return c.t("ott.ev.thrown_in");
      case "discard": return c.tSeat("ott.ev.discard", e.seat);
      case "declare": return e.combinations.length ? c.tSeat("ott.ev.declare", e.seat, { what: declarationText(c, e) }) : c.tSeat("ott.ev.declare.none", e.seat);
      case "play": return e.signal ? c.tSeat("ott.ev.lead.signal", e.seat, { card: c.cardName(e.card), signal: signalName(c, e.signal) }) : undefined;
      default: return undefined;
    }
  },

  count(c) {
    const { view: v, h, t } = c;
    const k = v.count;
    if (k.thrown_in) return [h("p", { class: "ott-thrown", text: t("ott.count.thrown_in") })];
    const parts = [];
    if (k.at_declarations) parts.push(h("p", { class: "bonus", text: t("ott.count.at_declarations") }));
    parts.push(h("div", { class: "ott-sides" }, [0, 1].map((i) => sideBlock(c, k, i))));
    if (!k.at_declarations) {
      parts.push(h("p", { class: "count-discard" },
        h("span", { class: "caption", text: c.tSeat("ott.count.discard", v.dealer, { side: sideName(c, k.discard_to) }) }),
        (k.discard || []).map((x) => c.miniCard(x))));
      const fool = foolText(c, k);
      if (fool) parts.push(h("p", { class: "count-fool" }, fool));
      parts.push(h("p", { class: "note how", text: t("ott.count.how") }));
    }
    if (isSet(k.winner)) parts.push(h("p", { class: "line made" }, h("b", { text: capital(t("ott.count.winner", { side: sideLabel(c, k.winner), n: k.totals[k.winner] })) })));
    return parts;
  },
};
