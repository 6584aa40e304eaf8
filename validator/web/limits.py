"""How much the registration page takes: submissions per KONAMI ID and requests per client
address, each within a sliding time window.

A venue's players share one address, so the address limit is generous; the limit per
KONAMI ID is counted from the submissions the event keeps (refused ones are not kept), so it
holds across restarts.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field

__all__ = ["PlayerLimits", "Window"]


@dataclass(frozen=True)
class PlayerLimits:
    """Submissions per KONAMI ID per ``id_seconds``, requests per client address per
    ``address_seconds`` on the player pages (``/r/``)."""

    submissions: int = 10
    id_seconds: float = 600.0
    requests: int = 300
    address_seconds: float = 60.0


@dataclass
class Window:
    """At most ``most`` events per key within the last ``seconds`` (a sliding window)."""

    most: int
    seconds: float
    _seen: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, key: str) -> bool:
        """Count one event for ``key``: False (not counted) when it would pass the limit."""
        now = time.monotonic()
        with self._lock:
            if len(self._seen) > 10_000:  # forget the keys gone quiet
                self._seen = {k: q for k, q in self._seen.items()
                              if q and now - q[-1] < self.seconds}
            seen = self._seen.setdefault(key, deque())
            while seen and now - seen[0] >= self.seconds:
                seen.popleft()
            if len(seen) >= self.most:
                return False
            seen.append(now)
            return True
