"""Exact best responses against a profile, vectorised over hole cards and chance outcomes, and the
exploitability they give.

One walk of the public tree computes, for both players at once, the counterfactual values of the
profile itself and of a best response to the other player's strategy: at a player's own decision the
best response takes the best action for each (outcome, hole card) information set; at the
opponent's decision it sums over the opponent's actions, whose probabilities are in the opponent's
reach. Exploitability is the sum of both best-response values minus the pot (the values of any
profile sum to the pot); it is 0 exactly at an equilibrium. Below each deal of the last up cards the
walk runs compiled (:mod:`exactodds.stud.solve.kernels.best_response_walk`); the numpy walk it is
tested against is :class:`~exactodds.stud.solve.reference.ReferenceBestResponse`, a thin subclass.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from exactodds.stopping import stoppable
from exactodds.stud.solve.cards_to_come import leaf_values
from exactodds.stud.solve.game import Game, Profile
from exactodds.stud.solve.last_round import last_round
from exactodds.stud.solve.third_round import (
    STORAGE,
    SectionLayout,
    SectionStrategy,
    has_deal_below,
    section_of,
)
from exactodds.stud.solve.tree import NodeKind
from exactodds.threaded import run_spans

Values = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # (profile v0, v1, best response b0, b1)


@dataclass(frozen=True, kw_only=True)
class Exploitability:
    """Each player's value (chips from now) under the profile and as a best responder against the
    other's strategy; ``chips`` = best-response values summed minus the pot; ``fraction`` of the pot.
    Lower is better; 0 at an equilibrium."""

    values: tuple[float, float]
    best_response: tuple[float, float]
    chips: float
    fraction: float

    def to_dict(self) -> dict[str, object]:
        return {"chips": self.chips, "fraction_of_pot": self.fraction,
                "best_response_values": list(self.best_response), "profile_values": list(self.values)}


def _kernel() -> ModuleType:  # the compiled walk, imported on first use (numba costs ~0.2 s to import)
    from exactodds.stud.solve.kernels import best_response_walk

    return best_response_walk


def _sections() -> ModuleType:
    from exactodds.stud.solve.kernels import section_walk

    return section_walk


class BestResponseWalk:
    """Counterfactual values (each K x m) of ``profile`` and of best responses to it, below any node of
    the public tree: numpy before the deal, compiled below it (:meth:`below_deal`)."""

    def __init__(self, game: Game, profile: Profile) -> None:
        self.game = game
        self.profile = profile

    def below_deal(self, child: int, r0: np.ndarray, r1: np.ndarray) -> Values:
        """The values of the subtree below a deal at ``child``, compiled (one deal at a time), given both
        reaches arriving at the deal (1 x m each; from a context of several rows, inside a second-round
        solve's section, the walk goes on in numpy)."""
        game, profile = self.game, self.profile
        if len(r0) > 1:  # below a deal of the fourth up cards of a second-round solve: every row at once
            context = game.contexts[game.tree.nodes[child].ctx]
            return self.walk(child, context.down(r0), context.down(r1))
        if has_deal_below(game, child):
            section = section_of(game, child)
            strategy = profile.laid_out.get(child)
            if strategy is None:
                strategy = _laid_out(section, profile)
            values = np.zeros((4, *section.walk.third.mask.shape))
            stoppable(run_spans, _sections().best_response_section, values.shape[1], section.walk,
                      np.ascontiguousarray(r0[0]), np.ascontiguousarray(r1[0]), strategy, values)
            return values[0], values[1], values[2], values[3]
        layout = last_round(game, child)
        tree = layout.subtree
        k, n = layout.mask.shape
        parts = [profile.strategy[g] for local, g in enumerate(layout.nodes) if tree.kind[local] == 0]
        strategy = np.ascontiguousarray(np.concatenate(parts, axis=2)) if parts else np.zeros((k, n, 1))
        out = _kernel().best_response_last_round(tree, layout.outcomes, np.ascontiguousarray(r0[0]),
                                                 np.ascontiguousarray(r1[0]), strategy)
        return out[0], out[1], out[2], out[3]

    def walk(self, node_id: int, r0: np.ndarray, r1: np.ndarray) -> Values:
        """Counterfactual values (each K x m) below ``node_id`` given both reaches per card."""
        game, profile = self.game, self.profile
        node = game.tree.nodes[node_id]
        if node.kind in (NodeKind.FOLD, NodeKind.SHOWDOWN):
            avail = game.contexts[node.ctx].avail
            v0 = leaf_values(node, 0, r1, game.showdown.get((node.ctx, 0)), avail)
            v1 = leaf_values(node, 1, r0, game.showdown.get((node.ctx, 1)), avail)
            return v0, v1, v0, v1
        if node.kind is NodeKind.CHANCE:
            total = [np.zeros_like(r0) for _ in range(4)]
            for child in node.children:
                if child < 0:
                    continue
                context = game.contexts[game.tree.nodes[child].ctx]
                below = self.below_deal(child, r0, r1)
                for t, v in zip(total, below, strict=True):
                    t += context.up(v, len(r0))
            return total[0], total[1], total[2], total[3]
        p = node.player
        sigma = profile.strategy[node_id]
        kids = []
        for a, child in enumerate(node.children):
            if p == 0:
                kids.append(self.walk(child, r0 * sigma[:, :, a], r1))
            else:
                kids.append(self.walk(child, r0, r1 * sigma[:, :, a]))
        own = np.stack([k[p] for k in kids], axis=-1)
        own_br = np.stack([k[2 + p] for k in kids], axis=-1)
        other = sum(k[1 - p] for k in kids)
        other_br = sum(k[3 - p] for k in kids)
        v_own = (own * sigma).sum(axis=-1)
        b_own = own_br.max(axis=-1)
        if p == 0:
            return v_own, other, b_own, other_br  # type: ignore[return-value]
        return other, v_own, other_br, b_own  # type: ignore[return-value]


def _laid_out(section: SectionLayout, profile: Profile) -> SectionStrategy:
    """A profile's strategies over a section laid out as its storage (float32, as a solve stores them:
    the compiled walk reads one type)."""
    shape3, size4 = section.storage()
    out = SectionStrategy(third=np.zeros(shape3, dtype=STORAGE), last=np.zeros(size4, dtype=STORAGE))
    for node, view in section.views(out.last, out.third).items():
        view[...] = profile.strategy[node]
    return out


def walk(game: Game, profile: Profile, node_id: int, r0: np.ndarray, r1: np.ndarray) -> Values:
    """Counterfactual values (each K x m) below ``node_id`` given both reaches per card (see
    :class:`BestResponseWalk`)."""
    return BestResponseWalk(game, profile).walk(node_id, r0, r1)


def root_reach(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """Both players' reach at the root: their range weight per card (1 x m)."""
    return game.weights[0][None, :].copy(), game.weights[1][None, :].copy()


def exploitability(game: Game, profile: Profile) -> Exploitability:
    """The exact exploitability of ``profile`` (chips and fraction of the pot now)."""
    return exploitability_of(game, BestResponseWalk(game, profile))


def exploitability_of(game: Game, walker: BestResponseWalk) -> Exploitability:
    """The exploitability of the profile ``walker`` walks, from its values at the root."""
    v0, v1, b0, b1 = walker.walk(0, *root_reach(game))
    values = (game.value(0, v0), game.value(1, v1))
    best = (game.value(0, b0), game.value(1, b1))
    chips = best[0] + best[1] - game.tree.pot
    return Exploitability(values=values, best_response=best, chips=chips, fraction=chips / game.tree.pot)


def action_values(game: Game, profile: Profile, *, hole: int) -> tuple[float, ...]:
    """For the player to act holding ``hole`` (a card number): the chips from now of each legal action at
    the root followed by the best play against ``profile``'s opponent."""
    tree = game.tree
    p = tree.actor
    root = tree.nodes[0]
    r0, r1 = root_reach(game)
    opponent = game.weights[1 - p]
    x = game.classes.class_of(hole)
    mass = float(opponent @ game.classes.size - opponent[x])
    out = []
    for child in root.children:
        values = walk(game, profile, child, r0, r1)
        out.append(float(values[2 + p][0, x]) / mass)
    return tuple(out)
