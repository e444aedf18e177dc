"""The five-card stud starting-hand equity table (heads-up, first round, exact): classes, the
batched sweep, the table and its starting-hand summary, files and the heat map."""
