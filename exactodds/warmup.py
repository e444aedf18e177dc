"""Compile every kernel family once, ahead of use: :func:`warm_up` (``exactodds warm-up``).

numba compiles each kernel on its first call and keeps the machine code in its on-disk cache, so
the first run of each command pays its family's compile wait once. :func:`warm_up` runs one small
exact computation per family (tiny positions, a reduced count), which compiles and caches them
all; later runs of every command start at once. Each family is one step of the stage
``compiling the counting kernels`` on ``progress``.
"""

from __future__ import annotations

from collections.abc import Callable

from exactodds.progress import Progress, staged


def _rank_table() -> None:
    from exactodds.handrank import rank_table

    rank_table()


def _stud_two_and_last() -> None:
    from exactodds.stud.equity.methods import stud_equity

    stud_equity(["Kh | 9c 4d", "? | Qh 4c"])
    stud_equity(["Kh | 9c 4d 5s 6h", "? | Qh 4c 7d 8d", "? | 2c 3c Jh Td"])


def _stud_three_way() -> None:
    from exactodds.stud.equity.methods import rank_profile_equity
    from exactodds.stud.equity.position import parse_position

    rank_profile_equity(parse_position(["Kh | 9c 4d Ks", "? | Qh Js 7d", "? | 2c 3c 4c"]))


def _stud_enumeration() -> None:
    from exactodds.stud.equity.methods import enumeration_equity, pairwise_equity
    from exactodds.stud.equity.position import parse_position

    position = parse_position(["Kh | 9c 4d Ks", "? | Qh Js 7d", "? | 2c 3c 4h", "? | 5d 6s 8h"])
    enumeration_equity(position)
    pairwise_equity(position)


def _stud_four_way() -> None:
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.rank_profile.fourway import fourway_counts, fourway_supported

    position = parse_position(["Kh | 9c 4d Ks", "? | Qh Js 7d", "? | 2c 3c 4h", "? | 5d 6s 8h"])
    if fourway_supported(position):
        fourway_counts(position)


def _stud_sampling() -> None:
    from exactodds.stud.equity.controls import control_variate_equity
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.sampling import sampled_equity

    position = parse_position(["Kh | 9c 4d", "? | Qh 4c", "? | 2c 7d", "? | 3c 8h", "? | Js 5s"])
    sampled_equity(position, samples=2_000, seed=1)
    control_variate_equity(position, samples=2_000, seed=1)


def _caribbean_decide_and_sidebets() -> None:
    from exactodds.caribbean.decision.decide import decide
    from exactodds.caribbean.holecard.exact import seen_set_situations
    from exactodds.caribbean.sidebets.odds import sidebet_odds

    decide("Qh Qs 9d 6c 2h", up="Jh")
    seen_set_situations([0, 5])
    sidebet_odds("bonus-5plus1-example")


def _caribbean_whole_game() -> None:
    from exactodds.caribbean.analysis.game import counts_for
    from exactodds.caribbean.profile import QUALIFIERS

    counts_for(QUALIFIERS["ak"])


FAMILIES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("hand-rank table", _rank_table),
    ("heads-up and last-street stud equity", _stud_two_and_last),
    ("three-way stud equity", _stud_three_way),
    ("four-way stud equity", _stud_four_way),
    ("stud enumeration and pairwise counting", _stud_enumeration),
    ("sampled stud equity", _stud_sampling),
    ("Caribbean decision, hole-carding and side bets", _caribbean_decide_and_sidebets),
    ("Caribbean whole-game count", _caribbean_whole_game),
)


def warm_up(*, progress: Progress | None = None, on_family: Callable[[str], None] | None = None) -> list[str]:
    """Compile (or load from numba's cache) every kernel family; returns the families' names in
    the order done. ``on_family(name)`` is called as each family begins."""
    done = []
    with staged(progress, "compiling the counting kernels", steps=len(FAMILIES)) as stage:
        for name, run in FAMILIES:
            if on_family is not None:
                on_family(name)
            run()
            done.append(name)
            stage.step()
    return done
