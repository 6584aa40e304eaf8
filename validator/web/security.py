"""What keeps ``deckcheck serve`` safe on a venue LAN, each part testable on its own.

* :class:`BodyLimit` passes a request body on as it arrives, never held in memory whole: a
  declared length over the limit is refused before a byte is read, a chunked body is cut
  off (:class:`BodyTooLarge`) once it passes the limit, and only a few bodies are received
  at once. Whoever is not signed in gets the sign-in page without their body being read.
* :class:`HostGuard` answers only to the host names the server was started for (the bound
  address, localhost, and ``--allow-host``), written ``host[:port]`` and nothing else: a web
  page on another name that resolves to this machine (DNS rebinding) gets 400.
* :class:`Sessions`: session ids are issued by the server and signed; an id it never issued
  is replaced. Signing in opens a new session (the old id is dropped: no fixation); the sign-in
  is stored with the event, expires, ends at sign-out, and is tied to the password, so a
  server started with another password signs everyone out. Each sign-in holds a staff role
  (organizer, head judge, judge) and the person: the organizer password signs in the
  organizer, the shared judge password a judge, a staff code the person it was issued to
  (a revoked code's sessions end at once). A session of any other kind is no staff session.
* :class:`Throttle`: each wrong password from an address is answered after a longer delay
  (doubling, capped; ``asyncio.sleep`` never blocks other requests), and only a few attempts
  from one address are heard at once; the right password is never refused for long (an
  address is often a whole venue's).
* :func:`same_origin`: a POST whose Origin (or Referer) names another site is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from validator.event.store import STAFF_ROLES, EventDB, SignIn

__all__ = ["CODE_ALPHABET", "LOCAL", "LOOPBACK", "MIN_PASSWORD", "REFUSED_BODY", "BodyLimit",
           "BodyTooLarge", "HostGuard", "Sessions", "Throttle", "allowed_hosts", "host_name",
           "same_origin"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: the shortest password a server reachable beyond this machine accepts
MIN_PASSWORD = 12
#: the scope key under which :class:`BodyLimit` tells the application why it refused a body
REFUSED_BODY = "deckcheck.refused_body"
SESSION_HOURS = 12
#: the letters of a staff code (none that read like another: no I, L, O, 0, 1)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: a staff code's secret part: four groups of four letters (about 79 bits)
CODE_GROUPS = 4
#: everyone on a server without a password: the organizer, named per device
LOCAL = SignIn("", float("inf"), "organizer")
_CODE = re.compile(r"([0-9]{1,9})-([A-Z2-9]{4}(?:-[A-Z2-9]{4}){3})")


def _code_hash(secret: str, salt: bytes) -> str:
    """The salted hash a staff code's secret is kept as (scrypt: slow to guess offline)."""
    return hashlib.scrypt(secret.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=32).hex()


async def _answer(send: Send, status: int, text: str) -> None:
    body = (f"<!doctype html><title>{status}</title><p>{text}</p>").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


#: a declared body this small (a form's fields) takes no upload turn
SMALL_BODY = 64 << 10


class BodyTooLarge(Exception):
    """A chunked request body passed the limit while the application was reading it."""


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, chunked ones included, without
    holding a body in memory: the body is handed on as it arrives, counted, and cut off with
    :class:`BodyTooLarge` once over the limit (multipart files are spooled to disk by the form
    parser). At most ``at_once`` bodies are received at a time; others wait ``wait`` seconds
    for their turn, then get 503. A body declared no larger than :data:`SMALL_BODY` (a form
    without files) takes no turn: judges recording are never held up behind uploads.
    ``inside``: the application answers a refusal itself (as a page of its own), given no
    body and the reason under :data:`REFUSED_BODY`."""

    def __init__(self, app: ASGIApp, limit: int, inside: bool = False, at_once: int = 4,
                 wait: float = 30.0) -> None:
        self.app = app
        self.limit = limit
        self.inside = inside
        self.wait = wait
        self.turns = asyncio.Semaphore(at_once)

    def too_large(self) -> str:
        return (f"The upload is larger than {self.limit >> 20} MiB, the most this server "
                "accepts. Split it into several uploads, or zip the deck files.")

    async def _refuse(self, scope: Scope, send: Send, text: str, status: int = 413) -> None:
        if not self.inside:
            await _answer(send, status, text)
            return

        async def nothing() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        await self.app({**scope, REFUSED_BODY: (status, text)}, nothing, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or len(declared) > 15
                                     or int(declared) > self.limit):
            await self._refuse(scope, send, self.too_large())
            return
        if declared is not None and int(declared) <= SMALL_BODY:  # a form, not an upload
            await self.app(scope, receive, send)
            return
        try:
            await asyncio.wait_for(self.turns.acquire(), self.wait)
        except TimeoutError:
            await self._refuse(scope, send, "The server is receiving other uploads; send "
                                            "this one again in a minute.", 503)
            return
        size = 0

        async def counted() -> Message:
            nonlocal size
            message = await receive()
            size += len(message.get("body", b""))
            if size > self.limit:
                raise BodyTooLarge(self.too_large())
            return message

        try:
            await self.app(scope, counted, send)
        finally:
            self.turns.release()


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


#: a Host header: a name or IPv4 address, or a bracketed IPv6 address, then an optional port
_HOST = re.compile(r"(?:\[([0-9a-f:.]{2,45})\]|([a-z0-9_.\-]{1,253}))(?::[0-9]{1,5})?")
_BARE_V6 = re.compile(r"[0-9a-f:.]{2,45}")


def host_name(value: str) -> str | None:
    """The host of a Host header written ``host[:port]`` or ``[v6][:port]`` (a bare IPv6
    address too), lower case; None for anything else (a path, a user, spaces)."""
    value = value.lower()
    if found := _HOST.fullmatch(value):
        return found.group(1) or found.group(2)
    if value.count(":") > 1 and _BARE_V6.fullmatch(value):
        with contextlib.suppress(ValueError):
            return str(ipaddress.IPv6Address(value))
    return None


class HostGuard:
    """Answer 400 to a Host header this server was not started for (DNS rebinding)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            host = host_name(headers.get(b"host", b"").decode("latin-1"))
            if host is None or host not in self.hosts:
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
    """Signed session ids, and sign-ins kept with the event. ``password`` is the
    organizer's (None: no sign-in at all, everyone is the organizer); ``judge_password``
    a shared one that signs in judges."""

    secret: bytes
    db: EventDB
    password: str | None
    judge_password: str | None = None
    #: staff codes hashed at once (each hash takes 16 MiB for a few hundredths of a second)
    hashing: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(2))

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

    def _key(self, who: SignIn) -> str:
        """What a session of this sign-in is tied to: its staff code, else the password it
        signed in with (another password at the next start signs it out)."""
        if who.staff is not None:
            return self._sign(f"code:{who.staff}")
        if who.role == "judge":
            return self._sign("judge-password:" + (self.judge_password or ""))
        return self._password_key()

    def who(self, sid: str) -> SignIn | None:
        """The staff sign-in of a session: None when it is not signed in, expired, signed
        in with a password or code no longer valid, or is no staff session at all."""
        if self.password is None:
            return LOCAL
        row = self.db.session(sid)
        if row is None or row.role not in STAFF_ROLES or row.expires_at <= time.time():
            return None
        if row.staff is None and row.role == "judge" and self.judge_password is None:
            return None
        return row if hmac.compare_digest(row.key, self._key(row)) else None

    def signed_in(self, sid: str) -> bool:
        return self.who(sid) is not None

    def sign_in(self, old_sid: str, who: SignIn | None = None) -> tuple[str, str]:
        """Open a signed-in session under a new id (the organizer's unless ``who`` says
        otherwise); the old one is dropped."""
        who = who or SignIn("", 0.0, "organizer")
        self.db.close_session(old_sid)
        sid, cookie = self.issue()
        self.db.open_session(sid, self._key(who), time.time() + SESSION_HOURS * 3600,
                             role=who.role, person=who.person, staff=who.staff)
        return sid, cookie

    def sign_out(self, sid: str) -> None:
        self.db.close_session(sid)

    def password_matches(self, given: str) -> bool:
        return self.password is not None and hmac.compare_digest(
            given.encode(), self.password.encode())

    def credential(self, given: str) -> SignIn | None:
        """Who a password or staff code signs in (the shared judge password: a judge not
        yet named); None when it is neither. A code is checked against its salted hash,
        which takes a few hundredths of a second."""
        if self.password_matches(given):
            return SignIn("", 0.0, "organizer")
        if self.password is not None and self.judge_password is not None and \
                hmac.compare_digest(given.encode(), self.judge_password.encode()):
            return SignIn("", 0.0, "judge")
        typed = "".join(given.split()).upper()[:64]
        found = _CODE.fullmatch(typed)
        if self.password is None or found is None:
            return None
        number = int(found.group(1))
        code = next((c for c in self.db.staff() if c.id == number and c.revoked_at is None),
                    None)
        if code is None:
            return None
        with self.hashing:
            made = _code_hash(found.group(2), bytes.fromhex(code.salt))
        if not hmac.compare_digest(made, code.hash):
            return None
        return SignIn("", 0.0, code.role, code.name, code.id)

    def issue_code(self, name: str, role: str, issued_by: str) -> str:
        """A new staff code for ``name`` in ``role``, returned once (kept as a salted hash
        only): ``7-ABCD-EFGH-JKMN-PQRS``."""
        if role not in STAFF_ROLES:
            raise ValueError(f"not a staff role: {role!r}")
        secret = "-".join("".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
                          for _ in range(CODE_GROUPS))
        salt = secrets.token_bytes(16)
        made = self.db.add_staff(name=name, role=role, salt=salt.hex(),
                                 hash=_code_hash(secret, salt), issued_by=issued_by)
        return f"{made}-{secret}"


@dataclass
class Throttle:
    """Wrong passwords per client address: the answer to each one waits longer than the one
    before (``step`` doubling up to ``most`` seconds), counting the failures of the last
    ``window`` seconds; at most ``at_once`` attempts from one address are heard at a time.
    Nothing locks an address out: the right password is let in at once."""

    step: float = 0.5
    most: float = 5.0
    window: float = 600.0
    at_once: int = 3
    failures: dict[str, list[float]] = field(default_factory=dict)
    trying: dict[str, int] = field(default_factory=dict)

    def _recent(self, client: str) -> list[float]:
        now = time.monotonic()
        recent = [t for t in self.failures.get(client, []) if now - t < self.window]
        if recent:
            self.failures[client] = recent
        else:
            self.failures.pop(client, None)
        return recent

    def delay(self, client: str) -> float:
        """The seconds the answer to the client's latest wrong password waits."""
        count = len(self._recent(client))
        return 0.0 if count == 0 else min(self.step * 2 ** min(count - 1, 30), self.most)

    @asynccontextmanager
    async def attempt(self, client: str) -> AsyncIterator[bool]:
        """One sign-in attempt from ``client``: False when too many are already being heard
        from it (the attempt is then refused, to be sent again in a few seconds)."""
        if self.trying.get(client, 0) >= self.at_once:
            yield False
            return
        self.trying[client] = self.trying.get(client, 0) + 1
        try:
            yield True
        finally:
            self.trying[client] -= 1
            if not self.trying[client]:
                del self.trying[client]

    async def failed(self, client: str) -> None:
        self.failures.setdefault(client, []).append(time.monotonic())
        await asyncio.sleep(self.delay(client))

    def succeeded(self, client: str) -> None:
        self.failures.pop(client, None)
