// Tarocchi Siciliani's own screens (the game module interface is described at the top of
// app.js): the speaking buttons, the bidder's discard, the Scommessa/Rivanto question, the
// deal panel (contract, monte, called trump), the announcements log and the count in jochi.

import messages from "./sicilian.i18n.js";

function standingBid(v) {
  // The highest word said so far while the speaking goes on (the contract is only set at its
  // end): a chiamo or a vado solo, with who said it.
  let best = null;
  for (const b of v.bids || []) if (b.bid === "chiamo" || b.bid === "vado solo") best = b;
  return best;
}

function contractText(c) {
  const { view: v, t, whoLabel } = c;
  if (v.bidder === null || v.bidder === undefined) {
    const b = standingBid(v);
    if (b) return c.tSeat(b.bid === "chiamo" ? "info.contract.bid.chiamo" : "info.contract.bid.solo", b.seat);
    return t("info.contract.none");
  }
  if (v.contract === "solo") return c.tSeat("info.contract.solo", v.bidder);
  if (v.contract === "forced") return c.tSeat("info.contract.forced", v.bidder, { card: v.called ?? "?" });
  return c.tSeat("info.contract.chiamo", v.bidder, { card: v.called ?? "?" });
}

function announceLine(c, seat, word, possible = true) {
  // A No without a choice (R12): the log says the question was not possible, and which.
  if (word === "no" && possible === false) return c.tSeat(seat === c.view.bidder ? "ev.announce.noscommessa" : "ev.announce.norivanto", seat);
  // A No says to which question: the bidder's is Scommessa, everyone else's Rivanto (R12).
  if (word === "no" && c.view.bidder !== null && c.view.bidder !== undefined) {
    return c.tSeat(seat === c.view.bidder ? "ev.announce.no.scommessa" : "ev.announce.no.rivanto", seat);
  }
  const key = `ev.announce.${word}`;
  if (c.has(key)) return c.tSeat(key, seat);
  // A word the page has no sentence for (a newer engine's): said as it comes.
  return c.tSeat("ev.announce.other", seat, { word: String(word).replace(/_/g, " ") });
}

export default {
  name: "sicilian",
  prefix: null,
  messages,
  totalsKey: "table.jochi",

  phaseKey(phase) { return phase === "announce" ? "answer" : phase; },

  seatStats(c, seat) {
    const total = c.table.totals?.[seat] ?? 0;
    return [c.h("span", { class: "stat jochi", "data-total": total, text: c.tn("table.jochi", total) })];
  },

  seatTags(c, seat) {
    const v = c.view;
    const tags = [];
    if (v.bidder === seat) tags.push(c.h("span", { class: "tag bidder", text: v.contract === "solo" ? "vado solo" : "chiamo" }));
    if (v.partner === seat && v.partner !== null) tags.push(c.h("span", { class: "tag partner", text: c.t("table.partner") }));
    return tags;
  },

  center(c) {
    const v = c.view;
    if (v.monte && (v.phase === "discard" || v.phase === "announce")) {
      return c.h("section", { class: "center monte", "aria-label": c.t("info.monte") },
        c.h("p", { class: "center-note", text: c.t("info.monte") }),
        c.h("div", { class: "trick-cards" }, v.monte.map((x) => c.h("div", { class: "card-box", role: "img", "aria-label": c.cardLabel(x) }, c.cardSvg(x)))));
    }
    return null;
  },

  status(c) {
    const v = c.view;
    return v.phase === "announce" && v.automatic ? c.t("ask.automatic") : null;
  },

  actions(c) {
    const { view: v, h, t } = c;
    if (v.phase === "speak") {
      return h("section", { class: "actions speak", "aria-label": t("speak.title") },
        h("div", { class: "bid-buttons" }, v.choices.map((ch) => {
          const id = `why-${ch.action.replace(/ /g, "-")}`;
          return h("div", { class: "bid" + (ch.reason ? " refused" : "") },
            h("button", { type: "button", class: "word", "data-action": ch.action, "data-focus": `bid-${ch.action}`, disabled: !!ch.reason,
              title: c.has(`tip.${ch.action}`) ? t(`tip.${ch.action}`) : null,
              "aria-describedby": ch.reason ? id : null, onclick: () => c.act(ch.action) },
              h("span", { class: "word-main", text: ch.action }),
              h("small", { text: c.has(`hint.${ch.action}`) ? t(`hint.${ch.action}`) : "" })),
            ch.reason ? h("span", { class: "why", id, text: c.why(ch) }) : null);
        })));
    }
    if (v.phase === "discard") return c.discard({ size: 3 });
    if (v.phase === "announce") {
      // Only the questions the view offers: each word in choices but "no" is a question.
      const words = v.choices.filter((ch) => ch.action !== "no");
      const no = v.choices.find((ch) => ch.action === "no");
      const open = words.filter((ch) => !ch.reason);
      const asked = open.length ? open : words;
      const first = asked[0]?.action;
      return h("section", { class: "actions ask", role: "group", "aria-label": first ? t(`ask.${first}`) : t("status.answer") },
        first ? h("p", { class: "question", text: asked.map((ch) => t(`ask.${ch.action}`)).join(" ") } ) : null,
        h("div", { class: "bid-buttons" },
          asked.map((ch) => {
            const name = ch.action === "scommessa" ? "Scommessa" : ch.action === "rivanto" ? "Rivanto" : ch.action;
            return h("div", { class: "bid" + (ch.reason ? " refused" : "") },
              h("button", { type: "button", class: "word", "data-action": ch.action, "data-focus": `ask-${ch.action}`, disabled: !!ch.reason,
                title: c.has(`tip.${ch.action}`) ? t(`tip.${ch.action}`) : null,
                "aria-describedby": ch.reason ? `why-${ch.action}` : null, onclick: () => c.act(ch.action) },
                h("span", { class: "word-main", text: t("ask.yes", { word: name }) })),
              ch.reason ? h("span", { class: "why", id: `why-${ch.action}`, text: c.why(ch) }) : null);
          }),
          no ? h("div", { class: "bid" },
            h("button", { type: "button", class: "word", "data-action": "no", "data-focus": "ask-no", disabled: !!no.reason,
              title: t("tip.no"), onclick: () => c.act("no") },
              h("span", { class: "word-main", text: t("ask.no") }))) : null));
    }
    return null;
  },

  info(c) {
    const { view: v, h, t, whoLabel, miniCard } = c;
    const rows = [];
    rows.push(h("dt", { text: t("info.contract") }), h("dd", { class: "contract", text: contractText(c) }));
    if (v.stata) rows.push(h("dt", { text: "stata" }), h("dd", { text: t("info.stata") }));
    if (v.called) {
      rows.push(h("dt", { text: t("info.called") }), h("dd", {}, miniCard(v.called)));
      if (v.partner !== null && v.partner !== undefined) rows.push(h("dt", { text: t("table.partner") }), h("dd", { text: whoLabel(v.partner) }));
      else if (v.phase === "done" && v.count && v.count.alone) rows.push(h("dt", { text: t("table.partner") }), h("dd", { text: c.tSeat("info.partner.alone", v.bidder) }));
    }
    if (v.monte) rows.push(h("dt", { text: t("info.monte") }), h("dd", { class: "monte-cards" }, v.monte.map((x) => miniCard(x))));
    if (v.discard && v.phase !== "done") rows.push(h("dt", { text: t("info.discard") }), h("dd", {}, v.discard.map((x) => miniCard(x))));
    if (v.scommessa) rows.push(h("dt", { text: "Scommessa" }), h("dd", { text: c.tSeat("info.scommessa", v.bidder) }));
    if (v.rivanto !== null && v.rivanto !== undefined) rows.push(h("dt", { text: "Rivanto" }), h("dd", { text: c.tSeat("info.rivanto", v.rivanto) }));
    return [
      v.i_am_partner && v.partner === null ? h("p", { class: "secret", text: t("info.i_am_partner") }) : null,
      h("dl", {}, rows),
    ];
  },

  log(c) {
    const v = c.view;
    const items = (v.bids || []).map((b) => c.tSeat("log.bid", b.seat, { word: b.bid, cards: b.cards }));
    if (v.contract === "forced") items.push(c.tSeat("ev.contract.forced", v.bidder));
    if (v.called && v.contract) items.push(c.tSeat("ev.call", v.bidder, { card: v.called }));
    for (const a of v.announcements || []) items.push(announceLine(c, a.seat, a.announce, a.possible));
    return items;
  },

  eventLine(c, e) {
    switch (e.type) {
      case "look": return c.tSeat("ev.look", e.seat);
      case "bid": return c.tSeat("ev.bid", e.seat, { word: e.bid });
      case "contract":
        if (e.contract === "solo") return c.tSeat(e.stata ? "ev.contract.stata" : "ev.contract.solo", e.seat);
        if (e.contract === "chiamo") return c.tSeat("ev.contract.chiamo", e.seat, { card: e.called });
        return c.tSeat("ev.contract.forced", e.seat);
      case "monte": return e.cards ? c.t("ev.monte", { cards: e.cards.map(c.cardName).join(", ") }) : c.tSeat("ev.monte.unseen", e.seat);
      case "call": return c.tSeat("ev.call", e.seat, { card: e.called });
      case "announce": return announceLine(c, e.seat, e.announce, e.possible);
      case "partner": return c.tSeat("ev.partner", e.seat);
      default: return undefined;
    }
  },

  count(c) {
    const { view: v, h, t, whoLabel, miniCard, cardName } = c;
    const k = v.count;
    const parts = [];
    if (k.abandoned) {
      parts.push(h("p", { text: t("count.abandoned", { reason: c.reason(k.reason, k.reason_id) }) }));
      if (k.prendo !== null && k.prendo !== undefined && k.pago?.length) {
        for (const p of k.pago) parts.push(h("p", { text: c.tSeat("count.pago", p, { prendo: whoLabel(k.prendo) }) }));
      } else parts.push(h("p", { text: t("count.nopay") }));
      return parts;
    }
    const sideName = (side) => `${t(`count.side.${side}`)} (${(k.sides[side] || []).map(whoLabel).join(", ")})`;
    parts.push(h("table", { class: "jochi-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("count.jocu") }), h("th", { scope: "col", text: t("count.side") }), h("th", { scope: "col", class: "num", text: t("count.jochi") }))),
      h("tbody", {}, k.jochi.map((j) => h("tr", { class: `side-${j.side}` },
        h("td", { text: t(`jocu.${j.name}`, { card: j.card ? cardName(j.card) : "" }) }),
        h("td", { text: t(`count.side.${j.side}`) }),
        h("td", { class: "num", text: String(j.value) })))),
      h("tfoot", {},
        ["bidder", "others"].map((side) => h("tr", {},
          h("th", { scope: "row", text: `${t("count.total")}: ${sideName(side)}` }),
          h("td", { text: `${t("count.points")}: ${k.card_points[side]}` }),
          h("td", { class: "num", text: String(k.totals?.[side] ?? "") }))))));
    parts.push(h("p", { class: "net" },
      `${t("count.net")}: `, h("b", { text: String(k.net) }), " · ",
      `${t("count.stake")} `, h("b", { text: t(k.stake === 2 ? "count.stake.stata" : "count.stake.one") })));
    parts.push(h("div", { class: "count-discard" }, h("span", { text: `${t("count.discard")}: ` }), (k.discard || []).map((x) => miniCard(x))));
    return parts;
  },
};
