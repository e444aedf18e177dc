"""The stud host's bots and coach since they are ``stud decide``'s.

* A bot's action: the host's bot (``bot_choice``: the ``bots`` model read by ``stud decide``'s policy)
  against the policy it replaced (``exactodds.stud.bots.policy.bot_action``), on the same random
  decisions of 2 to 8 players, every action checked to agree. It runs under the game's lock, on the
  server's clock.
* The coach's answer at a person's decision (``coach_words``: ``stud decide``'s coach, off the
  request path) against what the page showed before, the showdown equity alone against random hole
  cards (``stud_equity`` on the same view), by table size and round.

The machine's load average is printed beside the figures (it is shared by several developers).
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import ratio, report  # noqa: E402

from exactodds.stud.bots.policy import bot_action  # noqa: E402
from exactodds.stud.decide.coach import EQUITY_BUDGET, EQUITY_SAMPLES, seen_position  # noqa: E402
from exactodds.stud.engine.actions import Action, ActionKind  # noqa: E402
from exactodds.stud.engine.state import Phase, StudHand  # noqa: E402
from exactodds.stud.equity import stud_equity  # noqa: E402
from exactodds.stud.host.bots import BotModels, bot_choice  # noqa: E402
from exactodds.stud.host.coach import CoachJob, coach_words  # noqa: E402
from exactodds.stud.host.config import GameConfig  # noqa: E402
from exactodds.stud.host.game import HostGame  # noqa: E402

MODELS = BotModels.of()


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def decisions(count: int, rng: random.Random) -> list[StudHand]:
    """``count`` random decisions: a deal of 2 to 8 players, random legal actions up to a random point."""
    out: list[StudHand] = []
    while len(out) < count:
        n = rng.randint(2, 8)
        hand = StudHand(stacks=(40,) * n)
        deck = list(range(52))
        rng.shuffle(deck)
        stop = rng.randint(0, 12)
        for _ in range(stop):
            if hand.phase is Phase.DEAL:
                hand.deal_from(deck)
            if hand.phase is not Phase.BET:
                break
            hand.act(rng.choice(hand.legal().actions()))
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
        if hand.phase is Phase.BET:
            out.append(hand)
    return out


def bots_section() -> None:
    hands = decisions(2000, random.Random(7))
    model = MODELS.model("bots")
    ours = [bot_choice(model, h) for h in hands]
    before = [bot_action(h, h.legal()) for h in hands]
    agree = sum(a == b for a, b in zip(ours, before, strict=True))
    start = time.perf_counter()
    for h in hands:
        bot_choice(model, h)
    mine = (time.perf_counter() - start) / len(hands)
    start = time.perf_counter()
    for h in hands:
        bot_action(h, h.legal())
    old = (time.perf_counter() - start) / len(hands)
    print(f"{len(hands):,} decisions of 2 to 8 players; the two agree on {agree:,}; {load()}")
    report("host bot action (bots model, stud decide's policy)", mine)
    report("  before: stud.bots.policy.bot_action", old)
    ratio("host bot action", mine, old, "bot_action (before)")


def turn_on(players: int, round_index: int) -> tuple[HostGame, int]:
    """A game of ``players`` seats (Ann a person calling everything, the rest bots playing ``bots`` or
    ``calling-station``) at Ann's first decision on the rules' round ``round_index + 1`` or later."""
    seats = [{"name": "Ann"}] + [{"name": f"Bot{k}", "bot": ("bots", "calling-station")[k % 2]}
                                 for k in range(1, players)]
    setup = {"seats": seats, "stack": 40, "hands": 1, "bot_seconds": 0}
    while True:
        game = HostGame.new(GameConfig.from_dict(setup), now=0.0)
        game.start(now=0.0)
        now = 0.0
        while game.table is not None:
            now += 1.0
            if game.actor_seat() != 1:
                game.tick(now=now, models=MODELS)
                continue
            if game.table.hand.round_index >= round_index:
                return game, game.table.seats.index(1)
            legal = game.table.hand.legal()
            kind = ActionKind.BRING_IN if legal.bring_in is not None else ActionKind.CHECK_CALL
            game.act(1, Action(player=0, kind=kind), turn=len(game.actions), now=now)


def coach_section() -> None:
    warm, _ = turn_on(2, 0)  # the first answer loads the compiled kernels: not counted
    assert warm.table is not None
    coach_words(CoachJob.at(game=warm.id, turn=0, seat=1, table=warm.table,
                            seats=[s.config for s in warm.seats], models=MODELS))
    for players, round_index in ((2, 0), (3, 0), (5, 0), (8, 0), (2, 2), (3, 2), (4, 3), (5, 1)):
        game, me = turn_on(players, round_index)
        table = game.table
        assert table is not None
        job = CoachJob.at(game=game.id, turn=len(game.actions), seat=1, table=table,
                          seats=[s.config for s in game.seats], models=MODELS)
        start = time.perf_counter()
        note = coach_words(job)
        coach = time.perf_counter() - start
        position, _ = seen_position(table.hand, me)
        start = time.perf_counter()
        stud_equity(position, budget=EQUITY_BUDGET, samples=EQUITY_SAMPLES, seed=1)
        equity = time.perf_counter() - start
        how = "exact" if note.exact else f"{note.samples:,} sampled deals"
        where = f"{players} players, round {table.hand.round_index + 1}"
        print(f"{where} ({len(table.hand.in_hand)} in): coach {how}; {load()}")
        report(f"host coach, {where}", coach)
        report("  before: the showdown equity alone", equity)
        ratio(f"host coach, {where}", coach, equity, "showdown equity alone (before)")


def main() -> None:
    print(f"before: {load()}")
    bots_section()
    coach_section()
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
