"""A decision in plain words: one wording shared by ``stud decide``, the coach of ``stud play`` and
the coach beside the buttons of ``stud host``'s page. The recommendation first, then every action's
EV in chips from now, the equilibrium line where there is one, the showdown chance and the pot odds
last, and what the figures assume; method names, fractions, samples and seeds only with ``details``."""

from __future__ import annotations

from fractions import Fraction

from exactodds.cards import format_card, format_cards
from exactodds.display import signed
from exactodds.stud.decide.coach import Advice
from exactodds.stud.decide.result import DecideMethod, Decision
from exactodds.stud.engine.actions import action_words
from exactodds.stud.equity import SampledEquity
from exactodds.stud.solve.start import LAST_ROUND

CLOSE = 2.0  # a margin within this many standard errors is called a close call


def _chips(x: Fraction | float) -> str:
    return signed(x, 2)


def _margin(x: Fraction | float) -> str:
    value = abs(float(x))
    return f"{value:.2f} chip{'s' if round(value, 2) != 1 else ''}"


def _plus_minus(error: float | None) -> str:
    if not error:
        return ""
    return " ± <0.01" if error < 0.005 else f" ± {error:.2f}"


def recommendation(d: Decision) -> str:
    """The recommendation, e.g. "Bet 4: 2.40 chips better than checking"."""
    ranked = d.ranked
    best = ranked[0]
    head = best.words[0].upper() + best.words[1:]
    if len(ranked) == 1:
        return f"{head}: the only action allowed"
    second = ranked[1]
    diff = d.difference
    error = diff.standard_error if diff is not None else None
    margin = best.ev - second.ev
    other = _gerund(second.words)
    if margin == 0:
        return f"{head} or {second.words}: worth the same"
    if error is not None and float(margin) <= CLOSE * error:
        return (f"{head} or {second.words}: too close to call ({_chips(best.ev)} against {_chips(second.ev)} "
                f"chips, within the sampling error)")
    return f"{head}: {_margin(margin)}{_plus_minus(error)} better than {other}"


def _gerund(words: str) -> str:
    """"call 2" -> "calling 2", "raise to 8" -> "raising to 8", "fold" -> "folding"."""
    verb, _, rest = words.partition(" ")
    ing = {"bet": "betting", "call": "calling", "check": "checking", "fold": "folding", "raise": "raising",
           "complete": "completing", "bring": "bringing"}.get(verb, verb)
    return f"{ing} {rest}".strip()


def action_rows(d: Decision, *, details: bool) -> list[str]:
    """One line per action, best first: its EV in chips from now (± its standard error)."""
    width = max(len(a.words) for a in d.actions)
    lines = []
    for a in d.ranked:
        line = f"  {a.words:<{width}}  {_chips(a.ev):>7}{_plus_minus(a.standard_error)}"
        if details and a.standard_error is None:
            line += f"   (= {a.ev})"
        lines.append(line)
    return lines


def assumption(d: Decision) -> str:
    """What the figures assume about the rest of the hand, in plain words."""
    if d.method is DecideMethod.EXACT:
        play = "you play the rest of the hand as well as possible against these opponents"
    elif d.method is DecideMethod.SAMPLED_DEALS:
        before_last = "the rest of this round" + (" and the next" if d.round_index < LAST_ROUND - 1 else "")
        play = f"you play {before_last} like {later_models(d)} and the last round as well as possible"
    else:
        play = f"you play the rest of the hand like {later_models(d)}"
    how = "exact" if d.exact else f"estimated from {d.samples:,} random deals"
    return f"Chips from now, {how}; {play}."


def later_models(d: Decision) -> str:
    """The models of a sampled answer's later play in words: "the bots model", or "the better of the
    bots and calling-station models for each action (chosen on a separate sample)"."""
    names = d.later_candidates or (d.later_play,)
    if len(names) == 1:
        return f"the {names[0]} model"
    return (f"the better of the {', '.join(names[:-1])} and {names[-1]} models for each action "
            "(chosen on a separate sample)")


def equilibrium_lines(d: Decision) -> list[str]:
    """Heads-up, where the solver covers the round: the equilibrium's mix and EVs for your card."""
    eq = d.equilibrium
    if eq is None:
        return []
    to_call = d.to_call
    mix = ", ".join(f"{action_words(a, to_call=to_call)} {100 * p:.0f}%" for a, p in eq.mix.items()
                    if p >= 0.005)
    evs = ", ".join(f"{action_words(a, to_call=to_call)} {_chips(c)}" for a, c in eq.evs.items())
    near = "" if eq.exploitability <= 1e-6 else f" (within {100 * eq.exploitability:.1f}% of the pot of it)"
    return [f"Against an equilibrium opponent{near}: your card plays {mix}; EV {evs}."]


def decision_lines(d: Decision, *, opponents: str, details: bool = False) -> list[str]:
    """The whole answer: recommendation, actions, equilibrium line, assumptions and surprises."""
    lines = [f"{recommendation(d)} (against {opponents}).", *action_rows(d, details=details)]
    lines.extend(equilibrium_lines(d))
    lines.append(assumption(d))
    lines.extend(f"Note: {s.text()}." for s in d.surprises)
    if details:
        lines.extend(detail_lines(d))
    return lines


def detail_lines(d: Decision) -> list[str]:
    """How the figures were obtained: the method, the sample and seed, the hole cards each opponent may
    hold."""
    out = [f"Method: {d.method.value}; later play: {d.later_play}; {d.seconds:.2f} s."]
    if not d.exact:
        target = "met" if d.target_met else "not met within the budget"
        out.append(f"Sample: {d.samples:,} (seed {d.seed}); standard error target {d.target:.3f} chips "
                   f"(1% of the pot): {target}.")
        if d.pilot_samples:
            chosen = "; ".join(f"{a.words}: {a.later_play.split(' until')[0]}" for a in d.ranked)
            out.append(f"Later play chosen per action on a separate sample of {d.pilot_samples:,} hands "
                       f"(its own seed stream): {chosen}.")
        if d.difference is not None:
            diff = d.difference
            out.append(f"Best minus second ({diff.best} - {diff.second}): {float(diff.ev):+.3f} ± "
                       f"{diff.standard_error:.3f} (paired).")
    if d.hidden_states:
        out.append(f"Hole-card combinations weighed: {d.hidden_states:,}.")
    for o in d.opponents:
        if o.in_hand:
            cards = format_cards(o.hole_cards) if len(o.hole_cards) <= 12 else f"{len(o.hole_cards)} cards"
            out.append(f"p{o.player + 1} ({o.model}) may hold: {cards}.")
    if d.equilibrium is None and d.equilibrium_note:
        out.append(f"Equilibrium: {d.equilibrium_note}.")
    return out


def position_line(d: Decision) -> str:
    """Who is to act with which cards, the pot and the bet to call."""
    ups = ", ".join(f"p{p + 1} {format_cards(u)}" + ("" if d.in_hand[p] else " (folded)")
                    for p, u in enumerate(d.up))
    call = f", {d.to_call} to call" if d.to_call else ""
    return (f"p{d.player + 1} to act on round {d.round_index + 1} holding {format_card(d.hole)}: {ups}; "
            f"pot {d.pot}{call}.")


def _percent(x: Fraction | float) -> str:
    return f"{100 * float(x):.0f}%"


def pot_odds_line(advice: Advice) -> str:
    """The showdown equity and the immediate pot odds, in words (a sampled equity says "about")."""
    odds = advice.pot_odds
    about = "about " if isinstance(odds.equity, SampledEquity) else ""
    line = f"you win {about}{_percent(odds.win)} of the time at showdown against random hole cards"
    if odds.to_call:
        line += f"; calling {odds.to_call} into {odds.pot} needs {_percent(odds.needed)}"
    return f"Pot odds: {line}."


def solver_lines(advice: Advice, *, to_call: int) -> list[str]:
    """Against the solver bots' equilibrium this round (their hole card narrowed by their earlier play)."""
    solved = advice.solved
    if solved is None:
        return [f"(Against the solver bots: {advice.solved_note}.)"] if advice.solved_note else []
    values = solved.values
    ranked = sorted(zip(values.actions, values.chips, strict=True), key=lambda ac: -ac[1])
    best, top = ranked[0]
    lines = []
    if len(ranked) > 1:
        second, chips = ranked[1]
        said_best, said_second = action_words(best, to_call=to_call), action_words(second, to_call=to_call)
        lines.append(f"Against these bots (their equilibrium this round): {said_best}, {top - chips:.2f} "
                     f"chips better than {said_second}.")
    lines.extend(f"  {action_words(a, to_call=to_call):<12} {signed(c, 2):>7}" for a, c in ranked)
    return lines


def coach_lines(advice: Advice, *, opponents: str, said: set[str], details: bool) -> list[str]:
    """The coach's lines for one decision: the recommendation, each action's EV (chips from now, the
    betting to come), the equilibrium line, the pot odds, what the figures assume. ``said`` holds the
    caveats already shown this session (each is shown once, every time with ``details``)."""
    d = advice.decision
    lines: list[str] = []
    if advice.solved is not None:
        lines.extend(solver_lines(advice, to_call=d.to_call))
        lines.append(f"Against the bots' usual play ({opponents}):")
    lines.append(f"{recommendation(d)} (against {opponents}).")
    lines.extend(action_rows(d, details=details))
    lines.extend(equilibrium_lines(d))
    if advice.solved is None:
        lines.extend(solver_lines(advice, to_call=d.to_call))
    lines.append(pot_odds_line(advice))
    caveat = assumption(d)
    if details or caveat not in said:
        said.add(caveat)
        lines.append(caveat)
    lines.extend(f"Note: {s.text()}." for s in d.surprises)
    if details:
        lines.extend(detail_lines(d))
        eq = advice.pot_odds.equity
        sampled = f", {eq.samples:,} deals, seed {eq.seed}" if isinstance(eq, SampledEquity) else ""
        lines.append(f"Showdown equity: {eq.method}{sampled}.")
    return lines
