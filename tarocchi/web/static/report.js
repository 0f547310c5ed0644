// The Report dialog (issue 58; the server's side is tarocchi/server/moderation.py, POST
// /api/reports): a signed-in player reports another from a profile or from a table, with a
// reason and a few words; from a table the report names it (the server adds its deal and chat
// lines). Loaded when a Report button is pressed, never with a page (issue 60).
//
// A native modal <dialog>: the page behind it is inert while it is open (the focus stays in
// it), Escape closes it, and the focus goes back to the button that opened it.

import { t, reason, addMessages, REASONS } from "./i18n.js";
import { h, asset } from "./dom.js";
import messages from "./report.i18n.js";

addMessages(messages);
Object.assign(REASONS.it, messages.reasons?.it || {});  // the server's words, in Italian

export const REASONS_ASKED = ["cheating", "abuse", "leaving", "name", "other"];  // (moderation.py NewReport)
const TEXT_MAX = 500;

// The moderation pages' styles (the dialog's and /mod's), added once.
export function styles() {
  const href = asset("/static/moderation.css");
  let link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href.endsWith(href) || l.getAttribute("href") === href);
  if (!link) {
    link = h("link", { rel: "stylesheet", href });
    link.loaded = new Promise((done) => { link.onload = done; link.onerror = done; });
    document.head.append(link);
  }
  return link.loaded || Promise.resolve();
}

// POST a JSON body: {status, body} (status 0: the server could not be reached).
export async function post(path, body) {
  try {
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? {} : await res.json().catch(() => ({})) };
  } catch {
    return { status: 0, body: {} };
  }
}

// Open the dialog about the player ``name``; ``table``: the table's id when reported from it;
// ``opener``: the button that opened it (the focus goes back to it, or to the element with its
// data-focus key when the page drew it again meanwhile).
export async function openReport({ name, table = null, opener = null }) {
  await styles();
  document.querySelector("dialog.report-dialog")?.close();
  const focusKey = opener?.dataset?.focus;
  const result = h("p", { class: "report-done", id: "report-done", role: "status" });
  const refusal = h("p", { class: "report-error", id: "report-error", role: "alert" });
  const text = h("textarea", { id: "report-text", name: "text", maxlength: TEXT_MAX, rows: 3, "aria-describedby": "report-text-help" });
  const send = h("button", { type: "submit", class: "primary", id: "report-send" }, t("rep.send"));
  const cancel = h("button", { type: "button", id: "report-cancel", onclick: () => dialog.close() }, t("rep.cancel"));
  const fields = h("div", { class: "report-fields" },
    h("fieldset", { class: "report-reasons" },
      h("legend", { text: t("rep.reason") }),
      REASONS_ASKED.map((r) => h("label", { class: "report-reason", for: `report-reason-${r}` },
        h("input", { type: "radio", name: "reason", value: r, id: `report-reason-${r}`, required: true }),
        " ", t(`rep.reason.${r}`)))),
    h("div", { class: "field" },
      h("label", { for: "report-text", text: t("rep.text") }), text,
      h("small", { id: "report-text-help", text: t("rep.text.help", { n: TEXT_MAX }) })));
  const buttons = h("div", { class: "row report-buttons" }, send, cancel);
  const form = h("form", { class: "report-form", novalidate: false }, fields, refusal, result, buttons);
  const dialog = h("dialog", { class: "report-dialog", "aria-labelledby": "report-h", "aria-describedby": "report-intro" },
    h("h2", { id: "report-h", text: t("rep.title", { name }) }),
    h("p", { id: "report-intro", text: t("rep.intro", { name }) }),
    table ? h("p", { class: "note", text: t("rep.table") }) : null,
    form);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (send.getAttribute("aria-disabled") === "true") return;
    const picked = form.querySelector('input[name="reason"]:checked');
    if (!picked) return;
    send.setAttribute("aria-disabled", "true");
    refusal.textContent = "";
    result.textContent = t("rep.sending");
    const body = { name, reason: picked.value, text: text.value.trim().slice(0, TEXT_MAX) };
    if (table) body.table = table;
    const { status, body: answer } = await post("/api/reports", body);
    send.removeAttribute("aria-disabled");
    if (status === 204) {
      // Sent: the form goes, the thanks stay, and Close takes the focus.
      fields.remove();
      result.textContent = t("rep.done", { name });
      const close = h("button", { type: "button", class: "primary", id: "report-close", onclick: () => dialog.close() }, t("rep.close"));
      buttons.replaceChildren(close);
      close.focus();
      return;
    }
    result.textContent = "";
    refusal.textContent = status === 401 ? t("rep.signin")
      : t("rep.refused", { reason: status === 0 || !answer.error ? t("acct.offline") : reason(answer.error) });
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    const back = opener?.isConnected ? opener : focusKey ? document.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`) : null;
    back?.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  form.querySelector("input")?.focus();
  return dialog;
}
