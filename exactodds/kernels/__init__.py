"""How numba's kernels are compiled ahead and cached, for every kernel package of exactodds.

``cache.py`` works out where numba caches and which kernels its cache holds (plain Python: it runs
when exactodds is imported); ``cache_patch.py`` makes an index written by another version count as
absent (every kernel package imports it before its kernels); ``events.py`` hears numba compile a
kernel; ``workers.py`` runs compiling tasks in parallel processes; ``families.py`` groups kernels
into families and compiles them ahead (the registry of the package's families is
:mod:`exactodds.warmup`). Only ``cache_patch`` and ``events`` import numba.
"""
