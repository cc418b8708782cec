"""What the three Indian rummy formats (points, pool, deals) share: checking a deal, its entry
form, its API input and how the deal page shows it."""
