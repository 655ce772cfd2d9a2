"""The site's pages (the player journey grows here)."""
from django.shortcuts import render

from armylists.models import Chart


def home(request):
    charts = Chart.objects.select_related("game_system").order_by("slug")
    return render(request, "home.html", {"charts": charts})
