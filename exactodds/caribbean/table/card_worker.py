"""The table's strategy cards, found by a background worker (:class:`~exactodds.web.worker.KeyedWorker`).

The pocket strategy card of a paytable is a search over rule lists (seconds to a minute the first
time, on every core): a request never waits for it. One worker finds the cards, one paytable at a
time, each queued once however many sessions ask for it. The search's lists are kept on disk by the
library (the cache folder), so a restarted server finds a card again in seconds. The search and the
whole-game count under it (numba, scipy: about 140 MB) are imported when a card is first asked for,
so a server that never shows one never loads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exactodds.caribbean.profile import Profile
from exactodds.web.worker import DEFAULT_LIMIT, KeyedWorker

if TYPE_CHECKING:
    from exactodds.caribbean.strategy.card.result import CardResult


def start_card_worker(*, limit: int = DEFAULT_LIMIT,
                      rules: int | None = None) -> KeyedWorker[Profile, CardResult]:
    """The worker finding the strategy card (``rules`` rules at most; default: the ``caribbean card``
    command's) of each paytable asked for. A failed search is kept and said to every later request:
    it is not searched again."""

    def find(profile: Profile) -> CardResult:
        from exactodds.caribbean.strategy.card.result import DEFAULT_RULES, strategy_card

        return strategy_card(profile, DEFAULT_RULES if rules is None else rules)

    return KeyedWorker(find, name="card", limit=limit,
                       failure_text=lambda p: f"the strategy card of {p.name} could not be found")
