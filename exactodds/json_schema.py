"""The documented shape of every command's ``--json`` output, as data (rendered in docs/json.md).

A spec is a type name (see TYPES), an object ``{key: spec}`` (a key ending in "?" may be absent;
no other key may appear), a one-element list ``[spec]`` (a list of items), ``("nullable", spec)``
or ``("map", spec)`` (an object whose keys are data, e.g. event names). :func:`problems` checks a
value against a spec; ``FORBIDDEN_KEYS`` are the old names of ideas the one vocabulary renamed.
"""

from __future__ import annotations

import re
from typing import Any

Spec = Any
CATEGORIES = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
              "three_of_a_kind", "two_pair", "pair", "ak_high", "high_card")

TYPES = {
    "exact": 'an exact number as a "p/q" string',
    "int": "a JSON integer (a count)",
    "float": "a JSON number (for display, or a statistic)",
    "bool": "true or false",
    "str": "a string",
    "card": 'one card, e.g. "Jh"',
    "cards": 'a list of cards, e.g. ["Qh", "Qs", "9d"]',
    "category": "a hand category: " + ", ".join(CATEGORIES),
}
FORBIDDEN_KEYS = {"profile": "paytable", "std_error": "standard_error", "ci95": "interval_95",
                  "royal": "royal_flush", "quads": "four_of_a_kind",
                  # the number of equally likely cases is "combinations"
                  "completions": "combinations", "total_combinations": "combinations",
                  "outcomes_total": "combinations", "total": "combinations",
                  "dealer_completions": "combinations_per_decision",
                  "completions_per_up_card": "combinations_per_up_card",
                  # a hand's expected net per ante (or per unit staked) is "expected_return"
                  "total_return": "expected_return", "exact_ev": "expected_return",
                  "normal_return": "expected_return", "ev": "expected_return",
                  "player_edge_float": "expected_return_float",
                  # a hand's net result is "net"; a count of players is "player_count"
                  "net_units": "net"}
# Floats that have no exact twin: square roots (standard deviations) and statistics of samples.
FLOAT_ONLY = {"standard_deviation_float", "standard_deviation_per_ante_float",
              "standard_deviation_per_unit_wagered_float"}
_EXACT = re.compile(r"^-?\d+/\d+$")
_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def nullable(spec: Spec) -> tuple[str, Spec]:
    return ("nullable", spec)


def mapping(spec: Spec) -> tuple[str, Spec]:
    return ("map", spec)


HAND = {"hand": "cards", "strength": "int", "category": "category", "description": "str"}
RETURN_ROW = {"event": "str", "label": "str", "net": "exact", "combinations": "int"}
GAME = {
    "exact": "bool", "paytable": "str", "strategy": "str", "combinations": "int", "rows": [RETURN_ROW],
    "total_units": "exact", "expected_return": "exact", "expected_return_float": "float",
    "house_edge": "exact", "house_edge_float": "float", "element_of_risk": "exact",
    "element_of_risk_float": "float", "raise_frequency": "exact", "raise_frequency_float": "float",
    "dealer_qualifies_frequency": "exact", "dealer_qualifies_frequency_float": "float",
}
PUBLISHED = {"quantity": "str", "percent": "exact", "difference_percent_points": "float", "source": "str",
             "note": "str"}
HOLECARD_COMMON = {"dealer_known": "int", "published?": PUBLISHED,
                   "seconds": "float", "method": "str"}
ESTIMATE = {"mean": "exact", "mean_float": "float", "standard_error": "float", "interval_95": ["float"]}
STRATEGY = {
    "strategy": "str", "total_units": "exact", "combinations": "int", "house_edge": "exact",
    "house_edge_float": "float", "element_of_risk": "exact", "element_of_risk_float": "float",
    "raise_frequency": "exact", "raise_frequency_float": "float", "cost_vs_optimal_units": "exact",
    "cost_vs_optimal_per_ante": "exact", "cost_vs_optimal_per_ante_float": "float",
}
STUD_PLAYER = {"hole": nullable("card"), "up": "cards", "win": "exact", "tie": "exact", "lose": "exact",
               "equity": "exact", "equity_float": "float", "split": mapping("exact"),
               "standard_error": nullable("float"), "interval_95": nullable(["float"])}

FIGURES = {"paytable": "str", "strategy": "str", "standard_deviation_per_ante_float": "float",
           "standard_deviation_per_unit_wagered_float": "float"} | {
    key + suffix: kind
    for key in ("house_edge_per_ante", "average_total_wager_antes", "element_of_risk_per_unit_wagered",
                "rtp_per_unit_wagered", "hit_frequency", "push_frequency", "loss_frequency",
                "raise_frequency", "variance_per_ante", "variance_per_unit_wagered",
                "hold_variance_per_unit_wagered")
    for suffix, kind in (("", "exact"), ("_float", "float"))
}
QUALIFYING = {"qualifier": "str", "combinations_per_up_card": "int",
              "by_up_rank": [{"rank": "str", "qualifying": "int", "probability": "exact",
                              "probability_float": "float"}],
              "from_up_card": "exact", "from_up_card_float": "float", "over_all_deals": "exact",
              "over_all_deals_float": "float"}
SIDEBET = {
    "sidebet": "str", "description": "str", "example": "bool", "pays_on": "str", "stake": "exact",
    "stake_returned": "bool", "exact": "bool", "meter": "exact", "meter_reset": nullable("exact"),
    "meter_contribution": nullable("exact"), "combinations": "int",
    "lines": [{"category": "category", "combinations": "int", "probability": "exact",
               "probability_float": "float", "pay": "exact", "contribution": "exact"}],
    "expected_return": "exact", "expected_return_float": "float", "house_edge": "exact",
    "house_edge_float": "float", "return_slope_per_meter_dollar": "exact", "return_intercept": "exact",
    "break_even_meter": nullable("exact"), "break_even_meter_float": nullable("float"),
    "break_even_note": nullable("str"), "hit_frequency": "exact", "hit_frequency_float": "float",
    "variance": "exact", "variance_float": "float", "standard_deviation_float": "float",
}

CARD_CONDITION = {"kind": "str", "rank?": "str", "position?": "int", "count?": "int"}
CARD_RULE = {"categories": ["category"], "conditions": [CARD_CONDITION], "action": "str"}
CARD_LENGTH = {
    "rules": "int", "rules_used": "int",
    "card": {"rules": [CARD_RULE], "raise_from": "category", "text": ["str"]},
    "cost_vs_optimal_units": "exact", "cost_vs_optimal_per_ante": "exact",
    "cost_vs_optimal_per_ante_float": "float", "house_edge": "exact", "house_edge_float": "float",
    "cost_lower_bound_units": "exact", "proven": "bool", "method": "str",
}

SOLVE_POINT = {"history": ["str"], "next_up": nullable("cards"), "player": "int", "to_call": "int",
               "actions": ["str"], "reach": "float", "totals": mapping("float"),
               "holes": [{"card": "card", "weight": "float", "probabilities": ["float"]}]}
SOLVE_ACTION = {"action": "str", "chips": "float", "probability": "float"}
DECISION = {
    "player": "int", "round": "int", "hole": "card", "up": ["cards"], "in_hand": ["bool"], "pot": "int",
    "to_call": "int", "best": "str",
    "actions": [{"action": "str", "words": "str", "expected_return": "exact",
                 "expected_return_float": "float", "standard_error": nullable("float"), "later_play": "str"}],
    "difference": nullable({"best": "str", "second": "str", "margin": "exact", "margin_float": "float",
                            "standard_error": nullable("float")}),
    "exact": "bool", "method": "str", "later_play": "str", "later_candidates": ["str"],
    "pilot_samples": nullable("int"), "samples": nullable("int"), "seed": nullable("int"),
    "target_standard_error": nullable("float"), "target_met": "bool", "hidden_states": "int",
    "opponents": [{"player": "int", "model": "str", "in_hand": "bool", "hole_cards": "cards"}],
    "surprises": [{"player": "int", "round": "int", "action": "str", "model": "str", "text": "str"}],
    "equilibrium": nullable({"round": "int", "method": "str", "exploitability_fraction_of_pot": "float",
                             "actions": [{"action": "str", "probability": "float", "chips": "float"}]}),
    "equilibrium_note": "str", "seconds": "float",
}

SCHEMAS: dict[str, Spec] = {
    "rank": HAND,
    "compare": {"result": "int", "first": HAND, "second": HAND},
    "caribbean decide": {
        "decision": "str", "ev_raise": "exact", "ev_raise_float": "float", "ev_fold": "exact",
        "margin": "exact", "margin_float": "float", "combinations": "int", "dealer_not_qualify": "int",
        "player_wins": "int", "tie": "int", "dealer_wins": "int", "wins_by_payout": mapping("int"),
        "outcomes": [{"event": "str", "count": "int", "net": "exact"}], "hand": "cards",
        "hand_strength": "int", "hand_description": "str", "up": "card", "hole": "cards", "dead": "cards",
        "paytable": "str",
    },
    "caribbean analyze": GAME | HOLECARD_COMMON | {
        "deal_count?": "str", "figures": FIGURES, "dealer_qualifying": QUALIFYING,
        "hold_intervals": [{"hands": "int", "method": "str", "interval_95_per_ante": ["float"],
                            "interval_95_per_unit_wagered": nullable(["float"])}],
    },
    "caribbean analyze (several paytables)": {"paytables": [GAME | HOLECARD_COMMON | {
        "figures": FIGURES, "dealer_qualifying": QUALIFYING,
        "hold_intervals": [{"hands": "int", "method": "str", "interval_95_per_ante": ["float"],
                            "interval_95_per_unit_wagered": nullable(["float"])}],
    }]},
    "caribbean analyze --edge-sort": GAME | {
        "method": "str", "signal": "str", "dealer_known": "int", "sorted_ranks?": "str", "information": "str",
        "deal_count": "str", "situations": "int", "raised_situations": "int",
        "published": [{"quantity": "str", "percent": "exact", "difference_percent_points": "float",
                       "source": "str", "note": "str"}],
        "seconds": "float",
    },
    "caribbean analyze --samples": HOLECARD_COMMON | {
        "exact": "bool", "paytable": "str", "strategy": "str", "samples": "int", "seed": "int",
        "expected_return": "exact", "expected_return_float": "float", "house_edge": "exact",
        "house_edge_float": "float", "standard_error": "float", "interval_95": ["float"],
        "raise_frequency": "exact", "raise_frequency_float": "float",
    },
    "caribbean verify": {
        "figures": [{"quantity": "str", "paytable": nullable("str"), "kind": "str", "published": "str",
                     "computed": "exact", "match": nullable("bool"), "source": "str", "note": "str"}],
        "matched": "int", "noted": "int", "failed": "int",
    },
    "caribbean strategies": {"paytable": "str", "strategies": [STRATEGY]},
    "caribbean card": {
        "exact": "bool", "paytable": "str", "combinations": "int", "optimal_house_edge": "exact",
        "optimal_house_edge_float": "float", "rules_asked": "int", "card": CARD_LENGTH,
        "pareto": [CARD_LENGTH], "rules_of_thumb_cost_units": "exact", "covers_grammar": "bool",
        "search": {"beam_width": "int", "per_move": "int", "exact_rules": "int", "exact_nodes": "int"},
    },
    "caribbean session": {
        "exact": "bool", "method": "str", "paytable": "str", "strategy": "str", "hands": "int",
        "per_hand": {"expected_return": "exact", "expected_return_float": "float", "variance": "exact",
                     "distribution": [["any"]], "combinations": "int"},
        "p_ahead": "exact", "p_ahead_float": "float", "p_even": "exact", "p_even_float": "float",
        "p_behind": "exact", "p_behind_float": "float", "mean": "exact", "mean_float": "float",
        "variance": "exact", "variance_float": "float", "standard_deviation_float": "float",
        "quantiles": [{"level": "exact", "level_float": "float", "value": "exact"}], "chart?": "str",
    },
    "caribbean sidebet": SIDEBET,
    "caribbean progressive": SIDEBET,
    "caribbean simulate": {
        "exact": "bool", "method": "str", "paytable": "str", "strategy": "str", "seed": "int",
        "samples": "int", "hands": "int", "requested": "int", "interrupted": "bool", "mean": "exact",
        "mean_float": "float", "standard_error": "float", "interval_95": ["float"],
        "expected_return": "exact", "expected_return_float": "float", "t_statistic": "float",
        "p_value": "float", "chi_square": "float",
        "chi_square_p_value": "float", "chi_square_cells": "int", "event_counts": mapping("int"),
        "event_expected": mapping("float"), "seconds": "float", "hands_per_second": nullable("float"),
    },
    "caribbean collusion": {
        "exact": "bool", "method": "str", "paytable": "str", "player_count": "int", "seed": "int",
        "samples": "int", "requested": "int", "interrupted": "bool", "combinations_per_decision": "int",
        "expected_return": "exact", "expected_return_float": "float", "paired_return": "exact",
        "paired_return_float": "float",
        "gain": ESTIMATE, "direct_return": ESTIMATE, "changed_decisions": "int", "burn_card_seen": "bool",
        "published": [{"quantity": "str", "published": "str", "percent": "exact",
                       "difference_percent_points": "float", "source": "str", "note": "str"}],
        "count_strategy": nullable({"cells": "int", "raised_cells": "int", "train_samples": "int",
                                    "test_samples": "int", "paired_return": "exact",
                                    "paired_return_float": "float", "gain": ESTIMATE}),
    },
    "stud equity": {
        "exact": "bool", "method": "str", "combinations": "int", "samples": nullable("int"),
        "seed": nullable("int"), "players": [STUD_PLAYER], "dead": "cards", "street": "int",
        "budget": "float",
        "decision?": {"seat": "int", "pot": "exact", "to_call": "exact", "equity": "exact",
                      "ev_call": "exact", "ev_call_float": "float", "ev_fold": "exact",
                      "break_even_equity": "exact", "best": "str", "exact": "bool", "kind": "str",
                      "equity_exact": "bool"},
    },
    "stud deal": {"seed": "int", "players": [{"player": "int", "hole": "card", "up": "cards"}],
                  "bring_in": "int", "first_to_act": ["int"]},
    "stud replay": {
        "variant": "str", "starting_stacks": ["int"], "streets": [{"round": "int", "events": ["str"]}],
        "pots": [{"amount": "int", "players": ["int"], "winners": mapping("int")}], "returned": ["int"],
        "showdown_order": ["int"], "hands": mapping({"cards": "cards", "description": "str"}),
        "payoffs": ["int"], "finishing_stacks": ["int"],
    },
    "stud replay (session)": {
        "variant": "str", "players": ["str"], "reserve": "int",
        "hands": [{"hand": "int", "dealer_seat": "int", "seats": ["int"], "starting_stacks": ["int"],
                   "rebuys": ["int"], "finishing_stacks": ["int"],
                   "pots": [{"amount": "int", "seats": ["int"], "winners": mapping("int")}]}],
        "hands_played": "int",
        "results": [{"seat": "int", "player": "str", "start": "int", "rebuys": "int", "finish": "int",
                     "net": "int"}],
        "net_total": "int",
    },
    "stud solve": {
        "method": "str", "round": "int", "seats": ["int"], "up": ["cards"], "dead": "cards", "pot": "int",
        "stacks": ["int"], "history": ["str"], "player_to_act": "int", "actions": ["str"], "ranges": ["str"],
        "note": "str", "card_classes": ["cards"], "root": SOLVE_POINT, "hole": nullable("card"),
        "action_values": nullable([SOLVE_ACTION]), "values": ["float"],
        "exploitability": {"chips": "float", "fraction_of_pot": "float", "best_response_values": ["float"],
                           "profile_values": ["float"]},
        "iterations": "int", "stopped": "str", "seconds": "float", "decisions": [SOLVE_POINT],
        "against_bots?": DECISION,
    },
    "stud solve --all": {
        "source": "str", "rounds": ["int"], "ranges": "str", "cost_by_seat": mapping("float"),
        "decisions": [{"hand": "int", "at": "int", "seat": "int", "round": "int", "to_call": "int",
                       "taken": "str", "best": "str", "ev_taken": "float", "ev_best": "float",
                       "cost": "float", "method": "str", "action_values": [SOLVE_ACTION],
                       "exploitability_fraction_of_pot": "float", "iterations": "int"}],
    },
    "stud decide": DECISION,
    "stud decide --all": {
        "source": "str", "opponents": "str", "later_play": "str", "samples": "int", "seed": "int",
        "decisions": [{"hand": "int", "at": "int", "seat": "int", "round": "int", "to_call": "int",
                       "taken": "str", "best": "str", "cost": "exact", "cost_float": "float",
                       "cost_standard_error": nullable("float"), "mistake": "bool", "exact": "bool",
                       "actions": [{"action": "str", "expected_return": "exact",
                                    "expected_return_float": "float", "standard_error": nullable("float")}]}],
        "cost_by_seat": mapping({"cost": "exact", "cost_float": "float"}),
    },
    "stud table": {
        "player_count": "int", "street": "str", "exact": "bool", "method": "str", "ran_on": "str",
        "seconds": "float", "classes": "int", "deals": "int", "weights": "int", "deals_per_situation": "int",
        "starting_hands": [{"hand": "str", "deals": "int", "rank": "int", "equity": "exact",
                            "equity_float": "float", "by_opp_up_rank": mapping("exact")}],
        "written": ["str"],
    },
    "stud table --players 3": {
        "player_count": "int", "street": "str", "exact": "bool", "ran_on": "str", "seconds": "float",
        "classes": "int", "deals": "int", "weights": "int", "sampled_rows": "int", "samples": "int",
        "seed": "int", "budget": "float",
        "starting_hands": [{"hand": "str", "rank": "int", "equity": "exact", "equity_float": "float",
                            "exact": "bool", "standard_error": "float"}],
        "written": ["str"],
    },
}


def problems(value: Any, spec: Spec, where: str = "$") -> list[str]:
    """Every way ``value`` departs from ``spec`` (empty when it conforms), each naming its path."""
    if isinstance(spec, tuple):
        kind, inner = spec
        if kind == "nullable":
            return [] if value is None else problems(value, inner, where)
        if not isinstance(value, dict):
            return [f"{where}: expected an object, got {type(value).__name__}"]
        return [p for k, v in value.items() for p in problems(v, inner, f"{where}.{k}")]
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            return [f"{where}: expected an object, got {type(value).__name__}"]
        found: list[str] = []
        keys = {k.rstrip("?"): k.endswith("?") for k in spec}
        for key, optional in keys.items():
            if key not in value and not optional:
                found.append(f"{where}: missing key {key!r}")
        for key, item in value.items():
            if key not in keys:
                found.append(f"{where}: undocumented key {key!r}")
            else:
                found += problems(item, spec[key + "?" if keys[key] else key], f"{where}.{key}")
        return found
    if isinstance(spec, list):
        if not isinstance(value, list):
            return [f"{where}: expected a list, got {type(value).__name__}"]
        return [p for i, item in enumerate(value) for p in problems(item, spec[0], f"{where}[{i}]")]
    return [] if _is(value, spec) else [f"{where}: expected {TYPES.get(spec, spec)}, got {value!r}"[:200]]


def _is(value: Any, kind: str) -> bool:
    if kind == "any":
        return True
    if kind == "exact":
        return isinstance(value, str) and bool(_EXACT.match(value))
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "card":
        return isinstance(value, str) and bool(_CARD.match(value))
    if kind == "category":
        return value in CATEGORIES
    if kind == "cards":
        return isinstance(value, list) and all(isinstance(c, str) and _CARD.match(c) for c in value)
    raise ValueError(f"unknown type {kind!r} in a JSON schema")


def forbidden_keys(value: Any, where: str = "$") -> list[str]:
    """Keys anywhere in ``value`` that leave the one vocabulary: an old name of an idea (see
    FORBIDDEN_KEYS), a ``<key>_float`` without its exact ``<key>`` (outside FLOAT_ONLY), or
    ``players`` that is not a list (a count is ``player_count``)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in FORBIDDEN_KEYS:
                found.append(f"{where}.{key}: say {FORBIDDEN_KEYS[key]!r}")
            if key.endswith("_float") and key not in FLOAT_ONLY and key.removesuffix("_float") not in value:
                found.append(f"{where}.{key}: a float without its exact {key.removesuffix('_float')!r}")
            if key == "players" and not isinstance(item, list):
                found.append(f"{where}.players: a list of players; a count is 'player_count'")
            found += forbidden_keys(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += forbidden_keys(item, f"{where}[{i}]")
    return found


def describe(spec: Spec) -> str:
    """A short text of a spec's type, for docs/json.md."""
    if isinstance(spec, tuple):
        kind, inner = spec
        return f"{describe(inner)} or null" if kind == "nullable" else f"object of {describe(inner)}"
    if isinstance(spec, dict):
        return "object"
    if isinstance(spec, list):
        return f"list of {describe(spec[0])}"
    return {"exact": '"p/q"', "int": "integer", "float": "number", "bool": "boolean", "str": "string",
            "card": "card", "cards": "cards", "category": "category", "any": "any"}[spec]


def markdown() -> str:
    """The key tables of docs/json.md, generated from SCHEMAS (a test keeps the page in step)."""
    out: list[str] = []

    def table(spec: dict[str, Spec], prefix: str) -> None:
        for key, item in spec.items():
            name = prefix + key.rstrip("?")
            note = " (optional)" if key.endswith("?") else ""
            out.append(f"| `{name}` | {describe(item)}{note} |")
            inner = item[0] if isinstance(item, list) else item
            if isinstance(inner, dict):
                table(inner, name + ("[]." if isinstance(item, list) else "."))

    for command, spec in SCHEMAS.items():
        out += [f"### `exactodds {command} --json`", "", "| key | type |", "|---|---|"]
        table(spec, "")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # print the generated tables for docs/json.md
    print(markdown())
