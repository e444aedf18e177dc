"""Five-card stud showdown equity: the position model, the counting methods and their chooser,
and the call/fold decision. The names most callers need are re-exported here."""

from exactodds.money import parse_amount
from exactodds.stud.equity.decision import (
    CallDecision,
    DecisionError,
    call_decision,
    check_call_amounts,
)
from exactodds.stud.equity.methods import choose_method, stud_equity
from exactodds.stud.equity.position import (
    MAX_PLAYERS,
    UP_CARDS,
    PositionError,
    StreetError,
    StudPlayer,
    StudPosition,
    check_position,
    parse_player,
    parse_position,
)
from exactodds.stud.equity.results import (
    EquityResult,
    ExactEquity,
    PlayerEquity,
    SampledEquity,
    SampledPlayerEquity,
)
from exactodds.stud.equity.sampling import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MAX_SAMPLES,
    SamplingError,
    check_sampling,
)

__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_SAMPLES", "DEFAULT_SEED", "MAX_PLAYERS", "MAX_SAMPLES",
    "UP_CARDS",
    "CallDecision", "DecisionError", "EquityResult", "ExactEquity", "PlayerEquity", "PositionError",
    "SampledEquity", "SampledPlayerEquity", "SamplingError", "StreetError", "StudPlayer", "StudPosition",
    "call_decision", "check_call_amounts", "check_position", "check_sampling", "choose_method",
    "parse_amount", "parse_player", "parse_position", "stud_equity",
]
