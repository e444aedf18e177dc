"""Caribbean Stud Poker: paytables, settlement, decisions, the whole game, strategies, studies, the table."""
