"""The search for the cheapest card of each length: one hand category at a time, then combined exactly.

**The cards searched.** A card is an ordered list of rules and a category line (see
:mod:`exactodds.caribbean.strategy.card.grammar`). The search builds rules of two shapes: rules with one to
three conditions within one category, and rules without conditions over a range of categories.

**Why one category at a time loses nothing.** A rule without conditions over a range decides every
cell of the range that no earlier rule decides, so any later rule within the range never decides
anything: drop those, and move the rules without conditions (in their order) behind the others.
The card decides the same and has no more rules. In that form a category's cells are decided by its
own conditioned rules, then by its *default*: the action the trailing unconditioned rules and the
line give it. A card's cost is the sum over categories of what its rules for that category lose
against that default, so the cheapest card of n rules is, over every pattern of defaults the line
and u trailing rules can give, the cheapest way to share the n - u other rules among the
categories: an exact combination (:func:`default_patterns`, :func:`search`) of the cheapest list of
each length for each category and default (:func:`search_category`). A category whose cells all
gain from one action (*unanimous*) needs no conditioned rule.

**When that is the whole grammar.** The grammar also reads rules with conditions over several
categories. When exactly one category is mixed, every category below it always folds and every one
above always raises (the case of every shipped paytable: only A-K high is mixed), such a rule can be
cut to its part in the mixed category and the line moved to that category or the next, keeping the
mixed category's decisions and making every other category right: so there the cheapest card of
the shapes searched is the cheapest card of the grammar (:attr:`SearchOutcome.covers_grammar`).

**Per category and default.** A beam search (:mod:`exactodds.caribbean.strategy.card.beam`) gives a list of
every length; branch and bound (:mod:`exactodds.caribbean.strategy.card.exact`) then proves it cheapest, or
replaces it by a cheaper one, for lengths up to ``exact_rules``, each within ``exact_nodes``. Every
cost reported is recomputed exactly from the card itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card.beam import Beam, BeamSettings
from exactodds.caribbean.strategy.card.evaluate import Cells
from exactodds.caribbean.strategy.card.exact import branch_and_bound
from exactodds.caribbean.strategy.card.grammar import (
    BELOW_AK,
    MAX_CONDITIONS,
    NEVER,
    TOP,
    Atom,
    Card,
    Rule,
    all_atoms,
)
from exactodds.caribbean.strategy.card.problem import CategoryProblem, Draft, category_problem
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict

CATEGORIES = tuple(range(BELOW_AK, TOP + 1))
Pattern = tuple[bool, ...]   # per category of CATEGORIES: True = raise by default


@dataclass(frozen=True, kw_only=True)
class SearchSettings:
    """What the search covers and how long it may prove (more is slower and never worse)."""

    atoms: tuple[Atom, ...] = field(default_factory=all_atoms)
    max_conditions: int = MAX_CONDITIONS
    beam: BeamSettings = field(default_factory=BeamSettings)
    # branch and bound for lists of up to this many rules: 2 finishes in seconds on the shipped paytables;
    # 3 does not finish in 30,000 nodes there (docs/methods.md), so it would only add minutes
    exact_rules: int = 2
    exact_nodes: int = 5_000      # branch-and-bound work per category, default action and length


@dataclass(frozen=True, kw_only=True)
class ListFound:
    """The cheapest list of at most ``rules`` rules found for one category and default action."""

    rules: int
    draft: Draft
    regret: int             # exact, x scale (lower is better; 0: every cell gets its better action)
    lower: int = 0          # proven: no list of at most ``rules`` rules has a smaller regret
    nodes: int = 0          # branch-and-bound nodes searched (0: not tried)
    seconds: float = 0.0    # branch-and-bound time
    stopped: bool = False   # branch and bound was tried and stopped at its time limit

    @property
    def proven(self) -> bool:
        """True: no list of at most ``rules`` rules is cheaper than this one."""
        return self.lower >= self.regret

    def to_dict(self) -> JSONDict:
        return {"rules": self.rules, "draft": [[list(c), flip] for c, flip in self.draft],
                "lower": self.lower,
                "nodes": self.nodes, "seconds": round(self.seconds, 3), "stopped": self.stopped}

    @classmethod
    def from_dict(cls, data: JSONDict, problem: CategoryProblem, default: Choice) -> ListFound:
        """Read back; the regret is recomputed exactly from the list (never trusted)."""
        draft: Draft = tuple((tuple(int(a) for a in c), bool(flip)) for c, flip in data["draft"])
        if any(not 0 <= a < len(problem.atoms) for c, _ in draft for a in c):
            raise ValueError("condition index out of range")
        return cls(rules=int(data["rules"]), draft=draft, regret=problem.regret(draft, default),
                   lower=int(data["lower"]), nodes=int(data["nodes"]), seconds=float(data["seconds"]),
                   stopped=bool(data["stopped"]))


def search_category(problem: CategoryProblem, max_rules: int, settings: SearchSettings,
                    step: Callable[[], None] | None = None) -> dict[Choice, list[ListFound]]:
    """For each default action and n = 0..max_rules, the cheapest list of at most n rules found for
    ``problem``, with a proven lower bound where branch and bound ended in time (see the module
    docstring). The two defaults' searches share their bound: a list is only sought below the
    cheapest list of either default."""
    beams = {d: Beam(problem, d, settings.beam, max_conditions=settings.max_conditions) for d in Choice}
    found: dict[Choice, list[ListFound]] = {}
    for d in Choice:
        regret = problem.regret((), d)
        found[d] = [ListFound(rules=0, draft=(), regret=regret, lower=regret)]
    for n in range(1, max_rules + 1):
        best: dict[Choice, ListFound] = {}
        for d in Choice:
            draft, regret = beams[d].grow()
            previous = found[d][-1]
            best[d] = (previous if previous.regret <= regret
                       else ListFound(rules=n, draft=draft, regret=regret))
        if n <= settings.exact_rules:
            for d in sorted(Choice, key=lambda a: best[a].regret):
                outcome = branch_and_bound(problem, d, n, incumbent=best[d].draft,
                                           cutoff=min(b.regret for b in best.values()),
                                           previous_optimum=found[d][-1].lower,
                                           nodes=settings.exact_nodes,
                                           max_conditions=settings.max_conditions)
                if outcome.regret < best[d].regret:
                    beams[d].add(outcome.draft)
                best[d] = ListFound(rules=n, draft=outcome.draft, regret=outcome.regret, lower=outcome.lower,
                                    nodes=outcome.nodes, seconds=outcome.seconds,
                                    stopped=not outcome.finished)
        for d in Choice:
            b = best[d]
            found[d].append(ListFound(rules=n, draft=b.draft, regret=b.regret,
                                      lower=b.lower if b.rules == n else 0,
                                      nodes=b.nodes, seconds=b.seconds, stopped=b.stopped))
            if step:
                step()
    return found


def _range_rule(lowest: int, highest: int, action: Choice) -> Rule:
    return Rule(lowest=lowest, highest=highest, conditions=(), action=action)


def default_patterns(max_rules: int) -> dict[Pattern, tuple[int, tuple[Rule, ...]]]:
    """Every pattern of per-category defaults that a category line and at most ``max_rules`` trailing
    rules without conditions give, each with a line and the fewest such rules giving it."""
    found: dict[Pattern, tuple[int, tuple[Rule, ...]]] = {}
    for line in range(BELOW_AK, NEVER + 1):
        found.setdefault(tuple(c >= line for c in CATEGORIES), (line, ()))
    frontier = list(found)
    for _ in range(max_rules):
        new: list[Pattern] = []
        for pattern in frontier:
            line, rules = found[pattern]
            for lo in range(len(CATEGORIES)):
                for hi in range(lo, len(CATEGORIES)):
                    for action in Choice:
                        # the new rule goes first among the trailing rules: it decides its range
                        value = action == Choice.RAISE
                        child = pattern[:lo] + (value,) * (hi - lo + 1) + pattern[hi + 1:]
                        if child not in found:
                            rule = _range_rule(CATEGORIES[lo], CATEGORIES[hi], action)
                            found[child] = (line, (rule, *rules))
                            new.append(child)
        frontier = new
    return found


@dataclass(frozen=True, kw_only=True)
class CardFound:
    """The cheapest card of at most ``rules`` rules found, its exact cost, and whether it is proven."""

    rules: int
    card: Card
    cost_scaled: int        # exact cost against optimal play x scale (0 = optimal; lower is better)
    lower_scaled: int       # proven: no card of at most ``rules`` rules of the searched shapes costs less
    lists: tuple[ListFound, ...]   # the per-category lists used (the mixed categories')

    @property
    def proven(self) -> bool:
        """True: no card of at most ``rules`` rules of the searched shapes is cheaper than this one."""
        return self.lower_scaled >= self.cost_scaled


@dataclass(frozen=True, kw_only=True)
class SearchOutcome:
    """The cheapest card of every length 0..max_rules, and what the search covered."""

    cards: tuple[CardFound, ...]
    covers_grammar: bool    # True: the searched shapes include a cheapest card of the whole grammar
    settings: SearchSettings


class _Combiner:
    """The exact combination of per-category lists into cards (see the module docstring)."""

    def __init__(self, problems: dict[int, CategoryProblem], lists: dict[tuple[int, bool], list[ListFound]],
                 max_rules: int) -> None:
        self.problems, self.lists = problems, lists
        self.patterns = default_patterns(max_rules)
        self.mixed = sorted({c for c, _ in lists})
        self.still = {(c, raised): p.regret((), Choice.RAISE if raised else Choice.FOLD)
                      for c, p in problems.items() if c not in self.mixed for raised in (False, True)}

    def _share(self, pattern: Pattern, budget: int, lower: bool) -> tuple[int, tuple[int, ...]]:
        """The least total regret (or lower bound) of the mixed categories with at most ``budget`` rules
        in all, and how many each gets; with ``lower`` the unanimous categories may take rules too."""
        costs: list[list[int]] = []
        for c in self.mixed:
            found = self.lists[(c, pattern[CATEGORIES.index(c)])]
            entries = [found[min(n, len(found) - 1)] for n in range(budget + 1)]
            costs.append([e.lower if lower else e.regret for e in entries])
        for c in self.problems:
            if c not in self.mixed:
                regret = self.still[(c, pattern[CATEGORIES.index(c)])]
                costs.append([regret] + [0 if lower else regret] * budget)
        best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}  # rules used -> (total, allocation)
        for row in costs:
            nxt: dict[int, tuple[int, tuple[int, ...]]] = {}
            for used, (total, alloc) in best.items():
                for n in range(budget - used + 1):
                    key = used + n
                    value = (total + row[n], (*alloc, n))
                    if key not in nxt or value[0] < nxt[key][0]:
                        nxt[key] = value
            best = nxt
        return min(best.values())

    def card(self, n: int, cells: Cells) -> CardFound:
        upper: tuple[int, Pattern, tuple[int, ...]] | None = None
        lower: int | None = None
        for pattern, (_, unconditioned) in self.patterns.items():
            if len(unconditioned) > n:
                continue
            total, alloc = self._share(pattern, n - len(unconditioned), lower=False)
            if upper is None or (total, len(unconditioned)) < (upper[0], len(self.patterns[upper[1]][1])):
                upper = (total, pattern, alloc)
            bound, _ = self._share(pattern, n - len(unconditioned), lower=True)
            lower = bound if lower is None else min(lower, bound)
        assert upper is not None and lower is not None  # the lines alone give patterns with no rule
        total, pattern, alloc = upper
        line, trailing = self.patterns[pattern]
        rules: list[Rule] = []
        used: list[ListFound] = []
        for c, k in zip(self.mixed, alloc, strict=False):
            raised = pattern[CATEGORIES.index(c)]
            found = self.lists[(c, raised)][min(k, n)]
            used.append(found)
            rules += self.problems[c].rules(found.draft, Choice.RAISE if raised else Choice.FOLD)
        card = Card(rules=(*rules, *trailing), raise_from=line)
        cost = cells.cost_scaled(card.decide(cells.features))
        floors = sum(p.floor for p in self.problems.values())
        if cost != total + floors:
            raise CardSearchInternalError(f"card of {n} rules: cost {cost} != combined {total + floors}")
        return CardFound(rules=n, card=card, cost_scaled=cost, lower_scaled=min(lower + floors, cost),
                         lists=tuple(used))


class CardSearchInternalError(ExactOddsError):
    """The combined cost of a card disagrees with its direct evaluation (a defect, never bad input)."""


def covers_grammar(problems: dict[int, CategoryProblem]) -> bool:
    """True when one category is mixed, those below it always fold and those above always raise."""
    mixed = [c for c, p in problems.items() if p.mixed]
    if len(mixed) != 1:
        return not mixed
    star = mixed[0]
    return all((p.gain <= 0).all() if c < star else (p.gain >= 0).all()
               for c, p in problems.items() if c != star)


def search(cells: Cells, *, max_rules: int, settings: SearchSettings | None = None,
           progress: Callable[[], None] | None = None,
           solve: Callable[[CategoryProblem, int, SearchSettings], dict[Choice, list[ListFound]]]
           | None = None
           ) -> SearchOutcome:
    """For n = 0..max_rules, the cheapest card of at most n rules found, its exact cost x scale, and
    whether it is proven cheapest. ``solve`` replaces :func:`search_category` (a cache uses it);
    ``progress`` is called after each category, default and length. Lower cost is better.
    """
    settings = settings or SearchSettings()
    problems = {c: category_problem(cells, c, settings.atoms) for c in CATEGORIES
                if cells.category_slice(c, c).stop > cells.category_slice(c, c).start}
    lists: dict[tuple[int, bool], list[ListFound]] = {}
    for c, problem in problems.items():
        if problem.mixed:
            per_default = (search_category(problem, max_rules, settings, progress) if solve is None
                           else solve(problem, max_rules, settings))
            for default, found in per_default.items():
                lists[(c, default == Choice.RAISE)] = found
    combiner = _Combiner(problems, lists, max_rules)
    cards = tuple(combiner.card(n, cells) for n in range(max_rules + 1))
    return SearchOutcome(cards=cards, covers_grammar=covers_grammar(problems), settings=settings)
