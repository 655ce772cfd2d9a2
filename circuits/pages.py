"""The circuit's pages: its standings (paged, searchable, readable on a phone) and each
person's breakdown (factor, decay, weight; rated games)."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import path

from circuits.services import circuits, reads
from circuits.services.people import norm
from config.refusals import NotFound

PAGE_SIZE = 50


def standings_page(request, slug: str):
    try:
        circuit = circuits.get_circuit(slug)
    except NotFound:
        raise Http404 from None
    try:
        number = max(1, int(request.GET.get("page", 1)))
    except ValueError:
        number = 1
    search = request.GET.get("q", "").strip()
    answer = reads.standings(circuit, None, reads.Page(number, PAGE_SIZE, norm(search)))
    circuit.refresh_from_db()
    return render(request, "circuits/standings.html", {
        "circuit": circuit, "answer": answer, "rows": answer["results"], "search": search,
        "page": answer["page"], "pages": answer["pages"],
        "previous": answer["page"] - 1 if answer["page"] > 1 else None,
        "next": answer["page"] + 1 if answer["page"] < answer["pages"] else None,
        "computing": answer["status"] == "computing"})


def person_page(request, slug: str, key: str):
    try:
        circuit = circuits.get_circuit(slug)
        answer = reads.breakdown(circuit, key)
    except NotFound:
        raise Http404 from None
    return render(request, "circuits/person.html", {
        "circuit": circuit, "answer": answer, "standing": answer.get("standing"),
        "results": answer["results"], "games": answer["games"],
        "computing": answer["status"] == "computing"})


urlpatterns = [
    path("circuits/<slug:slug>/", standings_page, name="circuit-standings"),
    path("circuits/<slug:slug>/people/<path:key>/", person_page, name="circuit-person"),
]
