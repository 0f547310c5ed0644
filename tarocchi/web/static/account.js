// Accounts in the browser (issue 40; the server side is tarocchi/server/accounts/). An account
// is optional: a link is still all a player needs. The page /account signs up (and shows the
// recovery codes once), signs in (a password, a recovery code with a new password, or a
// passkey), and, signed in, lists the sessions, changes the password, lists, adds and removes
// passkeys, makes new recovery codes, downloads the account's data and deletes it. Those that
// touch the account's keys ask for the password or a passkey again when the server says so
// (a 403 with "confirm": issue 55), then go on.
//
// The session is an HttpOnly cookie: the page cannot read it. The account's name is kept in
// the browser ("tarocchi.account") as a hint for the lobby's header and the table page, and is
// checked with GET /api/me wherever it matters (a 401 forgets it).
//
// "Your tables" on every device: this browser's kept seats (seats.js) become the account's
// (POST /api/me/seats) when it signs in and on each lobby load, and the account's seats come
// back (GET /api/me/seats) into the kept seats; a seat opened while signed in is posted at once.
//
// Passkeys are a module of their own (/static/passkeys.js: passkeysOffered(),
// passkeySignUp(name), passkeySignIn(), addPasskey()), loaded when the page is: where it is
// missing, or says passkeys are not offered, no passkey button shows.

import { t, tn, lang, setLang, reason, addMessages, REASONS } from "./i18n.js";
import { h, asset } from "./dom.js";
import { keptSeats, mergeSeats, forgetAccountSeats, askTables } from "./seats.js";
import messages from "./account.i18n.js";
import { notificationsOffered, currentSubscription, enableNotifications, disableNotifications } from "./notify.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian
document.head.append(h("link", { rel: "stylesheet", href: asset("/static/account.css") }));

const KEY = "tarocchi.account";
const SIGNED_IN_HINT = "tarocchi_signed_in";  // (tarocchi/server/accounts SIGNED_IN_HINT)
const NAME_MAX = 24;
const SIGNED_OUT = "you are not signed in";  // the server's words (accounts/__init__.py)
const SEATS_ASKED = 20;  // seat links the lobby asks about at once (POST /api/my-tables)

// --- the account's name in this browser ------------------------------------------------------

export function accountName() {
  try { return localStorage.getItem(KEY) || null; } catch { return null; }
}

function setAccountName(name) {
  try { if (name) localStorage.setItem(KEY, name); else localStorage.removeItem(KEY); } catch { /* private mode */ }
}

// Signed out here (or the session ended elsewhere): the name and the seats the account brought go.
function signedOutHere() {
  if (accountName()) forgetAccountSeats();
  setAccountName(null);
  document.cookie = `${SIGNED_IN_HINT}=; max-age=0; path=/`;  // (its session is gone: ask no more)
}

// A JSON request; the answer's JSON ({} for 204), or an Error with the server's words and the
// status (0: the server could not be reached); social.js asks with it too.
export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    const e = new Error(t("acct.offline"));
    e.status = 0;
    throw e;
  }
  const data = res.status === 204 ? {} : await res.json().catch(() => ({}));
  if (!res.ok) {
    const e = new Error(data.error || res.statusText || String(res.status));
    e.status = res.status;
    e.confirm = data.confirm === true;  // (the password or a passkey asked again first)
    throw e;
  }
  return data;
}

// A session may be here: a kept name, or the server's readable hint beside its HttpOnly session
// cookie (tarocchi_signed_in, issue 60). Neither: signed out, and nothing is asked (a 401 on
// every page a stranger opens is a console error on every page).
function maySignedIn() {
  return !!accountName() || document.cookie.split(";").some((c) => c.trim() === `${SIGNED_IN_HINT}=1`);
}

// GET /api/me: the account, null when signed out, undefined when the server could not say.
// (Asked once at a time: the bell and the page asking together share one request.)
let asking = null;
export function fetchMe() {
  if (!maySignedIn()) return Promise.resolve(null);
  asking ??= askMe().finally(() => { asking = null; });
  return asking;
}

async function askMe() {
  try {
    const me = await call("GET", "/api/me");
    setAccountName(me.name);
    return me;
  } catch (e) {
    if (e.status === 401) { signedOutHere(); return null; }
    return undefined;
  }
}

// This browser's seats become the account's, and the account's seats (from other devices) are
// kept here too; whether any seat came. Quiet: "Your tables" is a convenience.
export async function syncSeats() {
  if (!accountName()) return false;
  try {
    const mine = keptSeats().filter((s) => !s.account).map((s) => s.link);
    if (mine.length) await call("POST", "/api/me/seats", { links: mine });
    const { links } = await call("GET", "/api/me/seats");
    const have = new Set(keptSeats().map((s) => s.link));
    const fresh = (Array.isArray(links) ? links : []).filter((l) => typeof l === "string" && !have.has(l)).slice(0, SEATS_ASKED);
    if (!fresh.length) return false;
    const answers = await askTables(fresh);
    if (!answers) return false;
    const live = answers.filter((a) => !a.gone && a.status !== "over" && typeof a.table === "string");
    return mergeSeats(live.map((a) => ({ link: a.link, table: a.table, game: a.game, watch: null, seat: a.seat ?? null })), accountName()) > 0;
  } catch (e) {
    if (e.status === 401) signedOutHere();
    return false;
  }
}

// A seat link opened on the table page while signed in: the account's now (its name with it).
export async function holdSeat(link) {
  if (!accountName()) return;
  try {
    await call("POST", "/api/me/seats", { links: [link] });
  } catch (e) {
    if (e.status === 401) signedOutHere();
  }
}

// --- the bell (issue 58): one place in every page's top bar, for a signed-in player -----------
//
// Its module (social.js, with the lobby's challenges and friends and a profile's buttons) is
// loaded only once GET /api/me says the page is signed in: a signed-out visitor's page asks for
// none of it, and the first visit's weight (issue 60) does not grow. Each page's top bar puts
// bellSlot() in it (null until the module is here) and draws itself again when it comes.

let social = null;
let socialAsked = null;
const redraws = new Set();

export function bellSlot() { return social ? social.bellNode() : null; }

// The social module once the page is signed in (null signed out); ``redraw`` runs when the
// bell comes. ``known``: the account GET /api/me gave this page already (not asked again).
export function startSocial(redraw, known = undefined) {
  if (redraw) redraws.add(redraw);
  socialAsked ??= (known ? Promise.resolve(known) : fetchMe()).then(async (me) => {
    if (me === null) socialAsked = null;  // (signed out: asked again at the next drawing, when signed in on this page)
    if (!me) return null;
    social = await import("./social.js");
    // The page drawn again once the bell has its count (not a 0 that turns into another number),
    // the keyboard's place kept where it was.
    social.startBell(() => {
      const id = document.activeElement && document.activeElement !== document.body ? document.activeElement.id : null;
      for (const r of redraws) r();
      if (id && document.activeElement?.id !== id) document.getElementById(id)?.focus({ preventScroll: true });
    });
    return social;
  }).catch(() => { socialAsked = null; return null; });
  return socialAsked;
}

// The lobby's header link: the account's name, or "Sign in".
export function accountLink() {
  const name = accountName();
  return h("a", { class: "button account-link", href: "/account", id: "account-link", "data-focus": "account-link",
    "aria-label": name ? t("acct.link.label", { name }) : null }, name || t("acct.link.signin"));
}

// The lobby's line in place of the name field, signed in: the seats take the account's name.
export function signedInNote() {
  return h("p", { class: "lobby-signed-in", id: "signed-in-as", text: t("acct.lobby.signedin", { name: accountName() }) });
}

export function langButton(after) {
  return h("button", {
    class: "lang", type: "button", "data-focus": "lang", lang: lang() === "en" ? "it" : "en",
    "aria-label": t("lang.switch.label"),
    onclick: () => { setLang(lang() === "en" ? "it" : "en"); after(); },
  }, t("lang.switch"));
}

// The top of the account, profile and leaderboard pages: the way home, the account, the bell
// (signed in: the page is drawn again when it comes), the language.
export function pageTop(rerender) {
  startSocial(rerender);
  return h("header", { class: "topbar" },
    h("a", { class: "home", href: "/", "data-focus": "home", text: t("app.title") }),
    location.pathname.replace(/\/$/, "") === "/account" ? null : accountLink(),
    bellSlot(),
    langButton(rerender));
}

// Dates as the reader's language writes them.
export function when(seconds, withTime = true) {
  if (typeof seconds !== "number") return "";
  const options = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(lang() === "it" ? "it-IT" : "en-GB", options).format(new Date(seconds * 1000));
}

function capital(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }

function errorText(e) {
  // (the browser's own, from a passkey's prompt: said in the page's words)
  if (e?.name === "NotAllowedError" || e?.name === "AbortError") return t("acct.passkey.cancelled");
  if (e?.name === "InvalidStateError") return t("acct.passkey.exists");
  return capital(reason(e.message)).replace(/([^.!?])$/, "$1.");
}

// --- passkeys (their own module, when it is there) --------------------------------------------

let passkeys = null;
async function loadPasskeys() {
  try {
    const m = await import("./passkeys.js");
    if (typeof m.passkeysOffered !== "function") return null;
    return (await m.passkeysOffered()) ? m : null;
  } catch {
    return null;
  }
}

// --- the account page ---------------------------------------------------------------------------

const A = {
  root: null,
  me: undefined,     // GET /api/me; null: signed out; undefined: not known yet
  codes: null,       // the recovery codes just given: shown this once
  codesUrl: null,    // their download (a blob: address)
  recovering: false, // sign in with a recovery code (and a new password)
  errors: {},        // form -> the server's words
  done: {},          // form -> what was done ("Password changed.")
  note: "",          // the page's line (signed out, the account deleted)
  busy: null,        // the form waiting for the server
  focus: null,       // what to focus after the next drawing (a selector)
  fresh: false,      // the next drawing starts its fields empty (a new view)
  copied: false,
  confirming: null,  // {form, work}: what waits for the password or a passkey, asked again
};

function field(id, labelKey, attrs = {}, hintKey = null) {
  const hint = hintKey ? h("small", { id: `${id}-hint`, text: t(hintKey) }) : null;
  return h("div", { class: "field" },
    h("label", { for: id, text: t(labelKey) }),
    h("input", { id, name: id, "data-focus": id, required: true, "aria-describedby": hint ? `${id}-hint` : null, ...attrs }),
    hint);
}

function nameField(id, isNew) {
  return field(id, "acct.name", { type: "text", autocomplete: "username", autocapitalize: "none", spellcheck: "false",
    maxlength: isNew ? NAME_MAX : null }, isNew ? "acct.name.rule" : null);
}

function passwordField(id, labelKey, isNew, hintKey = isNew ? "acct.password.rule" : null) {
  return field(id, labelKey, { type: "password", autocomplete: isNew ? "new-password" : "current-password" }, hintKey);
}

function errorLine(form) {
  const text = A.errors[form];
  return h("p", { class: "form-error", id: `${form}-error`, role: "alert", hidden: !text }, text ? h("span", { class: "error", text }) : null);
}

function doneLine(form) {
  const text = A.done[form];
  return h("p", { class: "form-done", id: `${form}-done`, role: "status" }, text ? h("span", { class: "ok-note", text }) : null);
}

function value(id) { return A.root.querySelector(`#${id}`)?.value ?? ""; }

// Run one form's request: busy meanwhile, its error (the server's words) under it.
async function attempt(form, work) {
  if (A.busy) return;
  A.busy = form;
  A.errors[form] = "";
  A.done[form] = "";
  A.note = "";
  render();
  try {
    await work();
  } catch (e) {
    if (e.confirm) {  // the account's keys: who is here proves it first, then it goes on
      A.confirming = { form, work };
      A.focus = "#confirm-h";
      return;
    }
    A.errors[form] = errorText(e);
    // (the session ended meanwhile: signed out everywhere from another device, say)
    if (e.status === 401 && A.me && e.message === SIGNED_OUT) { signedOutHere(); A.me = null; A.fresh = true; A.note = A.errors[form]; }
  } finally {
    A.busy = null;
    render();
  }
}

async function signedIn(name, codes = null) {
  setAccountName(name);
  A.codes = codes;
  if (A.codesUrl) URL.revokeObjectURL(A.codesUrl);
  A.codesUrl = codes ? URL.createObjectURL(new Blob([codesText(name, codes)], { type: "text/plain" })) : null;
  A.copied = false;
  A.recovering = false;
  A.errors = {};
  A.done = {};
  A.fresh = true;
  A.focus = "#account-h";
  const me = await fetchMe();
  A.me = me || { name, sessions: [], passkeys: [], password: true };
  await syncSeats();
}

function codesText(name, codes) {
  return `${t("acct.codes.file", { name })}\n\n${codes.join("\n")}\n`;
}

function signInForm() {
  const busy = A.busy === "signin";
  const submit = (e) => {
    e.preventDefault();
    attempt("signin", async () => {
      const name = value("signin-name").trim();
      const body = A.recovering
        ? { name, recovery_code: value("signin-code").trim(), password: value("signin-new-password") }
        : { name, password: value("signin-password") };
      const data = await call("POST", "/api/session", body);
      await signedIn(data.name);
    });
  };
  return h("section", { class: "panel lobby-card", id: "sign-in", "aria-labelledby": "sign-in-h" },
    h("h2", { id: "sign-in-h", text: t(A.recovering ? "acct.recover.title" : "acct.signin.title") }),
    A.recovering ? h("p", { text: t("acct.recover.help") }) : null,
    h("form", { class: "acct-form", id: "signin-form", novalidate: true, onsubmit: submit },
      nameField("signin-name", false),
      A.recovering ? [
        field("signin-code", "acct.code", { type: "text", autocomplete: "one-time-code", autocapitalize: "none", spellcheck: "false" }, "acct.code.hint"),
        passwordField("signin-new-password", "acct.password.new", true),
      ] : passwordField("signin-password", "acct.password", false),
      errorLine("signin"),
      h("button", { type: "submit", class: "primary", id: "signin-submit", "data-focus": "signin-submit", "aria-disabled": busy ? "true" : null },
        t(busy ? "acct.busy" : A.recovering ? "acct.recover.submit" : "acct.signin.submit"))),
    h("button", { type: "button", class: "link-button", id: "recover-toggle", "data-focus": "recover-toggle", "aria-controls": "signin-form",
      onclick: () => { A.recovering = !A.recovering; A.errors.signin = ""; A.focus = "#signin-name"; render(); } },
    t(A.recovering ? "acct.recover.back" : "acct.recover.toggle")),
    passkeys && !A.recovering ? h("button", { type: "button", id: "passkey-signin", "data-focus": "passkey-signin", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("signin", async () => { const data = await passkeys.passkeySignIn(); await signedIn(data.name); }) },
    t("acct.passkey.signin")) : null);
}

function signUpForm() {
  const busy = A.busy === "signup";
  return h("section", { class: "panel lobby-card", id: "sign-up", "aria-labelledby": "sign-up-h" },
    h("h2", { id: "sign-up-h", text: t("acct.signup.title") }),
    h("p", { text: t("acct.signup.help") }),
    h("form", { class: "acct-form", id: "signup-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      attempt("signup", async () => {
        const data = await call("POST", "/api/account", { name: value("signup-name").trim(), password: value("signup-password") });
        await signedIn(data.name, data.recovery_codes);
      });
    } },
    nameField("signup-name", true),
    passwordField("signup-password", "acct.password", true),
    errorLine("signup"),
    h("button", { type: "submit", class: "primary", id: "signup-submit", "data-focus": "signup-submit", "aria-disabled": busy ? "true" : null },
      t(busy ? "acct.busy" : "acct.signup.submit"))),
    passkeys ? h("button", { type: "button", id: "passkey-signup", "data-focus": "passkey-signup", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("signup", async () => {
        const data = await passkeys.passkeySignUp(value("signup-name").trim());
        await signedIn(data.name, data.recovery_codes);
      }) }, t("acct.passkey.signup")) : null);
}

function signedOutView() {
  return [
    h("h1", { id: "account-h", tabindex: "-1", text: t("acct.title.out") }),
    h("p", { class: "tagline", text: t("acct.why") }),
    A.note ? h("p", { class: "page-note", role: "status" }, h("span", { class: "ok-note", text: A.note })) : null,
    h("div", { class: "lobby-grid" }, signInForm(), signUpForm()),
  ];
}

async function copyCodes(button) {
  const text = A.codes.join("\n");
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", { class: "offscreen" });
    area.value = text;
    document.body.append(area); area.select(); document.execCommand("copy"); area.remove();
  }
  A.copied = true;
  A.focus = "#copy-codes";
  render();
}

function codesView() {
  const name = A.me?.name || accountName();
  return [
    h("h1", { id: "account-h", tabindex: "-1", text: t("acct.welcome", { name }) }),
    h("section", { class: "panel lobby-card codes-card", id: "recovery-codes", "aria-labelledby": "codes-h" },
      h("h2", { id: "codes-h", text: t("acct.codes.title") }),
      h("p", { text: t("acct.codes.help") }),
      h("p", { class: "codes-once", text: t("acct.codes.once") }),
      h("ol", { class: "codes" }, A.codes.map((c) => h("li", {}, h("code", { text: c })))),
      h("div", { class: "row" },
        h("button", { type: "button", id: "copy-codes", "data-focus": "copy-codes", class: A.copied ? "copy done" : "copy",
          onclick: (e) => copyCodes(e.currentTarget) }, t(A.copied ? "acct.codes.copied" : "acct.codes.copy")),
        h("a", { class: "button", id: "download-codes", "data-focus": "download-codes", href: A.codesUrl,
          download: `tarocchi-${name}-recovery-codes.txt` }, t("acct.codes.download"))),
      h("button", { type: "button", class: "primary", id: "codes-done", "data-focus": "codes-done",
        onclick: () => { A.codes = null; A.fresh = true; A.focus = "#account-h"; render(); } }, t("acct.codes.done"))),
  ];
}

// A browser in a few words, from its user agent ("Firefox on Android").
function device(agent) {
  const a = agent || "";
  const browser = /Edg\//.test(a) ? "Edge" : /OPR\/|Opera/.test(a) ? "Opera" : /Firefox\//.test(a) ? "Firefox"
    : /Chrome\/|Chromium\//.test(a) ? "Chrome" : /Safari\//.test(a) ? "Safari" : null;
  const os = /Android/.test(a) ? "Android" : /iPhone|iPad|iPod/.test(a) ? "iOS" : /Windows/.test(a) ? "Windows"
    : /Mac OS X|Macintosh/.test(a) ? "macOS" : /CrOS/.test(a) ? "ChromeOS" : /Linux/.test(a) ? "Linux" : null;
  if (browser && os) return t("acct.device", { browser, os });
  return browser || os || (a ? a.slice(0, 40) : t("acct.device.unknown"));
}

function sessionsSection() {
  const sessions = A.me.sessions || [];
  return h("section", { class: "panel lobby-card", id: "sessions", "aria-labelledby": "sessions-h" },
    h("h2", { id: "sessions-h", text: t("acct.sessions.title") }),
    h("ul", { class: "sessions" }, sessions.map((s) => h("li", { class: "session" + (s.this ? " this" : ""), "data-session": s.id },
      h("span", { class: "session-who" }, h("strong", { text: device(s.agent) }),
        s.this ? h("span", { class: "tag-this", text: t("acct.sessions.this") }) : null),
      h("small", { class: "quiet", text: t("acct.sessions.when", { created: when(s.created), seen: when(s.seen) }) })))),
    h("div", { class: "row" },
      h("button", { type: "button", id: "sign-out", "data-focus": "sign-out", "aria-disabled": A.busy ? "true" : null,
        onclick: () => attempt("sessions", async () => {
          await call("DELETE", "/api/session");
          signedOutHere();
          A.me = null; A.fresh = true; A.note = t("acct.signedout"); A.focus = "#account-h";
        }) }, t("acct.signout")),
      h("button", { type: "button", id: "sign-out-all", "data-focus": "sign-out-all", "aria-disabled": A.busy ? "true" : null,
        onclick: () => attempt("sessions", async () => {
          await call("DELETE", "/api/sessions");
          signedOutHere();
          A.me = null; A.fresh = true; A.note = t("acct.signedout.all"); A.focus = "#account-h";
        }) }, tn("acct.signout.all", sessions.length))),
    errorLine("sessions"));
}

function passwordSection() {
  const busy = A.busy === "password";
  const has = A.me.password !== false;
  return h("section", { class: "panel lobby-card", id: "password", "aria-labelledby": "password-h" },
    h("h2", { id: "password-h", text: t(has ? "acct.password.change" : "acct.password.set") }),
    h("form", { class: "acct-form", id: "password-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      attempt("password", async () => {
        const body = { password: value("password-new") };
        if (has) body.old = value("password-old");
        await call("POST", "/api/me/password", body);
        A.me.password = true;
        A.done.password = t("acct.password.done");
        A.fresh = true;
        A.focus = "#password-done";
      });
    } },
    // (a hidden name field: a password manager files the new password under the account)
    h("input", { type: "text", autocomplete: "username", value: A.me.name, hidden: true, "aria-hidden": "true", tabindex: "-1", readonly: true }),
    has ? passwordField("password-old", "acct.password.old", false) : null,
    passwordField("password-new", "acct.password.new", true),
    errorLine("password"),
    doneLine("password"),
    h("button", { type: "submit", id: "password-submit", "data-focus": "password-submit", "aria-disabled": busy ? "true" : null },
      t(busy ? "acct.busy" : has ? "acct.password.change" : "acct.password.set"))));
}

// Asked again (issue 55): the password, or one of the account's passkeys, before what waits.
function confirmSection() {
  const busy = A.busy === "confirm";
  const has = A.me.password !== false;
  // Proved: what waited goes on (its own form's errors and notes, as if never interrupted).
  const confirmThen = async (prove) => {
    const waiting = A.confirming;
    await attempt("confirm", async () => { await prove(); A.confirming = null; A.fresh = true; });
    if (!A.confirming && waiting) await attempt(waiting.form, waiting.work);
  };
  return h("section", { class: "panel lobby-card confirm-card", id: "confirm", role: "region", "aria-labelledby": "confirm-h" },
    h("h2", { id: "confirm-h", tabindex: "-1", text: t("acct.confirm.title") }),
    h("p", { text: t(has ? "acct.confirm.help" : "acct.confirm.help.passkey") }),
    has ? h("form", { class: "acct-form", id: "confirm-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      confirmThen(() => call("POST", "/api/me/confirm", { password: value("confirm-password") }));
    } },
    h("input", { type: "text", autocomplete: "username", value: A.me.name, hidden: true, "aria-hidden": "true", tabindex: "-1", readonly: true }),
    passwordField("confirm-password", "acct.password", false),
    h("button", { type: "submit", class: "primary", id: "confirm-submit", "data-focus": "confirm-submit", "aria-disabled": busy ? "true" : null },
      t(busy ? "acct.busy" : "acct.confirm.submit"))) : null,
    passkeys && (A.me.passkeys || []).length ? h("button", { type: "button", id: "confirm-passkey", "data-focus": "confirm-passkey",
      "aria-disabled": A.busy ? "true" : null, onclick: () => confirmThen(() => passkeys.confirmWithPasskey()) },
    t("acct.confirm.passkey")) : null,
    errorLine("confirm"),
    h("button", { type: "button", class: "link-button", id: "confirm-cancel", "data-focus": "confirm-cancel",
      onclick: () => { A.confirming = null; A.errors.confirm = ""; A.focus = "#account-h"; render(); } }, t("acct.confirm.cancel")));
}

function passkeyLine(k, i, last) {
  const used = k.used ? t("acct.passkeys.used", { date: when(k.used) }) : t("acct.passkeys.unused");
  return h("li", { class: "passkey" },
    h("span", { text: `${t("acct.passkeys.added", { date: when(k.created) })}; ${used}` }),
    // (the last way in, with no password, cannot go: the server refuses it too)
    last ? null : h("button", { type: "button", class: "link-button", id: `remove-passkey-${i}`, "data-focus": `remove-passkey-${i}`,
      "aria-disabled": A.busy ? "true" : null,
      "aria-label": t("acct.passkeys.remove.label", { date: when(k.created) }),
      onclick: () => attempt("passkeys", async () => {
        const data = await call("DELETE", `/api/passkeys/${encodeURIComponent(k.id)}`);
        A.me.passkeys = data.passkeys || [];
        A.done.passkeys = t("acct.passkeys.removed");
      }) }, t("acct.passkeys.remove")));
}

function passkeysSection() {
  const list = A.me.passkeys || [];
  if (!passkeys && !list.length) return null;
  const lastWayIn = A.me.password === false && list.length === 1;
  return h("section", { class: "panel lobby-card", id: "passkeys", "aria-labelledby": "passkeys-h" },
    h("h2", { id: "passkeys-h", text: t("acct.passkeys.title") }),
    h("p", { text: list.length ? tn("acct.passkeys.some", list.length) : t("acct.passkeys.none") }),
    list.length ? h("ul", { class: "passkey-list" }, list.map((k, i) => passkeyLine(k, i, lastWayIn))) : null,
    lastWayIn ? h("p", { class: "quiet", text: t("acct.passkeys.last") }) : null,
    passkeys ? h("button", { type: "button", id: "add-passkey", "data-focus": "add-passkey", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("passkeys", async () => {
        await passkeys.addPasskey();
        A.me = (await fetchMe()) || A.me;
        A.done.passkeys = t("acct.passkeys.done");
      }) }, t("acct.passkeys.add")) : null,
    errorLine("passkeys"),
    doneLine("passkeys"));
}

// Notifications on this browser (issue 41): its subscription, asked of the service worker.
let subscribed = null;  // null: not asked yet
function notifySection() {
  if (!notificationsOffered()) return null;
  if (subscribed === null) {
    subscribed = false;
    currentSubscription().then((sub) => { if (sub) { subscribed = true; render(); } }).catch(() => {});
  }
  const on = subscribed;
  return h("section", { class: "panel lobby-card", id: "notifications", "aria-labelledby": "notify-h" },
    h("h2", { id: "notify-h", text: t("acct.notify.title") }),
    h("p", { text: t(on ? "acct.notify.on" : "acct.notify.help") }),
    h("button", { type: "button", id: on ? "notify-off" : "notify-on", "data-focus": "notify", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("notify", async () => {
        try {
          if (on) await disableNotifications(); else await enableNotifications(lang());
        } catch (e) {
          throw new Error(notifyWhy(e));
        }
        subscribed = !on;
        A.done.notify = t(on ? "acct.notify.stopped" : "acct.notify.started");
      }) }, t(on ? "acct.notify.disable" : "acct.notify.enable")),
    errorLine("notify"),
    doneLine("notify"));
}

// Why notifications could not be switched, in the page's language (issue 57): never the
// browser's own English ("Registration failed - permission denied.").
function notifyWhy(e) {
  if (e?.code === "server") return reason(e.message);
  if (e?.code === "denied") return t("acct.notify.denied");
  if (e?.code === "slow") return t("acct.notify.slow");
  if (e?.code === "unreachable" || e instanceof TypeError) return t("acct.offline");
  return t("acct.notify.failed");
}

function codesSection() {
  return h("section", { class: "panel lobby-card", id: "new-codes", "aria-labelledby": "new-codes-h" },
    h("h2", { id: "new-codes-h", text: t("acct.codes.new.title") }),
    h("p", { text: t("acct.codes.new.help") }),
    h("button", { type: "button", id: "new-codes-submit", "data-focus": "new-codes-submit", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("codes", async () => {
        const data = await call("POST", "/api/me/recovery-codes");
        await signedIn(A.me.name, data.recovery_codes);
      }) }, t("acct.codes.new.submit")),
    errorLine("codes"));
}

function dataSection() {
  return h("section", { class: "panel lobby-card", id: "your-data", "aria-labelledby": "data-h" },
    h("h2", { id: "data-h", text: t("acct.data.title") }),
    h("p", { text: t("acct.data.help") }),
    // (asked for, not linked: the server may ask for the password first)
    h("button", { type: "button", id: "export", "data-focus": "export", "aria-disabled": A.busy ? "true" : null,
      onclick: () => attempt("data", async () => {
        const data = await call("GET", "/api/me/export");
        const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
        const link = h("a", { href: url, download: `tarocchi-${A.me.name}.json`, hidden: true });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        A.done.data = t("acct.data.done");
      }) }, t("acct.data.download")),
    errorLine("data"),
    doneLine("data"));
}

function deleteSection() {
  const busy = A.busy === "delete";
  const has = A.me.password !== false;
  return h("section", { class: "panel lobby-card danger-zone", id: "delete", "aria-labelledby": "delete-h" },
    h("h2", { id: "delete-h", text: t("acct.delete.title") }),
    h("p", { text: t("acct.delete.help") }),
    h("form", { class: "acct-form", id: "delete-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      attempt("delete", async () => {
        const body = { confirm: value("delete-name").trim() };
        if (has) body.password = value("delete-password");
        await call("DELETE", "/api/account", body);
        signedOutHere();
        A.me = null; A.fresh = true; A.note = t("acct.deleted"); A.focus = "#account-h";
      });
    } },
    field("delete-name", "acct.delete.name", { type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false" }),
    has ? passwordField("delete-password", "acct.password", false) : null,
    errorLine("delete"),
    h("button", { type: "submit", class: "danger", id: "delete-submit", "data-focus": "delete-submit", "aria-disabled": busy ? "true" : null },
      t(busy ? "acct.busy" : "acct.delete.submit"))));
}

function signedInView() {
  const name = A.me.name;
  return [
    h("h1", { id: "account-h", tabindex: "-1", text: t("acct.title.in") }),
    h("p", { class: "signed-in-as" }, t("acct.signedin.as"), " ", h("strong", { id: "account-name", text: name })),
    h("p", { class: "row" },
      h("a", { class: "button", id: "my-profile", "data-focus": "my-profile", href: `/@/${encodeURIComponent(name)}` }, t("acct.profile")),
      h("a", { class: "button", id: "my-games", "data-focus": "my-games", href: `/@/${encodeURIComponent(name)}/games` }, t("acct.games")),
      A.me.moderator ? h("a", { class: "button", id: "mod-page", "data-focus": "mod-page", href: "/mod" }, t("acct.mod")) : null,
      h("a", { class: "button", href: "/", "data-focus": "to-lobby" }, t("acct.lobby"))),
    A.note ? h("p", { class: "page-note", role: "status" }, h("span", { class: "ok-note", text: A.note })) : null,
    A.confirming ? confirmSection() : null,
    h("div", { class: "lobby-grid account-grid" },
      sessionsSection(), passwordSection(), passkeysSection(), codesSection(), notifySection(), dataSection(), deleteSection()),
  ];
}

function view() {
  if (A.me === undefined) return [h("h1", { id: "account-h", tabindex: "-1", text: t("acct.title") }), h("p", { class: "quiet", role: "status", text: t("acct.loading") })];
  if (A.codes) return codesView();
  return A.me ? signedInView() : signedOutView();
}

function render() {
  const root = A.root;
  // What is typed stays through a drawing (a language switch), unless a new view starts.
  const typed = {};
  if (!A.fresh) for (const el of root.querySelectorAll("input[id]")) typed[el.id] = el.value;
  A.fresh = false;
  const focusKey = document.activeElement?.dataset?.focus;
  document.documentElement.lang = lang();
  const title = A.me === undefined ? t("acct.title") : A.codes ? t("acct.codes.title") : A.me ? t("acct.title.in") : t("acct.title.out");
  document.title = `${title} · ${t("app.title")}`;
  root.replaceChildren(h("div", { class: "lobby people-page account-page", "data-state": A.me === undefined ? "loading" : A.codes ? "codes" : A.me ? "in" : "out" },
    pageTop(render), view()));
  for (const [id, v] of Object.entries(typed)) {
    const el = root.querySelector(`#${CSS.escape(id)}`);
    if (el && el.type !== "hidden") el.value = v;
  }
  const target = A.focus ? root.querySelector(A.focus) : focusKey ? root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`) : null;
  A.focus = null;
  if (target) target.focus({ preventScroll: target.id !== "account-h" && !target.id?.endsWith("-error") });
}

export async function accountPage(root) {
  A.root = root;
  render();
  const [me, offered] = await Promise.all([fetchMe(), loadPasskeys()]);
  passkeys = offered;
  A.me = me === undefined ? null : me;
  if (me === undefined) A.note = t("acct.offline");
  if (A.me) syncSeats();
  render();
}
