"""A push service of the tests' own (issue 41): a loopback HTTP server that takes Web Push
messages as FCM or Mozilla's would, checks each one's VAPID signature, and decrypts it with the
keys of the subscription a test made (a browser's, played by ``Browser``).

    with PushService() as service:
        browser = service.browser()              # a subscription: endpoint and keys
        ... POST /api/push browser.subscription ...
        message = service.wait(lambda m: m["what"] == "turn")   # decrypted, with when it came
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's subscription: its endpoint on the service, its keys (RFC 8291)."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    status: int = 201  # what the service answers for it (410: the browser dropped it)
    location: str | None = None  # a Location it answers with (a redirect, status 307: issue 55)

    @property
    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


class PushService:
    def __init__(self):
        self.browsers: dict[str, Browser] = {}
        self.messages: list[dict] = []  # decrypted, each with "browser" (its id), "at" and "vapid"
        self.errors: list[str] = []
        self.lock = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                name = self.path.rsplit("/", 1)[-1]
                status = service.take(name, dict(self.headers), body)
                self.send_response(status)
                if (browser := service.browsers.get(name)) is not None and browser.location:
                    self.send_header("location", browser.location)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def browser(self) -> Browser:
        name = secrets.token_hex(6)
        browser = self.browsers[name] = Browser(f"{self.origin}/push/{name}")
        return browser

    def take(self, name: str, headers: dict, body: bytes) -> int:
        browser = self.browsers.get(name)
        if browser is None:
            return 404
        try:
            vapid = check_vapid(headers.get("Authorization") or headers.get("authorization", ""), self.origin)
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
            message = json.loads(plain) | {"browser": name, "at": time.time(), "vapid": vapid,
                                           "ttl": int(headers.get("TTL") or headers.get("ttl") or 0)}
        except Exception as e:  # (told to the test, which fails on it)
            self.errors.append(f"{type(e).__name__}: {e}")
            return 400
        with self.lock:
            self.messages.append(message)
            self.lock.notify_all()
        return browser.status

    def wait(self, wanted, timeout: float = 15.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                assert not self.errors, self.errors
                found = [m for m in self.messages if wanted(m)]
                if found:
                    return found[0]
                left = deadline - time.monotonic()
                assert left > 0, f"no such push message; got {self.messages}"
                self.lock.wait(left)

    def of(self, browser: Browser) -> list[dict]:
        with self.lock:
            return [m for m in self.messages if m["browser"] == browser.endpoint.rsplit("/", 1)[-1]]


def check_vapid(header: str, audience: str) -> dict:
    """RFC 8292: ``vapid t=<JWT>, k=<public key>``; the JWT signed (ES256) by that key, for
    this service, not expired. Its claims, and the key (``k``)."""
    parts = dict(p.strip().split("=", 1) for p in header.removeprefix("vapid ").split(","))
    token, key = parts["t"], parts["k"]
    head, claims, signature = token.split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    claims = json.loads(unb64(claims))
    assert claims["aud"] == audience and claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
    return claims | {"k": key}
