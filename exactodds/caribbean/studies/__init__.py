"""Studies of play: session odds, the progressive side bet, simulation, collusion."""
