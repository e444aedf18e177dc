"""Paytable profiles: the shipped files, and every way a user's file can be malformed."""

from fractions import Fraction

import pytest

from exactodds.cards import parse_cards
from exactodds.caribbean.decision.decide import decide
from exactodds.caribbean.profile import (
    PAY_CATEGORIES,
    QUALIFIERS,
    available_profiles,
    load_profile,
)
from exactodds.errors import ProfileError
from exactodds.handrank import evaluate

SHIPPED = ("standard", "betmgm", "royal500", "royal200", "royal250", "microgaming")
PAYS = {
    "royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
    "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 1,
}


def toml_text(pays=PAYS, **top) -> str:
    """A profile file: name first, then top-level fields (TOML literals), then [pays]."""
    lines = ['name = "custom"']
    lines += [f"{key} = {value}" for key, value in top.items()]
    lines.append("[pays]")
    lines += [f"{key} = {value}" for key, value in pays.items()]
    return "\n".join(lines) + "\n"


def write(tmp_path, text: str, name: str = "custom.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_profiles():
    assert set(SHIPPED) <= set(available_profiles())
    royal = {name: load_profile(name).pays["royal_flush"] for name in SHIPPED}
    assert royal == {"standard": 100, "betmgm": 100, "royal500": 500, "royal200": 200,
                     "royal250": 250, "microgaming": 999}
    standard = load_profile("standard")
    assert dict(standard.pays) == {k: Fraction(v) for k, v in PAYS.items()}
    assert (standard.call, standard.qualifier, standard.cap) == (2, "ak", None)
    assert load_profile("betmgm").pays["four_of_a_kind"] == 25
    for name in SHIPPED:
        profile = load_profile(name)
        assert profile.name == name and profile.source and profile.description


def test_win_nets_standard():
    standard = load_profile("standard")
    assert standard.win_net(evaluate("As Ks Qs Js Ts")) == 201
    assert standard.win_net(evaluate("Ah Kd 7c 4s 2h")) == 3
    assert standard.lose_net == -3
    assert standard.pay_category(evaluate("Ah Qd 7c 4s 2h")) is None


@pytest.mark.parametrize(
    "text,field,problem",
    [
        (toml_text(pays=PAYS | {"five_aces": 1000}), "pays.five_aces", "is not a category"),
        (toml_text(pays=PAYS | {"flush": -5}), "pays.flush", "must not be negative"),
        (toml_text(pays={k: v for k, v in PAYS.items() if k != "straight"}), "pays.straight", "is missing"),
        (toml_text(pays=PAYS | {"pair": '"one"'}), "pays.pair", "must be a number"),
        (toml_text(pays=PAYS | {"pair": "[1]"}), "pays.pair", "got list"),
        (toml_text(pays=PAYS | {"pair": "true"}), "pays.pair", "got bool"),
        (toml_text(pays=PAYS | {"pair": "nan"}), "pays.pair", "must be a number"),
        (toml_text(bonus=5), "bonus", "is not a profile field"),
        (toml_text(qualifier='"king"'), "qualifier", "must be one of ak, pair"),
        (toml_text(qualifier='["ak"]'), "qualifier", "must be one of ak, pair"),
        (toml_text(call=0), "call", "must be positive"),
        (toml_text(call='"two"'), "call", "must be a number"),
        (toml_text(cap=-1), "cap", "must not be negative"),
        (toml_text(description=3), "description", "must be a string"),
        ("[pays]\nflush = 5\n", "name", "is missing"),
        ('name = "x"\npays = 5\n', "pays", "is missing or not a table"),
        ('name = "x"\n', "pays", "is missing or not a table"),
    ],
)
def test_malformed_file_names_file_and_field(tmp_path, text, field, problem):
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert str(path) in message and f"'{field}'" in message and problem in message
    assert "\n" not in message


def test_invalid_toml_names_file(tmp_path):
    path = write(tmp_path, 'name = "x"\n[pays\nflush = 5\n')
    with pytest.raises(ProfileError, match="is not valid TOML") as info:
        load_profile(str(path))
    assert str(path) in str(info.value) and "line 2" in str(info.value)


def test_unreadable_paths(tmp_path):
    with pytest.raises(ProfileError, match="does not exist"):
        load_profile(tmp_path / "nowhere.toml")
    with pytest.raises(ProfileError, match="cannot be read"):
        load_profile(tmp_path)  # a directory
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ProfileError, match="is not valid TOML"):
        load_profile(bad)


def test_unknown_name_lists_known_profiles():
    with pytest.raises(ProfileError, match='unknown paytable "nosuch"') as info:
        load_profile("nosuch")
    assert all(name in str(info.value) for name in SHIPPED)


def test_custom_file_with_call_qualifier_cap(tmp_path):
    path = write(tmp_path, toml_text(call=3, qualifier='"pair"', cap="50.5",
                                     pays=PAYS | {"flush": '"11/2"', "pair": 1.5}))
    profile = load_profile(path)
    assert profile.name == "custom"
    assert (profile.call, profile.qualifier, profile.cap) == (3, "pair", Fraction(101, 2))
    assert profile.pays["flush"] == Fraction(11, 2) and profile.pays["pair"] == Fraction(3, 2)
    assert profile.qualify_strength == QUALIFIERS["pair"]
    # Royal: 3 x 100 capped at 50.5, plus the ante. Flush: 3 x 11/2 = 16.5, plus the ante.
    assert profile.win_net(evaluate("As Ks Qs Js Ts")) == Fraction(103, 2)
    assert profile.win_net(evaluate("As 9s 7s 4s 2s")) == Fraction(35, 2)
    assert profile.win_net(evaluate("Qs Qd 7s 4c 2s")) == Fraction(11, 2)
    assert profile.lose_net == -4
    assert set(profile.pays) == set(PAY_CATEGORIES)


def test_custom_profile_changes_the_decision(tmp_path):
    # Dealer K-Q-9-8 + one of {6h, Ah}: A-K qualifies under "ak", nothing qualifies under "pair".
    hand, known = "Ad Jc 5h 4s 3c", ["Kd", "Qh", "9c", "8s"]
    keep = set(parse_cards(hand) + parse_cards(known) + parse_cards("6h Ah"))
    dead = [c for c in range(52) if c not in keep]
    standard = decide(hand, up=known[0], hole=known[1:], dead=dead)
    assert (standard.completions, standard.dealer_not_qualify, standard.dealer_wins) == (2, 1, 1)
    assert standard.ev_raise == -1 and standard.decision == "fold"  # an exact EV tie folds
    pair = write(tmp_path, toml_text(qualifier='"pair"'))
    relaxed = decide(hand, up=known[0], hole=known[1:], dead=dead, profile=pair)
    assert relaxed.dealer_not_qualify == 2 and relaxed.ev_raise == 1 and relaxed.decision == "raise"


def test_equal_profiles_have_one_key_and_hash_whatever_the_order_of_their_pays():
    from types import MappingProxyType

    from exactodds.caribbean.profile import Profile

    standard = load_profile("standard")
    reordered = Profile(name=standard.name, description=standard.description, source=standard.source,
                        pays=MappingProxyType(dict(reversed(list(standard.pays.items())))),
                        call=standard.call, qualifier=standard.qualifier, cap=standard.cap)
    assert reordered == standard and reordered.key == standard.key and hash(reordered) == hash(standard)
    betmgm = load_profile("betmgm")
    assert betmgm.key != standard.key and len({standard, reordered, betmgm}) == 2


def test_the_situation_outcomes_are_one_cached_result_per_profile():
    from exactodds.caribbean.analysis.game import OUTCOMES, situation_outcomes

    first = situation_outcomes("standard")
    assert situation_outcomes(load_profile("standard")) is first
    assert OUTCOMES.peek(load_profile("standard")) is first and len(OUTCOMES) <= OUTCOMES.maxsize


def test_the_bounded_cache_evicts_the_least_recently_used():
    from exactodds.memo import BoundedCache

    cache: BoundedCache[str, int] = BoundedCache(maxsize=2, name="test")
    calls: list[str] = []
    for key in ("a", "b", "a", "c", "a", "b"):
        cache.get(key, lambda key=key: calls.append(key) or len(calls))
    assert calls == ["a", "b", "c", "b"] and cache.peek("c") is None and cache.peek("a") == 1
    with pytest.raises(ValueError, match="at least one"):
        BoundedCache(maxsize=0, name="none")
