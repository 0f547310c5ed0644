// The lines of what happened, in one wording wherever they are read (issue 38): the table's
// "What just happened" (app.js) and each step of a replay (replay.js). A line is the game's own
// for its events (games/<name>.js eventLine), else the core's for the events every game shares.

import { t, has, reason } from "./i18n.js";
import { cardName } from "./cards.js";

// A line about a seat: the seat that reads it gets its own form ("ev.you.play": "You play
// ..."), the others the third person ("ev.play": "{name} plays ..."). ``who``: {you (the
// reader's seat, or null), prefix (the game's key prefix), whoLabel(seat)}.
export function seatLine(who, key, seat, params = {}) {
  // (a game's prefixed key too: "ren.center.discard" -> "ren.center.you.discard"; any other
  // key of the game's own gets it after its second part: "cal.contract.is" -> "cal.contract.you.is")
  let yours = key.replace(/^((?:[a-z]+\.)?(?:ev|center|log|result|info|status|count))\./, "$1.you.");
  const p = who.prefix;
  if (yours === key && p && key.startsWith(`${p}.`)) yours = key.replace(/^([^.]+\.[^.]+)\./, "$1.you.");
  if (seat === who.you && yours !== key && has(yours)) return t(yours, params);
  return t(key, { name: who.whoLabel(seat), ...params });
}

// The line of one public event, or null; ``c`` is the game module's context (c.tSeat ...),
// ``mod`` the game's module. What the turn clock's computer did for a late seat says so
// (the event marked ``clock``, or the table's own ``clock`` event: Next deal pressed).
export function eventText(c, mod, e) {
  if (e.type === "clock") return c.tSeat(e.next ? "ev.clock.next" : "ev.clock", e.seat);
  const own = mod?.eventLine?.(c, e);
  if (own === undefined && e.clock && e.type === "play") return c.tSeat("ev.clock.play", e.seat, { card: cardName(e.card) });
  const line = own !== undefined ? own : sharedLine(c, e);
  return e.clock && line ? `${c.tSeat("ev.clock", e.seat)} ${line}` : line;
}

// The core's line for the events every game shares.
function sharedLine(c, e) {
  switch (e.type) {
    case "dealt": return t("ev.dealt", { n: e.cards });
    case "play": return c.tSeat("ev.play", e.seat, { card: cardName(e.card) });
    case "trick": return c.tSeat("ev.trick", e.winner);
    case "count": return t("ev.count");
    case "abandoned": return t("ev.abandoned", { reason: reason(e.reason, e.reason_id) });
    case "discard": return c.tSeat("ev.discard", e.seat);
    default:
      // An event the page has no words for: its own text if it brings one.
      return typeof e.text === "string" ? e.text : null;
  }
}
