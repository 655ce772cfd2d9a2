"""Admin of game systems, factions, chart rules and profile cards, and the CSV import of cards."""
import pytest
from django.contrib.admin.models import LogEntry
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armylists.admin import ChartForm
from armylists.models import Chart, Faction, GameSystem, ProfileCard
from systems.urban_war.card_import import MAX_CSV_BYTES

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:armylists_profilecard_changelist")
IMPORT = reverse("admin:armylists_profilecard_import_csv")
HEADER = "card,faction,name_en,name_fr,AS,SH,ST,T,W,CD,SZ,MV,cal_options,options\n"


def urban_war():
    return GameSystem.objects.get(slug="urban-war")


def card_form(**changes):
    data = {"game_system": urban_war().pk, "faction": Faction.objects.get(slug="viridian").pk,
            "card": "43102", "name_en": "Sergeant", "name_fr": "Sergent",
            "stat_AS": 4, "stat_SH": 4, "stat_ST": 4, "stat_T": 4, "stat_W": 1, "stat_CD": 5, "stat_SZ": 2,
            "stat_MV": 4, "cal_text": "1:1:30 2:2:38 3:-:N/A", "options_text": "grenades:5:Grenades:Grenades",
            "options_cost_modifier": "", "equipment_en": "", "equipment_fr": "", "weapons": "[]",
            "special_rules": "[]"}
    return {**data, **changes}


def upload(text: str, name="cards.csv"):
    return {"game_system": urban_war().pk, "file": SimpleUploadedFile(name, text.encode(), "text/csv")}


def test_card_list_filters_and_search(admin_client):
    page = admin_client.get(CHANGELIST, {"q": "43101"}).content.decode()
    assert "Colonial Marine" in page and "0:0:20 1:1:26 2:2:33 3:-:N/A" in page
    assert "Import profile cards (CSV)" in page
    assert "Colonial Marine" not in admin_client.get(CHANGELIST, {"q": "Ogre"}).content.decode()
    filtered = admin_client.get(CHANGELIST, {"game_system__id__exact": GameSystem.objects.get(slug="whfb").pk})
    assert filtered.status_code == 200 and "Colonial Marine" not in filtered.content.decode()
    assert admin_client.get(reverse("admin:armylists_faction_changelist"), {"q": "tomb"}).status_code == 200


def test_the_card_form_shows_the_compact_cells(admin_client):
    card = ProfileCard.objects.get(card="43101")
    page = admin_client.get(reverse("admin:armylists_profilecard_change", args=[card.pk])).content.decode()
    assert 'value="0:0:20 1:1:26 2:2:33 3:-:N/A"' in page and 'name="stat_AS"' in page


def test_adding_a_card_in_the_compact_form(admin_client):
    assert admin_client.get(reverse("admin:armylists_profilecard_add")).status_code == 200
    response = admin_client.post(reverse("admin:armylists_profilecard_add"), card_form())
    assert response.status_code == 302, response.content.decode()[:2000]
    card = ProfileCard.objects.get(card="43102")
    assert card.stats == {"AS": 4, "SH": 4, "ST": 4, "T": 4, "W": 1, "CD": 5, "SZ": 2, "MV": 4}
    assert card.cal_options == [{"cal": 1, "fs": 1, "cost": 30}, {"cal": 2, "fs": 2, "cost": 38},
                                {"cal": 3, "fs": None, "cost": None}]
    assert card.options == [{"code": "grenades", "name_en": "Grenades", "name_fr": "Grenades", "cost": 5}]


@pytest.mark.parametrize(("changes", "text"), [
    ({"cal_text": "1:1:30 2-2-38"}, "“2-2-38” is not a calibre"),
    ({"cal_text": "1:1:30 1:1:31"}, "CAL 1 is given twice."),
    ({"cal_text": "1:-:30"}, "CAL 1 has a cost but no First Strike."),
    ({"options_text": "grenades:lots"}, "“grenades:lots” is not an option"),
    ({"stat_CD": 11}, "Ensure this value is less than or equal to 10."),
    ({"faction": ""}, "This field is required."),
])
def test_a_wrong_card_is_refused_with_a_reason(admin_client, changes, text):
    response = admin_client.post(reverse("admin:armylists_profilecard_add"), card_form(**changes))
    assert response.status_code == 200 and text in response.content.decode()
    assert not ProfileCard.objects.filter(card="43102").exists()


def test_a_faction_of_another_system_is_refused(admin_client):
    empire = Faction.objects.get(slug="empire")
    response = admin_client.post(reverse("admin:armylists_profilecard_add"), card_form(faction=empire.pk))
    assert "This faction belongs to another game system." in response.content.decode()


def test_csv_import_adds_and_updates_cards(admin_client):
    text = HEADER + (
        "43102,viridian,Sergeant,Sergent,4,4,4,4,1,5,2,4,1:1:30 2:2:38,grenades:5:Grenades:Grenades\n"
        "43101,viridian,Colonial Marine,Marine colonial,3,4,4,4,1,4,2,4,0:0:20 1:1:26 2:2:33 3:-:N/A,\n")
    assert admin_client.get(IMPORT).status_code == 200
    response = admin_client.post(IMPORT, upload(text), follow=True)
    assert response.redirect_chain[-1][0] == CHANGELIST
    assert "1 cards added, 1 updated." in response.content.decode()
    assert ProfileCard.objects.get(card="43101").name_fr == "Marine colonial"
    sergeant = ProfileCard.objects.get(card="43102")
    assert sergeant.cal_options == [{"cal": 1, "fs": 1, "cost": 30}, {"cal": 2, "fs": 2, "cost": 38}]
    assert LogEntry.objects.filter(object_id=str(sergeant.pk)).exists()


def test_csv_semicolons_as_french_spreadsheets_write_them(admin_client):
    text = HEADER.replace(",", ";") + "43102;viridian;Sergeant;Sergent;4;4;4;4;1;5;2;4;1:1:30;\n"
    admin_client.post(IMPORT, upload(text))
    assert ProfileCard.objects.get(card="43102").stats["CD"] == 5


def test_a_bad_csv_lists_every_wrong_line_and_imports_nothing(admin_client):
    text = HEADER + (
        "43102,viridian,Sergeant,Sergent,4,4,4,4,1,5,2,4,1:1:30,\n"
        "43103,nobody,Medic,Médecin,3,3,3,3,1,4,2,4,0:0:15,\n"
        "43104,viridian,Heavy,Lourd,3,x,4,4,1,4,2,4,0:0:25,\n"
        "43105,viridian,Sniper,Tireur,3,4,4,4,1,12,2,4,0:0:25,\n"
        "43102,viridian,Again,Encore,4,4,4,4,1,5,2,4,1:1:30,\n")
    response = admin_client.post(IMPORT, upload(text))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported." in page
    assert "Line 3: There is no faction “nobody” in this game system." in page
    assert "Line 4: SH: “x” is not a whole number." in page
    assert "Line 5: CD is 12; it must be at most 10." in page
    assert "Line 6: Card 43102 appears twice in the file." in page
    assert not ProfileCard.objects.filter(card__in=["43102", "43103"]).exists()
    french = admin_client.post(IMPORT, upload(text), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ligne 3" in french


def test_csv_without_the_columns_or_too_large(admin_client):
    page = admin_client.post(IMPORT, upload("card,name_en\n1,x\n")).content.decode()
    assert "The header lacks these columns: faction, name_fr, AS" in page
    big = HEADER + "x" * MAX_CSV_BYTES
    page = admin_client.post(IMPORT, upload(big)).content.decode()
    assert "The file is larger than 256 KiB." in page
    assert ProfileCard.objects.count() == 1


def test_chart_rules_are_checked_by_the_systems_rules():
    chart = Chart.objects.get(slug="whfb-standard")
    base = {"slug": chart.slug, "game_system": chart.game_system_id, "name_en": chart.name_en,
            "name_fr": chart.name_fr, "points_min": "", "points_max": ""}
    good = ChartForm(data={**base, "rules": '{"percent": {"core": {"min": 30}}}'}, instance=chart)
    assert good.is_valid(), good.errors
    for rules in ('{"percent": {"core": {"min": 130}}}', '{"percent": {"rare": {"min": 30, "max": 20}}}',
                  '{"percent": [1]}', "[]"):
        assert "rules" in ChartForm(data={**base, "rules": rules}, instance=chart).errors, rules
    commando = Chart.objects.get(slug="urban-war-commando")
    base = {**base, "slug": commando.slug, "game_system": commando.game_system_id}
    assert "rules" in ChartForm(data={**base, "rules": '{"size_min": 9, "size_max": 3}'}, instance=commando).errors
    assert ChartForm(data={**base, "rules": '{"size_min": 4, "size_max": 12}'}, instance=commando).is_valid()


def test_game_system_page_shows_its_factions(admin_client):
    whfb = GameSystem.objects.get(slug="whfb")
    page = admin_client.get(reverse("admin:armylists_gamesystem_change", args=[whfb.pk])).content.decode()
    assert "vampire-counts" in page and "daemons-of-chaos" in page
