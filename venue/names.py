"""How a reader looks a name up in an alphabetical list (the projector's "find your table", the
event page's player search): pure, no Django, so any page may import it without a cycle."""
from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """Alphabetical as a reader looks a name up: "Élodie" beside "Eric", not after "Zoé"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
