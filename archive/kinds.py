"""What a club's archive holds, kind by kind, in the order an import writes them (each kind
after every kind it refers to). A kind is a model's rows that belong to the club; a few kinds
carry ids inside their JSON or text fields, which ``remap`` renews on import."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from clubs.models import AuditEntry, Club, Membership, Player
from ledger.models import Book
from scoring.models import (
    Deal,
    Game,
    PlayerResult,
    RulePreset,
    Season,
    Seat,
    Session,
    SessionAccount,
    StandingRow,
    StandingScope,
    Submission,
    Table,
    TableLink,
    TransferPaid,
)
from scoring.table_links import link_keys_new
from series.models import Series, SeriesEvent, SeriesResult
from standings.models import RatedGame, Rating, RatingChange, ResultImport
from standings.result_plan import ResultPlan
from tournaments.models import Entry, Round, RoundTable, Tournament
from webhooks.models import Endpoint
from webhooks.sending import secret_new

USER = "auth.user"
LEDGER_ENTRY = "ledger.ledgerentry"
#: A user's fields an archive carries: who they are, never their password or rights.
USER_FIELDS = ("username", "first_name", "last_name", "email")


class IdMap:
    """Each kind's ids in the archive -> the ids written here."""

    def __init__(self) -> None:
        self.ids: dict[str, dict[int, int]] = {}

    def add(self, kind: str, old: int, new: int) -> None:
        self.ids.setdefault(kind, {})[old] = new

    def new(self, kind: str, old: Any) -> int:
        try:
            return self.ids[kind][int(old)]
        except (KeyError, TypeError, ValueError):
            raise LookupError(f"{kind} {old!r} is not in the archive") from None


Remap = Callable[[dict[str, Any], IdMap], None]
Renew = Callable[[Any], None]


@dataclass(frozen=True)
class Kind:
    name: str
    model: type[models.Model]
    #: The lookup from a row to its club.
    club_lookup: str
    #: Live secrets, never written to an archive (a table link gets a new one on import).
    left_out: tuple[str, ...] = ()
    #: Renews the ids held inside the row's JSON or text fields (values already converted).
    remap: Remap | None = None
    #: Gives a row read from an archive what was left out of it (a new secret).
    renew: Renew | None = None


def _players_in(value: Any, ids: IdMap) -> Any:
    """A submission's payload or result with its player ids renewed: the values of ``player``,
    ``winner`` and ``last_mover``, and the keys of a mapping keyed by player."""
    if isinstance(value, list):
        return [_players_in(item, ids) for item in value]
    if not isinstance(value, dict):
        return value
    renewed: dict[str, Any] = {}
    for key, item in value.items():
        name = str(ids.new("clubs.player", key)) if key.isdigit() else key
        if key in ("player", "winner", "last_mover") and isinstance(item, int):
            renewed[name] = ids.new("clubs.player", item)
        else:
            renewed[name] = _players_in(item, ids)
    return renewed


def _entries_in(value: Any, ids: IdMap) -> Any:
    """Every whole number inside ``value`` is an entry id (a round's draw and who went on)."""
    if isinstance(value, list):
        return [_entries_in(item, ids) for item in value]
    if isinstance(value, dict):
        return {key: _entries_in(item, ids) for key, item in value.items()}
    if isinstance(value, int) and not isinstance(value, bool):
        return ids.new("tournaments.entry", value)
    return value


def _entry_keys(value: dict[str, Any], ids: IdMap) -> dict[str, Any]:
    return {str(ids.new("tournaments.entry", key)): item for key, item in value.items()}


def _submission(fields: dict[str, Any], ids: IdMap) -> None:
    fields["payload"] = _players_in(fields["payload"], ids)
    fields["result"] = _players_in(fields["result"], ids)


def _round(fields: dict[str, Any], ids: IdMap) -> None:
    fields["draw"] = _entries_in(fields["draw"], ids)
    fields["advanced"] = _entries_in(fields["advanced"], ids)
    cost = dict(fields["cost"])
    for pairs in ("again", "same_club"):
        if pairs in cost:
            cost[pairs] = _entries_in(cost[pairs], ids)
    fields["cost"] = cost


def _round_table(fields: dict[str, Any], ids: IdMap) -> None:
    outcome = dict(fields["outcome"] or {})
    for keyed in ("out", "ranks"):
        if keyed in outcome:
            outcome[keyed] = _entry_keys(outcome[keyed], ids)
    for listed in ("advancing", "tied"):
        if listed in outcome:
            outcome[listed] = _entries_in(outcome[listed], ids)
    fields["outcome"] = outcome


def _rated_game(fields: dict[str, Any], ids: IdMap) -> None:
    fields["ranks"] = {str(ids.new("clubs.player", k)): v for k, v in fields["ranks"].items()}


_SCOPE_KINDS = {
    StandingScope.GAME: "scoring.game",
    StandingScope.SESSION: "scoring.session",
    StandingScope.SEASON: "scoring.season",
}


def _standing_row(fields: dict[str, Any], ids: IdMap) -> None:
    fields["scope_id"] = ids.new(_SCOPE_KINDS[fields["scope"]], fields["scope_id"])


def _party(party: str, ids: IdMap) -> str:
    """A settle-up's party: ``player:<id>``, ``pot:<book id>`` or ``club``."""
    kind, _, old = party.partition(":")
    if kind == "player":
        return f"player:{ids.new('clubs.player', old)}"
    if kind == "pot":
        return f"pot:{ids.new('ledger.book', old)}"
    return party


def _transfer_paid(fields: dict[str, Any], ids: IdMap) -> None:
    fields["payer"] = _party(fields["payer"], ids)
    fields["payee"] = _party(fields["payee"], ids)


def _result_import(fields: dict[str, Any], ids: IdMap) -> None:
    """The plan's roster ids (each table's players, each deal's and each total's player), and
    its fingerprint, a digest of the plan with those ids: the same sheet imported again on
    this instance is then known as this import."""
    nights = []
    for night in fields["plan"].get("nights", []):
        tables = [
            {
                **table,
                "players": [ids.new("clubs.player", p) for p in table.get("players", [])],
                "deals": _players_in(table.get("deals", []), ids),
                "totals": _players_in(table.get("totals", []), ids),
                **({"places": _players_in(table["places"], ids)} if "places" in table else {}),
            }
            for table in night.get("tables", [])
        ]
        nights.append({**night, "tables": tables})
    fields["plan"] = {**fields["plan"], "nights": nights}
    fields["fingerprint"] = ResultPlan(layout=fields["layout"], nights=nights).fingerprint


def _endpoint_renewed(endpoint: Endpoint) -> None:
    """A new secret, the endpoint disabled: its receiver knows the old secret, which the
    archive never holds (docs/archive.md)."""
    endpoint.secret = secret_new()
    endpoint.enabled = False


def _audit(fields: dict[str, Any], ids: IdMap) -> None:
    """The object an entry names, where the archive holds it (what it says before and after is
    kept as written)."""
    kind, old = fields["object_type"], fields["object_id"]
    if kind in ids.ids and str(old).isdigit() and int(old) in ids.ids[kind]:
        fields["object_id"] = str(ids.ids[kind][int(old)])


KINDS: tuple[Kind, ...] = (
    Kind("clubs.club", Club, "pk"),
    Kind("clubs.membership", Membership, "club"),
    Kind("clubs.player", Player, "club"),
    Kind("scoring.rulepreset", RulePreset, "club"),
    Kind("scoring.season", Season, "club"),
    Kind("scoring.session", Session, "club"),
    Kind("scoring.table", Table, "session__club"),
    Kind(
        "scoring.tablelink",
        TableLink,
        "table__session__club",
        left_out=("nonce", "digest"),
        renew=link_keys_new,
    ),
    Kind("ledger.book", Book, "club"),
    Kind("scoring.sessionaccount", SessionAccount, "session__club"),
    Kind("scoring.game", Game, "table__session__club"),
    Kind("scoring.seat", Seat, "game__table__session__club"),
    Kind("scoring.deal", Deal, "game__table__session__club"),
    Kind("scoring.submission", Submission, "deal__game__table__session__club", remap=_submission),
    # The ledger's entries come here (``LEDGER_ENTRY``), written through the ledger's writer.
    Kind("scoring.playerresult", PlayerResult, "session__club"),
    Kind("scoring.standingrow", StandingRow, "club", remap=_standing_row),
    Kind("scoring.transferpaid", TransferPaid, "session__club", remap=_transfer_paid),
    Kind("standings.ratedgame", RatedGame, "club", remap=_rated_game),
    Kind("standings.ratingchange", RatingChange, "rated_game__club"),
    Kind("standings.rating", Rating, "club"),
    Kind("tournaments.tournament", Tournament, "club"),
    Kind("tournaments.entry", Entry, "tournament__club", left_out=("link_hash", "signup_key")),
    Kind("tournaments.round", Round, "tournament__club", remap=_round),
    Kind("tournaments.roundtable", RoundTable, "round__tournament__club", remap=_round_table),
    Kind("series.series", Series, "club"),
    Kind("series.seriesevent", SeriesEvent, "series__club"),
    Kind("series.seriesresult", SeriesResult, "event__series__club"),
    Kind("standings.resultimport", ResultImport, "club", remap=_result_import),
    Kind(
        "webhooks.endpoint",
        Endpoint,
        "club",
        left_out=("secret", "sending_until"),
        renew=_endpoint_renewed,
    ),
    Kind("clubs.auditentry", AuditEntry, "club", remap=_audit),
)
BY_NAME = {kind.name: kind for kind in KINDS}
#: Where the ledger's entries stand among the kinds: after the submissions they post.
LEDGER_AFTER = "scoring.submission"


def kind_of_model(model: type[models.Model]) -> str:
    if model is get_user_model():
        return USER
    return model._meta.label_lower


def archived_fields(kind: Kind) -> list[models.Field[Any, Any]]:
    """The columns an archive carries: all but the id, what the database keeps itself (when a
    row last changed here) and the live secrets."""
    return [
        field
        for field in kind.model._meta.concrete_fields
        if not field.primary_key and field.name != "updated_at" and field.name not in kind.left_out
    ]
