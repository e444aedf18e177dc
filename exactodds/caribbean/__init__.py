"""Caribbean Stud Poker: paytable profiles, settlement, decisions, the whole game, strategies, studies, the table."""
