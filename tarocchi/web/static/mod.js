// The moderators' page, /mod (issue 58; the server's side is tarocchi/server/moderation.py,
// docs/protocol.md "Moderation"): the open reports, the oldest first, each closed with a why; a
// player's file by name; the actions (a warning, a chat or rated ban for some hours, a match's
// ratings voided, a forced rename, the account closed: the last two asked again); the
// moderation log, read only. The server answers a moderator alone: 401 signed out, 403 for any
// other account, and the page says "this is for moderators" then, showing nothing else.
// Everything the players wrote (report texts, chat lines, names) is set as text, never HTML.
// Loaded on /mod alone (tarocchi/server/assets.py PAGE_MODULES).

import { t, tn, reason, addMessages, REASONS, lang } from "./i18n.js";
import { h } from "./dom.js";
import { accountName, pageTop, when } from "./account.js";
import { styles, post } from "./report.js";
import messages from "./mod.i18n.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian

const ACTIONS = ["warn", "chat_ban", "rated_ban", "void", "rename", "close"];  // (moderation.py Action)
const CONFIRMED = new Set(["rename", "close"]);  // asked again before they are sent
const WHY_MAX = 500;
const MOST_HOURS = 24 * 365;

async function getJson(path) {
  try {
    const res = await fetch(path);
    return { status: res.status, body: await res.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

function refusal(status, body) {
  return t("mod.refused", { reason: status === 0 || !body?.error ? t("acct.offline") : reason(body.error) });
}

function reasonText(r) { return t(`mod.reason.${r}`) === `mod.reason.${r}` ? String(r) : t(`mod.reason.${r}`); }
function actionText(a) { return t(`mod.action.${a}`) === `mod.action.${a}` ? String(a) : t(`mod.action.${a}`); }

// The page's state: what the server said, and the inputs, built once (what is typed stays
// when the page is drawn again: after an answer, or in the other language).
const M = {
  status: null, error: null, reports: [], log: [], notice: null, confirm: null,
  file: null,                // {name, status, body}
  closeWhy: new Map(),       // report id -> its "why" input
  action: "warn",
};

function input(attrs) { return h("input", { type: "text", autocomplete: "off", ...attrs }); }

const fileName = input({ id: "file-name", name: "name", maxlength: 40, required: true, "data-focus": "file-name" });
const actName = input({ id: "act-name", name: "name", maxlength: 40, required: true, "data-focus": "act-name" });
const actHours = h("input", { type: "number", id: "act-hours", name: "hours", min: 0, max: MOST_HOURS, step: "any", inputmode: "decimal", "data-focus": "act-hours" });
const actMatch = input({ id: "act-match", name: "match", maxlength: 80, pattern: ".+\\.[0-9]+", "data-focus": "act-match" });
const actWhy = h("textarea", { id: "act-why", name: "why", maxlength: WHY_MAX, rows: 3, required: true, "data-focus": "act-why" });

function whyInput(id) {
  if (!M.closeWhy.has(id)) {
    M.closeWhy.set(id, input({ id: `close-why-${id}`, maxlength: WHY_MAX, required: true, "data-focus": `close-why-${id}` }));
  }
  return M.closeWhy.get(id);
}

let root = null;

function draw() {
  const active = document.activeElement;
  const focusKey = active?.dataset?.focus;
  document.documentElement.lang = lang();
  document.title = `${t("mod.title")} · ${t("app.title")}`;
  root.replaceChildren(h("div", { class: "lobby people-page mod-page" }, pageTop(draw), body()));
  // (an input kept across draws loses the focus when it is moved: given back by its key)
  if (focusKey && document.activeElement !== active) root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
}

function notice() {
  return h("p", { id: "mod-notice", class: `mod-notice ${M.notice?.ok ? "ok" : "bad"}`, role: M.notice?.ok ? "status" : "alert",
    text: M.notice?.text || "" });
}

function body() {
  const head = h("h1", { id: "page-h", text: t("mod.title") });
  if (M.status === null) return [head, h("p", { class: "quiet", role: "status", text: t("mod.loading") })];
  if (M.status === 401) {
    return [head, h("p", { class: "missing", id: "mod-refused", role: "alert", text: t("mod.signin") }),
      h("p", {}, h("a", { class: "button primary", href: "/account", "data-focus": "to-account" }, t("mod.signin.link")))];
  }
  if (M.status === 403) return [head, h("p", { class: "missing", id: "mod-refused", role: "alert", text: t("mod.forbidden") })];
  if (M.status !== 200) return [head, h("p", { class: "missing", role: "alert", text: t("mod.error", { reason: M.error || t("acct.offline") }) })];
  return [head, notice(), reportsSection(), fileSection(), actSection(), logSection()];
}

function card(id, title, ...content) {
  return h("section", { class: "panel lobby-card", id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h`, text: title }), content);
}

function facts(pairs) {
  return h("dl", {}, pairs.filter(Boolean).map(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })]));
}

function chatList(lines, who) {
  return h("ol", { class: "mod-chat", tabindex: "0", "aria-label": t("mod.report.chat", { n: lines.length }) },
    lines.map((c) => h("li", {}, who(c), h("span", { class: "mod-chat-text", text: String(c.text ?? "") }),
      c.hidden ? [" ", h("span", { class: "mod-hidden", text: `(${t("mod.hidden")})` })] : null)));
}

// --- the open reports ----------------------------------------------------------------------------

function reportItem(r) {
  const why = whyInput(r.id);
  const chat = Array.isArray(r.chat) ? r.chat : [];
  return h("li", { class: "mod-item report-item", "data-report": r.id },
    h("h3", { text: t("mod.report.head", { reporter: r.reporter, reported: r.reported }) }),
    facts([[t("mod.report.reason"), reasonText(r.reason)], [t("mod.report.at"), when(r.at)],
      [t("mod.report.table"), r.table || t("mod.report.none")],
      r.deal !== null && r.deal !== undefined ? [t("mod.report.deal"), String(r.deal)] : null,
      [t("mod.report.text"), r.text || t("mod.report.none")]]),
    chat.length ? h("details", { class: "report-chat" }, h("summary", { text: tn("mod.report.chat", chat.length) }),
      chatList(chat, (c) => h("b", { text: `${c.name ?? ""}: ` }))) : null,
    h("p", {}, h("button", { type: "button", class: "open-file", "data-focus": `open-${r.id}`, onclick: () => openFile(r.reported) },
      t("mod.report.open", { name: r.reported }))),
    h("form", { class: "mod-form close-report", onsubmit: (e) => { e.preventDefault(); closeReport(r.id); } },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: why.id, text: t("mod.report.why") }), why),
        h("button", { type: "submit", "data-focus": `close-${r.id}` }, t("mod.report.close")))));
}

function reportsSection() {
  return card("reports", tn("mod.reports", M.reports.length),
    h("p", { class: "note", text: t("mod.reports.help") }),
    M.reports.length ? h("ol", { class: "mod-list" }, M.reports.map(reportItem)) : h("p", { class: "quiet", text: t("mod.reports.none") }));
}

async function closeReport(id) {
  const why = whyInput(id).value.trim();
  if (!why) return;
  const { status, body } = await post(`/api/mod/reports/${encodeURIComponent(id)}/close`, { why });
  M.notice = status === 204 ? { ok: true, text: t("mod.done.report") } : { ok: false, text: refusal(status, body) };
  if (status === 204) M.closeWhy.delete(id);
  await reload();
  document.getElementById("mod-notice")?.scrollIntoView({ block: "nearest" });
}

// --- a player's file -------------------------------------------------------------------------------

function reportLine(r) {
  return h("li", {}, t("mod.file.report", { when: when(r.at), reporter: r.reporter, reported: r.reported,
    reason: reasonText(r.reason), status: t(`mod.status.${r.status}`) }),
  r.text ? h("p", { class: "quiet", text: r.text }) : null);
}

function logLine(e) {
  const d = e.data || {};
  const extra = [typeof d.hours === "number" ? (d.hours ? t("mod.log.hours", { n: d.hours }) : t("mod.log.lifted")) : null,
    d.match ? t("mod.log.match", { match: d.match }) : null, d.new_name ? t("mod.log.new_name", { name: d.new_name }) : null].filter(Boolean);
  return h("li", { class: "mod-item log-item", "data-action": e.action },
    h("p", {}, h("time", { datetime: new Date(e.at * 1000).toISOString(), text: when(e.at) }), " · ",
      h("strong", { text: t("mod.log.line", { moderator: e.moderator ?? "", action: actionText(e.action), target: e.target ?? "" }) }),
      extra.length ? ` (${extra.join(", ")})` : null),
    h("p", { class: "log-why", text: e.why }));
}

function section(title, items, render, list = "ul") {
  return [h("h3", { text: title }),
    items.length ? h(list, { class: list === "ol" ? "mod-list" : "" }, items.map(render)) : h("p", { class: "quiet", text: t("mod.file.empty") })];
}

function fileBody(F) {
  if (F.status === null) return h("p", { class: "quiet", role: "status", text: t("mod.file.loading", { name: F.name }) });
  if (F.status !== 200) return h("p", { class: "mod-notice bad", role: "alert", text: refusal(F.status, F.body) });
  const D = F.body;
  const list = (k) => (Array.isArray(D[k]) ? D[k] : []);
  const sanctions = D.sanctions || {};
  return h("div", { class: "mod-file", id: "player-file", "data-name": D.name },
    h("h3", { class: "file-name", text: D.name }),
    facts([[t("mod.file.joined"), when(D.created)], [t("mod.file.moderator"), t(D.moderator ? "mod.file.yes" : "mod.file.no")],
      sanctions.chat ? [t("mod.file.chat_ban"), when(sanctions.chat)] : null,
      sanctions.rated ? [t("mod.file.rated_ban"), when(sanctions.rated)] : null]),
    section(t("mod.file.matches", { n: list("matches").length }), list("matches"), (m) => h("li", { class: "mod-item", "data-match": `${m.table}.${m.match}` },
      h("p", {}, h("strong", { text: t("mod.file.match", { game: m.game, seats: m.seats, table: m.table, match: m.match }) }),
        " · ", when(m.ended), " · ", t(m.rated ? "mod.file.rated" : "mod.file.unrated")),
      h("p", { text: (m.players || []).map((p) => t("mod.file.player", { name: p.name, total: p.total, place: p.place })).join("; ") }),
      m.rated ? h("button", { type: "button", class: "void-match", "data-focus": `void-${m.table}.${m.match}`,
        onclick: () => { M.action = "void"; actName.value = D.name; actMatch.value = `${m.table}.${m.match}`; draw(); actWhy.focus(); } },
      t("mod.file.void")) : null), "ol"),
    section(t("mod.file.about", { n: list("reports_about").length }), list("reports_about"), reportLine),
    section(t("mod.file.by", { n: list("reports_by").length }), list("reports_by"), reportLine),
    h("h3", { text: t("mod.file.chat", { n: list("chat").length }) }),
    list("chat").length ? chatList(list("chat"), (c) => h("span", { class: "quiet", text: `${c.table} · ` })) : h("p", { class: "quiet", text: t("mod.file.empty") }),
    h("h3", { text: t("mod.file.shared", { n: list("shared_address").length }) }),
    list("shared_address").length ? h("ul", { class: "mod-names" }, list("shared_address").map((name) => h("li", {},
      h("button", { type: "button", "data-focus": `shared-${name}`, onclick: () => openFile(name) }, name))))
      : h("p", { class: "quiet", text: t("mod.file.empty") }),
    section(t("mod.file.leaves", { n: list("leaves").length }), list("leaves"), (at) => h("li", { text: when(at) })),
    section(t("mod.file.log", { n: list("log").length }), list("log"), logLine, "ol"));
}

function fileSection() {
  return card("file", t("mod.file"),
    h("form", { class: "mod-form", id: "file-form", onsubmit: (e) => { e.preventDefault(); openFile(fileName.value.trim()); } },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "file-name", text: t("mod.file.name") }), fileName),
        h("button", { type: "submit", "data-focus": "file-open" }, t("mod.file.open")))),
    M.file ? fileBody(M.file) : null);
}

async function openFile(name) {
  if (!name) return;
  fileName.value = name;
  if (!actName.value) actName.value = name;
  M.file = { name, status: null, body: null };
  draw();
  const { status, body } = await getJson(`/api/mod/players/${encodeURIComponent(name)}`);
  if (M.file?.name !== name) return;  // (another file asked for meanwhile)
  M.file = { name, status, body };
  if (status === 200) actName.value = body.name;
  draw();
  document.getElementById("file")?.scrollIntoView({ block: "start" });
}

// --- the actions ---------------------------------------------------------------------------------

function actSection() {
  const a = M.action;
  const bans = a === "chat_ban" || a === "rated_ban";
  actHours.required = bans;
  actMatch.required = a === "void";
  const select = h("select", { id: "act-action", name: "action", "data-focus": "act-action",
    onchange: (e) => { M.action = e.currentTarget.value; M.confirm = null; draw(); } },
  ACTIONS.map((x) => h("option", { value: x, selected: x === a }, actionText(x))));
  const C = M.confirm;
  return card("act", t("mod.act"),
    h("p", { class: "note", text: t("mod.act.help") }),
    h("form", { class: "mod-form", id: "act-form", onsubmit: (e) => { e.preventDefault(); askAct(); } },
      h("div", { class: "row" },
        h("div", { class: "field" }, h("label", { for: "act-name", text: t("mod.act.name") }), actName),
        h("div", { class: "field" }, h("label", { for: "act-action", text: t("mod.act.action") }), select)),
      bans ? h("div", { class: "field" }, h("label", { for: "act-hours", text: t("mod.act.hours") }), actHours) : null,
      a === "void" ? h("div", { class: "field" }, h("label", { for: "act-match", text: t("mod.act.match") }), actMatch) : null,
      h("div", { class: "field" }, h("label", { for: "act-why", text: t("mod.act.why") }), actWhy),
      C ? h("div", { class: "mod-confirm", id: "act-confirm" },
        h("p", { id: "act-confirm-text", text: t(`mod.act.confirm.${C.action}`, { name: C.name }) }),
        h("div", { class: "row" },
          h("button", { type: "button", class: "danger", id: "act-yes", "data-focus": "act-yes", "aria-describedby": "act-confirm-text",
            onclick: () => act(C) }, t(`mod.act.yes.${C.action}`)),
          h("button", { type: "button", id: "act-cancel", "data-focus": "act-cancel",
            onclick: () => { M.confirm = null; draw(); document.getElementById("act-submit")?.focus(); } }, t("mod.act.cancel"))))
        : h("div", { class: "row" }, h("button", { type: "submit", class: "primary", id: "act-submit", "data-focus": "act-submit" }, t("mod.act.submit")))));
}

function askAct() {
  const body = { name: actName.value.trim(), action: M.action, why: actWhy.value.trim() };
  if (!body.name || !body.why) return;
  if (M.action === "chat_ban" || M.action === "rated_ban") body.hours = Number(actHours.value);
  if (M.action === "void") body.match = actMatch.value.trim();
  if (CONFIRMED.has(M.action)) {
    M.confirm = body;
    draw();
    document.getElementById("act-yes")?.focus();
    return;
  }
  act(body);
}

async function act(body) {
  M.confirm = null;
  const { status, body: answer } = await post("/api/mod/actions", body);
  if (status === 200) {
    M.notice = { ok: true, text: t(`mod.done.${body.action}`, { name: body.name, new: answer.name ?? "" }) };
    actWhy.value = "";
    if (body.action === "rename" && answer.name) actName.value = answer.name;
    const fileOf = M.file?.status === 200 ? M.file.body.name : null;
    if (body.action === "close" && fileOf?.toLowerCase() === body.name.toLowerCase()) M.file = null;
    await reload();
    if (fileOf && M.file) await openFile(body.action === "rename" && answer.name ? answer.name : fileOf);
  } else {
    M.notice = { ok: false, text: refusal(status, answer) };
    draw();
  }
  document.getElementById("mod-notice")?.scrollIntoView({ block: "nearest" });
}

// --- the log -------------------------------------------------------------------------------------

function logSection() {
  return card("log", t("mod.log"), h("p", { class: "note", text: t("mod.log.help") }),
    M.log.length ? h("ol", { class: "mod-list", id: "mod-log" }, M.log.map(logLine)) : h("p", { class: "quiet", text: t("mod.log.none") }));
}

// --- the page ------------------------------------------------------------------------------------

// Signed out (no name kept, no signed-in hint beside the session: account.js), the page says so
// without asking: a 401 would be an error in the console of every stranger's page.
function maySignedIn() {
  return !!accountName() || document.cookie.split(";").some((c) => c.trim() === "tarocchi_signed_in=1");
}

async function reload() {
  const reports = maySignedIn() ? await getJson("/api/mod/reports") : { status: 401, body: {} };
  // (the log only for a moderator: another account's page asks once, and is told 403)
  const log = reports.status === 200 ? await getJson("/api/mod/log") : null;
  M.status = reports.status;
  M.error = reports.body?.error ? reason(reports.body.error) : null;
  if (reports.status === 200) {
    M.reports = Array.isArray(reports.body.reports) ? reports.body.reports : [];
    M.log = log.status === 200 && Array.isArray(log.body.log) ? log.body.log : [];
    const open = new Set(M.reports.map((r) => r.id));
    for (const id of [...M.closeWhy.keys()]) if (!open.has(id)) M.closeWhy.delete(id);
  }
  draw();
}

export async function modPage(element) {
  root = element;
  await styles();
  draw();
  await reload();
}
