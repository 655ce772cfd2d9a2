"""How the admin's event form words the Warhammer Battle settings (events/admin/forms.py): the
fieldset's title, each field's label, help and choice labels (``<group>_<key>``)."""
from django.utils.translation import gettext_lazy as _

from systems.registry import EventForm

EVENT_FORM = EventForm(
    titles={"advanced_rules": _("Warhammer Battle advanced rules")},
    labels={
        "advanced_rules_mantlets": _("mantlets (+2 points per model)"),
        "advanced_rules_stakes": _("wooden stakes (+2 points per model)"),
        "advanced_rules_baggage": _("army baggage"),
        "advanced_rules_baggage_mode": _("baggage allowance"),
    },
    help={
        "advanced_rules_mantlets": _("Not used in pitched battles unless the scenario or the players "
                                     "allow them."),
        "advanced_rules_stakes": _("Only for foot shooting units and war machines."),
        "advanced_rules_baggage": _("Core troops worth a tenth of the army; 200 victory points to "
                                    "whoever captures them. Never for Undead or Daemon armies."),
    },
    choices={
        ("advanced_rules_baggage_mode", "extra_allowance"):
            _("on top of the points limit, up to a tenth of the army"),
        ("advanced_rules_baggage_mode", "within_limit"):
            _("within the points limit, at least a tenth of the army"),
    },
)
