"""Text of partial-information results (``caribbean analyze --edge-sort`` / ``--dealer-rank-seen``)."""

from __future__ import annotations

from exactodds.caribbean.holecard.partial import DEAL_CONVENTIONS, PartialResult
from exactodds.cli.game_output import result_text


def _edge(value: float) -> str:
    return f"house edge {value:.4%}" if value >= 0 else f"player edge {-value:.4%}"


def partial_text(result: PartialResult) -> str:
    """The return table, the information, the strategy's size and the published figures."""
    edge = result.house_edge
    lines = [result_text(result.game), "",
             f"information      {result.info.describe()}",
             f"deal count       {DEAL_CONVENTIONS[result.info.kind]}",
             f"result           {_edge(float(edge))}  (exact: {edge} per ante, house edge)",
             f"strategy size    {result.situations:,} situations (player hand, seen cards, signal), "
             f"{result.raised_situations:,} raised"]
    for figure in result.published:
        note = f"; {figure.note}" if figure.note else ""
        lines.append(f"published        player edge {float(figure.percent):.{figure.decimals}f}%; ours minus "
                     f"published {float(figure.difference(result.player_edge)):+.4f} points "
                     f"({figure.source}){note}")
    lines.append(f"method           {result.method}; {result.seconds:.1f} s")
    return "\n".join(lines)
