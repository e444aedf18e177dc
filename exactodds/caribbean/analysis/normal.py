"""The normal game (one dealer card seen) as ``caribbean analyze`` reports it: the exact return
table of optimal play, its figures, the dealer's qualifying odds, hold intervals and the
published figure beside ours, from the compact count (no numba needed once it is cached)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from exactodds.caribbean.analysis.compact import optimal_result
from exactodds.caribbean.analysis.figures import (
    DealerQualifying,
    HoldInterval,
    MainWagerFigures,
    dealer_qualifying,
    hold_intervals,
    main_wager_figures,
)
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.published.holecard import PublishedFigure, published_figures

NORMAL_GAME_METHOD = "counting sweep over (player class, up card), the normal game"


@dataclass(frozen=True, kw_only=True)
class NormalGame:
    """The normal game of a paytable: ``game.house_edge`` is the expected loss per ante (lower is
    better for the player); ``published`` is the shipped published figure, if any."""

    game: GameResult
    figures: MainWagerFigures
    qualifying: DealerQualifying
    holds: tuple[HoldInterval, ...]
    published: PublishedFigure | None
    seconds: float
    method: str = NORMAL_GAME_METHOD

    @classmethod
    def of(cls, game: GameResult, *, published: PublishedFigure | None = None,
           seconds: float = 0.0) -> NormalGame:
        """The normal game's figures of ``game`` (the one-dealer-card game under any strategy): the
        main wager's figures, the dealer's qualifying odds and the hold intervals."""
        figures = main_wager_figures(game)
        return cls(game=game, figures=figures, qualifying=dealer_qualifying(game),
                   holds=hold_intervals(game, figures), published=published, seconds=seconds)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, with the keys of a hole-carding result's ``to_dict()`` and the figures."""
        out: dict[str, Any] = {"dealer_known": 1, "method": self.method, **self.game.to_dict()}
        if self.published is not None:
            out["published"] = self.published.to_dict(house_edge=self.game.house_edge)
        out["seconds"] = round(self.seconds, 3)
        out["figures"] = self.figures.to_dict()
        out["dealer_qualifying"] = self.qualifying.to_dict()
        out["hold_intervals"] = [h.to_dict() for h in self.holds]
        return out


def normal_game(profile: Profile) -> NormalGame:
    """The normal game of ``profile`` under the optimal strategy (its count must be prepared:
    :func:`~exactodds.caribbean.analysis.compact.prepare_compact`)."""
    start = time.perf_counter()
    game = optimal_result(profile)
    published = published_figures().get((profile.name, 1))
    normal = NormalGame.of(game, published=published)
    return replace(normal, seconds=time.perf_counter() - start)
