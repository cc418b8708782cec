"""Every write of a tournament, one module per responsibility (keyword-only, atomic, audited;
the tournament's row is locked before any decision about it). Money goes through the purse
(``tournaments.purse``)."""
