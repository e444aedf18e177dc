"""How result objects show themselves: ``repr``, ``str`` and Jupyter's ``_repr_html_``.

Cards always appear as text (``Qh``), exact values as fractions beside a rounded float.
The result classes call these functions from their own ``__repr__``/``__str__``/
``_repr_html_``; this module reads their attributes and imports none of them, so it
stays light and free of import cycles.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from exactodds.cards import format_card, format_cards


def whole_or_fraction(value: Fraction | int) -> str:
    """An exact value as people read it: ``"n"`` when it is whole, else ``"p/q"``. (The JSON always
    writes the denominator, ``"-1/1"``: :func:`exactodds.jsonable.exact`.)

    >>> whole_or_fraction(Fraction(42797, 32637)), whole_or_fraction(Fraction(-1))
    ('42797/32637', '-1')
    """
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def grouped(value: Fraction | int) -> str:
    """An exact amount with thousands separators in numerator and denominator: ``"-1,234,567/2"``.

    >>> grouped(Fraction(-1234567, 2)), grouped(19933230517200)
    ('-1,234,567/2', '19,933,230,517,200')
    """
    value = Fraction(value)
    return f"{value.numerator:,}" if value.denominator == 1 else f"{value.numerator:,}/{value.denominator:,}"


def signed_exact(value: Fraction | int) -> str:
    """An exact amount with its sign: ``"+6"``, ``"-22"``, ``"+33/2"``, ``"0"``.

    >>> signed_exact(Fraction(33, 2)), signed_exact(-3), signed_exact(0)
    ('+33/2', '-3', '0')
    """
    return ("+" if value > 0 else "") + whole_or_fraction(value)


def signed(value: Fraction | float, digits: int = 6) -> str:
    """A float with its sign, for display: ``+1.311303``; what rounds to zero shows as ``+0.000...``.

    >>> signed(Fraction(-1, 10**9), 3), signed(-0.25, 2)
    ('+0.000', '-0.25')
    """
    return f"{round(float(value), digits) + 0.0:+.{digits}f}"  # + 0.0 turns a rounded -0.0 into 0.0


def total_with_error(parts: Iterable[tuple[Fraction | float, float | None]], digits: int = 2) -> str:
    """The sum of figures ``(value, standard error or None when exact)``, with the sum's standard error
    (independent samples: the root of the summed variances) when any part was sampled. A part of
    exactly 0 adds no error (a cost of 0: the best action was the one taken, nothing to estimate).

    >>> total_with_error([(Fraction(3, 2), None), (2.0, 0.3), (1.0, 0.4)])
    '4.50 ± 0.50'
    >>> total_with_error([(Fraction(1, 3), None), (0, 0.2)])
    '0.33'
    """
    total, variance, sampled = 0.0, 0.0, False
    for value, error in parts:
        total += float(value)
        if error is not None and value != 0:
            sampled = True
            variance += error * error
    text = f"{total:.{digits}f}"
    return f"{text} ± {variance ** 0.5:.{digits}f}" if sampled else text


def percent(value: Fraction | float, digits: int = 4) -> str:
    """A probability as a percentage: ``5.2243%``."""
    return f"{float(value) * 100:.{digits}f}%"


def edge_text(house_edge: Fraction | float, digits: int = 4) -> str:
    """The house edge in words, or the player's edge when the game favours the player.

    >>> edge_text(Fraction(52243, 1000000)), edge_text(-0.0125), edge_text(0)
    ('house edge 5.2243%', 'player edge 1.2500%', 'house edge 0.0000%')
    """
    value = float(house_edge)
    return f"house edge {value:.{digits}%}" if value >= 0 else f"player edge {-value:.{digits}%}"


def money(value: Fraction | int, *, sign: bool = False) -> str:
    """An amount (chips or dollars) for people: a whole amount exactly, with thousands separators,
    else to the cent; with ``sign``, a "+" before a gain (and a bare "0").

    >>> money(Fraction(2469, 2)), money(-1500), money(Fraction(5, 2), sign=True), money(0, sign=True)
    ('1,234.50', '-1,500', '+2.50', '0')
    """
    value = Fraction(value)
    if sign and value == 0:
        return "0"
    plus = "+" if sign else ""
    return f"{value.numerator:{plus},}" if value.denominator == 1 else f"{float(value):{plus},.2f}"


def dollars(value: Fraction | int) -> str:
    """Dollars to the cent, with thousands separators.

    >>> dollars(Fraction(2469, 2)), dollars(100)
    ('$1,234.50', '$100.00')
    """
    return f"${float(value):,.2f}"


def html_table(title: str, header: Sequence[str], rows: Iterable[Sequence[Any]],
               notes: Sequence[str] = ()) -> str:
    """A small self-contained HTML table (title, header row, body rows, note lines)."""
    parts = [f"<div><strong>{html.escape(title)}</strong>", "<table>", "<thead><tr>"]
    parts += [f"<th>{html.escape(str(h))}</th>" for h in header]
    parts.append("</tr></thead><tbody>")
    for row in rows:
        parts.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row) + "</tr>")
    parts.append("</tbody></table>")
    parts += [f"<p>{html.escape(note)}</p>" for note in notes]
    parts.append("</div>")
    return "".join(parts)


# --------------------------------------------------------------------------- Caribbean decision
def decision_repr(d: Any) -> str:
    extra = ""
    if d.hole:
        extra += f", hole={format_cards(d.hole)!r}"
    if d.dead:
        extra += f", dead={format_cards(d.dead)!r}"
    return (f"Decision(hand={format_cards(d.hand)!r}, up={format_card(d.up)!r}{extra}, "
            f"paytable={d.profile.name!r}, decision={d.decision!r}, ev_raise={d.ev_raise!r}, "
            f"ev_fold={d.ev_fold!r}, completions={d.completions})")


def _decision_rows(d: Any) -> list[tuple[str, str]]:
    return [("dealer does not qualify", f"{d.dealer_not_qualify:,}"),
            ("you win", f"{d.player_wins:,}"), ("tie", f"{d.tie:,}"),
            ("dealer wins", f"{d.dealer_wins:,}")]


def _dealer_text(d: Any) -> str:
    text = format_cards(d.dealer_known)
    return text + (f" (dead: {format_cards(d.dead)})" if d.dead else "")


def decision_str(d: Any) -> str:
    lines = [
        f"{format_cards(d.hand)} against dealer {_dealer_text(d)}, {d.profile.name} paytable: "
        f"{d.decision.upper()}",
        f"EV(raise) = {whole_or_fraction(d.ev_raise)} = {signed(d.ev_raise)} antes; "
        f"EV(fold) = {whole_or_fraction(d.ev_fold)}; margin {signed(d.margin)}",
        f"{d.completions:,} equally likely dealer completions: "
        + ", ".join(f"{label} {count}" for label, count in _decision_rows(d)),
    ]
    return "\n".join(lines)


def decision_html(d: Any) -> str:
    return html_table(
        f"{format_cards(d.hand)} against {_dealer_text(d)} ({d.profile.name}): {d.decision.upper()}",
        ("if you raise", "dealer completions"), _decision_rows(d),
        notes=(f"EV(raise) = {whole_or_fraction(d.ev_raise)} = {signed(d.ev_raise)} antes; "
               f"EV(fold) = {whole_or_fraction(d.ev_fold)}; {d.completions:,} completions",),
    )


# --------------------------------------------------------------------------- Caribbean whole game
def game_repr(g: Any) -> str:
    return (f"GameResult(paytable={g.profile.name!r}, strategy={g.strategy!r}, "
            f"house_edge={g.house_edge!r}, element_of_risk={g.element_of_risk!r}, "
            f"total_combinations={g.total_combinations})")


def _game_rows(g: Any) -> list[tuple[str, str, str, str]]:
    return [(r.label, whole_or_fraction(r.net_units), f"{r.combinations:,}",
             f"{float(r.return_contribution):+.6f}") for r in g.rows]


def _game_summary(g: Any) -> list[str]:
    return [f"house edge {whole_or_fraction(g.house_edge)} = {percent(g.house_edge)} per ante "
            "(positive: the house wins)",
            f"element of risk {percent(g.element_of_risk)} per unit wagered; "
            f"raise frequency {percent(g.raise_frequency)}"]


def game_str(g: Any) -> str:
    width = max(len(r.label) for r in g.rows)
    lines = [f"{g.profile.name} paytable, {g.strategy} strategy, "
             f"{g.total_combinations:,} deals counted exactly"]
    lines += [f"  {label:<{width}}  {net:>5}  {count:>19}  {ret}" for label, net, count, ret in _game_rows(g)]
    return "\n".join(lines + _game_summary(g))


def game_html(g: Any) -> str:
    return html_table(f"{g.profile.name} paytable, {g.strategy} strategy",
                      ("event", "net (antes)", "combinations", "return"), _game_rows(g),
                      notes=_game_summary(g))


# --------------------------------------------------------------------------- stud equity
def stud_player_text(p: Any) -> str:
    """``"Kh | 9c 4d"``, ``"? | Qh 4c"`` for an unknown hole card."""
    hole = "?" if p.hole is None else format_card(p.hole)
    return f"{hole} | {format_cards(p.up)}"


def stud_player_repr(p: Any) -> str:
    return f"StudPlayer({stud_player_text(p)!r})"


def stud_position_repr(position: Any) -> str:
    players = [stud_player_text(p) for p in position.players]
    dead = f", dead={format_cards(position.dead)!r}" if position.dead else ""
    return f"StudPosition({players!r}{dead})"


def equity_repr(r: Any) -> str:
    equities = "[" + ", ".join(whole_or_fraction(p.equity) for p in r.players) + "]"
    hands = f"hands={list(r.hands)!r}, " if r.hands else ""
    return (f"EquityResult({hands}method={r.method!r}, exact={r.exact}, combinations={r.combinations}, "
            f"equity={equities})")


def _equity_rows(r: Any) -> list[tuple[str, str, str, str, str]]:
    seats = [f"{i} {hand}" for i, hand in enumerate(r.hands, 1)] if r.hands else \
        [str(i) for i in range(1, len(r.players) + 1)]
    return [(seat, percent(p.win, 3), percent(p.tie, 3), percent(p.lose, 3), percent(p.equity, 3))
            for seat, p in zip(seats, r.players, strict=True)]


def _equity_note(r: Any) -> str:
    if r.exact:
        return f"exact: {r.method}, {r.combinations:,} equally likely deals"
    return f"sampled ({r.method}): {r.samples:,} deals, seed {r.seed}; see each player's standard_error"


def equity_str(r: Any) -> str:
    rows = _equity_rows(r)
    width = max(6, *(len(row[0]) for row in rows))
    lines = [_equity_note(r), f"{'player':<{width}}      win      tie     lose   equity"]
    lines += [f"{seat:<{width}} {win:>8} {tie:>8} {lose:>8} {eq:>8}" for seat, win, tie, lose, eq in rows]
    return "\n".join(lines)


def equity_html(r: Any) -> str:
    return html_table("Five-card stud showdown equity", ("player", "win", "tie", "lose", "equity"),
                      _equity_rows(r), notes=(_equity_note(r),))
