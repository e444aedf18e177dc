"""Studies: exact session odds, the progressive side bet, and their command-line errors."""

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import analyze
from exactodds.caribbean.analysis.result import TOTAL_DEALS
from exactodds.caribbean.published.figures import check_figures, load_figures
from exactodds.caribbean.sidebets.odds import sidebet_odds
from exactodds.caribbean.sidebets.profile import DEFAULT_PROGRESSIVE, SideBetError, load_sidebet, parse_pays
from exactodds.caribbean.studies.session import (
    NetDistribution,
    SessionError,
    hand_distribution,
    session_distribution,
)
from exactodds.cli.main import cli


def analyze_strategy(optimal, name):
    """The whole-game result of a built-in strategy under the optimal result's paytable (full count)."""
    from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
    from exactodds.caribbean.strategy.strategies import load_strategy

    outcomes = situation_outcomes(optimal.profile)
    strategy = load_strategy(name)
    return evaluate_strategy(outcomes, strategy.raise_mask(outcomes), name=name)


@pytest.fixture(scope="module")
def optimal():
    return analyze("standard")


@pytest.fixture(scope="module")
def session(optimal):
    return session_distribution(optimal, hands=20)


def _one_hand_moments(result):
    mean = sum((r.net_units * r.probability for r in result.rows), Fraction(0))
    second = sum((r.net_units**2 * r.probability for r in result.rows), Fraction(0))
    return mean, second - mean**2


# --------------------------------------------------------------------------- session
def test_session_sums_to_one_with_exact_mean_and_variance(optimal, session):
    d = session.session
    assert d.total == TOTAL_DEALS**20
    assert sum(p for _, p in d.pmf()) == 1
    assert d.p_ahead + d.p_even + d.p_behind == 1
    mean, variance = _one_hand_moments(optimal)
    assert mean == optimal.total_return == Fraction(-1_041_372_912_372, TOTAL_DEALS)
    assert d.mean == 20 * mean
    assert d.variance == 20 * variance


def test_session_figures_standard_optimal(session):
    d = session.session
    assert round(float(d.p_ahead), 9) == 0.394565551
    assert round(float(d.p_even), 9) == 0.080544205
    assert round(float(d.p_behind), 9) == 0.524890244
    assert dict(session.quantiles) == {Fraction(1, 100): -22, Fraction(5, 100): -16, Fraction(25, 100): -8,
                                      Fraction(50, 100): -2, Fraction(75, 100): 6, Fraction(95, 100): 16,
                                      Fraction(99, 100): 24}


def test_session_of_one_hand_is_the_return_table(optimal):
    d = session_distribution(optimal, hands=1).session
    assert d.p_even == Fraction(optimal.row("push").combinations, TOTAL_DEALS)
    folds_and_losses = optimal.row("fold").combinations + optimal.row("dealer_wins").combinations
    assert d.p_behind == Fraction(folds_and_losses, TOTAL_DEALS)


def test_two_hands_by_hand_and_fractional_nets():
    one = NetDistribution.from_counts({Fraction(-1): 3, Fraction(5, 2): 1})
    two = one.convolve_power(2)
    assert two.pmf() == [(Fraction(-2), Fraction(9, 16)), (Fraction(3, 2), Fraction(6, 16)),
                         (Fraction(5), Fraction(1, 16))]
    assert two.p_ahead == Fraction(7, 16) and two.p_even == 0
    assert two.quantile(Fraction(9, 16)) == -2 and two.quantile(Fraction(10, 16)) == Fraction(3, 2)
    assert two.variance == 2 * one.variance


def test_hand_distribution_merges_equal_nets(optimal):
    d = hand_distribution(optimal)
    win_3 = optimal.row("win_pair").combinations + optimal.row("win_ak_high").combinations
    assert Fraction(win_3, TOTAL_DEALS) in {p for v, p in d.pmf() if v == 3}


def test_session_bad_hands(optimal):
    for hands in (0, -3, 101):
        with pytest.raises(SessionError, match="1 to 100 hands"):
            session_distribution(optimal, hands=hands)


# --------------------------------------------------------------------------- progressive
def _progressive(meter, pays=""):
    """The fixed-pay progressive side bet, its fixed pays changed by ``--pays`` text."""
    return sidebet_odds(load_sidebet(DEFAULT_PROGRESSIVE).with_fixed_pays(parse_pays(pays)), meter=meter)


def test_progressive_published_break_even_meters():
    assert round(_progressive(meter=0).break_even_meter) == 263_205
    assert _progressive(meter=0).break_even_meter == Fraction(5_000_900, 19)
    high = _progressive(meter=0, pays="quads=150,full_house=100,flush=50")
    assert round(high.break_even_meter) == 246_784
    at_break_even = sidebet_odds(high.profile, meter=high.break_even_meter)
    assert at_break_even.expected_return == 0


def test_progressive_return_by_hand():
    # $200,000 meter, pays 100/75/50: royal 4 hands, straight flush 36, quads 624, full 3,744, flush 5,108
    by_hand = Fraction(4 * 200_000 + 36 * 20_000 + 624 * 100 + 3744 * 75 + 5108 * 50, 2_598_960) - 1
    r = _progressive(meter=200_000)
    assert r.expected_return == by_hand == Fraction(-480_360, 2_598_960)
    assert r.hit_frequency == Fraction(4 + 36 + 624 + 3744 + 5108, 2_598_960)


def test_progressive_figures_are_verified():
    figures = [f for f in load_figures() if "break_even" in f.quantity]
    checks = {c.figure.quantity: c for c in check_figures(figures)}
    assert {q for q, c in checks.items() if c.match} == {
        "sidebet_break_even:progressive-100-75-50", "sidebet_break_even:progressive-150-100-50",
        "progressive_break_even:500/150/75"}
    # the article's misprints are shown with their notes, never matched
    third, fourth = (checks[f"sidebet_break_even:progressive-{t}"] for t in ("500-100-50", "500-150-50"))
    assert third.match is None and third.computed == Fraction(4_142_900, 19)
    assert "218,047.37" in third.figure.note
    assert fourth.match is None and fourth.computed == Fraction(3_674_900, 19)
    assert "500/150/75" in fourth.figure.note
    assert all("Contingencies" in f.source for f in figures)


@pytest.mark.parametrize("spec, message", [
    ("quads", "expected NAME=AMOUNT"),
    ("royal=5", "expected NAME=AMOUNT"),
    ("quads=ten", "must be a number"),
    ("flush=-5", "must not be negative"),
    ("flush=5,flush=6", "given twice"),
])
def test_malformed_pays(spec, message):
    with pytest.raises(SideBetError, match=message):
        parse_pays(spec)


# --------------------------------------------------------------------------- command line
def test_session_chart_fits_its_axis_to_the_visible_bars(session):
    """The 20-hand chart's axis ends one step past the last bar one can see (it ran to +100 while the
    bars stopped near +45), and the chart says how likely the nets it leaves out are."""
    import matplotlib.pyplot as plt

    from exactodds.caribbean.strategy.chart import VISIBLE, session_figure

    fig = session_figure(session)
    ax = fig.axes[0]
    bars = [(p.get_x() + p.get_width() / 2, p.get_height()) for p in ax.patches]
    peak = max(h for _, h in bars)
    seen = [x for x, h in bars if h * VISIBLE >= peak]
    low, high = ax.get_xlim()
    step = float(Fraction(session.session.step, session.session.scale))
    assert min(seen) - 1.5 * step <= low < min(seen) and max(seen) < high <= max(seen) + 1.5 * step
    assert 40 <= max(seen) <= 60 and high < 60
    pmf = session.session.pmf()
    above = sum((p for v, p in pmf if v > max(seen) + step / 2), Fraction(0))
    below = sum((p for v, p in pmf if v < min(seen) - step / 2), Fraction(0))
    legend = "\n".join(t.get_text() for t in ax.get_legend().get_texts())
    assert f"P(net > {max(seen):+g}) = {float(above):.4%}" in legend
    assert f"P(net < {min(seen):+g}) = {float(below):.4%}" in legend
    plt.close(fig)


def _run(*args):
    return CliRunner().invoke(cli, ["caribbean", *args])


def test_cli_session_json_and_chart(tmp_path, optimal):
    chart = tmp_path / "session.svg"
    out = _run("session", "--json", "--chart", str(chart))
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["hands"] == 20 and data["strategy"] == "optimal"
    assert Fraction(data["mean"]) == 20 * optimal.total_return
    assert Fraction(data["p_ahead"]) + Fraction(data["p_even"]) + Fraction(data["p_behind"]) == 1
    assert chart.read_text().lstrip().startswith("<?xml")


def test_cli_session_answers_from_the_cached_count_in_a_fresh_process(session):
    """The session command's only input is the optimal return table: it reads it from the compact
    count in the cache (no numba, no full situation count: 0.3 s and 75 MB instead of 2.7 s and
    597 MB) and gives the same exact distribution as the full count."""
    import subprocess
    import sys

    from exactodds.caribbean.analysis.compact import prepare_compact

    prepare_compact("ak")  # in the cache, as after `exactodds warm-up` or a first `analyze`
    code = ("import sys\nfrom exactodds.cli.main import cli\n"
            "cli.main(['caribbean', 'session', '--hands', '20', '--json'], standalone_mode=False)\n"
            "loaded = [m for m in ('numba', 'scipy', 'pyarrow') if m in sys.modules]\n"
            "assert not loaded, f'the cached path loaded {loaded}'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(session.to_dict()))  # the full count's


def test_cli_session_of_another_strategy_counts_it(optimal):
    out = _run("session", "--hands", "3", "--strategy", "rules-of-thumb", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["strategy"] == "rules-of-thumb" and data["hands"] == 3
    rules = analyze_strategy(optimal, "rules-of-thumb")
    assert Fraction(data["per_hand"]["expected_return"]) == rules.total_return != optimal.total_return


def test_cli_progressive_text():
    out = _run("progressive", "--meter", "263,205", "--pays", "quads=100")
    assert out.exit_code == 0, out.output
    assert "break-even meter: $263,205 (exactly 5000900/19" in out.output
    assert "-1/1299480" in out.output


@pytest.mark.parametrize("args, message", [
    (["session", "--hands", "0"], "1<=x<=100"),
    (["session", "--strategy", "nope"], 'unknown strategy "nope"'),
    (["session", "--chart", "x.gif"], "must end in .png or .svg"),
    (["progressive", "--pays", "quads:5"], "expected NAME=AMOUNT"),
    (["progressive", "--meter", "lots"], "--meter must be a number"),
    (["progressive", "--meter", "-5"], "must not be negative"),
])
def test_cli_bad_input_is_one_line_exit_2(args, message):
    result = _run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
