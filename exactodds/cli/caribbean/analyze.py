"""``exactodds caribbean analyze`` and ``verify``: the exact whole game and the published figures."""

from __future__ import annotations

import click

from exactodds.caribbean.holecard.sample import MAX_SAMPLES
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.cli.options import echo_json, json_option, render_table, stage_progress
from exactodds.cli.progress import terminal_progress
from exactodds.cli.run import run_and_show
from exactodds.cli.scale_options import scale_options
from exactodds.scale import open_runner

paytables_option = click.option(
    "--paytable", "paytables", multiple=True, default=("standard",), show_default=True, metavar="NAME|FILE",
    help="Paytable profile: a shipped name (standard, betmgm, royal500, royal200, royal250, microgaming) or "
    "the path of a TOML file. Repeat it to compare paytables: all are answered from one count.",
)


def _normal_games(profiles: list[Profile], *, as_json: bool) -> None:
    """The normal game of each profile from the compact count (one count per qualifier, cached)."""
    from exactodds.caribbean.analysis.compact import is_cached, prepare_compact
    from exactodds.caribbean.analysis.normal import normal_game
    from exactodds.cli.caribbean.analyze_output import figures_text, normal_game_text

    for qualifier in dict.fromkeys(p.qualifier for p in profiles):
        if not is_cached(qualifier):
            with terminal_progress(as_json=as_json) as progress:
                prepare_compact(qualifier, progress=progress)
    games = [normal_game(profile) for profile in profiles]
    if as_json:
        payloads = [g.to_dict() for g in games]
        echo_json(payloads[0] if len(payloads) == 1 else {"paytables": payloads})
    else:
        click.echo(("\n\n" + "=" * 78 + "\n\n").join(
            normal_game_text(g) + "\n\n" + figures_text(g.figures, g.qualifying, g.holds) for g in games))


def _seen_cards_games(profiles: list[Profile], dealer_known: int, samples: int, *, scheduler: str | None,
                      workers: int | None, as_json: bool) -> None:
    """Several paytables with 2..4 dealer cards seen: every profile's chunks in one job."""
    from exactodds.caribbean.holecard.exact import BATCHES, analyze_known_profiles
    from exactodds.cli.caribbean.analyze_output import holecard_text
    from exactodds.errors import ExactOddsError

    if samples or not 2 <= dealer_known <= 4:
        raise ExactOddsError("several --paytable options need the normal game (--dealer-known 1) or "
                             "2 to 4 dealer cards seen, counted exactly (no --samples)")
    label = f"counting all deals, {dealer_known} dealer cards seen, {len(profiles)} paytables"
    with open_runner(scheduler=scheduler, workers=workers) as runner, \
            stage_progress(label, len(profiles) * BATCHES[dealer_known], enabled=not as_json) as on_stage:
        results = analyze_known_profiles(profiles, dealer_known=dealer_known, runner=runner,
                                         on_chunk=None if on_stage is None else lambda _i: on_stage("chunk"))
    if as_json:
        echo_json({"paytables": [r.to_dict() for r in results]})
    else:
        click.echo(("\n\n" + "=" * 78 + "\n\n").join(holecard_text(r) for r in results))


def _partial_game(profiles: list[Profile], dealer_known: int, edge_sort: str | None, rank_seen: bool,
                  samples: int, *, scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """The exact game with partial information (edge sorting or a flashed rank), one paytable."""
    from exactodds.caribbean.holecard.partial import PartialInfoError, analyze_partial
    from exactodds.caribbean.holecard.partial import edge_sort as edge_sort_info
    from exactodds.caribbean.holecard.partial import rank_seen as rank_seen_info
    from exactodds.cli.caribbean.analyze_output import partial_text

    if edge_sort is not None and rank_seen:
        raise PartialInfoError("--edge-sort and --dealer-rank-seen are two different games: give one")
    if samples or len(profiles) > 1:
        raise PartialInfoError("--edge-sort and --dealer-rank-seen count one paytable exactly "
                               "(no --samples, one --paytable)")
    info = (edge_sort_info(edge_sort, dealer_known=dealer_known) if edge_sort is not None
            else rank_seen_info(dealer_known=dealer_known))
    profile = profiles[0]
    run_and_show(lambda progress, runner: analyze_partial(profile, info, progress=progress, runner=runner),
                 partial_text, as_json=as_json, scheduler=scheduler, workers=workers)


@click.command(name="analyze")
@paytables_option
@click.option("--dealer-known", "dealer_known", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Dealer cards seen, the up card included (2 adds one hole card; 5 shows all).")
@click.option("--edge-sort", "edge_sort", default=None, metavar="RANKS",
              help="Edge sorting: the backs show which hidden dealer cards have these ranks (e.g. AK: aces "
                   "and kings sorted one way); exact, with --dealer-known 1 to 4.")
@click.option("--dealer-rank-seen", "rank_seen", is_flag=True, default=False,
              help="One hidden dealer card's rank is seen without its suit (a partial flash); exact, with "
                   "--dealer-known 1 to 4.")
@click.option("--samples", type=click.IntRange(0, MAX_SAMPLES), default=0, show_default=True,
              help="Estimate from this many sampled situations instead of counting exactly (0: exact; "
                   "else at least 2).")
@click.option("--seed", type=click.IntRange(min=0), default=2026, show_default=True,
              help="Seed of --samples.")
@scale_options(default_workers="0 (the exact 2-4 seen-card sweeps run in chunks; other runs ignore this)")
@json_option
def analyze_command(paytables: tuple[str, ...], dealer_known: int, edge_sort: str | None, rank_seen: bool,
                    samples: int, seed: int, scheduler: str | None, workers: int | None,
                    as_json: bool) -> None:
    """Exact return table of the whole game under the optimal strategy, with its figures.

    Every one of the 19,933,230,517,200 deals is counted: player hand x up card x
    dealer's other four cards. The figures (house edge per ante, element of risk, RTP,
    hit frequency, variance, dealer qualifying, hold intervals) come from the return table.
    The count depends only on the qualifier; it is kept in the cache, so another paytable
    answers at once. With --dealer-known K (hole-carding) the player also sees
    K - 1 hole cards and plays the best strategy given them; a deal is then the player's
    hand x the K seen dealer cards (a set) x the dealer's unseen cards. With --edge-sort
    RANKS the player also sees which hidden cards have those ranks; with --dealer-rank-seen
    the rank, not the suit, of one hidden card.

    \b
    Examples:
      exactodds caribbean analyze --paytable betmgm
      exactodds caribbean analyze --paytable standard --paytable royal500 --json
      exactodds caribbean analyze --dealer-known 2
      exactodds caribbean analyze --edge-sort AK
      exactodds caribbean analyze --dealer-rank-seen --json
    """
    profiles = [load_profile(p) for p in paytables]
    if edge_sort is not None or rank_seen:
        _partial_game(profiles, dealer_known, edge_sort, rank_seen, samples, scheduler=scheduler,
                      workers=workers, as_json=as_json)
        return
    if dealer_known == 1 and not samples:
        _normal_games(profiles, as_json=as_json)
        return
    from exactodds.caribbean.holecard.exact import analyze_known
    from exactodds.cli.caribbean.analyze_output import holecard_text

    if len(profiles) > 1:
        _seen_cards_games(profiles, dealer_known, samples, scheduler=scheduler, workers=workers,
                          as_json=as_json)
        return
    profile = profiles[0]
    chunked = 2 <= dealer_known <= 4 and not samples  # the runs made of chunks
    run_and_show(lambda progress, runner: analyze_known(profile, dealer_known=dealer_known, samples=samples,
                                                        seed=seed, progress=progress, runner=runner),
                 holecard_text, as_json=as_json, scheduler=scheduler, workers=workers, chunked=chunked)


@click.command(name="verify")
@json_option
def verify_command(as_json: bool) -> None:
    """Reproduce every published figure shipped with exactodds from a fresh analysis.

    Exits with status 1 if any figure does not match.

    Example: exactodds caribbean verify
    """
    from exactodds.caribbean.published.figures import verify_figures

    with terminal_progress(as_json=as_json) as progress:
        verification = verify_figures(progress=progress)
    checks, failed, noted = verification.checks, verification.failed, verification.noted
    if as_json:
        echo_json(verification.to_dict())
    else:
        rows = [(c.figure.label, c.figure.published_text(), c.computed_text(),
                 "note" if c.match is None else "yes" if c.match else "NO") for c in checks]
        click.echo(render_table(["figure", "published", "computed", "match"], rows, align="lrrl"))
        click.echo("")
        click.echo("sources:")
        for source in dict.fromkeys(c.figure.source for c in checks):
            click.echo(f"  - {source}")
        if noted:
            click.echo("")
            click.echo("notes (published figures shown, not compared):")
            for c in noted:
                click.echo(f"  - {c.figure.label}: {c.figure.note}")
        click.echo("")
        compared = len(checks) - len(noted)
        click.echo(f"{compared - len(failed)} of {compared} published figures reproduced"
                   + (f"; {len(noted)} shown with a note" if noted else ""))
    if failed:
        raise SystemExit(1)
