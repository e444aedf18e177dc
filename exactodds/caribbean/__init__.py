"""Caribbean Stud Poker (seeds 000-003): profiles, settlement, decisions, whole-game analysis."""
