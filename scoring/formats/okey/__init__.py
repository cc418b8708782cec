"""Okey, the Turkish tile rummy: a night of deals scored by loss or by countdown."""
