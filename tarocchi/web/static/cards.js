// The cards of any deck the server describes (GET /api/games: each game's "deck"), drawn as
// SVG by the project. The description is the one source of truth: codes, the groups in hand
// order (trumps high to low, each suit, the Fool apart), the suits, points and names.
// A card is its code: trumps by number ("0".."20", "1".."21"), the Fool "F", suit cards
// rank+suit ("QC", "10O", "1S"). Every card carries the corner chip of the rules text: K, Q, H,
// M, F or the trump's number, the suit letter under it, and its points inside when it is worth
// two or more. A trump with a name of its own (the Renaissance Magician .. World, Sicilian
// Miseria) shows it on its face.

import { lang, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

// Colours per suit letter: ink for the chip and pictogram, paper for the face.
const LOOK = {
  C: { ink: "#b3261e", paper: "#fff5f2", edge: "#e7b7ae" },
  O: { ink: "#9a6a00", paper: "#fffaea", edge: "#e6cf8a" },
  S: { ink: "#1d4f91", paper: "#f1f6fd", edge: "#a9c2e4" },
  B: { ink: "#2d6a2f", paper: "#f1f8ef", edge: "#a8cfa4" },
  T: { ink: "#f4cf5d", paper: "#34215e", edge: "#c9a43a" },
  F: { ink: "#1c1c1c", paper: "#fff3d6", edge: "#c98a2c" },
};

const DECKS = {};   // name -> the prepared deck
let current = null;

// Take the decks of GET /api/games ({games: [{name, deck}]}); the first becomes current.
export function setDecks(games) {
  for (const g of games || []) if (g && g.deck) DECKS[g.name] = prepare(g.deck);
  if (!current && games?.length) current = DECKS[games[0].name] || null;
}

export function useDeck(name) {
  if (DECKS[name]) current = DECKS[name];
  return !!DECKS[name];
}

export function hasDeck(name) { return !!DECKS[name]; }

// The current deck: {name, groups: [{name, cards, suit}], suits, ...}.
export function deck() { return current; }

function prepare(d) {
  const info = {};
  const suits = Object.fromEntries((d.suits || []).map((s) => [s.letter, s]));
  const trumps = (d.groups || []).find((g) => g.name === "trumps")?.cards || [];
  const lowest = trumps[trumps.length - 1];
  const groups = (d.groups || []).map((g) => {
    const suit = g.name === "trumps" || g.name === "fool" ? null
      : (d.suits || []).find((s) => s.en.toLowerCase() === g.name)?.letter ?? g.cards[0]?.slice(-1) ?? null;
    return { name: g.name, cards: g.cards, suit };
  });
  for (const g of groups) {
    for (const code of g.cards) {
      const points = d.points?.[code] ?? 1;
      const names = d.names?.[code] || { en: code, it: code };
      if (g.name === "fool") info[code] = { code, kind: "fool", rank: "F", suit: null, points, names };
      else if (g.name === "trumps") {
        // A trump named only by its number ("Trump 7") shows the number alone.
        const named = names.en !== `Trump ${code}`;
        info[code] = { code, kind: "trump", rank: code, suit: null, n: Number(code), points, names, named, lowest: code === lowest };
      } else info[code] = { code, kind: "suit", rank: code.slice(0, -g.suit.length), suit: g.suit, points, names };
    }
  }
  return { name: d.name, groups, suits: d.suits || [], suitOf: suits, counting: d.counting, info };
}

// The letter a court card shows is its name's in the current language, so that the face and
// the words agree in every game: Knight "Kn" and Page "P" (Cavallo "C", Fante "F") where the
// deck says so, Horse "H" and Maid "M" (Donna "D") in the Sicilian deck. King and Queen keep
// K and Q, the rules text's letters.
const COURT_LETTERS = { Knight: "Kn", Page: "P", Horse: "H", Maid: "M", Cavallo: "C", Fante: "F", Donna: "D" };

function shownRank(c) {
  if (c.kind !== "suit" || (c.rank !== "H" && c.rank !== "M")) return c.rank;
  const word = String(faceName(c)).split(" ")[0];
  return COURT_LETTERS[word] ?? c.rank;
}

function unknown(code) {
  return { code, kind: "suit", rank: String(code), suit: null, points: 1, names: { en: String(code), it: String(code) } };
}

export function cardInfo(code) {
  return current?.info[code] ?? unknown(code);
}

// The suit's name in the current language ("Pentacles" / "Denari").
export function suitName(letter) {
  const s = current?.suitOf[letter];
  return s ? (lang() === "it" ? s.it : s.en) : letter;
}

// The card's name from the deck: "Queen of Cups", "Trump 18"; a trump with a name of its own
// carries its number too: "Magician (1)", "Il Bagatto (1)", "Miseria (0)".
export function cardName(code) {
  const c = cardInfo(code);
  const name = faceName(c);
  return c.kind === "trump" && c.named ? `${name} (${c.code})` : name;
}

function faceName(c) {
  return c.names[lang() === "it" ? "it" : "en"] ?? c.names.en;
}

// "Queen of Cups, 4 points": what a screen reader says for a card.
export function cardLabel(code) {
  const pts = cardInfo(code).points;
  return `${cardName(code)}, ${pts === 1 ? t("card.point") : t("card.points", { n: pts })}`;
}

function node(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

function text(x, y, content, attrs = {}) {
  const el = node("text", { x, y, "text-anchor": "middle", ...attrs });
  el.textContent = content;
  return el;
}

// Pictograms in a 40x40 box centred on (0, 0).
function pictogram(kind, ink) {
  switch (kind) {
    case "C": // a goblet
      return node("g", { fill: ink }, [
        node("path", { d: "M-15 -16 H15 Q15 2 0 5 Q-15 2 -15 -16 Z" }),
        node("rect", { x: -2.5, y: 4, width: 5, height: 10 }),
        node("path", { d: "M-10 18 Q0 11 10 18 Z" }),
        node("path", { d: "M-11 -12 H11", stroke: "#fff", "stroke-width": 2, opacity: 0.5 }),
      ]);
    case "O": // a coin
      return node("g", {}, [
        node("circle", { r: 17, fill: ink }),
        node("circle", { r: 12, fill: "none", stroke: "#fff", "stroke-width": 2, opacity: 0.75 }),
        node("path", { d: "M0 -7 L2 -2 L7 -2 L3 1.5 L4.5 7 L0 3.8 L-4.5 7 L-3 1.5 L-7 -2 L-2 -2 Z", fill: "#fff", opacity: 0.85 }),
      ]);
    case "S": // a sword, point up
      return node("g", { fill: ink }, [
        node("path", { d: "M0 -20 L4 -14 L4 8 L-4 8 L-4 -14 Z" }),
        node("rect", { x: -11, y: 8, width: 22, height: 4, rx: 2 }),
        node("rect", { x: -2, y: 12, width: 4, height: 7 }),
        node("circle", { cy: 21, r: 3 }),
      ]);
    case "B": // a baton, knotted
      return node("g", { fill: ink, transform: "rotate(-35)" }, [
        node("rect", { x: -4, y: -20, width: 8, height: 40, rx: 4 }),
        node("circle", { cy: -8, r: 5.5 }),
        node("circle", { cy: 6, r: 5.5 }),
      ]);
    default:
      return node("g");
  }
}

function foolHat() {
  // A jester's cap with three points and bells, in harlequin colours.
  return node("g", {}, [
    node("path", { d: "M-20 10 Q-22 -8 -28 -16 Q-10 -12 -6 2 Z", fill: "#b3261e" }),
    node("path", { d: "M-8 4 Q0 -18 0 -24 Q6 -12 8 4 Z", fill: "#2d6a2f" }),
    node("path", { d: "M20 10 Q22 -8 28 -16 Q10 -12 6 2 Z", fill: "#1d4f91" }),
    node("rect", { x: -22, y: 8, width: 44, height: 8, rx: 3, fill: "#9a6a00" }),
    node("circle", { cx: -28, cy: -17, r: 3.5, fill: "#f4cf5d", stroke: "#7a5200" }),
    node("circle", { cx: 0, cy: -25, r: 3.5, fill: "#f4cf5d", stroke: "#7a5200" }),
    node("circle", { cx: 28, cy: -17, r: 3.5, fill: "#f4cf5d", stroke: "#7a5200" }),
  ]);
}

function sunburst(ink) {
  const rays = [];
  for (let i = 0; i < 12; i++) {
    rays.push(node("path", { d: "M0 -30 L3 -20 L-3 -20 Z", fill: ink, opacity: 0.35, transform: `rotate(${i * 30})` }));
  }
  return node("g", {}, rays);
}

// The corner chip: the rank, the mark under it, the points when worth two or more.
function chip(info, look) {
  const isTrump = info.kind === "trump";
  const isFool = info.kind === "fool";
  const fill = isTrump ? look.ink : isFool ? "#1c1c1c" : look.ink;
  const ink = isTrump ? "#34215e" : "#fff";
  const mark = info.suit ?? (isTrump ? "★" : "✦");
  const withPoints = info.points >= 2;
  const h = withPoints ? 74 : 54;
  const rank = shownRank(info);
  const parts = [
    node("rect", { x: 0, y: 0, width: 40, height: h, rx: 8, fill }),
    text(20, 26, rank, { "font-size": rank.length > 1 ? 22 : 27, "font-weight": 800, fill: ink }),
    text(20, 46, mark, { "font-size": 15, "font-weight": 700, fill: ink, opacity: 0.9 }),
  ];
  if (withPoints) {
    parts.push(node("rect", { x: 5, y: 52, width: 30, height: 18, rx: 9, fill: "#fff" }));
    parts.push(text(20, 65.5, String(info.points), { "font-size": 14, "font-weight": 800, fill: isTrump ? "#34215e" : fill }));
  }
  return node("g", { transform: "translate(4 4)" }, parts);
}

// A trump's own name along the foot of its face: one line, or two when it is long.
function trumpName(name, ink) {
  const attrs = { "font-size": 12, fill: ink, "font-style": "italic" };
  const fit = (el, s) => { if (s.length > 13) { el.setAttribute("textLength", "82"); el.setAttribute("lengthAdjust", "spacingAndGlyphs"); } return el; };
  if (name.length <= 13) return [fit(text(50, 146, name, attrs), name)];
  const words = name.split(" ");
  let best = 1;
  for (let i = 1; i < words.length; i++) {
    const gap = (k) => Math.abs(words.slice(0, k).join(" ").length - words.slice(k).join(" ").length);
    if (gap(i) < gap(best)) best = i;
  }
  const one = words.slice(0, best).join(" "), two = words.slice(best).join(" ");
  if (!two) return [fit(text(50, 146, name, { ...attrs, "font-size": 11 }), name)];
  return [fit(text(50, 135, one, { ...attrs, "font-size": 11 }), one), fit(text(50, 147, two, { ...attrs, "font-size": 11 }), two)];
}

// The whole card face as an <svg> element (100 x 160), decorative: the button around it is labelled.
export function cardSvg(code) {
  const info = cardInfo(code);
  const look = info.kind === "trump" ? LOOK.T : info.kind === "fool" ? LOOK.F : LOOK[info.suit];
  const svg = node("svg", { viewBox: "0 0 100 160", class: `card-face ${info.kind}`, "aria-hidden": "true", focusable: "false" });
  svg.append(node("rect", { x: 1.5, y: 1.5, width: 97, height: 157, rx: 9, fill: look.paper, stroke: look.edge, "stroke-width": 3 }));
  if (info.kind === "trump") {
    const big = info.points >= 2 || info.lowest;
    svg.append(node("rect", { x: 8, y: 8, width: 84, height: 144, rx: 6, fill: "none", stroke: look.ink, "stroke-width": big ? 2 : 1, opacity: big ? 0.9 : 0.5 }));
    svg.append(node("g", { transform: "translate(58 100)" }, [sunburst(look.ink)]));
    svg.append(text(58, 114, String(info.n), { "font-size": 40, "font-weight": 800, fill: look.ink, "font-family": "Georgia, serif" }));
    if (info.named) svg.append(...trumpName(faceName(info), look.ink));
  } else if (info.kind === "fool") {
    for (let i = 0; i < 5; i++) {
      svg.append(node("path", { d: `M${14 + i * 17} 150 l8.5 -8 l8.5 8 l-8.5 8 z`, fill: ["#b3261e", "#9a6a00", "#1d4f91", "#2d6a2f", "#b3261e"][i], opacity: 0.8 }));
    }
    svg.append(node("g", { transform: "translate(58 104)" }, [foolHat()]));
  } else {
    const court = ["K", "Q", "H", "M"].includes(info.rank);
    svg.append(node("g", { transform: `translate(60 ${court ? 118 : 100}) scale(${court ? 0.9 : 1.3})` }, [pictogram(info.suit, look.ink)]));
    if (court) {
      svg.append(text(60, 88, shownRank(info), { "font-size": 36, "font-weight": 800, fill: look.ink, "font-family": "Georgia, serif", opacity: 0.9 }));
      if (info.rank === "K") svg.append(node("path", { d: "M46 52 L50 40 L56 48 L60 36 L64 48 L70 40 L74 52 Z", fill: look.ink, opacity: 0.85 }));
    }
  }
  svg.append(chip(info, look));
  return svg;
}

// A small inline chip for logs, panels and captured cards: the corner chip alone.
export function miniCard(code, extraClass = "") {
  const info = cardInfo(code);
  const span = document.createElement("span");
  span.className = `mini ${info.kind === "suit" ? "suit-" + info.suit : info.kind} ${extraClass}`.trim();
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardLabel(code));
  span.title = cardName(code);
  const rank = document.createElement("b");
  rank.textContent = shownRank(info);
  span.append(rank);
  if (info.suit) {
    const mark = document.createElement("small");
    mark.textContent = info.suit;
    span.append(mark);
  }
  if (info.points >= 2) {
    const pts = document.createElement("i");
    pts.textContent = String(info.points);
    span.append(pts);
  }
  return span;
}
