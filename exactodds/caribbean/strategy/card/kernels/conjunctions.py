"""numba kernels of the card search: the best conjunctions of conditions for a weight vector, and the
rules a branch-and-bound node may add.

A conjunction is up to three conditions (atom indices i < j < k, -1 unused) of a category problem
(:mod:`exactodds.caribbean.strategy.card.problem`); its cells are those where every condition holds. Weights
are exact int64: the benefit (x scale) of taking the action other than the default on a cell, 0 on a
cell already decided. A set of cells is named by the xor of the cells' keys, so two conjunctions that
select the same cells are counted once (two sets are taken as one only when their names and their
sums agree, so a collision of the 64-bit names would also need equal sums).

Both searches enumerate i, then i & j, then i & j & k, and prune a branch when what is left under it
cannot qualify: adding a condition selects a subset, so the positive part of the weights under a
branch bounds every conjunction in it. :func:`top_conjunctions` sums whole columns of the transposed
membership (weights 0 off the set: contiguous loops that vectorise); :func:`rule_children` walks the
lists of the cells with a nonzero weight.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np


class ConjunctionData(NamedTuple):
    """A category's conditions: ``membership`` (cells, atoms) uint8, 1 where the condition holds, and
    ``columns``, its transpose (atoms, cells) in contiguous rows; ``cell_keys`` (cells,) int64, whose
    xor over a set of cells names the set."""

    membership: np.ndarray
    columns: np.ndarray
    cell_keys: np.ndarray


@numba.njit(cache=True, nogil=True)
def _offer(values, ids, sizes, names, value, name, size, i, j, k):  # noqa: PLR0913
    """Keep (value, conjunction) among the best ``len(values)`` (descending), one per set of cells."""
    top = values.shape[0]
    if value < values[top - 1]:
        return
    for p in range(top):
        if sizes[p] >= 0 and names[p] == name and values[p] == value:  # the same cells
            if size < sizes[p]:  # the same cells with fewer conditions
                ids[p, 0] = i
                ids[p, 1] = j
                ids[p, 2] = k
                sizes[p] = size
            return
    if value == values[top - 1]:
        return
    p = top - 1
    while p > 0 and values[p - 1] < value:
        values[p] = values[p - 1]
        for q in range(3):  # element by element: a row assignment compiles numba's broadcasting
            ids[p, q] = ids[p - 1, q]
        sizes[p] = sizes[p - 1]
        names[p] = names[p - 1]
        p -= 1
    values[p] = value
    ids[p, 0] = i
    ids[p, 1] = j
    ids[p, 2] = k
    sizes[p] = size
    names[p] = name


@numba.njit(cache=True, nogil=True)
def _sums(m, rows, n_rows, weights, keys, start, out_sum, out_pos, out_name, out_n):
    """For every column c >= start of ``m``: the sum, positive part, set name and size of the weights of
    the cells ``rows[:n_rows]`` where column c holds (one pass over the cells, row by row)."""
    n_cols = m.shape[1]
    for c in range(start, n_cols):
        out_sum[c] = 0
        out_pos[c] = 0
        out_name[c] = 0
        out_n[c] = 0
    for u in range(n_rows):
        x = rows[u]
        w = weights[x]
        wp = max(w, 0)
        kx = keys[x]
        for c in range(start, n_cols):
            hit = m[x, c]
            out_sum[c] += hit * w
            out_pos[c] += hit * wp
            out_name[c] ^= hit * kx
            out_n[c] += hit


@numba.njit(cache=True, nogil=True)
def _select(m, rows, n_rows, col, out):
    """Write into ``out`` the cells of ``rows[:n_rows]`` where column ``col`` holds; return how many."""
    n = 0
    for u in range(n_rows):
        x = rows[u]
        if m[x, col]:
            out[n] = x
            n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _hopeless(want, p, q, essential):
    """True when no subset of a conjunction's cells (positive part p, negative part q) can give a wanted
    rule whose right cells are worth more than ``essential``."""
    return (not want & 2 or p <= essential) and (not want & 1 or q <= essential)


@numba.njit(cache=True, nogil=True)
def _column_sum(columns, c, selected):
    """The sum of ``selected`` (a weight per cell, 0 where the cell is not selected) over the cells
    where condition c holds (one contiguous pass, vectorised)."""
    total = 0
    for x in range(selected.shape[0]):
        total += selected[x] * columns[c, x]
    return total


@numba.njit(cache=True, nogil=True)
def _column_sums(columns, selected, start, out_sum):
    """:func:`_column_sum` for every condition c >= start, into ``out_sum[c]``."""
    for c in range(start, columns.shape[0]):
        out_sum[c] = _column_sum(columns, c, selected)


@numba.njit(cache=True, nogil=True)
def _restrict(columns, a, source, out):
    """``out`` = ``source`` on the cells where condition ``a`` holds, 0 elsewhere."""
    for x in range(source.shape[0]):
        out[x] = source[x] * columns[a, x]


@numba.njit(cache=True, nogil=True)
def _set_name(columns, selected_keys, a):
    """The set name (xor of the keys in ``selected_keys``, 0 off the set) of the cells where condition
    ``a`` also holds, -1 if there is none (a key is never 0)."""
    name = 0
    found = False
    for x in range(selected_keys.shape[0]):
        if columns[a, x] and selected_keys[x] != 0:
            name ^= selected_keys[x]
            found = True
    return name if found else -1


@numba.njit(cache=True, nogil=True)
def _by_decreasing(values, index):
    """``index`` (ascending) reordered by decreasing ``values[index]``, ties kept in index order (a
    stable bottom-up merge sort)."""
    count = index.shape[0]
    order = index.copy()
    spare = np.empty(count, dtype=np.int64)
    width = 1
    while width < count:
        for lo in range(0, count, 2 * width):
            mid = min(lo + width, count)
            hi = min(lo + 2 * width, count)
            a, b, k = lo, mid, lo
            while k < hi:
                if b >= hi or (a < mid and values[order[a]] >= values[order[b]]):
                    spare[k] = order[a]
                    a += 1
                else:
                    spare[k] = order[b]
                    b += 1
                k += 1
        order, spare = spare, order
        width *= 2
    return order


@numba.njit(cache=True, nogil=True)
def top_conjunctions(data, weights, eligible, top, max_conditions, above):
    """The ``top`` conjunctions of 1..max_conditions eligible conditions with the largest sum of
    ``weights`` over their cells, each above ``above``, distinct sets of cells.

    Returns (values (top,) int64 descending, ids (top, 3) int64 ascending per row, -1 unused, count
    kept): rows past ``count`` are unused. Exact: single conditions and pairs are all valued; a triple
    is valued only when the positive weights of each of its three pairs exceed the ``top``-th value
    kept (a triple's cells are a subset of each pair's), pairs taken by that bound, largest first.
    Sums run over whole columns with 0 weights off the set: contiguous loops the compiler vectorises.
    """
    columns = data.columns
    n_atoms, n_cells = columns.shape
    values = np.full(top, above, dtype=np.int64)
    ids = np.full((top, 3), -1, dtype=np.int64)
    sizes = np.full(top, -1, dtype=np.int64)
    names = np.zeros(top, dtype=np.int64)
    positive = np.empty(n_cells, dtype=np.int64)
    keys = np.empty(n_cells, dtype=np.int64)  # the cells' keys where the weight is nonzero, else 0
    for x in range(n_cells):
        positive[x] = max(weights[x], 0)
        keys[x] = data.cell_keys[x] if weights[x] != 0 else 0
    s1 = np.zeros(n_atoms, dtype=np.int64)
    b1 = np.zeros(n_atoms, dtype=np.int64)
    _column_sums(columns, weights, 0, s1)
    _column_sums(columns, positive, 0, b1)
    for i in range(n_atoms):
        if eligible[i] and s1[i] >= values[top - 1]:
            name = _set_name(columns, keys, i)
            if name != -1:
                _offer(values, ids, sizes, names, s1[i], name, 1, i, -1, -1)
    if max_conditions < 2:
        return values, ids, _count(sizes)
    s2 = np.zeros((n_atoms, n_atoms), dtype=np.int64)
    b2 = np.zeros((n_atoms, n_atoms), dtype=np.int64)
    w_i = np.empty(n_cells, dtype=np.int64)
    p_i = np.empty(n_cells, dtype=np.int64)
    keys_i = np.empty(n_cells, dtype=np.int64)
    for i in range(n_atoms):
        if not eligible[i] or b1[i] <= values[top - 1]:
            continue
        _restrict(columns, i, weights, w_i)
        _restrict(columns, i, positive, p_i)
        _column_sums(columns, w_i, i + 1, s2[i])
        _column_sums(columns, p_i, i + 1, b2[i])
        _restrict(columns, i, keys, keys_i)
        for j in range(i + 1, n_atoms):
            if eligible[j] and s2[i, j] >= values[top - 1]:
                name = _set_name(columns, keys_i, j)
                if name != -1:
                    _offer(values, ids, sizes, names, s2[i, j], name, 2, i, j, -1)
    if max_conditions < 3:
        return values, ids, _count(sizes)
    # the pairs whose positive weight exceeds the bound: the only ones whose triples can enter
    flat = b2.ravel()
    candidates = np.empty(flat.shape[0], dtype=np.int64)
    n_candidates = 0
    for t in range(flat.shape[0]):
        if flat[t] > values[top - 1]:
            candidates[n_candidates] = t
            n_candidates += 1
    order = _by_decreasing(flat, candidates[:n_candidates])
    w_ij = np.empty(n_cells, dtype=np.int64)
    keys_ij = np.empty(n_cells, dtype=np.int64)
    third = np.empty(n_atoms, dtype=np.int64)
    s3 = np.zeros(n_atoms, dtype=np.int64)
    for t in order:
        i, j = t // n_atoms, t % n_atoms
        bound = values[top - 1]
        if b2[i, j] <= bound:
            break  # pairs sorted by their positive weight: no triple left can enter
        if j <= i or not (eligible[i] and eligible[j]):
            continue
        # a triple whose other pairs' positive weights do not exceed the bound cannot enter either
        n_third = 0
        for k in range(j + 1, n_atoms):
            if eligible[k] and b2[i, k] > bound and b2[j, k] > bound:
                third[n_third] = k
                n_third += 1
        if n_third == 0:
            continue
        _restrict(columns, i, weights, w_i)
        _restrict(columns, j, w_i, w_ij)
        for q in range(n_third):
            s3[q] = _column_sum(columns, third[q], w_ij)
        keys_ready = False
        for q in range(n_third):
            k = third[q]
            if s3[q] >= values[top - 1]:
                if not keys_ready:
                    _restrict(columns, i, keys, keys_i)
                    _restrict(columns, j, keys_i, keys_ij)
                    keys_ready = True
                name = _set_name(columns, keys_ij, k)
                if name != -1:
                    _offer(values, ids, sizes, names, s3[q], name, 3, i, j, k)
    return values, ids, _count(sizes)


@numba.njit(cache=True, nogil=True)
def _count(sizes):
    count = 0
    while count < sizes.shape[0] and sizes[count] >= 0:
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def _child(out, n, i, j, k, p, q, name, limits, last):
    """Append the rules (i, j, k) taking the other action (flip = 1) or the default (0) that qualify;
    ``limits`` = (essential, regret, bound, want) and ``last`` as in :func:`rule_children`."""
    essential, regret, bound, want = limits
    last_flip, l0, l1, l2 = last[0], last[1], last[2], last[3]
    for flip in range(2):
        if not want & (1 << flip):
            continue
        right = p if flip == 1 else q
        wrong = q if flip == 1 else p
        if right <= essential or regret + wrong >= bound:
            continue
        if flip == last_flip and not (l0 < i or (l0 == i and (l1 < j or (l1 == j and l2 < k)))):
            continue  # consecutive rules with one action commute: only increasing conditions
        if n < out.shape[0]:
            out[n, 0] = i
            out[n, 1] = j
            out[n, 2] = k
            out[n, 3] = flip
            out[n, 4] = wrong
            out[n, 5] = right
            out[n, 6] = name
        n += 1
    return n


@numba.njit(cache=True, nogil=True)
def rule_children(data, weights, essential, regret, bound, last, capacity, max_conditions, want):  # noqa: PLR0913
    """The rules a branch-and-bound node may append (weights 0 on the cells already decided).

    A rule (conjunction C, flip) decides the cells S of C with a nonzero weight: flip = 1 takes the
    other action (right = positive weights of S, wrong = the negatives' size), flip = 0 the default
    (right and wrong swapped). Kept: right > ``essential``, ``regret`` + wrong < ``bound``, and after a
    rule with the same flip (``last`` = (flip, i, j, k), flip -1 at the root) only larger conditions.
    ``want``: 1 = rules taking the default, 2 = rules taking the other action, 3 = both. Returns (rows
    (n, 7): i, j, k, flip, wrong, right, set name; the number found, which may exceed
    ``capacity`` (then call again with more room)).
    """
    m = data.membership
    keys = data.cell_keys
    n_cells, n_atoms = m.shape
    out = np.empty((capacity, 7), dtype=np.int64)
    n = 0
    limits = (np.int64(essential), np.int64(regret), np.int64(bound), np.int64(want))
    live = np.empty(n_cells, dtype=np.int64)
    n0 = 0
    for x in range(n_cells):
        if weights[x] != 0:
            live[n0] = x
            n0 += 1
    # per level: sum of the weights, positive part, set name, size; negative part = positive - sum
    s = np.zeros((3, n_atoms), dtype=np.int64)
    b = np.zeros((3, n_atoms), dtype=np.int64)
    h = np.zeros((3, n_atoms), dtype=np.int64)
    c = np.zeros((3, n_atoms), dtype=np.int64)
    first = np.empty(n0, dtype=np.int64)
    second = np.empty(n0, dtype=np.int64)
    _sums(m, live, n0, weights, keys, 0, s[0], b[0], h[0], c[0])
    for i in range(n_atoms):
        if c[0, i] == 0:
            continue
        p1, q1 = b[0, i], b[0, i] - s[0, i]
        n = _child(out, n, i, -1, -1, p1, q1, h[0, i], limits, last)
        if max_conditions < 2 or _hopeless(want, p1, q1, essential):
            continue
        n1 = _select(m, live, n0, i, first)
        _sums(m, first, n1, weights, keys, i + 1, s[1], b[1], h[1], c[1])
        for j in range(i + 1, n_atoms):
            if c[1, j] == 0:
                continue
            p2, q2 = b[1, j], b[1, j] - s[1, j]
            n = _child(out, n, i, j, -1, p2, q2, h[1, j], limits, last)
            if max_conditions < 3 or _hopeless(want, p2, q2, essential):
                continue
            n2 = _select(m, first, n1, j, second)
            _sums(m, second, n2, weights, keys, j + 1, s[2], b[2], h[2], c[2])
            for k in range(j + 1, n_atoms):
                if c[2, k] > 0:
                    n = _child(out, n, i, j, k, b[2, k], b[2, k] - s[2, k], h[2, k], limits, last)
    return out[:min(n, capacity)], n


@numba.njit(cache=True, nogil=True)
def must_flip_atoms(data, weights, threshold):
    """The conditions holding on every cell whose weight is at least ``threshold`` (> 0): a last rule
    that leaves one of those cells to the default loses at least ``threshold``."""
    m = data.membership
    n_cells, n_atoms = m.shape
    eligible = np.ones(n_atoms, dtype=np.bool_)
    for x in range(n_cells):
        if weights[x] >= threshold:
            for a in range(n_atoms):
                if m[x, a] == 0:
                    eligible[a] = False
    return eligible
