"""Variants that change the turn structure (Crazy Breens' special cards)."""
