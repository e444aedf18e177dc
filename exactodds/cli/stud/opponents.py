"""``--opponents MODEL`` and ``--opponents N=MODEL``: the models of the other players, shared by
``stud decide``, ``stud decide --all`` and ``stud play``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import OpponentModel, load_model


def parse_opponents(entries: Sequence[str], numbers: Sequence[int], *, what: str = "player"
                    ) -> dict[int, OpponentModel]:
    """Each of ``numbers`` (1-based players or table seats) with its model: "MODEL" sets everyone's,
    "N=MODEL" one's (the bots by default)."""
    default = load_model("bots")
    named: dict[int, OpponentModel] = {}
    for entry in entries:
        number, sep, name = entry.partition("=")
        if sep and number.strip().isdigit():
            if int(number) not in numbers:
                raise ExactOddsError(f"--opponents {entry}: the {what} must be one of "
                                     f"{', '.join(str(n) for n in numbers)}")
            named[int(number)] = load_model(name.strip())
        else:
            default = load_model(entry.strip())
    return {n: named.get(n, default) for n in numbers}


def describe_opponents(models: Mapping[int, OpponentModel], *, what: str = "p") -> str:
    """"2 opponents playing bots" when every one plays one model, else each one's ("p2 rock, p3 bots")."""
    names = {m.name for m in models.values()}
    if len(names) == 1:
        name = names.pop()
        return f"the {name} model" if len(models) == 1 else f"{len(models)} opponents playing {name}"
    return ", ".join(f"{what}{n} {m.name}" for n, m in sorted(models.items()))
