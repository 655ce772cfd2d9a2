"""Bilingual reference data: pick the `_fr` or `_en` variant of a field for the active language."""
from django.utils.translation import get_language


def current_language() -> str:
    return "fr" if (get_language() or "en").startswith("fr") else "en"


def localized(obj: object, field: str, language: str | None = None) -> str:
    lang = language or current_language()
    return getattr(obj, f"{field}_{lang}", "") or getattr(obj, f"{field}_en", "")


class BilingualName:
    """Mixin for models with name_en/name_fr: `.name` follows the active language."""

    @property
    def name(self) -> str:
        return localized(self, "name")

    def __str__(self) -> str:
        return self.name
