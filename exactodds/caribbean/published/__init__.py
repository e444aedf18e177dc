"""Published figures with their sources, and the check of each against the exact count."""
