"""Side bets as data: profiles (:mod:`.profile`; the fixed-pay progressive is one, its ``--pays`` read by
``parse_pays``) and their exact odds (:mod:`.odds`)."""
