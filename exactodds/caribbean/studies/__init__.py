"""Studies of play: session odds, simulation, collusion (side bets, the progressive included, are
profiles of :mod:`exactodds.caribbean.sidebets`)."""
