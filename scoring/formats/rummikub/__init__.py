"""Rummikub matches (Sabra, American, International): games entered as racks."""
