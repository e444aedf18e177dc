"""Side bets as data: profiles (:mod:`.profile`) and their exact odds (:mod:`.odds`)."""
