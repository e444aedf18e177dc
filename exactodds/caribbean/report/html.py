"""The report as one self-contained HTML page: inline CSS, charts as data URIs, no external URL.

Figures are rounded for the eye; each exact value is beside it (or in the cell's title).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exactodds.caribbean.sidebets.odds import SideBetOdds

from fractions import Fraction
from html import escape

from exactodds.caribbean.analysis.figures import FIGURE_LABELS, UP_COMPLETIONS
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS
from exactodds.caribbean.report.appendix import APPENDIX_ID, APPENDIX_NAME, appendix_json
from exactodds.caribbean.report.build import ReportData
from exactodds.caribbean.sidebets.odds import SideBetOdds
from exactodds.caribbean.sidebets.profile import PAYS_ON
from exactodds.caribbean.strategy.card.pareto import PARETO_HEADERS, pareto_rows, proof_note, units_note
from exactodds.display import dollars
from exactodds.display import percent as pct
from exactodds.jsonable import exact

_CSS = """
@page { size: A4; margin: 16mm 14mm 18mm 14mm;
        @bottom-center { content: "page " counter(page) " of " counter(pages); font-size: 8pt;
                         font-family: "DejaVu Sans", sans-serif; color: #666; } }
body { font-family: "DejaVu Sans", "Helvetica", "Arial", sans-serif; font-size: 9.5pt; color: #1a1a1a;
       max-width: 190mm; margin: 0 auto; line-height: 1.35; }
h1 { font-size: 17pt; margin: 0 0 2mm 0; }
h2 { font-size: 13pt; border-bottom: 1.5px solid #245; padding-bottom: 1mm; margin-top: 7mm; color: #123; }
section.chapter { break-before: page; }
section.chapter:first-of-type { break-before: auto; }
h3 { font-size: 10.5pt; margin: 4mm 0 1.5mm 0; color: #234; }
table { border-collapse: collapse; margin: 1mm 0 3mm 0; font-variant-numeric: tabular-nums; font-size: 8.6pt;
        max-width: 100%; }
th, td { padding: 0.6mm 2mm; border-bottom: 0.5px solid #ccc; vertical-align: top; }
th { background: #eef2f6; text-align: left; font-weight: 600; }
td.n, th.n { text-align: right; white-space: nowrap; }
td.x { font-family: "DejaVu Sans Mono", monospace; font-size: 7pt; color: #444; overflow-wrap: break-word;
       max-width: 48mm; }
tr.total td { font-weight: 600; border-top: 1px solid #888; }
.note { color: #555; font-size: 8.5pt; }
.example { color: #8a1c00; font-weight: 600; }
.status-match { color: #1b6e20; font-weight: 600; }
.status-MISMATCH { color: #b00020; font-weight: 700; }
.status-note, .status-compared { color: #8a5a00; font-weight: 600; }
img { max-width: 100%; }
img.tall { max-height: 235mm; }
pre.strategy { font-family: "DejaVu Sans Mono", monospace; font-size: 6.6pt; columns: 2; column-gap: 6mm;
               white-space: pre-wrap; line-height: 1.25; }
div.small table { font-size: 7.8pt; }
code, .mono { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; overflow-wrap: break-word; }
pre.json { font-family: "DejaVu Sans Mono", monospace; font-size: 6.5pt; white-space: pre-wrap;
           overflow-wrap: anywhere; color: #333; }
"""




def _table(headers: list[str], rows: list[list[str]], numeric: str = "", row_class: list[str] | None = None,
           raw: bool = False) -> str:
    """A table; ``numeric`` holds "n" for right-aligned columns, "x" for exact-value columns."""
    kinds = numeric.ljust(len(headers), "l")
    head = "".join(f'<th class="{"n" if k == "n" else ""}">{escape(h)}</th>' for h, k in zip(headers, kinds,
                                                                                              strict=True))
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{row_class[i]}"' if row_class and row_class[i] else ""
        cells = "".join(f'<td class="{k if k in "nx" else ""}">{c if raw else escape(c)}</td>'
                        for c, k in zip(row, kinds, strict=True))
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _range(bounds: tuple[float, float] | None) -> str:
    return "" if bounds is None else f"{bounds[0]:+.3%} to {bounds[1]:+.3%}"


def _game(d: ReportData) -> str:
    p = d.profile
    qualifier = "A-K high or better" if p.qualifier == "ak" else "a pair or better"
    cap = f"the call's win is capped at {p.cap} antes per hand" if p.cap is not None else "no cap"
    pays = [[PAY_LABELS[c], f"{p.pays[c]} to 1", f"{p.category_win_net(c)}"]
            for c in reversed(PAY_CATEGORIES)]
    return f"""
<section class="chapter"><h2>1. The game</h2>
<p>Caribbean Stud Poker, one 52-card deck reshuffled after every hand, one player against the dealer.
The player posts an ante of 1 and sees five cards; the dealer shows one of five. The player folds
(losing the ante) or calls {p.call} antes. The dealer qualifies with {qualifier}. A dealer who does not
qualify pays the ante 1 to 1 and returns the call; a qualifying dealer who is stronger takes both bets;
an exact tie returns both; a player who beats a qualifying dealer is paid the ante 1 to 1 and the call
at the pay table's odds ({cap}).</p>
<h3>The profile: {escape(p.name)}</h3>
<p>{escape(p.description)}<br><span class="note">source: {escape(p.source or "user file")}</span></p>
<p>Call {p.call} antes; dealer qualifies with {qualifier}; {cap}.</p>
{_table(["player's hand", "call pays", "net of a win (antes)"], pays, "lnn")}
<h3>The strategy</h3>
<p><b>{escape(d.strategy)}</b>: {escape(d.strategy_description)}. Every figure of the main wager is for this
strategy, counted over all {d.result.total_combinations:,} deals (player hand x up card x the dealer's
other four cards).</p>
</section>"""


def _main_wager(d: ReportData, charts: dict[str, str]) -> str:
    r = d.result
    rows = [[row.label, f"{row.net_units}", f"{row.combinations:,}", f"{float(row.probability):.9f}",
             f"{float(row.return_contribution):+.9f}", exact(row.probability)] for row in r.rows]
    rows.append(["total", "", f"{r.total_combinations:,}", "1.000000000", f"{float(r.total_return):+.9f}",
                 exact(r.total_return)])
    classes = [""] * (len(rows) - 1) + ["total"]
    percent = {"house_edge_per_ante", "element_of_risk_per_unit_wagered", "rtp_per_unit_wagered",
               "hit_frequency", "push_frequency", "loss_frequency", "raise_frequency"}
    figs = []
    for key, label in FIGURE_LABELS.items():
        value = getattr(d.figures, key)
        figs.append([label, pct(value) if key in percent else f"{float(value):.6f}", exact(value)])
    sd_ante, sd_wagered = d.figures.standard_deviation_per_ante, d.figures.standard_deviation_per_unit_wagered
    figs.append(["standard deviation of a hand's net, per ante", f"{sd_ante:.6f}",
                 "square root of the exact variance"])
    figs.append(["standard deviation per unit wagered", f"{sd_wagered:.6f}",
                 "square root of the exact variance"])
    q = d.qualifying
    up = [[rank, f"{n:,}", f"{n / UP_COMPLETIONS:.4%}", f"{n}/{UP_COMPLETIONS}"] for rank, n in
          reversed(q.by_up_rank)]
    methods = {"exact": "exact (session distribution)", "normal": "normal approximation"}
    holds = [[f"{h.hands:,}", methods[h.method], _range(h.per_ante), _range(h.per_unit_wagered)]
             for h in d.holds]
    return f"""
<section class="chapter"><h2>2. The main wager</h2>
<h3>Return table (exact counts; net in antes)</h3>
{_table(["event", "net", "combinations", "probability", "return per ante", "exact probability"], rows,
        "lnnnnx", classes)}
<h3>Figures (basis in each name)</h3>
<p class="note">House edge is per ante; element of risk and RTP are per unit wagered (ante plus the call when
made); RTP = 1 - element of risk. Lower house edge and element of risk are better for the player.</p>
{_table(["figure", "value", "exact"], figs, "lnx")}
<h3>Dealer qualifying</h3>
<p>Over all deals of this strategy's game (the player's five cards removed):
<b>{pct(q.over_all_deals)}</b> <span class="mono">({exact(q.over_all_deals)})</span>.
From the up card alone, over the {UP_COMPLETIONS:,} four-card completions from the other 51 cards
(overall {pct(q.from_up_card)}):</p>
{_table(["up card", "qualifying completions", "probability", "exact"], up, "lnnx")}
<h3>Hold: the house's 95% range after N hands</h3>
<p class="note">Per ante: the house's win divided by the antes; per unit wagered: by the total wagered (the
drop), its per-hand variance by the delta method. Normal approximation from the exact variance; for
N &le; 100 also exact, between the 2.5% and 97.5% quantiles of the exact session distribution.</p>
{_table(["hands", "method", "hold per ante", "hold per unit wagered"], holds, "llnn")}
</section>"""


def _strategy(d: ReportData, charts: dict[str, str]) -> str:
    s = d.summary
    lines = escape(s.text())
    strategies = [[item.result.strategy, pct(item.result.house_edge), pct(item.result.element_of_risk),
                   pct(item.result.raise_frequency, 2), f"{float(item.cost_per_ante):.5%}",
                   exact(item.cost_per_ante)] for item in d.strategies]
    return f"""
<section class="chapter"><h2>3. The strategy</h2>
<h3>The optimal strategy in brief</h3>
<pre class="strategy">{lines}</pre>
<h3>The A-K-high chart</h3>
<img class="tall" alt="Share of A-K-high deals where raising is optimal, by hand ranks and up-card rank"
     src="{charts['ak']}">
<h3>The built-in strategies' exact costs</h3>
<p class="note">House edge per ante, element of risk per unit wagered; the cost is the expected loss per
ante against optimal play.</p>
{_table(["strategy", "house edge", "element of risk", "raises", "cost vs optimal", "exact cost (per ante)"],
        strategies, "lnnnnx")}
</section>"""


def _units(value: Fraction) -> str:
    return f"{int(value):,}" if value.denominator == 1 else f"{float(value):,.3f}"


def _card(d: ReportData) -> str:
    c = d.card
    chosen = c.chosen
    lines = escape("\n".join(chosen.card.lines()))
    rot = c.rules_of_thumb_cost_units
    return f"""
<section class="chapter"><h2>4. The strategy card</h2>
<h3>The pocket card ({chosen.rules} rules)</h3>
<pre class="strategy">{lines}</pre>
<p>Following this card costs {_units(chosen.cost_units)} units over all {c.total_deals:,} deals against
optimal play, {float(chosen.cost_per_ante):.6%} of the ante (house edge {pct(chosen.house_edge)}; optimal
{pct(c.optimal.house_edge)}). The published rules of thumb cost {_units(rot)} units
({float(rot / c.total_deals):.6%} per ante) on this paytable.</p>
<h3>The cheapest card of each length (Pareto table)</h3>
<p class="note">Each cost is exact (units lost against optimal play over all deals), the house edge per ante
when the player follows the card. {escape(units_note(c))} {escape(proof_note(c))}</p>
{_table(PARETO_HEADERS, pareto_rows(c), "nnnn")}
</section>"""


AHEAD_DIGITS = 3  # decimals of a percent in the P(ahead) table: a thousandth of a percentage point


def _volatility(d: ReportData, charts: dict[str, str]) -> str:
    s = d.session.session
    ahead = [[f"{a.hands:,}", *(pct(p, AHEAD_DIGITS) for p in (a.ahead, a.even, a.behind))] for a in d.ahead]
    digits = max(len(str(x.denominator)) for a in d.ahead for x in (a.ahead, a.even, a.behind))
    return f"""
<section class="chapter"><h2>5. Volatility</h2>
<h3>The exact distribution of a {d.session.hands}-hand session</h3>
<img alt="Exact distribution of the net of a {d.session.hands}-hand session" src="{charts['session']}">
<p>Mean {float(s.mean):+.4f} antes, standard deviation {s.standard_deviation:.4f} antes; player ahead
{pct(s.p_ahead, 2)}, even {pct(s.p_even, 2)}, bank ahead {pct(s.p_behind, 2)} (exact convolution of the
return table, no sampling).</p>
<h3>P(player ahead after N hands)</h3>
{_table(["hands", "player ahead", "even", "bank ahead"], ahead, "lnnn")}
<p class="note">Exact from the integer counts of the session distribution (cut at a net of 0), each
rounded to the nearest thousandth of a percentage point ({AHEAD_DIGITS} decimals of a percent). The exact
fractions, with denominators of up to {digits:,} digits, are in appendix A (<code>session_odds</code>) and
in <code>exactodds caribbean session --hands N --json</code>.</p>
</section>"""


def _sidebet(o: SideBetOdds, charts: dict[str, str], index: int) -> str:
    p = o.profile
    of = ("of the 2,598,960 hands" if p.pays_on == "player" else
          "of the 122,151,120 (hand, up card) pairs")
    headers = ["hand", "pays", "outcomes", "probability", "return share", "exact probability"]
    rows = [[line.label, p.pays[line.category].text(), f"{line.outcomes:,}", f"{float(line.probability):.8f}",
             f"{float(line.contribution / p.stake):.6f}", exact(line.probability)] for line in o.lines]
    kinds = "llnnnx"
    if p.is_progressive:
        headers.insert(4, "pay at meter")
        for row, line in zip(rows, o.lines, strict=True):
            row.insert(4, dollars(line.pay))
        kinds = "llnnnnx"
    kept = "paid to 1 (a winning stake comes back)" if p.stake_returned else "the stake is always collected"
    example = ('<p class="example">EXAMPLE PAY TABLE: an illustration, not a casino\'s published table.</p>'
               if p.example else "")
    meter = ""
    if p.is_progressive:
        be = ("none" if o.break_even_meter is None else
              f"{dollars(o.break_even_meter)} <span class='mono'>({exact(o.break_even_meter)})</span>")
        at = (f"At the reset meter of {dollars(o.meter)}" if p.meter_reset is not None else
              f"At a meter of {dollars(o.meter)} (the profile gives no reset value)")
        meter = f"""<p>{at}: return = {exact(o.return_intercept)} +
{exact(o.return_slope)} x meter (exact, this linear piece). Break-even meter: <b>{be}</b>
{escape(o.break_even_note)}.
{f" Contribution {pct(p.meter_contribution, 2)} of each stake." if p.meter_contribution else ""}</p>
<img alt="Return of {escape(p.name)} against the meter" src="{charts[f'meter{index}']}">"""
    return f"""
<h3>5.{index + 1} {escape(p.name)}</h3>
{example}<p>{escape(p.description)}<br>{dollars(p.stake)} stake, {kept}; pays on {PAYS_ON[p.pays_on]}.
<span class="note">source: {escape(p.source or "user file")}</span></p>
<p class="note">Outcomes {of}; the return share is probability x pay per unit staked.</p>
{_table(headers, rows, kinds)}
<p>Expected return per unit staked <b>{float(o.expected_return):+.6f}</b> <span class="mono">
({exact(o.expected_return)})</span>: house edge {pct(o.house_edge)}. Hit frequency {pct(o.hit_frequency)}
<span class="mono">({exact(o.hit_frequency)})</span>. Variance per unit staked {float(o.variance):,.4f}
(standard deviation {o.standard_deviation:,.4f}).</p>
{meter}"""


def _sidebets(d: ReportData, charts: dict[str, str]) -> str:
    if not d.sidebets:
        body = "<p>No side bet was asked for (<code>--sidebet NAME|FILE</code>).</p>"
    else:
        body = "".join(_sidebet(o, charts, i) for i, o in enumerate(d.sidebets))
    return f'<section class="chapter"><h2>6. Side bets</h2>{body}</section>'


def _verification(d: ReportData) -> str:
    sources = list(dict.fromkeys(c.source for c in d.checks))
    rows = [[escape(c.label), escape(c.published), escape(c.computed),
             f'<span class="status-{c.status}">{c.status}</span>',
             f"[{sources.index(c.source) + 1}]" + (f" {escape(c.note)}" if c.note else "")]
            for c in d.checks]
    listed = "".join(f"<li>{escape(s)}</li>" for s in sources)
    matched = sum(c.status == "match" for c in d.checks)
    failed = sum(c.status == "MISMATCH" for c in d.checks)
    return f"""
<section class="chapter"><h2>7. Verification</h2>
<p>Every published figure that applies to this paytable, the deck and the chosen side bets, beside the
computed value: {matched} match, {failed} mismatch; a <i>note</i> is a published misprint shown with what it
corresponds to, <i>compared</i> a rounded figure shown with its difference.</p>
<div class="small">{_table(["figure", "published", "computed", "status", "source, note"], rows, "lnnll",
                          raw=True)}</div>
<p>Sources:</p><ol class="note">{listed}</ol>
</section>"""


def _reproducibility(d: ReportData) -> str:
    files = [[i.role, f'<span class="mono">{escape(i.path)}</span>', f'<span class="mono">{i.sha256}</span>']
             for i in d.inputs]
    return f"""
<section class="chapter"><h2>8. Reproducibility</h2>
<p>exactodds version <b>{escape(d.version)}</b>.</p>
<p>Command line: <code>{escape(d.command_line or "(library call)")}</code></p>
<p>Rank table of the 2,598,960 hands, SHA-256 (verified on load):
<span class="mono">{d.rank_table_sha256}</span></p>
<h3>Input files (SHA-256)</h3>
{_table(["input", "file", "SHA-256"], files, "lll", raw=True)}
<h3>Exactness</h3>
<p>Every figure in this report is exact: integer counts over every deal (all 19,933,230,517,200 of the
main wager; all 2,598,960 hands or 122,151,120 (hand, up card) pairs of a side bet), probabilities and
returns as exact fractions, shown rounded beside them. Nothing is sampled. Standard deviations are the
square roots of exact variances (rounded); the normal-approximation hold ranges are approximations and
say so; the exact ones come from the exact session distribution.</p>
</section>"""


def _appendix(d: ReportData, attached: bool) -> str:
    """Appendix A: the exact values as JSON, in the page or (a PDF) attached to the file."""
    where = (f"attached to this PDF as the file <code>{APPENDIX_NAME}</code> (a PDF reader lists it "
             "under attachments)" if attached else
             f'below, in the element <code>&lt;pre id="{APPENDIX_ID}"&gt;</code> of this page')
    text = "" if attached else escape(appendix_json(d), quote=False)
    body = f'<pre class="json" id="{APPENDIX_ID}">{text}</pre>' if text else ""
    return f"""
<section class="chapter"><h2>Appendix A. Exact values (machine-readable)</h2>
<p>Every exact value of this report as one JSON object, {where}: exact numbers are strings
<code>"p/q"</code> with a float beside as <code>&lt;key&gt;_float</code>, counts are integers, in the
vocabulary of the commands' <code>--json</code> output (return table, figures, dealer qualifying,
strategies, strategy card, session distribution, <code>session_odds</code> after
{", ".join(str(a.hands) for a in d.ahead)} hands, side bets).</p>
{body}
</section>"""


def render_html(d: ReportData, charts: dict[str, str], *, appendix_attached: bool = False) -> str:
    """The whole report as one HTML document (charts: name -> data URI); appendix A's JSON is in the
    page, or only announced when ``appendix_attached`` (the PDF carries it as an attached file)."""
    title = f"Caribbean Stud game math report: {d.profile.name}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p class="note">A par sheet: the exact figures of the main wager under the {escape(d.strategy)} strategy
{"and of " + str(len(d.sidebets)) + " side bet(s)" if d.sidebets else ""}, computed by exactodds
{escape(d.version)} by counting every deal.</p>
{_game(d)}
{_main_wager(d, charts)}
{_strategy(d, charts)}
{_card(d)}
{_volatility(d, charts)}
{_sidebets(d, charts)}
{_verification(d)}
{_reproducibility(d)}
{_appendix(d, appendix_attached)}
</body>
</html>
"""
