"""Admin for profile cards: a compact form (one box per characteristic, calibres and options in
one line each) and a CSV import of many cards at once."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from armylists.models import GameSystem, ProfileCard
from config.request_limits import max_request_bytes
from systems.urban_war import card_import, profile_cards
from systems.urban_war.card_messages import render_problem, render_row_error
from systems.urban_war.commando import STATS, STATS_ONE_TO_TEN

CALS_HELP = _("cal:fs:cost separated by spaces; “-” for no First Strike, N/A for no cost. "
              "Card 43101: 0:0:20 1:1:26 2:2:33 3:-:N/A")
OPTIONS_HELP = _("code:cost:English name:French name, separated by “|”; names may be left out. "
                 "Example: grenades:5:Grenades:Grenades|scope:N/A")


def stat_field(name: str) -> str:
    return f"stat_{name}"


# One small box per characteristic, declared so the admin's fieldsets may name them.
StatFields = type("StatFields", (forms.Form,), {
    stat_field(name): forms.IntegerField(
        label=name, min_value=1, max_value=10 if name in STATS_ONE_TO_TEN else 99,
        widget=forms.NumberInput(attrs={"style": "width: 4em"}))
    for name in STATS
})


class ProfileCardForm(forms.ModelForm, StatFields):
    cal_text = forms.CharField(label=_("calibres"), help_text=CALS_HELP, max_length=400)
    options_text = forms.CharField(label=_("options"), help_text=OPTIONS_HELP, required=False,
                                   max_length=2000)

    class Meta:
        model = ProfileCard
        fields = ["game_system", "faction", "card", "name_en", "name_fr", "options_cost_modifier",
                  "equipment_en", "equipment_fr", "weapons", "special_rules"]
        widgets = {"equipment_en": forms.TextInput(attrs={"size": 60}),
                   "equipment_fr": forms.TextInput(attrs={"size": 60})}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        stats = self.instance.stats or {}
        for name in STATS:
            self.initial.setdefault(stat_field(name), stats.get(name))
        if self.instance.pk:
            self.fields["cal_text"].initial = profile_cards.cals_cell(self.instance.cal_options or [])
            self.fields["options_text"].initial = profile_cards.options_cell(self.instance.options or [])

    def clean_cal_text(self) -> list[dict[str, Any]]:
        return self._cells(profile_cards.parse_cals, self.cleaned_data["cal_text"])

    def clean_options_text(self) -> list[dict[str, Any]]:
        return self._cells(profile_cards.parse_options, self.cleaned_data["options_text"])

    @staticmethod
    def _cells(parse, text: str) -> list[dict[str, Any]]:
        try:
            return parse(text)
        except profile_cards.CellError as exc:
            raise forms.ValidationError(render_problem(exc.problem)) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        # The model's clean (run next) checks the card as a whole, as the CSV import does.
        if all(stat_field(name) in cleaned for name in STATS):
            self.instance.stats = {name: cleaned[stat_field(name)] for name in STATS}
        self.instance.cal_options = cleaned.get("cal_text", self.instance.cal_options)
        self.instance.options = cleaned.get("options_text", self.instance.options)
        return cleaned


class CardImportForm(forms.Form):
    game_system = forms.ModelChoiceField(
        label=_("game system"), queryset=GameSystem.objects.filter(kind=GameSystem.Kind.COMMANDO))
    file = forms.FileField(label=_("CSV file"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "UTF-8, separated by commas or semicolons, at most %(size)s KiB. Columns: %(columns)s "
            "(optional: %(optional)s). A card number already in the game system is updated; "
            "nothing is imported if any line is wrong.") % {
            "size": upload_cap() // 1024, "columns": ", ".join(profile_cards.REQUIRED_COLUMNS),
            "optional": ", ".join(profile_cards.OPTIONAL_COLUMNS)}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > upload_cap():
            raise forms.ValidationError(_("The file is larger than %(size)s KiB.")
                                        % {"size": upload_cap() // 1024})
        return upload


def upload_cap() -> int:
    return min(card_import.MAX_CSV_BYTES, max_request_bytes())


@admin.register(ProfileCard)
class ProfileCardAdmin(admin.ModelAdmin):
    form = ProfileCardForm
    list_display = ["card", "name_en", "name_fr", "faction", "game_system", "costs"]
    list_filter = ["game_system", "faction"]
    search_fields = ["card", "name_en", "name_fr"]
    list_select_related = ["faction", "game_system"]
    change_list_template = "admin/armylists/profilecard/change_list.html"
    fieldsets = [
        (None, {"fields": [("game_system", "faction"), ("card", "name_en", "name_fr")]}),
        (_("characteristics"), {"fields": [tuple(stat_field(name) for name in STATS)]}),
        (_("calibres and options"), {"fields": ["cal_text", "options_text", "options_cost_modifier"]}),
        (_("equipment"), {"fields": [("equipment_en", "equipment_fr"), "weapons", "special_rules"],
                          "classes": ["collapse"]}),
    ]

    @admin.display(description=_("cost per calibre"))
    def costs(self, obj: ProfileCard) -> str:
        return profile_cards.cals_cell(obj.cal_options or [])

    def get_urls(self):
        view = self.admin_site.admin_view(self.import_csv_view)
        return [path("import-csv/", view, name="armylists_profilecard_import_csv"), *super().get_urls()]

    def import_csv_view(self, request):
        """Staff who may add cards upload a CSV; each wrong line is listed, nothing is half-imported."""
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        form = CardImportForm(request.POST or None, request.FILES or None)
        row_errors: list[str] = []
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            result = card_import.import_cards(form.cleaned_data["game_system"], upload.read(upload_cap() + 1))
            row_errors = [render_row_error(error) for error in result.errors]
            if not result.errors and (result.created or result.updated):
                for card in result.created:
                    self.log_addition(request, card, [{"added": {}}])
                for card in result.updated:
                    self.log_change(request, card, [{"changed": {"fields": ["CSV"]}}])
                messages.success(request, _("%(created)s cards added, %(updated)s updated.") % {
                    "created": len(result.created), "updated": len(result.updated)})
                return HttpResponseRedirect(reverse("admin:armylists_profilecard_changelist"))
            if not row_errors:
                form.add_error("file", _("The file holds no card."))
        context = {**self.admin_site.each_context(request), "opts": self.opts, "form": form,
                   "title": _("Import profile cards (CSV)"), "row_errors": row_errors}
        return TemplateResponse(request, "admin/armylists/profilecard/import_csv.html", context)


