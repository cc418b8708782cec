"""A small season of each format's documented layout (pool and deals: each game's places and
money; Rummikub: each game's scores), and its standings computed by hand.

Pool (pool-101), one table a night:
    night 1: Arjun 1st +300, Bhavna 2nd -100, Charu and Dev 3rd -100 each
    night 2: Arjun and Bhavna 1st (a split) +150 each, Charu 3rd -150, Dev 4th -150
    money: Arjun +450, Bhavna +50, Charu -250, Dev -250 (INR, so x100 in paise)
Deals (deals-2), two tables on one night:
    Table 1: Arjun 1st +200, Bhavna 2nd -200; Table 2: Charu 1st +50.50, Dev 2nd -50.50
Rummikub (Sabra), two nights:
    night 1, game 1: Arjun +57, Bhavna -23, Charu -34; game 2: Arjun -8, Bhavna +20, Charu -12
    night 2, game 1: Arjun -10, Bhavna -5, Dev +15
    points: Arjun +39, Bhavna -8, Charu -46, Dev +15"""

from __future__ import annotations

PLAYERS = ["Arjun", "Bhavna", "Charu", "Dev"]

POOL = """date,night,table,player,place,money
2026-01-02,Fri 1,Table 1,Arjun,1,300
2026-01-02,Fri 1,Table 1,Bhavna,2,-100
2026-01-02,Fri 1,Table 1,Charu,3,-100
2026-01-02,Fri 1,Table 1,Dev,3,-100
2026-01-09,Fri 2,Table 1,Bhavna,1,150
2026-01-09,Fri 2,Table 1,Arjun,1,150
2026-01-09,Fri 2,Table 1,Charu,3,-150
2026-01-09,Fri 2,Table 1,Dev,4,-150
"""
#: player -> money in minor units, by hand.
POOL_MONEY = {"Arjun": 45000, "Bhavna": 5000, "Charu": -25000, "Dev": -25000}
#: The second night's places (its split shares the first place).
POOL_NIGHT_2_PLACES = {"Arjun": 1, "Bhavna": 1, "Charu": 3, "Dev": 4}

DEALS = """Date,Night,Table,Player,Place,Money
2026-01-16,Fri 3,Table 1,Arjun,1,200
2026-01-16,Fri 3,Table 1,Bhavna,2,-200
2026-01-16,Fri 3,Table 2,Charu,1,50.50
2026-01-16,Fri 3,Table 2,Dev,2,-50.50
"""
DEALS_MONEY = {"Arjun": 20000, "Bhavna": -20000, "Charu": 5050, "Dev": -5050}

RUMMIKUB = """date,night,table,game,player,score
2026-01-02,Sun 1,Table 1,1,Arjun,57
2026-01-02,Sun 1,Table 1,1,Bhavna,-23
2026-01-02,Sun 1,Table 1,1,Charu,-34
2026-01-02,Sun 1,Table 1,2,Arjun,-8
2026-01-02,Sun 1,Table 1,2,Bhavna,20
2026-01-02,Sun 1,Table 1,2,Charu,-12
2026-01-09,Sun 2,Table 1,1,Arjun,-10
2026-01-09,Sun 2,Table 1,1,Bhavna,-5
2026-01-09,Sun 2,Table 1,1,Dev,15
"""
RUMMIKUB_POINTS = {"Arjun": 39, "Bhavna": -8, "Charu": -46, "Dev": 15}

#: layout -> (sheet, format, the total the standings show, by hand)
SEASONS = {
    "pool_games": (POOL, "pool", "money_minor", POOL_MONEY),
    "deals_games": (DEALS, "deals", "money_minor", DEALS_MONEY),
    "rummikub_games": (RUMMIKUB, "rummikub", "points", RUMMIKUB_POINTS),
}
