"""Five-card stud (seed 004): the rules profile, the hand state machine, pots, hand histories, equity."""
