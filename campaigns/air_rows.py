"""The lines that say the turn's air missions, Flak, interceptions, returns and landings (R13,
R14, R19–R24), from what ``GET …/turns/{n}/air/`` shows the reader (R12: the enemy's missions
by kind and route, never the detachment); the player's page, the cockpit and the turn pack
print them (campaigns/pages/air.py, campaigns/services/pack.py)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from campaigns.words import MISSIONS, SIDES, word
from config.typography import elide


def _route(mission: Mapping[str, Any]) -> str:
    return " → ".join([mission["from"] or "", *mission["route"]])


def mission_line(mission: Mapping[str, Any]) -> str:
    words = {"id": mission["id"], "side": word(SIDES, mission["side"]),
             "mission": word(MISSIONS, mission["mission"]), "to": mission["to"],
             "route": _route(mission), "detachment": mission.get("detachment") or ""}
    text = (_("#%(id)s %(detachment)s (%(side)s): %(mission)s, %(to)s, route %(route)s") % words
            if words["detachment"] else
            _("#%(id)s %(side)s: %(mission)s, %(to)s, route %(route)s") % words)
    if mission["return_route"]:
        text += _("; back by %(route)s") % {"route": " → ".join(mission["return_route"])}
    if mission["escort_of"]:
        text += _("; escorts #%(id)s") % {"id": mission["escort_of"]}
    if mission["status"] == "sealed":
        text += _(" (sealed until the phase's orders are revealed)")
    return text


def flak_line(roll: Mapping[str, Any]) -> str:
    words = {"order": roll["order"], "territory": roll["territory"], "die": roll["die"],
             "who": roll["detachment"] or _("enemy Flak")}
    if roll.get("leg") == "return":  # R23: the way back after a failed attack
        if roll["fires"]:
            return _("Flak in %(territory)s (%(who)s) against #%(order)s flying back: %(die)s, "
                     "it fires") % words
        return _("Flak in %(territory)s (%(who)s) against #%(order)s flying back: %(die)s, "
                 "it does not fire") % words
    if roll["fires"]:
        return _("Flak in %(territory)s (%(who)s) against #%(order)s: %(die)s, it fires") % words
    return _("Flak in %(territory)s (%(who)s) against #%(order)s: %(die)s, it does not fire") % words


def interception_line(found: Mapping[str, Any]) -> str:
    words = {"order": found["order"], "territories": ", ".join(found["territories"]),
             "interceptors": ", ".join(f"#{i}" for i in found["interceptors"]),
             "escorts": ", ".join(f"#{i}" for i in found["escorts"])}
    text = elide(_("#%(order)s may be intercepted over %(territories)s by %(interceptors)s")
                 % words)  # "au-dessus d'A"
    if found["escorts"]:
        text += _("; its escort %(escorts)s may counter-intercept") % words
    return text


def return_line(back: Mapping[str, Any]) -> str:
    """R23: a transport flying back after a failed attack, and who may intercept it then."""
    words = {"order": back["order"], "route": " → ".join(back["return_route"]),
             "territories": ", ".join(back["territories"]),
             "interceptors": ", ".join(f"#{i}" for i in back["interceptors"]),
             "escorts": ", ".join(f"#{i}" for i in back["escorts"])}
    if not back["interceptors"]:
        return _("#%(order)s flies back by %(route)s after a failed attack") % words
    text = elide(_("#%(order)s flies back by %(route)s after a failed attack: it may be "
                   "intercepted over %(territories)s by %(interceptors)s") % words)
    if back["escorts"]:
        text += _("; its escort %(escorts)s may counter-intercept") % words
    return text


def landing_line(entry: Mapping[str, Any]) -> str:
    dice = ", ".join(
        (f"{d['unit']} " if d["unit"] else "") + f"{d['die']}"
        + (f"<{d['value']}" if d["value"] is not None else "") + (" ✓" if d["acts"] else "")
        for d in entry["dice"])
    words = {"territory": entry["territory"], "order": entry["order"],
             "interceptor": entry["interceptor"] or f"#{entry['interceptor_order']}",
             "acting": entry["acting"], "dice": dice or _("no unit")}
    return _("Landing #%(order)s in %(territory)s intercepted by %(interceptor)s: %(dice)s — "
             "%(acting)s unit(s) may act. Landing ships have armour 6+ and do not fire back; "
             "the owner of the ships picks the losses; no blast markers.") % words
