"""The counting engine: subset counters, inclusion-exclusion and strength-ordered sweeps.

Everything numba-compiled that more than one game uses lives here; the games' own kernels
(``caribbean/analysis/kernels/whole_game.py``, ``caribbean/holecard/kernels/seen_cards.py``,
``stud/equity/kernels/deal_counts.py``) are built on it. Method: ``docs/methods-counting.md``.

Modules (the kernel modules are compiled by numba; the others are plain Python):

* :mod:`.layout` - column layouts named once (Net, Acc, ClassSum IntEnums), plain.
* :mod:`.deck` - typed bundles of card sets in strength order (StrengthDeck, StrengthRows,
  StackedRows, SlottedRows) and their builders, plain.
* :mod:`.reference` - the slow, obvious reference counter the tests compare with, plain.
* :mod:`.bits` - kernel: card masks, popcount, colex index of a row or masked subset, counter offsets.
* :mod:`.subset_counters` - kernel: SubsetCounters over any deck (add, inclusion-exclusion
  query) and their specialisations (int16, slots, unrolled five-card queries).
* :mod:`.hand_counters` - kernel: the cache-sized five-card counters of the 52-card deck
  (HandCounters) with their queries.
* :mod:`.suits` - kernel: the suit-signature of card sets (suit classes).

Typical use in a kernel (a sweep of B's completions under A's, see
:func:`exactodds.stud.equity.kernels.deal_counts.headsup_sweep`)::

    counters = new_subset_counters(n, r)        # M(S) = 0 for every S of 0..r cards
    add_subsets(counters, y, 1)                 # count a set y (r cards) in all its subsets
    count_avoiding(counters, x)                 # counted sets disjoint from x, exactly
"""
