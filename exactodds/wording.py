"""Small helpers for text a person reads: counts with the right singular or plural noun.

>>> counted(1, "dealer card"), counted(3, "player"), counted(2_000, "equally likely dealer hand")
('1 dealer card', '3 players', '2,000 equally likely dealer hands')
>>> counted(1, "class", "classes"), counted(2, "class", "classes")
('1 class', '2 classes')
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with thousands separators and ``noun`` (singular for 1, else ``plural`` or noun + "s")."""
    word = noun if count == 1 else (plural or noun + "s")
    return f"{count:,} {word}"
