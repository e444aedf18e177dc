"""Hole-carding: the whole game when K of the dealer's cards are seen (exact for every K, sampled check)."""
