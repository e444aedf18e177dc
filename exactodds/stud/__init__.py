"""Five-card stud (the home fixed-limit profile): the rules, the hand state machine, pots, hand histories,
sessions, bots and equity."""
