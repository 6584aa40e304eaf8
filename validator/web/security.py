"""What keeps ``deckcheck serve`` safe on a venue LAN, each part testable on its own.

* :class:`BodyLimit` reads a request body, chunked or not, only up to the limit: beyond it
  the answer is 413 before the application sees a byte.
* :class:`HostGuard` answers only to the host names the server was started for (the bound
  address, localhost, and ``--allow-host``): a web page on another name that resolves to
  this machine (DNS rebinding) gets 400.
* :class:`Sessions`: session ids are issued by the server and signed; an id it never issued
  is replaced. Signing in opens a new session (the old id is dropped: no fixation); the sign-in
  is stored with the event, expires, ends at sign-out, and is tied to the password, so a
  server started with another password signs everyone out.
* :class:`Throttle`: wrong passwords slow the client down with ``asyncio.sleep`` (never
  blocking other requests) and lock it out for a while after many.
* :func:`same_origin`: a POST whose Origin (or Referer) names another site is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from validator.event.store import EventDB

__all__ = ["LOOPBACK", "REFUSED_BODY", "BodyLimit", "HostGuard", "Sessions", "Throttle",
           "allowed_hosts", "same_origin"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: the scope key under which :class:`BodyLimit` tells the application why it refused a body
REFUSED_BODY = "deckcheck.refused_body"
SESSION_HOURS = 12


async def _answer(send: Send, status: int, text: str) -> None:
    body = (f"<!doctype html><title>{status}</title><p>{text}</p>").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, chunked ones included: the body
    is read (up to the limit) before the application runs, then handed to it. ``inside``:
    the application answers the refusal itself (as a page of its own), given no body and
    the reason under :data:`REFUSED_BODY`."""

    def __init__(self, app: ASGIApp, limit: int, inside: bool = False) -> None:
        self.app = app
        self.limit = limit
        self.inside = inside

    async def _refuse(self, scope: Scope, send: Send, text: str) -> None:
        if not self.inside:
            await _answer(send, 413, text)
            return

        async def nothing() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        await self.app({**scope, REFUSED_BODY: text}, nothing, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        too_large = (f"The upload is larger than {self.limit >> 20} MiB, the most this server "
                     "accepts. Split it into several uploads, or zip the deck files.")
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, send, too_large)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, send, too_large)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names this server answers to: loopback names, the bound address, the
    machine's own names and addresses when bound to every interface, and ``extra``."""
    names = {*LOOPBACK, bound.lower(), *(h.lower() for h in extra)}
    if bound in ("0.0.0.0", "::"):
        hostname = socket.gethostname()
        names.update({hostname.lower(), socket.getfqdn().lower()})
        with contextlib.suppress(OSError):
            names.update(str(info[4][0]) for info in socket.getaddrinfo(hostname, None))
    return frozenset(names)


def _host_name(value: str) -> str:
    """``host:port`` or ``[v6]:port`` → the host, lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


class HostGuard:
    """Answer 400 to a Host header this server was not started for (DNS rebinding)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            host = _host_name(headers.get(b"host", b"").decode("latin-1"))
            if host not in self.hosts:
                await _answer(send, 400, "This server does not answer to that host name. "
                                         "Start it with --allow-host NAME to use that name.")
                return
        await self.app(scope, receive, send)


def same_origin(origin: str | None, referer: str | None, hosts: frozenset[str]) -> bool:
    """A POST comes from one of this server's own pages: its Origin (else Referer) names an
    allowed host. A request with neither (not a browser) is left to the CSRF token."""
    source = origin if origin and origin != "null" else referer
    if not source:
        return origin != "null"
    return (urlsplit(source).hostname or "").lower() in hosts


@dataclass
class Sessions:
    """Signed session ids, and sign-ins kept with the event."""

    secret: bytes
    db: EventDB
    password: str | None

    def _sign(self, value: str) -> str:
        return hmac.new(self.secret, value.encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self) -> tuple[str, str]:
        """A new session id and its cookie value."""
        sid = secrets.token_urlsafe(24)
        return sid, f"{sid}.{self._sign('sid:' + sid)}"

    def verify(self, cookie: str | None) -> str | None:
        """The session id of a cookie the server issued, else None."""
        if not cookie or "." not in cookie:
            return None
        sid, signature = cookie.rsplit(".", 1)
        if not hmac.compare_digest(signature, self._sign("sid:" + sid)):
            return None
        return sid

    def csrf(self, sid: str) -> str:
        return self._sign("csrf:" + sid)

    def _password_key(self) -> str:
        return self._sign("password:" + (self.password or ""))

    def signed_in(self, sid: str) -> bool:
        if self.password is None:
            return True
        row = self.db.session(sid)
        return row is not None and hmac.compare_digest(row[0], self._password_key()) and (
            row[1] > time.time())

    def sign_in(self, old_sid: str) -> tuple[str, str]:
        """Open a signed-in session under a new id; the old one is dropped."""
        self.db.close_session(old_sid)
        sid, cookie = self.issue()
        self.db.open_session(sid, self._password_key(), time.time() + SESSION_HOURS * 3600)
        return sid, cookie

    def sign_out(self, sid: str) -> None:
        self.db.close_session(sid)

    def password_matches(self, given: str) -> bool:
        return self.password is not None and hmac.compare_digest(
            given.encode(), self.password.encode())


@dataclass
class Throttle:
    """Wrong passwords per client: each one delays the next answer a little more; after
    ``lock_after`` within ``window`` seconds the client is locked out until the window ends."""

    step: float = 0.5
    most: float = 5.0
    lock_after: int = 10
    window: float = 600.0
    failures: dict[str, list[float]] = field(default_factory=dict)

    def _recent(self, client: str) -> list[float]:
        now = time.monotonic()
        recent = [t for t in self.failures.get(client, []) if now - t < self.window]
        self.failures[client] = recent
        return recent

    def locked(self, client: str) -> bool:
        return len(self._recent(client)) >= self.lock_after

    async def failed(self, client: str) -> None:
        recent = self._recent(client)
        recent.append(time.monotonic())
        await asyncio.sleep(min(self.step * len(recent), self.most))

    def succeeded(self, client: str) -> None:
        self.failures.pop(client, None)
