"""How the admin's event form words the W40K Dynamics settings (events/admin/forms.py): the
fieldset's title, each field's label, help and choice labels (``<group>_<key>``)."""
from django.utils.translation import gettext_lazy as _

from systems.registry import EventForm

EVENT_FORM = EventForm(
    titles={"settings": _("W40K Dynamics")},
    labels={
        "settings_token_rounding": _("order tokens"),
        "settings_morale_rule": _("morale test after shooting"),
    },
    help={
        "settings_token_rounding": _("Read only by W40K Dynamics events: one order of each kind per "
                                     "250 points."),
        "settings_morale_rule": _("Read only by W40K Dynamics events."),
    },
    choices={
        ("settings_token_rounding", "ceil"): _("a started block of 250 points counts"),
        ("settings_token_rounding", "floor"): _("only complete blocks of 250 points count"),
        ("settings_morale_rule", "at_least"): _("when a quarter of the unit or more falls"),
        ("settings_morale_rule", "more_than"): _("when more than a quarter of the unit falls"),
    },
)
