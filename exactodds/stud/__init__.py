"""Five-card stud (seed 004)."""
