"""Deals rummy: a fixed number of deals for chips; the most chips wins, ties play a tie-breaker."""
