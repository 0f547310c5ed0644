// The Renaissance three-hand game's own screens (the interface is at the top of app.js): the
// dealer's discard with the three extra cards (A7), the Fool's debt (A13, A14), the deal panel
// and the count, each pile itemised (A4, A15). Its words are the "ren." keys (prefix).

import messages from "./renaissance.i18n.js";

// The Fool played into another seat's trick: who owes whom a card, while owed.
function foolText(c, f) {
  const me = c.me;
  const p = { name: c.whoLabel(f.seat), to: c.whoLabel(f.owes) };
  const how = f.owed ? "owes" : "paid";
  if (f.seat === me) return c.t(`ren.fool.you.${how}`, p);
  if (f.owes === me) return c.t(`ren.fool.${how}.you`, p);
  return c.t(`ren.fool.${how}`, p);
}

export default {
  name: "renaissance",
  prefix: "ren",
  messages,
  totalsKey: "table.total",

  seatStats(c, seat) {
    const total = c.table.totals?.[seat] ?? 0;
    // At the count, the piles as counted: the Fool's card paid (A13) or the Fool surrendered (A14).
    const counted = c.view?.count?.piles?.[seat];
    const pile = counted ? counted.threes * 3 : c.view?.pile_sizes?.[seat];
    return [
      c.h("span", { class: "stat total", "data-total": total, text: c.t("table.total", { n: c.signed(total) }) }),
      pile !== undefined ? c.h("span", { class: "stat pile", text: c.t("table.pile", { n: pile }) }) : null,
    ];
  },

  status(c) {
    return c.view.phase === "discard" ? c.t("ren.status.discard") : null;
  },

  center(c) {
    const { view: v, h, t } = c;
    if (v.extra && v.phase === "discard") {
      return h("section", { class: "center monte extra", "aria-label": t("ren.extra") },
        h("p", { class: "center-note", text: t("ren.extra") }),
        h("div", { class: "trick-cards" }, v.extra.map((x) => h("div", { class: "card-box", role: "img", "aria-label": c.cardLabel(x) }, c.cardSvg(x)))));
    }
    if (v.phase === "discard") {
      return h("section", { class: "center empty" }, h("p", { class: "center-note", text: c.tSeat("ren.center.discard", v.dealer) }));
    }
    return null;
  },

  actions(c) {
    return c.view.phase === "discard" ? c.discard({ size: 3 }) : null;
  },

  banner(c) {
    const f = c.view.fool;
    if (!f || typeof f !== "object" || c.view.phase === "done") return null;
    return c.h("p", { class: "fool-line" + (f.owed ? " owed" : "") }, c.miniCard("F"), c.h("span", { text: foolText(c, f) }));
  },

  info(c) {
    const { view: v, h, t, miniCard } = c;
    const rows = [h("dt", { text: t("table.dealer") }), h("dd", { class: "dealer-name", text: c.whoLabel(v.dealer) })];
    if (v.extra) rows.push(h("dt", { text: t("ren.info.extra") }), h("dd", { class: "extra-cards" }, v.extra.map((x) => miniCard(x))));
    if (v.discard && v.phase !== "done") rows.push(h("dt", { text: t("info.discard") }), h("dd", { class: "discard-cards" }, v.discard.map((x) => miniCard(x))));
    if (v.fool && typeof v.fool === "object" && v.phase !== "done") rows.push(h("dt", { text: t("ren.played.fool") }), h("dd", { text: foolText(c, v.fool) }));
    return [h("dl", {}, rows), h("p", { class: "note", text: t("ren.info.scoring") })];
  },

  eventLine(c, e) {
    return undefined;
  },

  count(c) {
    const { view: v, h, t, whoLabel, miniCard, cardName, cardLabel, cardSvg, signed } = c;
    const k = v.count;
    const parts = [];
    const sum = (key) => k.piles.reduce((a, p) => a + p[key], 0);
    const rows = [];
    k.piles.forEach((p, seat) => {
      rows.push(h("tr", { class: "pile-row", "data-seat": seat },
        h("th", { scope: "row", text: whoLabel(seat) }),
        h("td", { class: "num ones", text: String(p.ones) }),
        h("td", { class: "num threes", text: String(p.threes) }),
        h("td", { class: "num points", text: String(p.points) }),
        h("td", { class: "num score" }, h("span", { class: "formula", text: `${p.points} − 26 = ` }), h("b", { text: signed(p.score) }))));
      rows.push(h("tr", { class: "pile-cards-row", "data-seat": seat },
        h("td", { colspan: 5 }, h("span", { class: "pile-cards", role: "group", "aria-label": `${whoLabel(seat)}: ${t("ren.count.counting")}` },
          h("small", { text: `${t("ren.count.counting")}:` }),
          p.counting.length ? p.counting.map((x) => miniCard(x)) : h("small", { class: "none", text: t("ren.count.none") })))));
    });
    parts.push(h("table", { class: "piles-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("ren.count.seat") }),
        h("th", { scope: "col", class: "num", text: t("ren.count.ones") }), h("th", { scope: "col", class: "num", text: t("ren.count.threes") }),
        h("th", { scope: "col", class: "num", text: t("ren.count.points") }), h("th", { scope: "col", class: "num", text: t("ren.count.score") }))),
      h("tbody", {}, rows),
      h("tfoot", {}, h("tr", {},
        h("th", { scope: "row", text: t("ren.count.all", { n: sum("threes") * 3 }) }),
        h("td", { class: "num", text: String(sum("ones")) }), h("td", { class: "num", text: String(sum("threes")) }),
        h("td", { class: "num", text: String(sum("points")) }), h("td", { class: "num", text: signed(sum("score")) })))));
    parts.push(h("p", { class: "note how", text: t("ren.count.how") }));
    parts.push(h("div", { class: "count-discard ren-discard" },
      h("span", { class: "caption", text: `${v.dealer === c.me ? t("ren.count.you.discard") : t("ren.count.discard", { name: whoLabel(v.dealer) })}: ` }),
      (k.discard || []).map((x) => h("div", { class: "card-box", role: "img", "aria-label": cardLabel(x) }, cardSvg(x)))));
    const f = k.fool;
    if (f && f.seat >= 0) {
      const p = { name: whoLabel(f.seat), to: whoLabel(f.trick_winner), card: f.paid ? cardName(f.paid) : "" };
      const how = f.surrendered ? "surrendered" : "paid";
      const key = f.seat === c.me ? `ren.count.fool.you.${how}` : f.trick_winner === c.me ? `ren.count.fool.${how}.you` : `ren.count.fool.${how}`;
      parts.push(h("p", { class: "count-fool" }, miniCard("F"), h("span", { text: t(key, p) }), f.paid && !f.surrendered ? miniCard(f.paid) : null));
    }
    return parts;
  },
};
