"""``{% my_circuits user %}``: the circuits ranking an account and its rank in each, for the
profile page."""
from django import template

from circuits.services import reads

register = template.Library()


@register.inclusion_tag("circuits/profile_block.html")
def my_circuits(user):
    return {"entries": reads.profile_circuits(user) if getattr(user, "is_authenticated", False) else []}
