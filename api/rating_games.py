"""Rating a finished rated game (the lobby starts a game rated, api/lobby.py; its first event says so): both players' Glicko-2
ratings (ratings/glicko2.py) under the game's rule set, on its battle, and on its battle as the side
each played (against the other's rating as his side), with the battle's measured
balance as the Union's advantage (accounts/ratings.py `Balance`): a win the battle's sides make
likely moves a rating less than an upset does.

The process that appended the game's last event rates it, off the game's path; `Seats.claim_rating`
makes it happen once whatever races. Not rated: a game whose two seats are not two accounts.
"""

from __future__ import annotations

import asyncio
import logging

from accounts.ratings import Rated, Ratings
from api.seats import Seats
from ratings.glicko2 import advantage_from_win_rate, update
from session.history import History

log = logging.getLogger(__name__)


class Rater:
    def __init__(self, seats: Seats, ratings: Ratings) -> None:
        self.seats = seats
        self.ratings = ratings
        self._tasks: set[asyncio.Task] = set()

    def after_action(self, game_id: str, history: History, seat: str, first: int, last: int) -> None:
        """A LiveGames listener: a finished game is rated (if it is rated) in a task of its own."""
        if history.finished is None:
            return
        task = asyncio.create_task(self._rate(game_id, history))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _rate(self, game_id: str, history: History) -> None:
        try:
            await self.rate(game_id, history)
        except Exception:  # noqa: BLE001 - a rating never fails a game
            log.exception("rating game %s failed", game_id)

    async def rate(self, game_id: str, history: History) -> bool:
        """Rate the finished game `history` once; whether it was rated now."""
        if history.finished.reason == "aborted":  # an admin's abort (api/moderation.py): no result
            return False
        if not history.session.created.rated or not await self.seats.claim_rating(game_id):
            return False
        held = await self.seats.accounts(game_id)
        union, confederate = held.get("union"), held.get("confederate")
        if union is None or confederate is None or union == confederate:
            return False
        created, winner = history.session.created, history.finished.winner
        ruleset, scenario = created.ruleset, created.scenario
        union_score = 0.5 if winner is None else 1.0 if winner == "union" else 0.0
        balance = await self.ratings.balance(ruleset, scenario)  # of the games before this one
        advantage = advantage_from_win_rate(balance.union_win_rate())
        battle = f"{ruleset}:{scenario}"
        for as_union, as_confederate in ((ruleset, ruleset), (battle, battle), (f"{battle}:union", f"{battle}:confederate")):
            u, c = await self.ratings.get(union, as_union), await self.ratings.get(confederate, as_confederate)
            new_u = update(u.glicko(), [(c.glicko(), union_score, advantage)])
            new_c = update(c.glicko(), [(u.glicko(), 1 - union_score, -advantage)])
            for account, which, old, new in ((union, as_union, u, new_u), (confederate, as_confederate, c, new_c)):
                rated = Rated(rating=new.rating, deviation=new.deviation, volatility=new.volatility, games=old.games + 1)
                await self.ratings.put(account, which, rated, ruleset, scenario)
        await self.ratings.count_result(ruleset, scenario, winner)
        log.info("rated game %s (%s, %s): winner %s", game_id, ruleset, scenario, winner or "none")
        return True
