"""The web app's routers: sign-in, the event, players, judges' deck checks, the penalty log,
rounds (pairings, deck-check draws), the staff, the players' registration page."""

from __future__ import annotations

from validator.web.routes import auth, event, judge, log, players, register, rounds, staff

__all__ = ["ROUTERS"]

ROUTERS = (auth.router, event.router, players.router, judge.router, log.router,
           rounds.router, staff.router, register.router, register.staff_router)
