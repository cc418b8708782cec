"""Ledger entries and their postings. Postings are append-only and every entry sums to zero per
quantity: checked by the writer everywhere, and by a deferred constraint trigger on PostgreSQL
(with triggers refusing any update, delete or truncate: the scoring app's migrations made them,
with the tables, before this app held the models)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from clubs.models import Club, Player


class Quantity(models.TextChoices):
    POINTS = "points", "Points"
    CHIPS = "chips", "Chips"
    MONEY = "money", "Money (minor units)"


class AccountKind(models.TextChoices):
    PLAYER = "player", "Player"
    CLUB = "club", "Club"
    # The book's own account (a game's pot, bank or pool); its stored value is older than books.
    BOOK = "game", "The book's own account (a pot, a bank, a pool)"


class Book(models.Model):
    """What holds a set of accounts' entries: a game's (its players, its pot, the club), and
    later a tournament's purse, a club's or a season's. ``owner`` names the kind of thing that
    holds it (``ledger.owners``); the ledger reads no owner's rows."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="books")
    owner = models.CharField(max_length=16, help_text="The kind of thing that holds the book.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.owner} book #{self.pk}"


class LedgerEntry(models.Model):
    """A balanced set of postings: one deal's result, an entry fee, a payout, a reversal."""

    class Kind(models.TextChoices):
        DEAL = "deal", "Deal result"
        REVERSAL = "reversal", "Reversal of a corrected result"
        ENTRY_FEE = "entry_fee", "Entry fee"
        REJOIN = "rejoin", "Rejoin"
        PAYOUT = "payout", "Prize payout"
        OPENING = "opening", "Opening chips"
        SETTLEMENT = "settlement", "Match settlement"
        REFUND = "refund", "Pot refunded"

    book = models.ForeignKey(Book, on_delete=models.PROTECT, related_name="entries")
    deal = models.ForeignKey(
        "scoring.Deal", on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    submission = models.ForeignKey(
        "scoring.Submission",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    memo = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "scoring_ledgerentry"  # the table and its guards are older than this app
        ordering = ["id"]
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class Posting(models.Model):
    """One ledger line. Append-only: never updated or deleted (refused by PostgreSQL)."""

    entry = models.ForeignKey(LedgerEntry, on_delete=models.PROTECT, related_name="postings")
    # Denormalised from the entry so that balances are one indexed scan, whatever the history.
    # (The composite indexes below also serve the book and player foreign keys.)
    book = models.ForeignKey(
        Book, on_delete=models.PROTECT, related_name="postings", db_index=False
    )
    quantity = models.CharField(max_length=8, choices=Quantity.choices)
    account = models.CharField(max_length=8, choices=AccountKind.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="postings",
        db_index=False,
    )
    amount = models.BigIntegerField()

    class Meta:
        db_table = "scoring_posting"  # the table and its guards are older than this app
        constraints = [
            models.CheckConstraint(
                condition=(Q(account="player") & Q(player__isnull=False))
                | (~Q(account="player") & Q(player__isnull=True)),
                name="posting_player_account_has_player",
            ),
        ]
        indexes = [
            models.Index(fields=["book", "quantity", "player"], name="posting_book_balance"),
            models.Index(fields=["player", "quantity"], name="posting_player_balance"),
            # A book's newest entry that moved a player (the standings' last change).
            models.Index(
                fields=["book", "-entry"],
                name="posting_book_newest_entry",
                condition=Q(account="player"),
            ),
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        who = self.player or self.account
        return f"{who} {self.amount:+d} {self.quantity}"
