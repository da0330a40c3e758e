"""Crazy Breens special cards as small effects on the shared engine (not yet written)."""
