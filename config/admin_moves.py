"""Old admin addresses of the models that left the ``league`` app keep working.

Campaigns, packs, notices and score components moved to their own apps with their tables
(``db_table`` still ``league_*``); organisers' bookmarks and links in old e-mails still say
``/admin/league/<model>/…``. Those models are found from the admin's registry (a model whose
table is ``league_*`` but whose app is another), so a later move needs no edit here."""
from __future__ import annotations

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponsePermanentRedirect

OLD_LABEL = "league"


def moved_models() -> dict[str, str]:
    """model name -> its app label now, for the admin's models that kept a ``league_`` table."""
    return {model._meta.model_name: model._meta.app_label for model in admin.site._registry
            if model._meta.app_label != OLD_LABEL
            and model._meta.db_table.startswith(f"{OLD_LABEL}_")}


def pattern() -> str:
    """The old addresses' regular expression; the league's own models fall through to the admin."""
    names = "|".join(sorted(moved_models())) or "(?!)"
    return rf"^admin/{OLD_LABEL}/(?P<model>{names})/(?P<rest>.*)$"


def old_address(request: HttpRequest, model: str, rest: str = "") -> HttpResponsePermanentRedirect:
    label = moved_models().get(model)
    if label is None:  # unregistered since the URLs were read
        raise Http404
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(
        f"/admin/{label}/{model}/{rest}" + (f"?{query}" if query else ""))
