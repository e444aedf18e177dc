"""``--opponents MODEL`` and ``--opponents N=MODEL``: the models of the other players, shared by
``stud decide``, ``stud decide --all`` and ``stud play``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import OpponentModel, load_model


def parse_opponents(entries: Sequence[str], numbers: Sequence[int], *, what: str = "player",
                    deciding: int | None = None) -> dict[int, OpponentModel]:
    """Each of ``numbers`` (1-based players or table seats) with its model: "MODEL" sets everyone's,
    "N=MODEL" one's (the bots by default). Refused: naming ``deciding`` (the player whose decision it
    is), a number twice, two models for everyone, or two different files whose models share a name."""
    default: OpponentModel | None = None
    named: dict[int, OpponentModel] = {}
    for entry in entries:
        number, sep, name = entry.partition("=")
        if sep and number.strip().isdigit():
            n = int(number)
            if n == deciding:
                raise ExactOddsError(f"--opponents {entry}: {what} {n} is the one deciding; --opponents "
                                     "names the others")
            if n not in numbers:
                raise ExactOddsError(f"--opponents {entry}: the {what} must be one of "
                                     f"{', '.join(str(k) for k in numbers if k != deciding)}")
            if n in named:
                raise ExactOddsError(f"--opponents names {what} {n} twice")
            named[n] = load_model(name.strip())
        else:
            if default is not None:
                raise ExactOddsError(f"--opponents gives two models for everyone ({default.name} and "
                                     f"{entry.strip()}): give one, and N=MODEL for each {what} who differs")
            default = load_model(entry.strip())
    everyone = default if default is not None else load_model("bots")
    models = {n: named.get(n, everyone) for n in numbers if n != deciding}
    origins: dict[str, str] = {}
    for model in models.values():
        if origins.setdefault(model.name, model.origin) != model.origin:
            raise ExactOddsError(f"two opponent models are called {model.name!r} ({origins[model.name]} and "
                                 f"{model.origin}): give them different names (their 'name' field)")
    return models


def describe_opponents(models: Mapping[int, OpponentModel], *, what: str = "p") -> str:
    """"2 opponents playing bots" when every one plays one model, else each one's ("p2 rock, p3 bots")."""
    names = {m.name for m in models.values()}
    if len(names) == 1:
        name = names.pop()
        return f"the {name} model" if len(models) == 1 else f"{len(models)} opponents playing {name}"
    return ", ".join(f"{what}{n} {m.name}" for n, m in sorted(models.items()))
