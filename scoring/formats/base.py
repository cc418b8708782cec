"""The one protocol every game format implements, and what the formats share.

A handler owns everything about its format: which outcomes a deal may have, who plays a deal,
how a result is checked (through the rules engine) and posted, the typed state of a game, the
columns and units it shows, whether and how the game ends (payouts, settlement, a refund), and
the finishing order of its players. Nothing outside ``scoring/formats`` compares a game's format:
it asks the game's handler (``scoring.formats.handler_for``)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from django.utils.translation import gettext, gettext_noop
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Club
from clubs.page_kit.display import signed_number
from config.errors import Conflict
from ledger.models import LedgerEntry, Quantity
from ledger.writer import Line
from rules.indian.deal import DealEvaluation, OutcomeOption, Reason
from scoring.formats.reads import seated_for_deal
from scoring.formats.sections import PresetPreview, PresetSection
from scoring.models import Deal, Game, Submission
from scoring.presets import FormatRules, GameRules


class GameEnd(enum.StrEnum):
    """How a game ended (kept on the game)."""

    PLAYED_OUT = "played_out"  # its rules decided it: the last deal, the last player standing
    BY_ORGANISER = "by_organiser"  # a points table closed, a match ended early
    SPLIT = "split"  # the remaining pool players agreed to share the prize
    ABANDONED = "abandoned"  # stopped before a result: the pot went back to who paid it


@dataclass(frozen=True)
class Checked:
    """A submission as the rules see it: the evaluation, and its JSON form for the record."""

    evaluation: DealEvaluation[int]
    result: dict[str, Any] | None
    reasons: list[dict[str, Any]]


@dataclass(frozen=True)
class Column:
    """A figure a format shows per player: what it is, which ledger quantity it reads, its unit.

    One sign convention on every page, the ledger's: a player's figure is what the player gained
    (+) or gave up (−), a pool score included (−40: 40 points taken toward the limit), and the
    unit in the column's heading says so where it could be read the other way."""

    key: str
    label: str
    quantity: str
    unit: str


MONEY = Column("money", gettext_noop("Money"), Quantity.MONEY, gettext_noop("money"))
CHIPS = Column("chips", gettext_noop("Chips"), Quantity.CHIPS, gettext_noop("chips"))


@dataclass(frozen=True)
class Running:
    """A player's figure in a game in play as the game page shows it, for the screens that follow
    a table (the player's phone, the tournament's public page and projector): the figure, what
    it counts or is out of, and a note ("3 drops left"); ``out``: no longer in the game."""

    figure: str
    unit: str
    note: str = ""
    out: bool = False


@dataclass(frozen=True)
class Tally:
    """A count a format's deal results add to the standings beyond the deals played and won
    that every format counts (``deal_tallies`` gives it under ``field``, a standing row's
    column), and the metric that ranks by it, fewest first (its stable ``metric`` id)."""

    field: str
    metric: str
    label: str
    description: str
    in_points: bool = False  # counted in the points of the game's format


POINTS_CONCEDED = Tally(
    "points_conceded", "fewest_conceded", gettext_noop("Points conceded"),
    gettext_noop("Fewest points conceded as a loser."),
    in_points=True,
)  # fmt: skip


@dataclass(frozen=True)
class Words:
    """How pages speak of a format's parts (marked with ``gettext_noop``, put into words where
    they are shown; ``unit`` is a key the pages choose their sentences by)."""

    unit: str  # one round of play: "deal", or "game" of a Rummikub match
    finish: str  # the organiser's button that ends the game by hand ("" when it cannot)
    finished: str  # said once it has ended that way
    deal_note: str  # what the points of a deal row mean
    signed_points: bool = False  # a deal's points gain or lose (a score), not a count taken
    wild: bool = True  # a deal has a wild joker (the cut card)


@dataclass(frozen=True)
class Ending:
    """A way an open game can end now, offered to the organiser: ``end`` and the words."""

    end: GameEnd
    label: str
    explains: str


@dataclass(frozen=True)
class EndEntry:
    """One ledger entry a format asks for: at a game's start (entry fees, opening chips) or
    at its end (a payout, a settlement, a refund)."""

    kind: str
    lines: list[Line]
    memo: str


@dataclass
class PlayerState:
    player: int
    name: str
    position: int


@dataclass
class GameState:
    """The game as it stands, derived from the ledger; each format extends it."""

    format: str
    status: str
    players: list[Any]

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


#: The initial values of an entry form (``None``: a new result).
Initial = dict[str, Any] | None


class EntryForm(Protocol):
    """The page form a format's deal is entered with (its own ``OnceForm``)."""

    def is_valid(self) -> bool: ...

    def lines(self) -> list[dict[str, Any]]:
        """Per seat, the bound fields a page lays out together."""

    def payload(self) -> dict[str, Any]:
        """The result as the API takes it."""

    def deal_fields(self) -> tuple[str, int | None]:
        """What the form says of the deal itself: its wild joker and dealer ("", ``None``)."""


class GameFormatHandler(Protocol):
    format: ClassVar[str]
    family: ClassVar[str]  # a ``rules.families.Family``: the game family ratings keep apart
    tiebreak_preset: ClassVar[str]  # the built-in preset a tournament's tie-breaker deal plays
    words: ClassVar[Words]
    columns: ClassVar[tuple[Column, ...]]  # the figures of a player in one game
    panel_template: ClassVar[str]  # the game page's section for the format ("" for none)
    entry_template: ClassVar[str]  # the deal entry page
    # "hands" (outcomes, cards or points), "racks" (tiles left) or "okey_deal" (Okey's finish)
    entered_as: ClassVar[str]
    result_template: ClassVar[str]  # the deal page's section showing a version's result
    outcome_words: ClassVar[Mapping[str, str]]  # a deal's outcomes as tables show them
    payload_key: ClassVar[str]  # the field of a submitted result that holds the players' lines
    seats_open: ClassVar[bool]  # players may sit down between deals
    # Past results of the format can be imported from a sheet (``standings.result_plan``).
    imports_results: ClassVar[bool]
    preset_sections: ClassVar[tuple[PresetSection, ...]]  # its own sections of a preset's params
    # The API schema's components of the format (each carries ``format``, the unions'
    # discriminator): a counted result, a result as entered, and the game as it stands.
    result_output: ClassVar[type[serializers.Serializer[Any]]]
    payload_output: ClassVar[type[serializers.Serializer[Any]]]
    state_output: ClassVar[type[serializers.Serializer[Any]]]
    # Every outcome a counted result may give a player (a history line's ``outcome``).
    result_outcomes: ClassVar[tuple[str, ...]]
    # The counts its ``deal_tallies`` give beyond the deals played and won.
    tallies: ClassVar[tuple[Tally, ...]]

    @property
    def variants(self) -> Collection[str]:
        """The variants a preset of the format may name, in the order pages offer them."""

    def preset_rules(self, *, variant: str, params: dict[str, Any]) -> FormatRules:
        """The typed rules of the format's own sections of a preset (``InvalidInput`` names a
        bad setting)."""

    def preset_preview(self, *, rules: GameRules) -> PresetPreview:
        """What the preset form's preview shows of the format's own rules."""

    def outcomes(self, *, rules: GameRules) -> tuple[OutcomeOption, ...]:
        """The outcomes a deal may have (empty: the format enters racks, not outcomes)."""

    def game_opened(self, *, game: Game, rules: GameRules) -> list[EndEntry]:
        """The ledger entries written when the game starts (entry fees, opening chips)."""

    def scores_balance(self, *, rules: GameRules) -> bool:
        """Whether a game's scores sum to zero under ``rules`` (so a sheet of them can be
        imported as the game's result)."""

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        """Refuse (``Conflict``) a new deal the game cannot have now."""

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        """Refuse (``Conflict``) a new version of a deal that already has a decided one."""

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        """Who must appear in an existing deal, in seat order: player id -> name."""

    def next_deal_players(
        self, *, game: Game, rules: GameRules, is_tiebreaker: bool
    ) -> dict[int, str]:
        """Who plays the game's next deal (or its tie-breaker deal), in seat order."""

    def submission_check(
        self, *, submission: Submission, rules: GameRules, players: dict[int, str]
    ) -> Checked:
        """Check and score a submission through the rules engine."""

    def deal_lines(
        self, *, game: Game, rules: GameRules, checked: Checked
    ) -> tuple[list[Line], dict[str, Any]]:
        """The ledger lines of a counted deal, and what to add to its result record."""

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        """After a deal counted: whether the rules end the game now."""

    def state(self, *, game: Game, rules: GameRules) -> GameState:
        """The game as it stands, from the ledger."""

    def endings(self, *, game: Game, rules: GameRules) -> list[Ending]:
        """The ways the organiser may end the open game now (none: it must be played out)."""

    def end_entries(
        self, *, game: Game, rules: GameRules, end: GameEnd, shares: dict[int, int] | None
    ) -> list[EndEntry]:
        """The ledger entries the game's end writes (prize, split ``shares``, settlement,
        refund); refuses (``Conflict``) an end the game cannot have now."""

    def finishing_order(self, *, game: Game, rules: GameRules) -> dict[int, int] | None:
        """Each player's place in the finished game (1 best, equal results share a place), or
        ``None`` when the game has no result (abandoned)."""

    def tiebreaker_due(self, *, state: GameState) -> bool:
        """Whether the game, as it stands (``state``), waits for a tie-breaker deal."""

    def deal_tallies(self, *, outcome: str, points: int, won: bool) -> dict[str, int]:
        """What one player's counted deal result adds to their standing totals (besides the
        ledger's amounts): deals played and won, drops, full counts, points conceded."""

    def payload_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        """The API's input fields of a submitted result in this format (the schema shows the
        fields of every format side by side)."""

    def deal_money(self, *, game: Game, rules: GameRules) -> bool:
        """Whether a deal of the game moves money (a points table with a rate)."""

    def deal_note(self, *, rules: GameRules) -> str:
        """What the points of a deal row mean, for the game's rules."""

    def entry_form(
        self, *, rules: GameRules, players: dict[int, str], data: Any, initial: Initial
    ) -> EntryForm:
        """The page form a deal of the game is entered with: bound to ``data`` when posted, else
        showing ``initial``."""

    def entry_initial(
        self, *, payload: dict[str, Any] | None, wild: str, aliases: dict[int, int]
    ) -> dict[str, Any]:
        """The entry form's initial values that repeat an earlier version (a correction), with
        merged players' old ids (``aliases``) replaced by the kept player's."""

    def entry_context(self, *, game: Game, rules: GameRules, form: EntryForm) -> dict[str, Any]:
        """What the entry page's template and script need besides the form."""

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        """The view-model of the game page's section for the format (empty for none)."""

    def result_view(
        self,
        *,
        club: Club,
        game: Game,
        rules: GameRules,
        submission: Submission,
        names: dict[int, str],
    ) -> dict[str, Any]:
        """The view-model of one version's result on the deal page."""

    def running(self, *, rules: GameRules, held: Mapping[str, int]) -> Running:
        """A player's running figure in the game from what they hold in its book (``held``:
        ledger quantity -> their balance), in the game page's words."""


def reason_dict(
    *,
    code: str,
    message: str,
    player: int | None = None,
    player_name: str | None = None,
    seat: int | None = None,
    token: str | None = None,
    details: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One reason a version did not count, in the one shape every reason has (``ReasonOutput``):
    the player it blames (``None`` only when it blames the deal as a whole), their ``seat``, and
    the card, tile or field at fault (``token``; its place in ``details``)."""
    return {
        "player": player,
        "player_name": player_name,
        "seat": seat,
        "code": code,
        "message": message,
        "token": token,
        "details": details or {},
    }


def reason_dicts(evaluation: DealEvaluation[int], names: dict[int, str]) -> list[dict[str, Any]]:
    return [
        reason_dict(
            player=reason.player,
            player_name=names.get(reason.player) if reason.player is not None else None,
            code=reason.code,
            message=reason.message,
            token=reason.token,
            details=reason.details,
        )
        for reason in evaluation.reasons
    ]


def reasons_placed(reasons: list[dict[str, Any]], seats: Mapping[int, int]) -> list[dict[str, Any]]:
    """``reasons`` with each blamed player's seat (``seats``: player -> seat position)."""
    return [
        {**reason, "seat": seats.get(reason["player"])}
        if isinstance(reason.get("player"), int)
        else reason
        for reason in reasons
    ]


def game_status_field() -> serializers.ChoiceField:
    """A game state component's ``status``."""
    return serializers.ChoiceField(choices=Game.Status.choices)


def format_tag(*formats: str, help_text: str = "The game format: which shape this is.") -> Any:
    """The ``format`` field of a format's schema component: the value (or values) that pick the
    component out of its union. Declared as an ``x-discriminator-values`` extension that the
    schema's last hook (``config.openapi.union_tags_declare``) makes the property's enum, so that
    each component keeps its own one-value enum instead of the enum naming merging them. (A class
    per tag: a serializer copies its fields by their class and arguments.)"""
    schema = {"type": "string", "x-discriminator-values": list(formats)}
    tag = extend_schema_field(schema)(type("FormatTag", (serializers.CharField,), {}))
    return tag(help_text=help_text)


def refused(players: dict[int, str], reasons: list[Reason[int]]) -> Checked:
    evaluation: DealEvaluation[int] = DealEvaluation((), tuple(reasons), None)
    return Checked(evaluation, None, reason_dicts(evaluation, players))


def not_pool(game: Game, moves: str) -> Conflict:
    """The refusal of pool rummy's ``moves`` (rejoins, splits) in a game of another format."""
    sentence = (
        gettext("only pool rummy has rejoins; this is a %(format)s game")
        if moves == "rejoins"
        else gettext("only pool rummy has splits; this is a %(format)s game")
        if moves == "splits"
        else f"only pool rummy has {moves}; this is a %(format)s game"
    )
    return Conflict(
        sentence % {"format": game.get_format_display()},
        code="not_pool",
    )


def require_open_game(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise Conflict(gettext("this game has finished"), code="game_finished")


class FormatBase:
    """Defaults shared by the formats: no tie-breaker, no rejoin, no split, no money at the end,
    ended by hand when every deal has a result."""

    words: ClassVar[Words]
    columns: ClassVar[tuple[Column, ...]]
    panel_template: ClassVar[str] = ""
    entry_template: ClassVar[str] = ""
    result_template: ClassVar[str] = ""
    entered_as: ClassVar[str] = ""
    tiebreak_preset: ClassVar[str] = ""
    outcome_words: ClassVar[Mapping[str, str]] = {}
    payload_key: ClassVar[str] = ""
    seats_open: ClassVar[bool] = False
    imports_results: ClassVar[bool] = False
    tallies: ClassVar[tuple[Tally, ...]] = ()

    def game_opened(self, *, game: Game, rules: GameRules) -> list[EndEntry]:
        return []

    def scores_balance(self, *, rules: GameRules) -> bool:
        return True

    def deal_check_can_start(self, *, game: Game, rules: GameRules, is_tiebreaker: bool) -> None:
        require_open_game(game)
        if is_tiebreaker:
            raise Conflict(
                gettext("%(format)s has no tie-breaker deals")
                % {"format": game.get_format_display()},
                code="no_tiebreaker",
            )

    def correction_check(self, *, deal: Deal, rules: GameRules) -> None:
        return None

    def deal_players(self, *, deal: Deal, rules: GameRules) -> dict[int, str]:
        return seated_for_deal(deal.game, deal.number)

    def next_deal_players(
        self, *, game: Game, rules: GameRules, is_tiebreaker: bool
    ) -> dict[int, str]:
        return seated_for_deal(game, None)

    def game_decided(self, *, game: Game, rules: GameRules) -> bool:
        return False

    def deal_money(self, *, game: Game, rules: GameRules) -> bool:
        return bool(game.point_value_minor)

    def deal_note(self, *, rules: GameRules) -> str:
        return self.words.deal_note

    def payload_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {}

    def panel(
        self, *, club: Club, game: Game, rules: GameRules, state: GameState, open_game: bool
    ) -> dict[str, Any]:
        return {}

    def entry_form(
        self, *, rules: GameRules, players: dict[int, str], data: Any, initial: Initial
    ) -> EntryForm:
        raise Conflict(gettext("this format has no deals to enter"), code="no_deals")

    def entry_initial(
        self, *, payload: dict[str, Any] | None, wild: str, aliases: dict[int, int]
    ) -> dict[str, Any]:
        return {}

    def entry_context(self, *, game: Game, rules: GameRules, form: EntryForm) -> dict[str, Any]:
        return {}

    def result_view(
        self,
        *,
        club: Club,
        game: Game,
        rules: GameRules,
        submission: Submission,
        names: dict[int, str],
    ) -> dict[str, Any]:
        return {}

    def tiebreaker_due(self, *, state: GameState) -> bool:
        return False

    def running(self, *, rules: GameRules, held: Mapping[str, int]) -> Running:
        # The format's first figure, signed as every page signs it.
        column = self.columns[0]
        # The unit in the page's words (the column keeps its English for the CSV and the API).
        return Running(signed_number(held.get(column.quantity, 0)), gettext(column.unit))

    def deal_tallies(self, *, outcome: str, points: int, won: bool) -> dict[str, int]:
        return {"deals_played": 1, "deals_won": int(won)}


def result_moved(result: dict[str, Any] | None, lines: list[Line]) -> dict[str, Any] | None:
    """``result`` with each player's line saying what the deal's ``lines`` move for them, signed
    as the ledger moves it: ``points`` always (0 where the deal moves none), ``chips`` where the
    deal moves chips. One meaning of ``points`` in every format: a rules figure of points given
    up (an Indian loser's count) is the line's ``against``, never its ``points``."""
    if result is None:
        return None
    moved: dict[str, dict[int, int]] = {Quantity.POINTS: {}, Quantity.CHIPS: {}}
    for line in lines:
        if line.player_id is not None and line.quantity in moved:
            by_player = moved[line.quantity]
            by_player[line.player_id] = by_player.get(line.player_id, 0) + line.amount
    players = []
    for player_line in result.get("players", []):
        player = player_line.get("player")
        counted = {"points": moved[Quantity.POINTS].get(player, 0)}
        if moved[Quantity.CHIPS]:
            counted["chips"] = moved[Quantity.CHIPS].get(player, 0)
        shown: dict[str, Any] = {}
        for key, value in player_line.items():
            if key not in counted:
                shown[key] = value
            if key == "outcome":  # the figures follow the outcome, ahead of hand or rack
                shown |= counted
        players.append(shown | counted)
    return {**result, "players": players}


ENTRY_KINDS_AT_END = (LedgerEntry.Kind.PAYOUT, LedgerEntry.Kind.SETTLEMENT, LedgerEntry.Kind.REFUND)
