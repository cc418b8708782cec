"""Points rummy: every deal stands alone; losers pay points x value to the winner."""
