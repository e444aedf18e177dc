"""Heads-up equilibrium of five-card stud on the last two betting rounds (the home fixed-limit profile).

Modules: :mod:`~exactodds.stud.solve.start` (the engine hand at the solve's root),
:mod:`~exactodds.stud.solve.tree` (the public tree), :mod:`~exactodds.stud.solve.ranges`,
:mod:`~exactodds.stud.solve.cards_to_come` (chance outcomes and showdown strengths),
:mod:`~exactodds.stud.solve.terminal` (vectorised payoffs), :mod:`~exactodds.stud.solve.cfr`,
:mod:`~exactodds.stud.solve.lp`, :mod:`~exactodds.stud.solve.best_response`,
:mod:`~exactodds.stud.solve.plain` (the plain reference), :mod:`~exactodds.stud.solve.results`,
:mod:`~exactodds.stud.solve.api` (``solve_position`` and ``solve_hand``).
"""
