"""The single Caribbean Stud decision (raise or fold, exact EVs) and the one payout rule."""
