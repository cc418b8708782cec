"""Knock-out: the first places of each table go on, until a final table places the last ones."""
