"""A table session's JSON forms: what the player may see now (:func:`session_view`, a
:class:`SessionView`) and everything the store keeps to rebuild the session
(:func:`session_state`, :func:`session_from_state`)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from exactodds.cards import format_card
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS, Profile, profile_from_dict
from exactodds.caribbean.table.coach import Coach, coach_for
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.hand import CoachFn, Hand, Phase
from exactodds.caribbean.table.limits import CHIP_VALUES
from exactodds.caribbean.table.records import HandRecord, fraction_of
from exactodds.handrank import describe
from exactodds.jsonable import exact

RECENT_DEPOSITS = 5  # deposits a view lists (the newest); the history lists them all


class HandView(TypedDict):
    """The hand in play as the player sees it: no hole card of the dealer's."""

    deal: int
    ante: int
    player: list[str]
    player_hand: str
    dealer_up: str
    raise_amount: str
    raise_amount_float: float
    can_afford_raise: bool
    coach: dict[str, Any] | None


class SessionView(TypedDict):
    """What the player may see now (the JSON of every session response). ``odds`` and
    ``odds_status`` are added by the server: the exact session odds once counted, else null."""

    id: str
    paytable: str
    phase: Phase
    hands: int
    hands_played: int
    deals: int
    min_bet: int
    max_bet: int
    chip_values: list[int]
    bankroll: str
    bankroll_float: float
    starting_bankroll: str
    deposits: list[int]      # the newest RECENT_DEPOSITS deposits, oldest first
    deposit_count: int
    deposited: int           # the sum of every deposit
    spot: list[int]
    ante: int
    last_bet: list[int]
    call: str
    hide_coach: bool
    paper: bool
    practice: bool
    seed: int | None
    deck: str
    legal_actions: list[str]
    hand: HandView | None
    last_hand: dict[str, Any] | None
    session: dict[str, Any]
    outcome: str | None
    pays: list[dict[str, str]]
    odds: NotRequired[dict[str, Any] | None]
    odds_status: NotRequired[str]


def session_view(session: TableSession) -> SessionView:
    """What the player may see now (JSON-ready). The dealer's hole cards appear only once settled."""
    out: SessionView = {
        "id": session.id, "paytable": session.profile.name, "phase": session.phase,
        "hands": session.hands, "hands_played": session.hands_played, "deals": session.deals,
        "min_bet": session.min_bet, "max_bet": session.max_bet, "chip_values": list(CHIP_VALUES),
        "bankroll": exact(session.bankroll), "bankroll_float": float(session.bankroll),
        "starting_bankroll": exact(session.starting_bankroll),
        "deposits": session.deposits[-RECENT_DEPOSITS:], "deposit_count": len(session.deposits),
        "deposited": sum(session.deposits),
        "spot": list(session.spot) if session.phase == Phase.BETTING else [],
        "ante": session.ante if session.phase in (Phase.BETTING, Phase.DECISION) else 0,
        "last_bet": list(session.last_bet),
        "call": exact(session.profile.call), "hide_coach": session.hide_coach, "paper": session.paper,
        "practice": session.practice, "seed": session.seed,
        "deck": (f"practice deck (seed {session.seed}): reproducible, not a fair random shuffle"
                 if session.practice else "shuffled by the operating system's CSPRNG"),
        "legal_actions": list(session.legal_actions()), "hand": None,
        "last_hand": (session.history[-1].to_dict() if session.history and session.phase != Phase.DECISION
                      else None),
        "session": session.coach_totals(), "outcome": session.outcome(),
        "pays": [{"category": c, "label": PAY_LABELS[c], "pays": exact(session.profile.pays[c])}
                 for c in reversed(PAY_CATEGORIES)],
    }
    if session.hand is not None:
        hand = session.hand
        out["hand"] = {
            "deal": hand.deal, "ante": hand.ante,
            "player": [format_card(c) for c in hand.player], "player_hand": describe(hand.player),
            "dealer_up": format_card(hand.dealer[0]),
            "raise_amount": exact(session.call_amount), "raise_amount_float": float(session.call_amount),
            "can_afford_raise": session._covers(session.call_amount),
            "coach": None if session.hide_coach else _coach_view(hand.coach),
        }
    return out


def session_state(session: TableSession) -> dict[str, Any]:
    """Everything needed to rebuild this session (hole cards included: server side only)."""
    hand = None
    if session.hand is not None:
        hand = {"deal": session.hand.deal, "ante": session.hand.ante, "player": list(session.hand.player),
                "dealer": list(session.hand.dealer), "ev_raise": exact(session.hand.coach.ev_raise),
                "ev_fold": exact(session.hand.coach.ev_fold)}
    return {
        "id": session.id, "profile": asdict_profile(session.profile),
        "bankroll": exact(session.bankroll),
        "starting_bankroll": exact(session.starting_bankroll), "hands": session.hands,
        "min_bet": session.min_bet, "max_bet": session.max_bet, "seed": session.seed,
        "hide_coach": session.hide_coach, "paper": session.paper,
        "deposits": list(session.deposits), "spot": list(session.spot), "last_bet": list(session.last_bet),
        "phase": session.phase, "deals": session.deals, "hand": hand,
        "history_length": len(session.history),
    }


def session_from_state(state: dict[str, Any], history: list[HandRecord], *,
                       coach_fn: CoachFn = coach_for) -> TableSession:
    """Rebuild a session from :func:`session_state` and its hand records."""
    hand = None
    if state["hand"] is not None:
        h = state["hand"]
        hand = Hand(deal=h["deal"], ante=h["ante"], player=tuple(h["player"]), dealer=tuple(h["dealer"]),
                    coach=Coach(ev_raise=fraction_of(h["ev_raise"]), ev_fold=fraction_of(h["ev_fold"])))
    return TableSession(
        id=state["id"], profile=profile_from_dict(state["profile"], origin="the stored session"),
        bankroll=fraction_of(state["bankroll"]),
        starting_bankroll=fraction_of(state["starting_bankroll"]),
        hands=state["hands"], min_bet=state["min_bet"], max_bet=state["max_bet"], seed=state["seed"],
        hide_coach=state["hide_coach"], paper=state.get("paper", False), deposits=list(state["deposits"]),
        spot=list(state["spot"]),
        last_bet=list(state["last_bet"]), phase=state["phase"], deals=state["deals"], hand=hand,
        history=list(history), coach_fn=coach_fn,
    )


def asdict_profile(profile: Profile) -> dict[str, Any]:
    """A profile as the dict :func:`profile_from_dict` reads back (exact amounts as "p/q")."""
    out: dict[str, Any] = {"name": profile.name, "description": profile.description, "source": profile.source,
                           "pays": {k: exact(v) for k, v in profile.pays.items()},
                           "call": exact(profile.call), "qualifier": profile.qualifier}
    if profile.cap is not None:
        out["cap"] = exact(profile.cap)
    return out


def _coach_view(coach: Coach) -> dict[str, Any]:
    return {"ev_raise": exact(coach.ev_raise), "ev_raise_float": float(coach.ev_raise),
            "ev_fold": exact(coach.ev_fold), "ev_fold_float": float(coach.ev_fold),
            "optimal": coach.optimal, "margin": exact(coach.ev_raise - coach.ev_fold),
            "margin_float": float(coach.ev_raise - coach.ev_fold)}
