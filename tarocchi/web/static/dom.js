// Small DOM helpers shared by the core (app.js) and the game modules (games/*.js).
// User text (chat, names) always goes in through textContent ("text" or a string child),
// never parsed as HTML.

// h("button", {class, text, onclick, ...attrs}, ...children): one element.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A region of the page: an element built once whose children are replaced only when what
// they would show changes (compared by their markup). Keyboard focus inside the region stays
// on the element with the same data-focus key. Returns true when it changed.
export function patch(el, nodes) {
  const list = [nodes].flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false)
    .map((n) => (n instanceof Node ? n : document.createTextNode(String(n))));
  const sig = list.map((n) => n.outerHTML ?? n.textContent).join("\u0000");
  if (el.__sig === sig) return false;
  const active = document.activeElement;
  const focusKey = active && el.contains(active) ? active.dataset?.focus : null;
  el.replaceChildren(...list);
  el.__sig = sig;
  if (focusKey) {
    const again = el.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  return true;
}

// Set an attribute only when it differs (null removes it).
export function attr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== String(value)) el.setAttribute(name, String(value));
}

export function text(el, value) {
  if (el.textContent !== value) el.textContent = value;
}

export function signed(n) { return n > 0 ? `+${n}` : String(n); }

// A static file's URL as the page names it: the hashed one of the page's import map (issue 60:
// kept a year by the browser), the plain one where the page has no map.
export function asset(url) { return import.meta.resolve(url); }
