"""exactodds: exact odds of stud poker games by exhaustive counting.

Strength convention everywhere in this package: a hand strength is an integer in
0..7461 and **higher is stronger** (7461 is a royal flush, 0 is 7-5-4-3-2 offsuit).

The main entry points are importable from here by name; each is loaded on first use
(PEP 562), so ``import exactodds`` stays light and the command line stays fast.

>>> import exactodds
>>> exactodds.evaluate("As Ks Qs Js Ts")
7461
>>> exactodds.decide("Qh Qs 9d 6c 2h", up="Jh").decision
'raise'
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from exactodds.kernels.cache import use_writable_numba_cache

try:
    __version__ = version("exactodds")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"

use_writable_numba_cache()

# name -> module that defines it; imported on first attribute access.
_EXPORTS = {
    # hands
    "evaluate": "exactodds.handrank",
    "compare": "exactodds.handrank",
    "describe": "exactodds.handrank",
    "category_name": "exactodds.handrank",
    "parse_cards": "exactodds.cards",
    "format_cards": "exactodds.cards",
    # Caribbean Stud
    "load_profile": "exactodds.caribbean.profile",
    "Profile": "exactodds.caribbean.profile",
    "decide": "exactodds.caribbean.decision.decide",
    "Decision": "exactodds.caribbean.decision.decide",
    "analyze": "exactodds.caribbean.analysis.game",
    "GameResult": "exactodds.caribbean.analysis.result",
    "ReturnRow": "exactodds.caribbean.analysis.result",
    "analyze_known": "exactodds.caribbean.holecard.exact",
    "HoleCardResult": "exactodds.caribbean.holecard.exact",
    # five-card stud
    "stud_equity": "exactodds.stud.equity.methods",
    "EquityResult": "exactodds.stud.equity.results",
    "ExactEquity": "exactodds.stud.equity.results",
    "SampledEquity": "exactodds.stud.equity.results",
    "PlayerEquity": "exactodds.stud.equity.results",
    "SampledPlayerEquity": "exactodds.stud.equity.results",
    "parse_position": "exactodds.stud.equity.position",
    "StudPosition": "exactodds.stud.equity.position",
    "StudPlayer": "exactodds.stud.equity.position",
    "call_decision": "exactodds.stud.equity.decision",
    "CallDecision": "exactodds.stud.equity.decision",
    # errors
    "ExactOddsError": "exactodds.errors",
}

__all__ = [  # the same names as _EXPORTS (a test checks), written out for tools that read it
    "__version__",
    "evaluate", "compare", "describe", "category_name", "parse_cards", "format_cards",
    "load_profile", "Profile", "decide", "Decision", "analyze", "GameResult", "ReturnRow",
    "analyze_known", "HoleCardResult",
    "stud_equity", "EquityResult", "ExactEquity", "SampledEquity", "PlayerEquity", "SampledPlayerEquity",
    "parse_position", "StudPosition", "StudPlayer",
    "call_decision", "CallDecision",
    "ExactOddsError",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'exactodds' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # for type checkers and IDEs; at run time the names load lazily
    from exactodds.cards import format_cards, parse_cards
    from exactodds.caribbean.analysis.game import analyze
    from exactodds.caribbean.analysis.result import GameResult, ReturnRow
    from exactodds.caribbean.decision.decide import Decision, decide
    from exactodds.caribbean.holecard.exact import HoleCardResult, analyze_known
    from exactodds.caribbean.profile import Profile, load_profile
    from exactodds.errors import ExactOddsError
    from exactodds.handrank import category_name, compare, describe, evaluate
    from exactodds.stud.equity.decision import CallDecision, call_decision
    from exactodds.stud.equity.methods import stud_equity
    from exactodds.stud.equity.position import StudPlayer, StudPosition, parse_position
    from exactodds.stud.equity.results import (
        EquityResult,
        ExactEquity,
        PlayerEquity,
        SampledEquity,
        SampledPlayerEquity,
    )
