// Passkeys (issue 40): sign up, sign in, add, confirm and remove a passkey through the browser's WebAuthn, each
// in two calls to the server (docs/protocol.md, "Accounts: passkeys"): its options, with a
// challenge, then what navigator.credentials made of them. Binary fields travel as base64url
// (no padding) both ways; the conversion is here, no library. The challenge's cookie is the
// server's (HttpOnly): this page never sees it.
//
// Each function returns the server's answer, or throws: an Error whose message is the server's
// `error` text, or the browser's own DOMException (name "NotAllowedError": the person closed
// the prompt or it timed out; "InvalidStateError": this authenticator holds one of the account's
// passkeys already).

// Whether this browser can make and use passkeys at all (a secure page: https, or localhost).
export function passkeysOffered() {
  return typeof window !== "undefined" && !!window.PublicKeyCredential && !!navigator.credentials;
}

// A new account named `name` with a passkey and no password: {name, recovery_codes}; signed in.
export async function passkeySignUp(name) {
  const options = await post("/api/passkeys/signup/options", { name });
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return post("/api/passkeys/signup", { credential: registrationJSON(credential) });
}

// Sign in with any passkey of this site the browser offers (no name asked): {name}.
export async function passkeySignIn() {
  const options = await post("/api/passkeys/signin/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return post("/api/passkeys/signin", { credential: assertionJSON(credential) });
}

// A passkey added to the account signed in: {passkeys: [{id, created}]}, all of them.
export async function addPasskey() {
  const options = await post("/api/passkeys/options");
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return post("/api/passkeys", { credential: registrationJSON(credential) });
}

// The owner proves it is them again with one of the account's passkeys (issue 55): the
// account's keys open for a few minutes. Resolves with nothing.
export async function confirmWithPasskey() {
  const options = await post("/api/passkeys/confirm/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  await post("/api/passkeys/confirm", { credential: assertionJSON(credential) });
}

// Remove one of the account's passkeys: {passkeys}, those left.
export async function removePasskey(id) {
  return post(`/api/passkeys/${encodeURIComponent(id)}`, undefined, "DELETE");
}

async function post(path, body, method = "POST") {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let answer = null;
  try { answer = await response.json(); } catch { /* (not JSON: a proxy's page) */ }
  if (!response.ok) {
    const e = new Error(answer?.error || `the server answered ${response.status}`);
    e.status = response.status;
    e.confirm = answer?.confirm === true;  // (the password or a passkey asked again first)
    throw e;
  }
  return answer;
}

// The server's JSON options (py_webauthn's) as the browser takes them: the ids and the
// challenge as ArrayBuffers.
function creationOptions(o) {
  return {
    ...o,
    challenge: bytes(o.challenge),
    user: { ...o.user, id: bytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })),
  };
}

function requestOptions(o) {
  return {
    ...o,
    challenge: bytes(o.challenge),
    allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })),
  };
}

// What the server verifies, and no more (a request body is at most 4096 bytes).
function registrationJSON(c) {
  return {
    id: c.id, rawId: text(c.rawId), type: c.type,
    response: { clientDataJSON: text(c.response.clientDataJSON), attestationObject: text(c.response.attestationObject) },
  };
}

function assertionJSON(c) {
  const r = c.response;
  return {
    id: c.id, rawId: text(c.rawId), type: c.type,
    response: {
      clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData),
      signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : null,
    },
  };
}

// base64url (RFC 4648 §5, unpadded) -> ArrayBuffer
function bytes(s) {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out.buffer;
}

// ArrayBuffer (or a view) -> base64url, unpadded
function text(buffer) {
  const view = buffer instanceof ArrayBuffer ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let raw = "";
  for (let i = 0; i < view.length; i++) raw += String.fromCharCode(view[i]);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
