"""The progress protocol: every long operation's stages report all the steps they announce."""

from fractions import Fraction

import pytest

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.holecard.sample import sample_known
from exactodds.caribbean.strategy.strategies import BUILT_IN, evaluate_strategies
from exactodds.caribbean.studies.collusion import collusion
from exactodds.caribbean.studies.session import NetDistribution
from exactodds.caribbean.studies.simulate import simulate
from exactodds.cli.progress import TerminalProgress
from exactodds.progress import NO_PROGRESS, Progress, RecordingProgress, staged
from exactodds.stud.equity import parse_position, stud_equity


def complete(log: RecordingProgress) -> list[tuple[str, int | None, int]]:
    """The stages, each checked to have reported exactly the steps it announced, and to have ended."""
    stages = log.stages()
    assert stages, "no stage was reported"
    for label, steps, done in stages:
        assert steps is None or done == steps, f"{label}: {done} of {steps} steps"
    assert log.events.count(("end",)) == len(stages)
    return stages


def test_protocol_objects():
    assert isinstance(NO_PROGRESS, Progress) and isinstance(RecordingProgress(), Progress)
    assert isinstance(TerminalProgress(), Progress)


def test_staged_ends_the_stage_even_on_error():
    log = RecordingProgress()
    with pytest.raises(ValueError), staged(log, "x", steps=3) as stage:
        stage.step()
        raise ValueError
    assert log.events == [("stage", "x", 3), ("step", 1), ("end",)]


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


def test_simulation_and_collusion_reach_their_end(outcomes):
    log = RecordingProgress()
    simulate(outcomes, BUILT_IN["optimal"], hands=70_000, seed=3, progress=log)
    assert complete(log) == [("dealing", 70_000, 70_000)]
    log = RecordingProgress()
    collusion(outcomes, players=2, samples=3, seed=1, progress=log)
    assert complete(log) == [("sampling table deals", 3, 3)]


def test_strategies_report_a_stage_per_user_strategy(outcomes, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def raise_hand(hand, up):\n    return True\n")
    from exactodds.caribbean.strategy.strategies import load_strategy

    log = RecordingProgress()
    evaluate_strategies(outcomes, [*BUILT_IN.values(), load_strategy(str(path))], progress=log)
    stages = complete(log)
    assert stages[0] == ("evaluating built-in strategies", len(BUILT_IN), len(BUILT_IN))
    assert stages[1] == ("evaluating strategy mine.py", None, 0)  # unknown length: a spinner


def test_session_convolution_and_sampling():
    log = RecordingProgress()
    NetDistribution.from_counts({Fraction(-1): 1, Fraction(1): 1}).convolve_power(7, progress=log)
    assert complete(log) == [("convolving 7 hands", 6, 6)]
    log = RecordingProgress()
    sample_known("standard", dealer_known=2, samples=150, seed=1, progress=log)
    assert complete(log) == [("sampling 150 situations, 2 dealer cards seen", 150, 150)]


@pytest.mark.parametrize(("players", "samples"), [
    (["Kh | 9c", "Qc | Qh", "? | 7d"], 0),              # enumeration or pairwise
    (["Kh | 9c", "Qc | Qh", "? | 7d", "? | 2s"], 5_000),  # sampled when over a small budget
])
def test_stud_equity_reaches_its_end(players, samples):
    log = RecordingProgress()
    position = parse_position(players)
    if samples:
        stud_equity(position, budget=1, samples=samples, seed=1, progress=log)
    else:
        stud_equity(position, progress=log)
    complete(log)


def test_terminal_progress_bars_reach_100_percent(monkeypatch, capsys):
    """The drawn bar itself ends at 100 % (click renders it on the captured stderr)."""
    import click._termui_impl as impl

    monkeypatch.setattr(impl.ProgressBar, "is_hidden", False, raising=False)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    progress = TerminalProgress(delay=0)
    progress.stage("work", steps=4)
    for _ in range(4):
        progress.step()
    progress.end()
    err = capsys.readouterr().err
    assert "work" in err and "100%" in err
