"""The whole Caribbean Stud game: every deal counted by a strength-ordered sweep, return table, house edge."""
