"""A real `deckcheck serve` process on a free loopback port, for browser and crash tests."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

EXE = Path(sys.executable).with_name("deckcheck")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, db: Path, env: dict[str, str] | None = None) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [str(EXE), "serve", "--db", str(db), "--port", str(self.port), "--cards", "demo"],
            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/static/style.css", timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stdout.read().decode()  # type: ignore[union-attr]
                                       ) from None
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start within 30 s")

    def kill(self) -> None:
        """As a crash or a power cut would: no shutdown, no flush."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *args: object) -> None:
        self.kill()


def session(server: Server) -> tuple[str, str]:
    """A new visitor of ``server``: their session cookie and the page's CSRF token."""
    with urllib.request.urlopen(server.url + "/") as response:
        cookie = response.headers["set-cookie"].split(";")[0]
        token = re.search(r'name="csrf" value="([^"]+)"', response.read().decode())
    assert token
    return cookie, token.group(1)
