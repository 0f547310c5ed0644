"""Passkeys (issue 40): WebAuthn through py_webauthn, where the browser offers it. An account
can be made with a passkey alone (no password), a passkey added to the account one is signed in
to, and a passkey signs in without a name (a discoverable credential: the browser lists the
site's passkeys; the one picked names its account by its user handle).

Each ceremony is two requests: its options (a challenge), then the browser's answer. The
challenge is kept in the store, not in this process (a site's second request may reach another
process), under a random key the browser holds in an HttpOnly, SameSite=Strict cookie of the
``/api/passkeys`` path that lives as long as the challenge (``CHALLENGE_SECONDS``); the answer
takes it, once, from whichever process (``People.take_challenge``). A challenge is thus random,
used once, bound to the browser it was given to, and over after two minutes.

The relying party is the site as the browser sees it: its ID the request's host name, its
origin the request's own scheme, host and port (behind a TLS proxy, https: the trusted proxy's
X-Forwarded-Proto, docs/operations.md). The user handle is the account's id (random, no name
in it); a passkey's public key and sign count are kept, and a sign count that did not go up
(where the authenticator counts) refuses the sign-in, as py_webauthn checks: a cloned key.

A session alone adds or removes none (issue 55): both ask for the password or a passkey proved
lately (``Accounts.proven``); a passkey proves it with a third ceremony, ``confirm``, that
accepts only the signed-in account's own passkeys. The last way into an account (no password,
one passkey) is never removed. ``GET /api/me`` lists them: when added, when last used."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authentication_credential_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..core.names import shown_name
from ..core.store.people import new_account_id
from . import (
    LAST_WAY_IN, NAME_TAKEN, SIGNED_OUT, TOO_MANY_SIGN_INS, UNKNOWN_PASSKEY, WRONG, Accounts, check_name, name_clash,
    recovery_codes,
)

CHALLENGE_SECONDS = 120
COOKIE = "tarocchi_passkey"
COOKIE_PATH = "/api/passkeys"
RP_NAME = "Tarocchi"
CREDENTIAL_ID_MAX = 1400  # characters of a credential id (1023 bytes at most, base64url)

EXPIRED = "that passkey request is over (used, or older than two minutes): try again"
NOT_REGISTERED = "the passkey could not be registered: try again"
KNOWN = "that passkey is registered already"

# What a browser's answer may fail with, however it is malformed: a refusal, never a 500.
REFUSED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError)


class Name(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class Credential(msgspec.Struct, forbid_unknown_fields=True):
    credential: dict  # the browser's PublicKeyCredential as JSON (binary fields base64url)


def relying_party(request: Request) -> tuple[str, str]:
    """The RP ID (the host name the page is on) and the origin the browser puts in its client
    data (scheme://host, and the port unless the scheme's own)."""
    url = request.url
    host = url.hostname or ""
    default = {"http": 80, "https": 443}.get(url.scheme)
    port = f":{url.port}" if url.port and url.port != default else ""
    return host, f"{url.scheme}://{f'[{host}]' if ':' in host else host}{port}"


def selection() -> AuthenticatorSelectionCriteria:
    # Resident (discoverable): a sign-in names no account, the passkey does.
    return AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.REQUIRED,
                                          user_verification=UserVerificationRequirement.PREFERRED)


def routes(accounts: Callable[[], Accounts], read_body, client_address) -> list[Route]:
    """The passkeys' routes (docs/protocol.md, "Accounts: passkeys"); the arguments as
    ``accounts.routes``'."""

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers={"Cache-Control": "no-store"})

    def address(request: Request) -> str:
        return client_address(request) or "?"

    def ceremony(request: Request, purpose: str, options, data: dict) -> Response:
        """The options to answer, their challenge kept for the second step."""
        key = accounts().people.new_challenge(purpose, options.challenge, data, CHALLENGE_SECONDS)
        response = Response(options_to_json(options), media_type="application/json",
                            headers={"Cache-Control": "no-store"})
        response.set_cookie(COOKIE, key, max_age=CHALLENGE_SECONDS, path=COOKIE_PATH, httponly=True,
                            samesite="strict", secure=request.url.scheme == "https")
        return response

    def take(request: Request, purpose: str) -> tuple[bytes, dict] | None:
        key = request.cookies.get(COOKIE)
        if not key or len(key) > 100:
            return None
        return accounts().people.take_challenge(key, purpose)

    def done(response: Response) -> Response:
        # The cookie goes with its challenge, whatever the answer (it is used up either way).
        response.delete_cookie(COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")
        return response

    def registration(request: Request, name: str, account: str, exclude: list[dict] | None = None):
        rp_id, _ = relying_party(request)
        return generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_id=account.encode(),
            timeout=CHALLENGE_SECONDS * 1000, authenticator_selection=selection(),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p["id"])) for p in exclude or []])

    def registered(request: Request, credential: dict, challenge: bytes):
        """The new passkey, verified: (credential id, public key, sign count); None: refused."""
        rp_id, origin = relying_party(request)
        try:
            found = verify_registration_response(credential=credential, expected_challenge=challenge,
                                                 expected_rp_id=rp_id, expected_origin=origin)
        except REFUSED:
            return None
        return (bytes_to_base64url(found.credential_id), bytes_to_base64url(found.credential_public_key),
                found.sign_count)

    async def sign_up_options(request: Request):
        body = await read_body(request, Name)
        if isinstance(body, Response):
            return body
        name = shown_name(body.name)
        if (why := check_name(name)) is not None:
            return error(why, 400)
        # (no password is checked: the address's budget alone, never the name's, which a flood
        # of these would otherwise spend for its owner)
        if not await accounts().may_create(address(request)):
            return error(TOO_MANY_SIGN_INS, 429)
        if (why := name_clash(accounts().people, name)) is not None:
            return error(why, 409)
        account = new_account_id()  # (the account's id to be, and its passkey's user handle)
        return ceremony(request, "signup", registration(request, name, account), {"name": name, "account": account})

    async def sign_up(request: Request):
        body = await read_body(request, Credential)
        if isinstance(body, Response):
            return body
        if (found := take(request, "signup")) is None:
            return done(error(EXPIRED, 400))
        challenge, data = found
        if (passkey := registered(request, body.credential, challenge)) is None:
            return done(error(NOT_REGISTERED, 400))
        people = accounts().people
        if people.passkey(passkey[0]) is not None:
            return done(error(KNOWN, 409))
        codes = recovery_codes()
        # The account and its passkey in one transaction; the name may have been taken since.
        if people.create_account(data["name"], None, codes, account=data["account"], passkey=passkey) is None:
            return done(error(name_clash(people, data["name"]) or NAME_TAKEN, 409))
        return done(accounts().session_response(request, {"id": data["account"]},
                                                {"name": data["name"], "recovery_codes": codes}, 201))

    async def add_options(request: Request):
        account = accounts().signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if (refused := await accounts().proven(request, account, None)) is not None:
            return refused
        # Its passkeys are excluded: an authenticator holding one says so instead of replacing it.
        options = registration(request, account["name"], account["id"], accounts().people.passkeys(account["id"]))
        return ceremony(request, "add", options, {"account": account["id"]})

    async def add(request: Request):
        account = accounts().signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if (refused := await accounts().proven(request, account, None)) is not None:
            return refused
        body = await read_body(request, Credential)
        if isinstance(body, Response):
            return body
        found = take(request, "add")
        if found is None or found[1]["account"] != account["id"]:  # (asked for while signed in to another)
            return done(error(EXPIRED, 400))
        if (passkey := registered(request, body.credential, found[0])) is None:
            return done(error(NOT_REGISTERED, 400))
        people = accounts().people
        if people.passkey(passkey[0]) is not None:
            return done(error(KNOWN, 409))
        people.add_passkey(account["id"], *passkey)
        return done(JSONResponse({"passkeys": people.passkeys(account["id"])}, status_code=201,
                                 headers={"Cache-Control": "no-store"}))

    async def sign_in_options(request: Request):
        # No name yet: the address's budget alone (the name's is spent by a password's tries).
        if not await accounts().may_create(address(request)):
            return error(TOO_MANY_SIGN_INS, 429)
        rp_id, _ = relying_party(request)
        options = generate_authentication_options(rp_id=rp_id, timeout=CHALLENGE_SECONDS * 1000,
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        return ceremony(request, "signin", options, {})

    def verified(request: Request, credential: dict, challenge: bytes) -> dict | None:
        """The stored passkey that signed ``challenge`` in the browser's ``credential`` (its
        sign count moved on); None: unknown, or refused."""
        people = accounts().people
        credential_id = credential.get("id")
        passkey = (people.passkey(credential_id) if isinstance(credential_id, str)
                   and len(credential_id) <= CREDENTIAL_ID_MAX else None)
        if passkey is None:
            return None
        rp_id, origin = relying_party(request)
        try:
            answer = parse_authentication_credential_json(credential)
            checked = verify_authentication_response(
                credential=answer, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=base64url_to_bytes(passkey["public_key"]),
                credential_current_sign_count=passkey["sign_count"])
        except REFUSED:
            return None
        handle = answer.response.user_handle
        if handle is not None and handle != passkey["account"].encode():
            return None  # (the authenticator's account is not the passkey's)
        people.passkey_used(credential_id, checked.new_sign_count)
        return passkey

    async def confirm_options(request: Request):
        """A passkey's proof that the signed-in account's owner is here: only its passkeys."""
        account = accounts().signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await accounts().spend("confirm", account["session"]):
            return error(TOO_MANY_SIGN_INS, 429)
        mine = accounts().people.passkeys(account["id"])
        rp_id, _ = relying_party(request)
        options = generate_authentication_options(
            rp_id=rp_id, timeout=CHALLENGE_SECONDS * 1000, user_verification=UserVerificationRequirement.PREFERRED,
            allow_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p["id"])) for p in mine])
        return ceremony(request, "confirm", options, {"account": account["id"], "session": account["session"]})

    async def confirm(request: Request):
        account = accounts().signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, Credential)
        if isinstance(body, Response):
            return body
        found = take(request, "confirm")
        if found is None or found[1]["session"] != account["session"]:
            return done(error(EXPIRED, 400))
        passkey = verified(request, body.credential, found[0])
        if passkey is None or passkey["account"] != account["id"]:  # (another account's passkey proves nothing here)
            return done(error(WRONG, 401))
        accounts().people.confirm_session(account["session"])
        return done(Response(status_code=204))

    async def remove(request: Request):
        account = accounts().signed_in(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        credential = request.path_params["credential"]
        if len(credential) > CREDENTIAL_ID_MAX:
            return error(UNKNOWN_PASSKEY, 404)
        if (refused := await accounts().proven(request, account, None)) is not None:
            return refused
        outcome = accounts().people.remove_passkey(account["id"], credential)
        if outcome == "unknown":
            return error(UNKNOWN_PASSKEY, 404)
        if outcome == "last":
            return error(LAST_WAY_IN, 409)
        return JSONResponse({"passkeys": accounts().people.passkeys(account["id"])},
                            headers={"Cache-Control": "no-store"})

    async def sign_in(request: Request):
        body = await read_body(request, Credential)
        if isinstance(body, Response):
            return body
        if (found := take(request, "signin")) is None:
            return done(error(EXPIRED, 400))
        people = accounts().people
        passkey = verified(request, body.credential, found[0])
        if passkey is None:
            return done(error(WRONG, 401))  # (an unknown or refused passkey: as a wrong password)
        account = people.account(passkey["account"])
        if account is None:  # (deleted meanwhile)
            return done(error(WRONG, 401))
        return done(accounts().session_response(request, account, {"name": account["name"]}))

    return [
        Route("/api/passkeys/signup/options", sign_up_options, methods=["POST"]),
        Route("/api/passkeys/signup", sign_up, methods=["POST"]),
        Route("/api/passkeys/options", add_options, methods=["POST"]),
        Route("/api/passkeys", add, methods=["POST"]),
        Route("/api/passkeys/signin/options", sign_in_options, methods=["POST"]),
        Route("/api/passkeys/signin", sign_in, methods=["POST"]),
        Route("/api/passkeys/confirm/options", confirm_options, methods=["POST"]),
        Route("/api/passkeys/confirm", confirm, methods=["POST"]),
        Route("/api/passkeys/{credential}", remove, methods=["DELETE"]),
    ]
