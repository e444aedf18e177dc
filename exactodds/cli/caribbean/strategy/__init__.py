"""The strategy commands, as the library's ``caribbean/strategy/``: ``strategy`` and ``chart``
(``strategy.py``), ``strategies`` (``strategies.py``) and ``card`` (``card.py``)."""
