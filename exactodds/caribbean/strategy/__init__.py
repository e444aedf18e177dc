"""Caribbean Stud strategies, in one home: strategies as data and their exact cost (built-in, user
rules, strategy tables: ``strategies.py``), the optimal strategy as a table and its summary
(``table.py``) and chart (``chart.py``), and the pocket strategy card a person can follow at the
table, found by an exact search (``card/``; its ``.py`` file is a strategy ``strategies.py`` reads)."""
