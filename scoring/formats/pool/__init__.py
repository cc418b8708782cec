"""Pool rummy (101, 201, 61): scores accumulate to the limit; rejoins, agreed splits, the pot."""
