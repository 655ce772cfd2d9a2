"""French typography where a sentence is put together in code. Elision where a name follows
"de": "de Alix" is written "d'Alix" and "victoire de Ouest" "victoire d'Ouest" (the catalogue's
own words are already elided; only the junction with a name needs it, once the sentence is
built). A label's colon: "Fortifications\u00a0: aucune" in French, "Fortifications: none" in English."""
from __future__ import annotations

import re

from django.utils.translation import get_language

# "de" before a capitalised word starting with a vowel: names and sides, never the catalogue's
# lower-case words. H and Y are left alone ("de Hugues" is as common as "d'Hugues", "de Yann").
DE_BEFORE_VOWEL = re.compile(r"\b([Dd])e (?=[AEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ])")


def french(language: str | None = None) -> bool:
    return (language or get_language() or "").startswith("fr")


def elide(text: str, language: str | None = None) -> str:
    """``text`` with "de" elided before a name starting with a vowel, in French only."""
    if not french(language):
        return text
    return DE_BEFORE_VOWEL.sub(r"\1'", str(text))


def colon(label: str, language: str | None = None) -> str:
    """``label`` followed by its colon: a non-breaking space before it in French."""
    return f"{label}\u00a0:" if french(language) else f"{label}:"
