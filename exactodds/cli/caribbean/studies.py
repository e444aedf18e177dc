"""``exactodds caribbean simulate`` and ``collusion``: sampled studies of the game."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import click

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.strategy.strategies import load_strategy
from exactodds.caribbean.studies.collusion import (
    COUNT_CELLS,
    DEFAULT_SAMPLES,
    MAX_PLAYERS,
    CollusionResult,
    Estimate,
    check_collusion,
    collusion,
)
from exactodds.caribbean.studies.collusion import MAX_SAMPLES as COLLUSION_MAX_SAMPLES
from exactodds.caribbean.studies.simulate import MAX_HANDS as SIMULATION_MAX_HANDS
from exactodds.caribbean.studies.simulate import SimulationResult, check_simulation, simulate
from exactodds.cli.options import (
    echo_json,
    json_option,
    paytable_option,
    render_table,
    strategy_option,
)
from exactodds.cli.progress import terminal_progress
from exactodds.cli.scale_options import scale_options
from exactodds.display import signed_exact
from exactodds.jsonable import exact
from exactodds.scale import SerialRunner, open_runner
from exactodds.wording import counted


# --------------------------------------------------------------------------- simulate
def _simulation_json(r: SimulationResult, seconds: float) -> dict[str, Any]:
    return r.to_dict() | {"seconds": seconds, "hands_per_second": r.hands / seconds if seconds else None}


def _simulation_text(r: SimulationResult, seconds: float) -> str:
    chi2, chi2_p, cells = r.event_test()
    low, high = r.interval_95
    verdict = ("agrees with the exact EV at the 5% level" if r.p_value >= 0.05 else
               "differs from the exact EV at the 5% level (a correct simulator does so 1 time in 20)")
    rows = [(row.label, f"{r.event_counts[row.event]:,}", f"{float(row.probability * r.hands):,.1f}",
             signed_exact(row.net_units)) for row in r.exact.rows]
    head = f"{r.hands:,} hands" + (f" (interrupted; {r.requested:,} requested)" if r.interrupted else "")
    return "\n".join([
        f"Caribbean Stud simulation (sampled): {head}, seed {r.seed}, paytable {r.profile}, "
        f"strategy {r.strategy}",
        f"each hand a full shuffle of 52 cards; {r.hands / seconds:,.0f} hands/s",
        "",
        f"observed mean  {float(r.mean):+.6f} antes per hand (standard error {r.standard_error:.6f})",
        f"95% interval   [{low:+.6f}, {high:+.6f}]",
        f"exact EV       {float(r.exact_ev):+.6f} = {exact(r.exact_ev)} (every deal counted)",
        f"t-test         t = {r.t_statistic:+.3f}, p = {r.p_value:.4f} (two-sided): {verdict}",
        f"events         chi-square {chi2:.2f} on {cells - 1} df, p = {chi2_p:.4f} "
        "(event counts against the exact return table)",
        "",
        render_table(["event", "observed", "expected", "net"], rows),
    ])


@click.command(name="simulate")
@click.option("--hands", "hands", type=click.IntRange(2, SIMULATION_MAX_HANDS), default=1_000_000,
              show_default=True, help="Hands to deal.")
@click.option("--seed", "seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the random generator.")
@strategy_option
@paytable_option
@json_option
def simulate_command(hands: int, seed: int, strategy: str, paytable: str, as_json: bool) -> None:
    """Deal real shuffled decks, play a strategy, and test the observed mean against the exact EV.

    Sampled, not exact: reports the mean with its standard error and 95% interval, a
    one-sample t-test against the exact EV of the same strategy, and a chi-square test of
    the event counts against the exact return table. Ctrl-C stops after the current batch
    and reports the hands played so far.

    Example: exactodds caribbean simulate --hands 2000000 --seed 7
    """
    check_simulation(hands, seed)
    profile = load_profile(paytable)
    chosen = load_strategy(strategy)
    with terminal_progress(as_json=as_json) as progress:
        outcomes = situation_outcomes(profile, progress=progress)
        start = time.perf_counter()
        result = simulate(outcomes, chosen, hands=hands, seed=seed, progress=progress)
        seconds = time.perf_counter() - start
    if as_json:
        echo_json(_simulation_json(result, seconds))
    else:
        click.echo(_simulation_text(result, seconds))
    if result.interrupted:
        raise SystemExit(130)


# --------------------------------------------------------------------------- collusion
def _estimate_text(e: Estimate, offset: Fraction = Fraction(0)) -> str:
    low, high = (x + float(offset) for x in e.interval_95)
    return (f"{float(e.mean + offset):+.4%} (standard error {e.standard_error:.4%}; "
            f"95% interval [{low:+.4%}, {high:+.4%}])")


def _collusion_text(r: CollusionResult) -> str:
    head = f"{r.samples:,} sampled table deals" + (
        f" (interrupted; {r.requested:,} requested)" if r.interrupted else "")
    burn = " and the burn card" if r.burn_card_seen else ""
    published = [f"published: player edge {f.text} ({f.source}); ours (paired) minus published "
                 f"{100 * float(r.paired_return) - float(f.percent):+.2f} points. {f.note}"
                 for f in r.published]
    return "\n".join([
        f"Caribbean Stud collusion: {counted(r.players, 'player')} "
        f"{'shares its hand' if r.players == 1 else 'share their hands'}; paytable {r.profile}",
        f"SAMPLED: {head}, seed {r.seed}. Each seat's decision and EV are exact given the "
        f"{5 * r.players} shared cards and the up card{burn}",
        f"(the dealer's {r.completions:,} possible completions enumerated); the table deals are sampled.",
        "",
        f"return per ante, one seat (paired)   {_estimate_text(r.gain, r.normal_return)}",
        f"gain against the normal game         {_estimate_text(r.gain)}",
        f"return per ante, one seat (direct)   {_estimate_text(r.direct)}",
        f"normal game, optimal play (exact)    {float(r.normal_return):+.4%} "
        f"= {exact(r.normal_return)}",
        f"decisions changed by sharing         {r.changed_share:.2%} of seats",
        "",
        "direct: the mean of each seat's exact max(EV(raise), -1); paired: the exact normal return",
        "plus the mean gain over the normal decision on the same deals (same expectation, smaller error).",
        *_count_lines(r),
        *published,
    ])


def _count_lines(r: CollusionResult) -> list[str]:
    """The count strategy beside exact play, when asked for."""
    c = r.count_strategy
    if c is None:
        return []
    return ["",
            f"count strategy (paired)              {_estimate_text(c.gain, r.normal_return)}",
            "  the basic strategy adjusted by the count: raise or fold by hand group x normal decision",
            f"  x dead cards of the up card's rank x dead aces and kings ({len(c.raised_cells)} of "
            f"{COUNT_CELLS} cells raise);",
            f"  learned on {c.train_samples:,} deals, valued on {c.test_samples:,} others: a rule a team can "
            f"apply, like the published practical strategies; exact play gives "
            f"{100 * float(r.paired_return - r.normal_return - c.gain.mean):+.2f} points more."]


@click.command(name="collusion")
@click.option("--players", "players", type=click.IntRange(1, MAX_PLAYERS), required=True,
              help="Players sharing their hands.")
@click.option("--samples", "samples", type=click.IntRange(2, COLLUSION_MAX_SAMPLES), default=DEFAULT_SAMPLES,
              show_default=True, help="Table deals to sample.")
@click.option("--seed", "seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the random generator.")
@click.option("--burn-card-seen", "burn_card_seen", is_flag=True, default=False,
              help="The dealer burns one card after the up card and the colluders see it "
                   "(one more dead card).")
@click.option("--count-strategy", "count", is_flag=True, default=False,
              help="Also value a simple count strategy (the basic strategy adjusted by hand group, dead "
                   "cards of the up card's rank and dead aces and kings), learned on half the deals, valued "
                   "on the other.")
@paytable_option
@scale_options(default_workers="0 (every chunk in this process)")
@json_option
def collusion_command(players: int, samples: int, seed: int, burn_card_seen: bool, count: bool, paytable: str,
                      scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """Return per ante of one seat when N players at a table share their hands (sampled).

    Every seat plays the exact optimal decision given all shared cards and the up card; the
    table deals are sampled with a fixed seed, so results carry a standard error.
    Ctrl-C stops after the current sample and reports the samples done.

    Examples: exactodds caribbean collusion --players 3 --samples 500;
    exactodds caribbean collusion --players 7 --burn-card-seen --count-strategy
    """
    check_collusion(players, samples, seed)
    profile = load_profile(paytable)
    with terminal_progress(as_json=as_json) as progress:
        outcomes = situation_outcomes(profile, progress=progress)
        with open_runner(scheduler=scheduler, workers=workers) as runner:
            result = collusion(outcomes, players=players, samples=samples, seed=seed, progress=progress,
                               runner=None if isinstance(runner, SerialRunner) else runner,
                               burn_card_seen=burn_card_seen, count=count)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(_collusion_text(result))
    if result.interrupted:
        raise SystemExit(130)
