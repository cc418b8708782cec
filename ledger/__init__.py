"""The ledger: money, chips and points as balanced entries of postings. Below the games that
post to it; it knows no format, standing or result."""
