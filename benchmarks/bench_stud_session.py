"""Replaying a whole five-card stud session file against replaying its hands one by one.

The session replay checks every hand under the rules plus the carry-over of stacks, the deal
and the rebuys; the baseline replays the same hands as independent hand histories. The ratio
is the cost of the session checks (and of reading one file instead of many).
"""

from __future__ import annotations

from common import best_time, report

from exactodds.stud.bots.policy import bot_action
from exactodds.stud.history.phh import parse_phh, replay
from exactodds.stud.history.session import StudSession
from exactodds.stud.history.session_phh import dumps_hand, dumps_session, parse_session, replay_session


def main() -> None:
    session = StudSession(players=[f"player {k}" for k in range(1, 7)], reserve=500, hands=300, seed=1)
    while not session.over:
        session.play_hand(bot_action)
    text = dumps_session(session)
    hands = [dumps_hand(t, session.names) for t in session.finished]
    n = len(session.finished)
    assert replay_session(parse_session(text)).result == session.result()

    def one_by_one() -> None:
        for body in hands:
            replay(parse_phh(body))

    t_hands = best_time(one_by_one)
    t_session = best_time(lambda: replay_session(parse_session(text)))
    report(f"session replay, {n} hands of 6 players", t_session, n, "hands")
    report(f"baseline: the same {n} hands replayed one by one", t_hands, n, "hands")
    print(f"session / one-by-one: {t_session / t_hands:.2f}x")


if __name__ == "__main__":
    main()
