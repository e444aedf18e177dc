"""Five-card stud under the home fixed-limit rules: the rules profile, the hand state machine,
pots, hand histories, equity."""
