"""Heads-up equilibrium of five-card stud on the last two betting rounds (the home fixed-limit profile).

Modules: :mod:`~exactodds.stud.solve.start` (the engine hand at the solve's root, ``SolveError``),
:mod:`~exactodds.stud.solve.tree` (the public tree), :mod:`~exactodds.stud.solve.ranges`,
:mod:`~exactodds.stud.solve.card_classes` (the classes of interchangeable cards),
:mod:`~exactodds.stud.solve.cards_to_come` (chance outcomes, showdown strengths and leaf payoffs),
:mod:`~exactodds.stud.solve.game` (the game the solvers read, the profile they write),
:mod:`~exactodds.stud.solve.last_round` (the last round laid out for the kernels),
:mod:`~exactodds.stud.solve.cfr`, :mod:`~exactodds.stud.solve.lp`,
:mod:`~exactodds.stud.solve.best_response`, :mod:`~exactodds.stud.solve.reference` (the references the
fast paths are tested against), :mod:`~exactodds.stud.solve.query` (reading a solved profile),
:mod:`~exactodds.stud.solve.results`, :mod:`~exactodds.stud.solve.api` (``solve_position`` and
``solve_hand``), :mod:`~exactodds.stud.solve.against` (values against a better-known solved opponent),
:mod:`~exactodds.stud.solve.session` (a session's decisions priced).
"""
