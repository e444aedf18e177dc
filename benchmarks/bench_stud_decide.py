"""`stud decide`: the issue's targets, the compiled play-out against the engine walk it replaces for
sampled hands, and the exact walk against the best response to the bots it replaced, in one run.

1. **Targets** (``--targets``): for 2, 3, 4, 5 and 8 players on each round, the hero's first decision
   of a hand dealt from a seeded deck (the bots playing, the hero calling), answered by
   `decide_hand` with its default budget of 5 s against the bots, warm: the method, the sample, the
   wall and CPU seconds, the largest standard error as a share of the pot, and whether the targets
   hold (every EV exact or its standard error within 1% of the pot, in 5 s; rounds 3-4 with up to 4
   players in 2 s). Beside each sampled answer, the same with one model of the player's later play
   (``later="bots"``, no pilot), as before the later play was chosen per action.
2. **Play-out** (``--kernel [rounds]``): the same sampled hands (5 and 8 players, round 1) played out
   by the compiled kernel and by the walk on the real engine that it replaces (equal payoffs,
   tested): 1,000 hands, the ratio. Then the kernel and `decide_hand` with a fixed sample (the three
   sampled-hands targets the kernel once missed) beside the tree before the kernel's rework (commit
   2c4aa30, a ``git archive`` in /tmp/decide-2c4aa30), each side in its own process, sides
   alternating; the payoffs and EVs must be identical.
3. **Exact walk** (``--exact [rounds]``): heads-up rounds 3 and 4 and three players on the last round,
   `decide_hand` against the best response to the bots it replaced (commit 33f7c89, a ``git archive``
   in /tmp/decide-33f7c89), each side in its own process, sides alternating (:mod:`tree_comparison`);
   the EVs must be identical.

CPU seconds and the load average are printed beside wall seconds: the machine is shared.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import time
from pathlib import Path

from common import baseline_tree, ratio, report
from tree_comparison import check_tree, compare, time_cases

OLD_COMMIT = "33f7c89"
OLD_TREE = Path(f"/tmp/decide-{OLD_COMMIT}")
KERNEL_COMMIT = "2c4aa30"  # the play-out kernel before its state went from twenty arrays to two
KERNEL_TREE = Path(f"/tmp/decide-{KERNEL_COMMIT}")
PLAY_OUT_CASES = {"play-out, 5 players round 1, 1,000 hands, 1 thread": 5,
                  "play-out, 8 players round 1, 1,000 hands, 1 thread": 8}
DECIDE_SAMPLES = 40_000
DECIDE_CASES = {f"decide, 4 players round 1, {DECIDE_SAMPLES:,} hands": (4, 0),
                f"decide, 5 players round 1, {DECIDE_SAMPLES:,} hands": (5, 0),
                f"decide, 4 players round 3, {DECIDE_SAMPLES:,} hands": (4, 2)}
EXACT_CASES = ("heads-up round 3 (seed 21)", "heads-up round 3 (seed 31)", "heads-up round 4 (seed 42)",
               "three players round 4 (seed 71)")
EXACT_SPECS = {EXACT_CASES[0]: (2, 1, 2, 20), EXACT_CASES[1]: (2, 0, 2, 30), EXACT_CASES[2]: (2, 0, 3, 40),
               EXACT_CASES[3]: (3, 0, 3, 70)}


def played_to(seed: int, *, players: int, hero: int, round_index: int):  # type: ignore[no-untyped-def]
    """A hand from a seeded deck, the bots playing and the hero checking or calling, at the hero's first
    decision on ``round_index`` (None if the hand never gets there)."""
    from exactodds.stud.bots.policy import bot_action
    from exactodds.stud.engine.actions import Action
    from exactodds.stud.engine.state import Phase, StudHand

    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = StudHand(stacks=(30,) * players)
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
            continue
        legal = hand.legal()
        if hand.actor == hero:
            if hand.round_index == round_index:
                return hand
            kind = "pb" if legal.bring_in is not None else "cc"
            hand.act(Action(player=hero, kind=kind))
        else:
            hand.act(bot_action(hand, legal))
    return None


def first_decision(players: int, round_index: int, seed: int):  # type: ignore[no-untyped-def]
    hand = None
    while hand is None:
        seed += 1
        hand = played_to(seed, players=players, hero=0, round_index=round_index)
    return hand


def targets() -> None:
    from exactodds.stud.decide.api import decide_hand

    decide_hand(first_decision(5, 0, 1), samples=50)  # loads the kernels and tables untimed
    print(f"targets: decide_hand, budget 5 s, against the bots; load {os.getloadavg()[0]:.1f}")
    for players in (2, 3, 4, 5, 8):
        for round_index in range(4):
            hand = first_decision(players, round_index, 100 * players + 10 * round_index)
            wall, cpu = time.perf_counter(), time.process_time()
            d = decide_hand(hand)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            worst = max((a.standard_error or 0.0) for a in d.actions) / d.pot
            limit = 2.0 if round_index >= 2 and players <= 4 else 5.0
            held = (d.exact or worst <= 0.01) and wall <= limit
            sample = ("exact" if d.exact else
                      f"{d.method.value}, {d.samples:,} samples, SE {100 * worst:.2f}% of pot")
            report(f"{players} players, round {round_index + 1}: {sample}, cpu {cpu:.1f} s, "
                   f"{'meets' if held else 'misses'} <= {limit:g} s", wall)
            if not d.exact:  # beside it: one model of the later play (no pilot), as before the choice
                one = time.perf_counter()
                single = decide_hand(hand, later="bots")
                one = time.perf_counter() - one
                worst = max((a.standard_error or 0.0) for a in single.actions) / single.pot
                report(f"  later play bots only: {single.samples:,} samples, SE {100 * worst:.2f}% of pot",
                       one)


def _kernel_worlds(players: int):  # type: ignore[no-untyped-def]
    """1,000 sampled hands of the first decision of a seeded hand of ``players`` on round 1."""
    import numpy as np

    from exactodds.stud.decide.belief import weigh_holes
    from exactodds.stud.decide.hands import UNIFORMS
    from exactodds.stud.decide.models import load_model

    try:
        from exactodds.stud.decide.worlds import draw_runs
    except ImportError:  # a tree before the draws had their module (the worker's baseline side)
        draw_runs = importlib.import_module("exactodds.stud.decide.api")._runs

    bots = load_model("bots")
    hand = first_decision(players, 0, 3)
    models = {q: bots for q in range(1, players)}
    belief = weigh_holes(hand, 0, models=models)
    rng = np.random.default_rng(1)
    count = 1000
    states = belief.sample(count, rng)
    cards = draw_runs(rng, np.array(belief.unseen), count, hand, states)
    holes = np.zeros((count, players), dtype=np.int64)
    for j, q in enumerate(belief.others):
        holes[:, q] = states[:, j]
    holes[:, 0] = hand.down[0]
    worlds = {"holes": holes, "cards": cards, "uniforms": rng.random((count, UNIFORMS)), "models": models,
              "later": bots}
    return hand, belief, states, worlds


def kernel() -> None:
    import numpy as np

    from exactodds.stud.decide.deals import PreDrawn
    from exactodds.stud.decide.hands import play_out
    from exactodds.stud.decide.walk import RootCells, Walk

    for players in (5, 8):
        hand, belief, states, worlds = _kernel_worlds(players)
        play_out(hand, 0, **worlds)
        start = time.perf_counter()
        walk = Walk(hand, 0, others=belief.others, states=states, models=worlds["models"],
                    later=worlds["later"], best_from_round=4,
                    dealing=PreDrawn(cards=worlds["cards"], first_round=1),
                    cells=RootCells.of_states(np.ones(len(states))))
        walk.action_values()
        engine = time.perf_counter() - start
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            play_out(hand, 0, **worlds, threads=1)
            best = min(best, time.perf_counter() - start)
        report(f"{players} players round 1, 1,000 sampled hands, engine walk", engine)
        report(f"{players} players round 1, 1,000 sampled hands, compiled play-out (1 thread)", best)
        ratio(f"{players} players round 1, compiled play-out", best, engine, "engine walk")


def kernel_worker(tree: str) -> None:
    """One side of the play-out comparison, in this process (the exactodds of ``tree``)."""
    import hashlib

    from exactodds.stud.decide.api import decide_hand
    from exactodds.stud.decide.hands import play_out

    check_tree(tree)
    cases = {}
    for name, players in PLAY_OUT_CASES.items():
        hand, _, _, worlds = _kernel_worlds(players)

        def play(hand=hand, worlds=worlds) -> str:  # type: ignore[no-untyped-def]
            actions, out = play_out(hand, 0, **worlds, threads=1)
            return " ".join(a.text() for a in actions) + " " + hashlib.sha256(out.tobytes()).hexdigest()[:16]
        cases[name] = play
    for name, (players, round_index) in DECIDE_CASES.items():
        hand = first_decision(players, round_index, 100 * players + 10 * round_index)

        def decide(hand=hand) -> str:  # type: ignore[no-untyped-def]
            d = decide_hand(hand, samples=DECIDE_SAMPLES, later="bots")  # one later model, as before
            return json.dumps({a.action.text(): [str(a.ev), a.standard_error] for a in d.actions})
        cases[name] = decide
    time_cases(cases, {name: 5 if name in PLAY_OUT_CASES else 2 for name in cases})


def exact_worker(tree: str) -> None:
    """One side of the exact-walk comparison, in this process (the exactodds of ``tree``)."""
    check_tree(tree)
    cases = {}
    for name, (players, hero, round_index, seed) in EXACT_SPECS.items():
        hand = None
        while hand is None:
            seed += 1
            hand = played_to(seed, players=players, hero=hero, round_index=round_index)
        cases[name] = _exact_case(hand, hero)
    time_cases(cases, dict.fromkeys(cases, 3))


def _exact_case(hand, hero):  # type: ignore[no-untyped-def]
    try:
        from exactodds.stud.decide.api import decide_hand
    except ImportError:  # the tree before: the best response to the bots (a module this tree no longer has)
        bot_response = importlib.import_module("exactodds.stud.bots.response").bot_response

        def old() -> str:
            r = bot_response(hand, player=hero, budget=1000)
            return json.dumps({a.action.text(): str(a.ev) for a in r.actions})
        return old

    def new() -> str:
        d = decide_hand(hand, player=hero, opponents="bots", budget=1000)
        return json.dumps({a.action.text(): str(a.ev) for a in d.actions})
    return new


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--worker":
        if args[2:] == ["kernel"]:
            kernel_worker(args[1])
        else:
            exact_worker(args[1])
        return
    chosen = {a for a in args if a.startswith("--")} or {"--targets", "--kernel", "--exact"}
    if "--targets" in chosen:
        targets()
    if "--kernel" in chosen:
        kernel()
        rounds = next((int(a) for a in args if a.isdigit()), 3)
        before = KERNEL_TREE / f"tree-{KERNEL_COMMIT}"
        if not before.exists():
            KERNEL_TREE.mkdir(parents=True, exist_ok=True)
            before = baseline_tree(KERNEL_TREE, KERNEL_COMMIT)
        compare(__file__, old_commit=KERNEL_COMMIT, old_tree=before, names=[*PLAY_OUT_CASES, *DECIDE_CASES],
                rounds=rounds, worker_args=["kernel"])
    if "--exact" in chosen:
        rounds = next((int(a) for a in args if a.isdigit()), 3)
        old_tree = OLD_TREE / f"tree-{OLD_COMMIT}"
        if not old_tree.exists():
            OLD_TREE.mkdir(parents=True, exist_ok=True)
            old_tree = baseline_tree(OLD_TREE, OLD_COMMIT)
        compare(__file__, old_commit=OLD_COMMIT, old_tree=old_tree, names=list(EXACT_CASES), rounds=rounds)


if __name__ == "__main__":
    main()
