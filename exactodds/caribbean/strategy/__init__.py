"""Strategies as data (built-in, user rules, strategy tables), their exact cost, and strategy charts."""
