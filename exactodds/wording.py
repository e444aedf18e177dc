"""Small helpers for text a person reads: counts with the right singular or plural noun.

>>> counted(1, "dealer card"), counted(3, "player"), counted(2_000, "equally likely dealer hand")
('1 dealer card', '3 players', '2,000 equally likely dealer hands')
>>> counted(1, "class", "classes"), counted(2, "class", "classes")
('1 class', '2 classes')
"""

from __future__ import annotations


def duration(seconds: float) -> str:
    """``seconds`` as a person says it, rounded: "40 s", "3 minutes", "5 hours", "26 days", "7 years".

    >>> duration(40.2), duration(200), duration(18_000), duration(2.2e6), duration(2.2e8)
    ('40 s', '3 minutes', '5 hours', '25 days', '7 years')
    """
    for unit, size in (("year", 365.25 * 86_400), ("day", 86_400.0), ("hour", 3_600.0), ("minute", 60.0)):
        if seconds >= 2 * size:
            return counted(round(seconds / size), unit)
    return f"{seconds:.0f} s"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with thousands separators and ``noun`` (singular for 1, else ``plural`` or noun + "s")."""
    word = noun if count == 1 else (plural or noun + "s")
    return f"{count:,} {word}"
