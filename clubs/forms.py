"""Input checks of the club pages' forms. The services decide everything else."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Role
from config.fields import id_form_field


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)


class MemberForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.PLAYER)


class StandingsOrderForm(forms.Form):
    """The metrics that rank the standings, one per place: the first ranks, the next break ties.
    Empty places are skipped; all empty means the default order."""

    def __init__(
        self, *args: object, metrics: list[tuple[str, str]], places: int, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.places = places
        for place in range(1, places + 1):
            self.fields[f"metric_{place}"] = forms.ChoiceField(
                label=_("Rank by") if place == 1 else _("Then by (%(place)s)") % {"place": place},
                required=False,
                choices=[("", "—"), *metrics],
            )

    def place_fields(self) -> list[forms.BoundField]:
        return [self[f"metric_{place}"] for place in range(1, self.places + 1)]

    def order(self) -> list[str]:
        chosen = [self.cleaned_data.get(f"metric_{p}") for p in range(1, self.places + 1)]
        return [metric for metric in chosen if metric]


class PublicStandingsForm(forms.Form):
    public = forms.BooleanField(
        label=gettext_lazy("Show the standings to anyone, without login"), required=False
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)


class PlayerDetailsForm(forms.Form):
    """A player's contact details and the club's number for them; the model checks each one."""

    nickname = forms.CharField(label=gettext_lazy("Nickname"), max_length=40, required=False)
    email = forms.CharField(label=gettext_lazy("Email"), max_length=254, required=False)
    phone = forms.CharField(label=gettext_lazy("Phone"), max_length=40, required=False)
    membership_number = forms.CharField(
        label=gettext_lazy("Membership number"), max_length=40, required=False
    )


class PlayerPaymentForm(forms.Form):
    """Where settle-up payments to a player go; the model checks each one's shape."""

    upi_id = forms.CharField(label=gettext_lazy("UPI id"), max_length=300, required=False)
    payment_link = forms.CharField(
        label=gettext_lazy("Payment link"), max_length=500, required=False
    )


class PlayerMergeForm(forms.Form):
    """Merge a duplicate roster entry into the player who stays: by name, as typed in the
    picker (or by id)."""

    into = id_form_field(label=gettext_lazy("Merge into"), required=False)
    into_name = forms.CharField(label=gettext_lazy("Merge into"), max_length=80, required=False)
    confirm = forms.BooleanField(
        label=gettext_lazy("The two are one person: move the whole history"),
        error_messages={"required": gettext_lazy("tick the box: a merge cannot be undone")},
    )


TABLE_ENTRY = Club._meta.get_field("table_entry").choices
LANGUAGES = Club._meta.get_field("language").choices


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    # Not on the form of a club that plays for points only (no money shown): left as it is.
    currency = forms.CharField(label=gettext_lazy("Currency"), max_length=3, required=False)
    timezone = forms.CharField(label=gettext_lazy("Time zone"), max_length=64)
    requires_confirmation = forms.BooleanField(
        label=gettext_lazy("A second person confirms each deal"), required=False
    )
    table_entry = forms.ChoiceField(
        label=gettext_lazy("Tables enter their own results"), choices=TABLE_ENTRY, required=False
    )
    points_only = forms.BooleanField(
        label=gettext_lazy("Play for points only; no money shown"), required=False
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=[("", "Each visitor's browser's"), *LANGUAGES],
        required=False,
    )

    def changes(self) -> dict[str, object]:
        """What the form sets: everything, but a currency left out."""
        return {k: v for k, v in self.cleaned_data.items() if k != "currency" or v}

    def clean_table_entry(self) -> str:
        # Left out (an older form): unchanged is "off" only for a club that never chose.
        return self.cleaned_data.get("table_entry") or "off"
