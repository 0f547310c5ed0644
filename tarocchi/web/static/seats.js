// The seats this browser holds (issue 38): each seat link it opened, with its table, kept in
// the browser so that the lobby's "Your tables" finds them again, and a replay's "Back to the
// table" goes back to the seat rather than to the watch page. A seat link is a capability: it
// stays in this browser, and the server is asked only about the links this browser has
// (POST /api/my-tables).

const KEY = "tarocchi.seats";
const KEPT = 20;  // the server answers for at most this many at once

function read() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => s && typeof s.link === "string" && typeof s.table === "string") : [];
  } catch { return []; }
}

function write(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, KEPT))); } catch { /* private mode */ }
}

// The seats kept, the latest opened first.
export function keptSeats() { return read(); }

// This page's seat, opened now: first in the list, with the table's watch token and the seat's
// number (a replay, whose address carries the watch token, then names that seat "you").
export function rememberSeat(link, table, game, watch = null, seat = null) {
  write([{ link, table, game, watch, seat, at: Date.now() }, ...read().filter((s) => s.link !== link)]);
}

// The seats an account holds, opened on another device (issue 40, account.js): added after
// this browser's own, marked with the account's name (forgotten again when it signs out here,
// unless this browser opens them meanwhile: rememberSeat keeps them then as its own).
export function mergeSeats(seats, account) {
  const kept = read();
  const links = new Set(kept.map((s) => s.link));
  const tables = new Set(kept.map((s) => s.table));
  const fresh = seats.filter((s) => s && typeof s.link === "string" && typeof s.table === "string"
    && !links.has(s.link) && !tables.has(s.table));
  if (fresh.length) write([...kept, ...fresh.map((s) => ({ ...s, account, at: Date.now() }))]);
  return fresh.length;
}

// Forget the seats an account brought to this browser (it signs out here).
export function forgetAccountSeats() {
  const kept = read();
  const left = kept.filter((s) => !s.account);
  if (left.length !== kept.length) write(left);
}

// This browser's seat number at the table of that watch token, if it holds one.
export function seatByWatch(watch) {
  const kept = read().find((s) => s.watch === watch);
  return kept && Number.isInteger(kept.seat) ? kept.seat : null;
}

// Forget the links that open nothing any more (or whose match is over).
export function forgetSeats(links) {
  const gone = new Set(links);
  if (gone.size) write(read().filter((s) => !gone.has(s.link)));
}

// The seat link this browser holds at a table, if any.
export function seatAt(table) { return read().find((s) => s.table === table)?.link || null; }

// What the server says of each kept link now: [{link, table, game, status, names, seat, turn,
// yours, deadline, ...} or {link, gone: true}]; null if it could not be asked. ``onNow``: given
// the server's clock (seconds) the answer came with.
export async function askTables(links, onNow = null) {
  if (!links.length) return [];
  try {
    const res = await fetch("/api/my-tables", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ links: links.slice(0, KEPT) }) });
    if (!res.ok) return null;
    const body = await res.json();
    if (onNow && typeof body.now === "number") onNow(body.now);
    return Array.isArray(body.tables) ? body.tables : null;
  } catch { return null; }
}
