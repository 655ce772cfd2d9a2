"""How the admin's event form words the Urban War settings (events/admin/forms.py): the
fieldset's title, each field's label, help and choice labels (``<group>_<key>``)."""
from django.utils.translation import gettext_lazy as _

from systems.registry import EventForm

EVENT_FORM = EventForm(
    # [Gap] UG1: Urban War has no points limit of its own; NordCon 2005 played 250 points.
    # Offered as the add form's starting value, never enforced.
    suggested_points=250,
    titles={"settings": _("Urban War commandos and results")},
    labels={
        "settings_size_min": _("smallest commando (models)"),
        "settings_size_max": _("largest commando (models)"),
        "settings_result_mode": _("when no commando is destroyed"),
    },
    help={
        "settings_size_min": _("The seed says “about 6 to 20 models”: 6 by default."),
        "settings_size_max": _("20 by default."),
        "settings_result_mode": _("The destroyed models' points are kept as victory points either "
                                  "way."),
    },
    choices={
        ("settings_result_mode", "destroyed_or_draw"): _("the game is a draw"),
        ("settings_result_mode", "most_points_destroyed"):
            _("the side that destroyed more points wins"),
    },
)
